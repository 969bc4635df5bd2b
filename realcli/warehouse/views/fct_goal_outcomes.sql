-- fct_goal_outcomes: one row per goal of a finished run (SPEC §4): a sub-step, a P2P test or an
-- F2P test, with when it was established, whether it held at the end, and when it first broke.
-- history: 'steps' when the goal comes from the run's progress replay (progress.json: sub-steps
-- and P2P tests, step = tool calls so far, horizon = the replay's last step); 'rounds' when it
-- comes from the graded rounds (F2P tests always; sub-steps and P2P tests of runs without a
-- replay; time = round, horizon = the last round). P2P tests are established at round 0 (they
-- pass on the initial repository by admission: realcli choice, so a round-level P2P test is a
-- goal even if it never passed in a graded round). F2P tests and round-level sub-steps are
-- goals once they passed in some round. tracked: the goal has a history to maintain (every
-- step-level goal; round-level P2P tests, whose round 0 is the baseline; other round-level
-- goals only in runs with two or more rounds, otherwise "ever" and "final" are one
-- observation). established_at: first step/round at which it held (0: initially); violated /
-- first_violation_at: the first time it stopped holding after it held; exposure: horizon −
-- established_at, the time it was at risk (the censoring time when never violated).
with runs_ as (
    select * from fct_runs where in_denominator
),

progress as (
    select run_key, last_step from progress_runs
),

step_goals as (
    select
        g.run_key,
        g.kind,
        g.goal,
        'steps' as history,
        p.last_step as horizon,
        true as tracked,
        g.ever_satisfied,
        g.final,
        g.held_from_step as established_at,
        g.n_breaks > 0 as violated,
        list_min(g.broke_at) as first_violation_at
    from stg_progress_goals as g
    inner join progress as p on p.run_key = g.run_key
    inner join runs_ as r on r.run_key = g.run_key
    where r.has_progress
),

last_rounds as (
    select run_key, max(round) as n_rounds from stg_rounds group by run_key
),

test_history as (
    select
        t.run_key,
        t.test_set,
        t.nodeid,
        min(t.round) filter (where t.passed) as first_pass_round,
        coalesce(bool_or(t.passed) filter (where t.is_final_round), false) as final
    from stg_tests as t
    group by t.run_key, t.test_set, t.nodeid
),

test_breaks as (
    select
        h.run_key,
        h.test_set,
        h.nodeid,
        min(t.round) filter (
            where not t.passed
            and t.round > (case when h.test_set = 'p2p' then 0 else h.first_pass_round end)
        ) as first_violation_at
    from test_history as h
    inner join stg_tests as t
        on t.run_key = h.run_key and t.test_set = h.test_set and t.nodeid = h.nodeid
    group by h.run_key, h.test_set, h.nodeid
),

test_goals as (
    select
        h.run_key,
        h.test_set as kind,
        h.nodeid as goal,
        'rounds' as history,
        l.n_rounds as horizon,
        h.test_set = 'p2p' or l.n_rounds >= 2 as tracked,
        h.test_set = 'p2p' or h.first_pass_round is not null as ever_satisfied,
        h.final,
        case when h.test_set = 'p2p' then 0 else h.first_pass_round end as established_at,
        b.first_violation_at is not null as violated,
        b.first_violation_at
    from test_history as h
    inner join last_rounds as l on l.run_key = h.run_key
    inner join test_breaks as b
        on b.run_key = h.run_key and b.test_set = h.test_set and b.nodeid = h.nodeid
    inner join runs_ as r on r.run_key = h.run_key
    where h.test_set = 'f2p' or not r.has_progress
),

substep_history as (
    select
        s.run_key,
        s.substep_id,
        min(s.round) filter (where s.passed) as first_pass_round,
        coalesce(bool_or(s.passed) filter (where s.is_final_round), false) as final
    from stg_substeps as s
    group by s.run_key, s.substep_id
),

substep_goals as (
    select
        h.run_key,
        'substep' as kind,
        h.substep_id as goal,
        'rounds' as history,
        l.n_rounds as horizon,
        l.n_rounds >= 2 as tracked,
        h.first_pass_round is not null as ever_satisfied,
        h.final,
        h.first_pass_round as established_at,
        b.first_violation_at is not null as violated,
        b.first_violation_at
    from substep_history as h
    inner join last_rounds as l on l.run_key = h.run_key
    inner join runs_ as r on r.run_key = h.run_key
    left join (
        select
            h2.run_key,
            h2.substep_id,
            min(s.round) filter (where not s.passed and s.round > h2.first_pass_round)
                as first_violation_at
        from substep_history as h2
        inner join stg_substeps as s
            on s.run_key = h2.run_key and s.substep_id = h2.substep_id
        group by h2.run_key, h2.substep_id
    ) as b on b.run_key = h.run_key and b.substep_id = h.substep_id
    where not r.has_progress
),

goals as (
    select * from step_goals
    union all
    select * from test_goals
    union all
    select * from substep_goals
),

final as (
    select
        g.run_key,
        r.model,
        r.harness,
        r.mode,
        r.protocol,
        r.seed,
        r.task_id,
        r.task_kind,
        g.kind,
        g.goal,
        g.history,
        g.horizon,
        g.tracked,
        g.ever_satisfied,
        g.final,
        case when g.ever_satisfied then g.established_at end as established_at,
        case when g.ever_satisfied then g.established_at / nullif(g.horizon, 0) end
            as established_share,
        g.violated,
        g.first_violation_at,
        case when g.ever_satisfied then g.horizon - g.established_at end as exposure
    from goals as g
    inner join runs_ as r on r.run_key = g.run_key
)

select * from final
