-- fct_rounds: one row per graded round of each finished run with the run's axes (self-correction).
with rounds_staged as (
    select * from stg_rounds
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
        g.round,
        g.is_final_round,
        g.passed,
        g.f2p_pass,
        g.f2p_step,
        g.p2p_pass,
        g.p2p_step,
        g.f2p_test_share
    from rounds_staged as g
    inner join runs_ as r on r.run_key = g.run_key
)

select * from final
