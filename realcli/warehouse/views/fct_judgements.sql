-- fct_judgements: one row per (run, judge): the judgement (stg_judgements) with the run's axes
-- (experiment, model, harness, mode, protocol, seed), its task (task_id, version, kind,
-- category, domain) and its test outcome (tests_passed: verdict.json's Pass). in_denominator:
-- the run finished (fct_runs.in_denominator); a judge_failed or not_applicable judgement of a
-- finished run stays in the denominator with passed = false.
with judged as (
    select * from stg_judgements
),

runs_ as (
    select * from fct_runs
),

domains as (
    select run_key, task_domain from runs
),

final as (
    select
        j.run_key,
        r.experiment,
        r.model,
        r.harness,
        r.mode,
        r.protocol,
        r.seed,
        r.task_id,
        r.task_version,
        r.task_kind,
        r.task_category,
        d.task_domain,
        r.status as run_status,
        r.in_denominator,
        r.passed as tests_passed,
        j.* exclude (run_key)
    from judged as j
    join runs_ as r on r.run_key = j.run_key
    left join domains as d on d.run_key = j.run_key
)

select * from final
