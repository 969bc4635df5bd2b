-- stg_substeps: one row per task sub-step per graded round, flagged when the round is the last.
with source as (
    select * from substep_results
),

last_rounds as (
    select run_key, max(round) as final_round
    from rounds
    group by run_key
),

final as (
    select
        s.run_key,
        s.round,
        coalesce(s.round = l.final_round, false) as is_final_round,
        s.substep_id,
        s.passed,
        s.weight,
        s.tests_passed,
        s.tests_total
    from source as s
    left join last_rounds as l on l.run_key = s.run_key
)

select * from final
