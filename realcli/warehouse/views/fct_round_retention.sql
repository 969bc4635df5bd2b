-- fct_round_retention: one row per finished run, pair of its graded rounds (from_round <
-- to_round) and test set (f2p, p2p): round-to-round retention of tests (SPEC §4). n_tests: the
-- set's tests graded in either round; passed_before / passed_after: passing at T_k / T_k';
-- retained: passing at both; regressed: passing at T_k, not at T_k' (a test missing from a
-- round counts as not passing); newly_passed: not passing at T_k, passing at T_k'; retention =
-- retained / passed_before (NULL when nothing passed before); churn = (regressed +
-- newly_passed) / n_tests. is_consecutive: to_round = from_round + 1; is_first_to_last: T1→Tn.
with rounds_ as (
    select * from fct_rounds
),

last_rounds as (
    select run_key, max(round) as n_rounds from rounds_ group by run_key
),

pairs as (
    select
        a.run_key,
        a.model,
        a.harness,
        a.mode,
        a.protocol,
        a.seed,
        a.task_id,
        a.round as from_round,
        b.round as to_round,
        'T' || a.round || '→T' || b.round as round_pair,
        b.round = a.round + 1 as is_consecutive,
        a.round = 1 and b.round = l.n_rounds as is_first_to_last
    from rounds_ as a
    inner join rounds_ as b on b.run_key = a.run_key and b.round > a.round
    inner join last_rounds as l on l.run_key = a.run_key
),

sets as (
    select * from (values ('f2p'), ('p2p')) as t (test_set)
),

tests as (
    select run_key, round, test_set, nodeid, passed from stg_tests
),

test_pairs as (
    select
        p.run_key,
        p.from_round,
        p.to_round,
        t.test_set,
        t.nodeid,
        coalesce(bool_or(t.passed) filter (where t.round = p.from_round), false) as before,
        coalesce(bool_or(t.passed) filter (where t.round = p.to_round), false) as after
    from pairs as p
    inner join tests as t
        on t.run_key = p.run_key and t.round in (p.from_round, p.to_round)
    group by p.run_key, p.from_round, p.to_round, t.test_set, t.nodeid
),

counts as (
    select
        run_key,
        from_round,
        to_round,
        test_set,
        count(*) as n_tests,
        count(*) filter (where before) as passed_before,
        count(*) filter (where after) as passed_after,
        count(*) filter (where before and after) as retained,
        count(*) filter (where before and not after) as regressed,
        count(*) filter (where not before and after) as newly_passed
    from test_pairs
    group by run_key, from_round, to_round, test_set
),

final as (
    select
        p.*,
        s.test_set,
        coalesce(c.n_tests, 0) as n_tests,
        coalesce(c.passed_before, 0) as passed_before,
        coalesce(c.passed_after, 0) as passed_after,
        coalesce(c.retained, 0) as retained,
        coalesce(c.regressed, 0) as regressed,
        coalesce(c.newly_passed, 0) as newly_passed,
        c.retained / nullif(c.passed_before, 0) as retention,
        (c.regressed + c.newly_passed) / nullif(c.n_tests, 0) as churn
    from pairs as p
    cross join sets as s
    left join counts as c
        on c.run_key = p.run_key
        and c.from_round = p.from_round
        and c.to_round = p.to_round
        and c.test_set = s.test_set
)

select * from final
