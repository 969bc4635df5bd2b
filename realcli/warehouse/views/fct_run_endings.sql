-- fct_run_endings: one row per finished run: how it ended and what was left open (SPEC §4:
-- false completions and halt indicators).
-- stop_reason: the reason of the last round_end event that ended an agent session (rounds
-- ended as passed_earlier or task_error ran no agent and are skipped): done (the agent ended
-- its own session), max_turns, timeout, cost_cap, resource_limit (budgets), crash, error,
-- not_started, infra_error. voluntary_stop: stop_reason = 'done'. budget_stop: a turn,
-- wall-clock, cost or resource budget ended it. final_message: the last assistant message of the
-- ledger (NULL: the harness recorded none). admits_incomplete: that message admits unfinished
-- work (realcli choice, a case-insensitive pattern: "could not", "unable to", "failed to",
-- "not (yet) complete/finished/done", "incomplete", "gave up", "blocked", ...), or the run
-- abstained from a deliverable (<path>.SKIPPED.txt, any judge's artifact_checks). claimed_done:
-- a voluntary stop that does not admit unfinished work — the agent's "done" claim; whether the
-- final check contradicts it (a false completion) is decided by the figure, with the tests or
-- the report's primary judge. Halt indicators, for runs with a progress replay:
-- last_progress_step (the last step at which a goal came to hold; 0 when none ever did),
-- last_progress_index = last_progress_step / last_step, idle_tail_steps = last_step −
-- last_progress_step. open_substeps / open_f2p_tests: goals never satisfied at any step or round.
with runs_ as (
    select * from fct_runs where in_denominator
),

round_ends as (
    select
        run_key,
        seq,
        payload ->> 'reason' as reason
    from events
    where kind = 'round_end'
        and payload ->> 'reason' not in ('passed_earlier', 'task_error')
),

last_stop as (
    select run_key, arg_max(reason, seq) as stop_reason
    from round_ends
    group by run_key
),

messages as (
    select run_key, arg_max(payload ->> 'text', seq) as final_message
    from events
    where kind = 'message' and payload ->> 'role' = 'assistant'
    group by run_key
),

abstentions as (
    select run_key, max(n_abstained) as n_abstained
    from (
        select run_key, judge, count(*) filter (where abstained) as n_abstained
        from artifact_checks
        group by run_key, judge
    )
    group by run_key
),

open_goals as (
    select
        run_key,
        count(*) filter (where kind = 'substep' and not ever_satisfied) as open_substeps,
        count(*) filter (where kind = 'f2p' and not ever_satisfied) as open_f2p_tests,
        count(*) filter (where kind = 'substep') as n_substeps,
        count(*) filter (where kind = 'f2p') as n_f2p_tests
    from fct_goal_outcomes
    group by run_key
),

halts as (
    select
        run_key,
        last_step,
        coalesce(last_progress_step, 0) as last_progress_step
    from fct_goal_maintenance
),

claims as (
    select
        r.run_key,
        s.stop_reason,
        coalesce(s.stop_reason = 'done', false) as voluntary_stop,
        coalesce(
            s.stop_reason in ('max_turns', 'timeout', 'cost_cap', 'resource_limit'), false
        ) as budget_stop,
        m.final_message,
        coalesce(a.n_abstained, 0) as n_abstained,
        coalesce(
            regexp_matches(
                m.final_message,
                '(?i)\b(could ?n[o'']t|unable to|not able to|failed to|did ?n[o'']t (finish|complete|manage)|'
                || 'not (yet )?(complete|completed|finished|done|working)|incomplete|unfinished|'
                || 'gave up|giving up|give up|blocked|partially (done|complete|completed|implemented))\b'
            ),
            false
        ) or coalesce(a.n_abstained, 0) > 0 as admits_incomplete
    from runs_ as r
    left join last_stop as s on s.run_key = r.run_key
    left join messages as m on m.run_key = r.run_key
    left join abstentions as a on a.run_key = r.run_key
),

final as (
    select
        r.run_key,
        r.model,
        r.harness,
        r.mode,
        r.protocol,
        r.seed,
        r.task_id,
        r.task_kind,
        r.passed,
        r.n_rounds,
        c.stop_reason,
        c.voluntary_stop,
        c.budget_stop,
        c.final_message,
        c.n_abstained,
        c.admits_incomplete,
        c.voluntary_stop and not c.admits_incomplete as claimed_done,
        r.has_progress,
        h.last_step,
        h.last_progress_step,
        h.last_progress_step / nullif(h.last_step, 0) as last_progress_index,
        h.last_step - h.last_progress_step as idle_tail_steps,
        coalesce(o.n_substeps, 0) as n_substeps,
        coalesce(o.open_substeps, 0) as open_substeps,
        coalesce(o.n_f2p_tests, 0) as n_f2p_tests,
        coalesce(o.open_f2p_tests, 0) as open_f2p_tests
    from runs_ as r
    inner join claims as c on c.run_key = r.run_key
    left join halts as h on h.run_key = r.run_key
    left join open_goals as o on o.run_key = r.run_key
)

select * from final
