-- stg_errors: one row per typed error event in a run's ledger.
with source as (
    select * from events where kind = 'error'
),

final as (
    select
        run_key,
        seq,
        ts,
        payload ->> 'error_type' as error_type,
        payload ->> 'message' as message
    from source
)

select * from final
