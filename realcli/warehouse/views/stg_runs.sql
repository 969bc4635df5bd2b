-- stg_runs: one row per ingested run folder, axes and outcome made explicit per status.
-- Finished runs (graded, infra_error, task_error) carry false/0 where their verdict has no
-- score, so an infra error counts as a failure; incomplete runs (no verdict.json) keep NULL
-- metrics and is_finished = false, so tables can leave them out of denominators and count them.
-- error_type: the typed reason of an infra_error / task_error (e.g. agent_not_started: the run
-- never reached the model); fidelity: ok | mismatch | not_applicable (NULL: no native log).
-- tampered: some round's grading was interfered with by the code under test (never a pass).
with source as (
    select * from runs
),

final as (
    select
        run_key,
        experiment,
        task_id,
        task_version,
        task_category,
        task_kind,
        task_digest,
        model,
        model_backend,
        model_id,
        harness,
        harness_kind,
        harness_version,
        mode,
        channels,
        protocol,
        protocol_rounds,
        seed,
        status,
        ledger_status,
        complete,
        len(ledger_problems) as n_ledger_problems,
        status <> 'incomplete' as is_finished,
        status = 'infra_error' as is_infra_error,
        status = 'task_error' as is_task_error,
        error_type,
        coalesce(tampered, false) as tampered,
        case when status <> 'incomplete' then coalesce(passed, false) end as passed,
        case when status <> 'incomplete' then coalesce(f2p_pass, false) end as f2p_pass,
        case when status <> 'incomplete' then coalesce(f2p_step, 0.0) end as f2p_step,
        -- a graded verdict without P2P values: the task has no P2P set (null, never a fail)
        case when status <> 'incomplete' and (passed is null or p2p_pass is not null)
            then coalesce(p2p_pass, false) end as p2p_pass,
        case when status <> 'incomplete' and (passed is null or p2p_step is not null)
            then coalesce(p2p_step, 0.0) end as p2p_step,
        case when status <> 'incomplete' then coalesce(f2p_test_share, 0.0) end as f2p_test_share,
        n_rounds,
        wall_time_s,
        agent_time_s,
        tests_time_s,
        n_events,
        n_model_calls,
        n_tool_calls,
        n_gui_tool_calls,
        n_errors,
        tokens_in,
        tokens_out,
        tokens_cached,
        cost_usd,
        permission_mode,
        n_tool_pools,
        fidelity,
        fidelity_ok,
        n_interventions,
        n_snapshots,
        coalesce(has_progress, false) as has_progress,
        started_at,
        ended_at,
        graded_at,
        verdict_error,
        realcli_version,
        git_sha,
        run_dir
    from source
)

select * from final
