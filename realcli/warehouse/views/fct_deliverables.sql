-- fct_deliverables: one row per run x deliverable x judge: what verdict.json says about the
-- deliverable (exists, abstained, evidence none/genuine/forged/missing, passed, clause counts)
-- beside what the judge named in `judge` concluded (its artifact check: tier, correctness,
-- critical_failed, unstaged_evidence; its screenshot provenance when the deliverable is a
-- screenshot and the judge reads the trajectory). Every judge of the run gets a row for every
-- deliverable (judge columns NULL when that judge left it out: judge_failed, not_applicable);
-- a run no judge has judged yet keeps one row per deliverable with judge NULL. Deliverables
-- come from verdict.json and from the judgements (in_verdict: the verdict lists it).
with verdict_deliverables as (
    select * from run_deliverables
),

judged_deliverables as (
    select * from artifact_checks
),

provenance as (
    select * from screenshot_provenance
),

run_judges as (
    select run_key, judge, judge_kind, status as judge_status from judgements
),

runs_ as (
    select * from fct_runs
),

domains as (
    select run_key, task_domain from runs
),

deliverable_keys as (
    select run_key, deliverable from verdict_deliverables
    union
    select run_key, deliverable from judged_deliverables
    union
    select run_key, deliverable from provenance
),

keyed as (
    select k.run_key, k.deliverable, j.judge, j.judge_kind, j.judge_status
    from deliverable_keys as k
    left join run_judges as j on j.run_key = k.run_key
),

final as (
    select
        k.run_key,
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
        r.passed as run_passed,
        k.deliverable,
        v.position,
        v.deliverable is not null as in_verdict,
        v.exists,
        v.abstained,
        v.evidence,
        v.evidence = 'forged' as evidence_forged,
        v.passed,
        v.n_clauses,
        v.n_critical,
        v.n_clauses_passed,
        v.n_clauses_failed,
        v.n_clauses_unjudged,
        v.n_critical_failed,
        coalesce(v.evidence <> 'none', false) or p.deliverable is not null as is_screenshot,
        k.judge,
        k.judge_kind,
        k.judge_status,
        a.deliverable is not null as judged,
        a.exists as judge_exists,
        a.abstained as judge_abstained,
        a.format_ok,
        a.tier,
        a.correctness,
        a.critical_failed,
        a.unstaged_evidence,
        a.fake_signal,
        a.n_clauses as judge_n_clauses,
        p.provenance,
        p.how as provenance_how,
        p.capture_seq,
        p.capture_source,
        p.similarity as provenance_similarity,
        p.changed_share,
        p.phash_distance,
        p.writer_seq,
        p.writer_tool,
        p.reason as provenance_reason
    from keyed as k
    join runs_ as r on r.run_key = k.run_key
    left join domains as d on d.run_key = k.run_key
    left join verdict_deliverables as v
        on v.run_key = k.run_key and v.deliverable = k.deliverable
    left join judged_deliverables as a
        on a.run_key = k.run_key and a.judge = k.judge and a.deliverable = k.deliverable
    left join provenance as p
        on p.run_key = k.run_key and p.judge = k.judge and p.deliverable = k.deliverable
)

select * from final
