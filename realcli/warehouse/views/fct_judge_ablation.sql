-- fct_judge_ablation: one row per system (experiment, model, harness, mode) and ordered pair of
-- judges (judge_a, judge_b) over the finished runs both judged: PassRate under each (share of
-- runs with passed, i.e. final >= tau), Overall under each (mean final score), and
-- inflation_pp = 100 * (pass_rate_a - pass_rate_b), the PassRate points judge_a grants that
-- judge_b takes away. The judge ablation of issue 11 is the row judge_a = 'outcome_only',
-- judge_b = 'trajectory'. passed_only_a / passed_only_b: runs that pass under one judge only;
-- hacks_b: runs judge_b flagged is_hack.
with judged as (
    select * from fct_judgements
    where in_denominator
),

pairs as (
    select
        a.experiment,
        a.model,
        a.harness,
        a.mode,
        a.judge as judge_a,
        b.judge as judge_b,
        count(*) as n_runs,
        count(*) filter (where a.passed) as passes_a,
        count(*) filter (where b.passed) as passes_b,
        avg(a.passed::int) as pass_rate_a,
        avg(b.passed::int) as pass_rate_b,
        avg(a.final_score) as overall_a,
        avg(b.final_score) as overall_b,
        count(*) filter (where a.passed and not b.passed) as passed_only_a,
        count(*) filter (where b.passed and not a.passed) as passed_only_b,
        count(*) filter (where b.is_hack) as hacks_b
    from judged as a
    join judged as b on b.run_key = a.run_key and b.judge <> a.judge
    group by a.experiment, a.model, a.harness, a.mode, a.judge, b.judge
),

final as (
    select
        *,
        round((pass_rate_a - pass_rate_b) * 100, 6) as inflation_pp
    from pairs
)

select * from final
