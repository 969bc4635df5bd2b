-- fct_runs: one row per run: its axes (model, harness, mode, protocol, seed, task), its outcome
-- and metrics, the final round's test counts, and the F2P step bin of dim_step_bins.
-- in_denominator: finished runs (graded, infra_error, task_error) count in every rate; an
-- infra_error keeps its typed reason in error_type (agent_not_started, ...), labelled, never a
-- graded failure; fidelity_ok is NULL (not ok) when the check does not apply (fidelity);
-- incomplete runs stay here with in_denominator = false so tables can report how many.
-- n_interventions / n_snapshots: intervention and snapshot events in the ledger (NULL for runs
-- loaded before migration 004); has_progress: a usable progress.json was loaded.
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
        s.started_at,
        s.ended_at
    from scored as s
    left join bins as b
        on s.f2p_step_pct >= b.lower_pct
        and (b.upper_pct is null or s.f2p_step_pct < b.upper_pct)
    left join final_round_tests as t on t.run_key = s.run_key
    left join final_round_substeps as u on u.run_key = s.run_key
)

select * from final
