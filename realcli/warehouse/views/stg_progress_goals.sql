-- stg_progress_goals: one row per goal of a run's progress.json (a sub-step, or a P2P test),
-- with when it first held, how often it broke and was restored, and its last gain.
-- ever_satisfied: held at the start or at some step; held_from_step: the first step at which it
-- held (0 when it held initially; NULL: never); last_gain_step: the last step at which it came
-- to hold (its first pass unless it held from step 0, or its last restoration).
with source as (
    select * from progress_goals
),

final as (
    select
        run_key,
        goal,
        kind,
        reference_order,
        depends_on,
        initial,
        first_pass_step,
        broke_at,
        restored_at,
        final,
        initial or first_pass_step is not null as ever_satisfied,
        case when initial then 0 else first_pass_step end as held_from_step,
        len(broke_at) as n_breaks,
        len(restored_at) as n_restores,
        greatest(
            case when not initial then first_pass_step end, list_max(restored_at)
        ) as last_gain_step
    from source
)

select * from final
