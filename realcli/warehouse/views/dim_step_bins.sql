-- dim_step_bins: the step-score distribution bins of LongCLI-Bench, in percent:
-- [0,30), [30,60), [60,80), [80,100) and exactly 100 (upper_pct NULL: closed at 100).
with bins as (
    select *
    from (
        values
            (1, '[0,30)', 0.0, 30.0),
            (2, '[30,60)', 30.0, 60.0),
            (3, '[60,80)', 60.0, 80.0),
            (4, '[80,100)', 80.0, 100.0),
            (5, '100', 100.0, null)
    ) as t (bin_order, bin, lower_pct, upper_pct)
),

final as (
    select
        cast(bin_order as integer) as bin_order,
        bin,
        cast(lower_pct as double) as lower_pct,
        cast(upper_pct as double) as upper_pct
    from bins
)

select * from final
