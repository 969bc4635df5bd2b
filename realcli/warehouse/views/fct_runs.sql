-- fct_runs: one row per run: its axes (model, harness, mode, protocol, seed, task), its outcome
-- and metrics, the final round's test counts, and the F2P step bin of dim_step_bins.
-- in_denominator: finished runs (graded, infra_error, task_error) count in every rate; an
-- infra_error keeps its typed reason in error_type (agent_not_started, ...), labelled, never a
-- graded failure; fidelity_ok is NULL (not ok) when the check does not apply (fidelity);
-- incomplete runs stay here with in_denominator = false so tables can report how many.
-- n_interventions / n_snapshots: intervention and snapshot events in the ledger (NULL for runs
-- loaded before migration 004); has_progress: a usable progress.json was loaded.
-- Deliverables (hybrid tasks, verdict.json's deliverables; 0 for a finished run without any,
-- NULL for an incomplete one): n_deliverables, n_deliverables_passed, n_abstained and
-- n_evidence_genuine / _forged / _missing (screenshot deliverables by the grader's sha256
-- check). n_screenshots: screenshot events in the ledger, n_witness_screenshots of them the
-- runner's witness captures.
with runs_staged as (
    select * from stg_runs
),

bins as (
    select * from dim_step_bins
),

final_round_tests as (
    select
        run_key,
        count(*) filter (where test_set = 'f2p') as f2p_tests_total,
        count(*) filter (where test_set = 'f2p' and passed) as f2p_tests_passed,
        count(*) filter (where test_set = 'p2p') as p2p_tests_total,
        count(*) filter (where test_set = 'p2p' and passed) as p2p_tests_passed
    from stg_tests
    where is_final_round
    group by run_key
),

final_round_substeps as (
    select
        run_key,
        count(*) as substeps_total,
        count(*) filter (where passed) as substeps_passed
    from stg_substeps
    where is_final_round
    group by run_key
),

deliverables as (
    select
        run_key,
        count(*) as n_deliverables,
        count(*) filter (where passed) as n_deliverables_passed,
        count(*) filter (where abstained) as n_abstained,
        count(*) filter (where evidence = 'genuine') as n_evidence_genuine,
        count(*) filter (where evidence = 'forged') as n_evidence_forged,
        count(*) filter (where evidence = 'missing') as n_evidence_missing
    from run_deliverables
    group by run_key
),

captures as (
    select
        run_key,
        count(*) as n_screenshots,
        count(*) filter (where source = 'witness') as n_witness_screenshots
    from screenshots
    group by run_key
),

scored as (
    select
        *,
        round(f2p_step * 100, 6) as f2p_step_pct,
        round(p2p_step * 100, 6) as p2p_step_pct
    from runs_staged
),

final as (
    select
        s.run_key,
        s.experiment,
        s.model,
        s.harness,
        s.mode,
        s.protocol,
        s.seed,
        s.task_id,
        s.task_version,
        s.task_category,
        s.task_kind,
        s.model_backend,
        s.model_id,
        s.harness_version,
        s.status,
        s.complete,
        s.is_finished as in_denominator,
        s.is_infra_error,
        s.is_task_error,
        s.error_type,
        s.tampered,
        s.passed,
        s.f2p_pass,
        s.f2p_step,
        s.f2p_step_pct,
        b.bin as f2p_step_bin,
        b.bin_order as f2p_step_bin_order,
        s.p2p_pass,
        s.p2p_step,
        s.p2p_step_pct,
        s.f2p_test_share,
        s.n_rounds,
        case when s.is_finished then coalesce(t.f2p_tests_total, 0) end as f2p_tests_total,
        case when s.is_finished then coalesce(t.f2p_tests_passed, 0) end as f2p_tests_passed,
        case when s.is_finished then coalesce(t.p2p_tests_total, 0) end as p2p_tests_total,
        case when s.is_finished then coalesce(t.p2p_tests_passed, 0) end as p2p_tests_passed,
        case when s.is_finished then coalesce(u.substeps_total, 0) end as substeps_total,
        case when s.is_finished then coalesce(u.substeps_passed, 0) end as substeps_passed,
        s.wall_time_s,
        s.agent_time_s,
        s.tests_time_s,
        s.n_model_calls,
        s.n_tool_calls,
        s.n_gui_tool_calls,
        s.n_errors,
        s.tokens_in,
        s.tokens_out,
        s.cost_usd,
        s.permission_mode,
        s.n_tool_pools,
        s.fidelity,
        s.fidelity_ok,
        s.n_interventions,
        s.n_snapshots,
        s.has_progress,
        case when s.is_finished then coalesce(dl.n_deliverables, 0) end as n_deliverables,
        case when s.is_finished then coalesce(dl.n_deliverables_passed, 0) end
            as n_deliverables_passed,
        case when s.is_finished then coalesce(dl.n_abstained, 0) end as n_abstained,
        case when s.is_finished then coalesce(dl.n_evidence_genuine, 0) end
            as n_evidence_genuine,
        case when s.is_finished then coalesce(dl.n_evidence_forged, 0) end as n_evidence_forged,
        case when s.is_finished then coalesce(dl.n_evidence_missing, 0) end
            as n_evidence_missing,
        coalesce(cp.n_screenshots, 0) as n_screenshots,
        coalesce(cp.n_witness_screenshots, 0) as n_witness_screenshots,
        s.started_at,
        s.ended_at
    from scored as s
    left join bins as b
        on s.f2p_step_pct >= b.lower_pct
        and (b.upper_pct is null or s.f2p_step_pct < b.upper_pct)
    left join final_round_tests as t on t.run_key = s.run_key
    left join final_round_substeps as u on u.run_key = s.run_key
    left join deliverables as dl on dl.run_key = s.run_key
    left join captures as cp on cp.run_key = s.run_key
)

select * from final
