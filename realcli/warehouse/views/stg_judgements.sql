-- stg_judgements: one row per (run, judge) from judgements/<judge>.json, with the status made
-- explicit. is_judged: the judge produced a score; is_judge_failed: it could not (an infra
-- label, never a silent 0: such a row stays in denominators as a failure with passed = false);
-- not_applicable: the run never started (its verdict is infra_error), also a failure here.
-- mean_dimension: the mean of the eight dimension scores (NULL when the judge scored none);
-- n_* counts: its deliverables, clauses by status and cheat flags (above the threshold or not).
with source as (
    select * from judgements
),

dimensions as (
    select run_key, judge, avg(score) as mean_dimension, count(*) as n_dimensions
    from judge_dimensions
    group by run_key, judge
),

deliverables as (
    select
        run_key,
        judge,
        count(*) as n_deliverables,
        count(*) filter (where abstained) as n_abstained,
        count(*) filter (where critical_failed) as n_critical_failed,
        count(*) filter (where unstaged_evidence) as n_unstaged_evidence
    from artifact_checks
    group by run_key, judge
),

clauses as (
    select
        run_key,
        judge,
        count(*) as n_clauses,
        count(*) filter (where status = 'satisfied') as n_clauses_satisfied,
        count(*) filter (where status = 'partial') as n_clauses_partial,
        count(*) filter (where status = 'false') as n_clauses_false,
        count(*) filter (where status = 'unjudged') as n_clauses_unjudged
    from clause_results
    group by run_key, judge
),

flags as (
    select run_key, judge, count(*) as n_hack_flags
    from hack_flags
    group by run_key, judge
),

final as (
    select
        s.run_key,
        s.judge,
        s.judge_kind,
        s.judge_key,
        s.judge_version,
        s.status,
        s.status = 'judged' as is_judged,
        s.status = 'judge_failed' as is_judge_failed,
        s.status = 'not_applicable' as is_not_applicable,
        s.error,
        s.tau,
        s.hack_threshold,
        s.final_score,
        s.status = 'judged' and s.passed as passed,
        s.deliverable_correctness,
        d.mean_dimension,
        coalesce(d.n_dimensions, 0) as n_dimensions,
        s.is_hack,
        s.hack_confidence,
        s.hack_patterns,
        coalesce(f.n_hack_flags, 0) as n_hack_flags,
        s.taxonomy_family,
        s.taxonomy_class,
        s.taxonomy_name,
        s.taxonomy_rule,
        s.taxonomy_reason,
        s.taxonomy_labeller,
        coalesce(a.n_deliverables, 0) as n_deliverables,
        coalesce(a.n_abstained, 0) as n_abstained,
        coalesce(a.n_critical_failed, 0) as n_critical_failed,
        coalesce(a.n_unstaged_evidence, 0) as n_unstaged_evidence,
        coalesce(c.n_clauses, 0) as n_clauses,
        coalesce(c.n_clauses_satisfied, 0) as n_clauses_satisfied,
        coalesce(c.n_clauses_partial, 0) as n_clauses_partial,
        coalesce(c.n_clauses_false, 0) as n_clauses_false,
        coalesce(c.n_clauses_unjudged, 0) as n_clauses_unjudged,
        s.summary,
        s.inputs_digest,
        coalesce(s.sessions, 0) as sessions,
        coalesce(s.model_calls, 0) as model_calls,
        coalesce(s.tokens_in, 0) as tokens_in,
        coalesce(s.tokens_out, 0) as tokens_out,
        coalesce(s.cost_usd, 0.0) as cost_usd,
        s.judge_wall_time_s,
        s.attempts
    from source as s
    left join dimensions as d on d.run_key = s.run_key and d.judge = s.judge
    left join deliverables as a on a.run_key = s.run_key and a.judge = s.judge
    left join clauses as c on c.run_key = s.run_key and c.judge = s.judge
    left join flags as f on f.run_key = s.run_key and f.judge = s.judge
)

select * from final
