-- fct_task_attempts: one row per system (model, harness, mode, protocol) and task: attempts n
-- (finished runs, the seeds) and passes c, the inputs of the unbiased Pass@k estimator.
with runs_ as (
    select * from fct_runs
),

final as (
    select
        model,
        harness,
        mode,
        protocol,
        task_id,
        count(*) filter (where in_denominator) as n_attempts,
        count(*) filter (where in_denominator and passed) as n_passed,
        count(*) filter (where not in_denominator) as n_incomplete
    from runs_
    group by model, harness, mode, protocol, task_id
)

select * from final
