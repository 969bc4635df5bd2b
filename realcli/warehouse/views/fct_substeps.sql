-- fct_substeps: one row per sub-step of the final round of each finished run, with the run's axes.
with substeps as (
    select * from stg_substeps where is_final_round
),

runs_ as (
    select * from fct_runs where in_denominator
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
        s.round,
        s.substep_id,
        s.passed,
        s.weight,
        s.tests_passed,
        s.tests_total
    from substeps as s
    inner join runs_ as r on r.run_key = s.run_key
)

select * from final
