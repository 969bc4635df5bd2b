-- fct_goal_maintenance: one row per finished run with a progress.json (SPEC §3B, §4).
-- Goals are the task's sub-steps and its P2P tests. Goal Maintenance Score = goals satisfied at
-- the end / goals ever satisfied; n_regressions = times a goal broke after holding (all
-- broke_at entries); P2P retention = P2P tests holding at the end / those that ever held.
-- Order: a dependency edge a → b (b depends_on a) counts when b was completed; it is violated
-- when a was completed later than b or never. n_out_of_order_pairs: completed sub-step pairs
-- whose completion order is the reverse of the reference order (the discordant pairs of τ).
-- last_progress_step: the last step at which a goal came to hold; idle_tail_steps: steps after it.
with runs_ as (
    select * from fct_runs where in_denominator and has_progress
),

progress as (
    select * from progress_runs
),

goals as (
    select * from stg_progress_goals
),

per_run as (
    select
        run_key,
        count(*) as n_goals,
        count(*) filter (where ever_satisfied) as goals_ever,
        count(*) filter (where ever_satisfied and final) as goals_final,
        sum(n_breaks) as n_regressions,
        count(*) filter (where n_breaks > 0) as n_goals_regressed,
        sum(n_restores) as n_restorations,
        count(*) filter (where kind = 'substep') as substeps_total,
        count(*) filter (where kind = 'substep' and ever_satisfied) as substeps_completed,
        count(*) filter (where kind = 'substep' and ever_satisfied and final) as substeps_final,
        count(*) filter (where kind = 'p2p') as p2p_total,
        count(*) filter (where kind = 'p2p' and ever_satisfied) as p2p_ever,
        count(*) filter (where kind = 'p2p' and ever_satisfied and final) as p2p_final,
        max(last_gain_step) as last_progress_step
    from goals
    group by run_key
),

dependency_edges as (
    select
        run_key,
        held_from_step as dependent_step,
        unnest(depends_on) as prerequisite
    from goals
    where kind = 'substep'
),

dependency_checks as (
    select
        e.run_key,
        count(*) filter (where e.dependent_step is not null) as n_dependency_edges,
        count(*) filter (
            where e.dependent_step is not null
            and (a.held_from_step is null or a.held_from_step > e.dependent_step)
        ) as n_dependency_violations
    from dependency_edges as e
    left join goals as a
        on a.run_key = e.run_key and a.goal = e.prerequisite and a.kind = 'substep'
    group by e.run_key
),

out_of_order as (
    select
        a.run_key,
        count(*) as n_out_of_order_pairs
    from goals as a
    inner join goals as b
        on b.run_key = a.run_key
        and a.kind = 'substep'
        and b.kind = 'substep'
        and a.reference_order < b.reference_order
        and a.held_from_step > b.held_from_step
    group by a.run_key
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
        r.passed,
        p.method,
        p.n_snapshots,
        p.n_evaluations,
        p.last_step,
        coalesce(g.n_goals, 0) as n_goals,
        coalesce(g.goals_ever, 0) as goals_ever,
        coalesce(g.goals_final, 0) as goals_final,
        g.goals_final / nullif(g.goals_ever, 0) as goal_maintenance_score,
        coalesce(g.n_regressions, 0) as n_regressions,
        coalesce(g.n_goals_regressed, 0) as n_goals_regressed,
        coalesce(g.n_restorations, 0) as n_restorations,
        coalesce(g.substeps_total, 0) as substeps_total,
        coalesce(g.substeps_completed, 0) as substeps_completed,
        coalesce(g.substeps_final, 0) as substeps_final,
        g.substeps_completed / nullif(g.substeps_total, 0) as substeps_completed_share,
        coalesce(g.p2p_total, 0) as p2p_total,
        coalesce(g.p2p_ever, 0) as p2p_ever,
        coalesce(g.p2p_final, 0) as p2p_final,
        g.p2p_final / nullif(g.p2p_ever, 0) as p2p_retention,
        coalesce(d.n_dependency_edges, 0) as n_dependency_edges,
        coalesce(d.n_dependency_violations, 0) as n_dependency_violations,
        coalesce(o.n_out_of_order_pairs, 0) as n_out_of_order_pairs,
        g.last_progress_step,
        p.last_step - g.last_progress_step as idle_tail_steps
    from runs_ as r
    inner join progress as p on p.run_key = r.run_key
    left join per_run as g on g.run_key = r.run_key
    left join dependency_checks as d on d.run_key = r.run_key
    left join out_of_order as o on o.run_key = r.run_key
)

select * from final
