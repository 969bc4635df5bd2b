-- stg_tests: one row per test per graded round, flagged when the round is the run's last.
with source as (
    select * from test_results
),

last_rounds as (
    select run_key, max(round) as final_round
    from rounds
    group by run_key
),

final as (
    select
        t.run_key,
        t.round,
        coalesce(t.round = l.final_round, false) as is_final_round,
        t.test_set,
        t.nodeid,
        t.outcome,
        t.outcome = 'passed' as passed,
        t.duration_s,
        t.message
    from source as t
    left join last_rounds as l on l.run_key = t.run_key
)

select * from final
