-- stg_rounds: one row per graded round (T1..Tn) of a run, with its place in the run.
with source as (
    select * from rounds
),

final as (
    select
        run_key,
        round,
        round = max(round) over (partition by run_key) as is_final_round,
        passed,
        f2p_total,
        f2p_passed,
        f2p_pass,
        f2p_step,
        p2p_total,
        p2p_passed,
        p2p_pass,
        p2p_step,
        f2p_test_share,
        coalesce(len(tampered_reasons), 0) > 0 as tampered,
        tampered_reasons
    from source
)

select * from final
