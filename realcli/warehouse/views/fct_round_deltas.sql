-- fct_round_deltas: one row per finished run and pair of its graded rounds, from_round < to_round
-- (T1→T2, T2→T3 and T1→T3 for three rounds): each score before, after, and the change
-- (after − before; pass flags as 0/1, so +1 = newly passed, −1 = lost), and the test churn
-- between the two rounds: tests passing in both (retained), passing before but not after
-- (regressed; P2P ones also counted apart), failing before and passing after (newly passed).
with rounds_ as (
    select * from fct_rounds
),

tests as (
    select run_key, round, test_set, nodeid, passed from stg_tests
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
        a.passed as passed_before,
        b.passed as passed_after,
        b.passed::integer - a.passed::integer as passed_delta,
        a.f2p_pass as f2p_pass_before,
        b.f2p_pass as f2p_pass_after,
        b.f2p_pass::integer - a.f2p_pass::integer as f2p_pass_delta,
        a.p2p_pass as p2p_pass_before,
        b.p2p_pass as p2p_pass_after,
        b.p2p_pass::integer - a.p2p_pass::integer as p2p_pass_delta,
        a.f2p_step as f2p_step_before,
        b.f2p_step as f2p_step_after,
        b.f2p_step - a.f2p_step as f2p_step_delta,
        a.p2p_step as p2p_step_before,
        b.p2p_step as p2p_step_after,
        b.p2p_step - a.p2p_step as p2p_step_delta,
        a.f2p_test_share as f2p_test_share_before,
        b.f2p_test_share as f2p_test_share_after,
        b.f2p_test_share - a.f2p_test_share as f2p_test_share_delta
    from rounds_ as a
    inner join rounds_ as b on b.run_key = a.run_key and b.round > a.round
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

churn as (
    select
        run_key,
        from_round,
        to_round,
        count(*) filter (where before) as tests_passed_before,
        count(*) filter (where before and after) as tests_retained,
        count(*) filter (where before and not after) as tests_regressed,
        count(*) filter (where before and not after and test_set = 'p2p') as p2p_tests_regressed,
        count(*) filter (where not before and after) as tests_newly_passed
    from test_pairs
    group by run_key, from_round, to_round
),

final as (
    select
        p.*,
        coalesce(c.tests_retained, 0) as tests_retained,
        coalesce(c.tests_regressed, 0) as tests_regressed,
        coalesce(c.p2p_tests_regressed, 0) as p2p_tests_regressed,
        coalesce(c.tests_newly_passed, 0) as tests_newly_passed,
        c.tests_retained / nullif(c.tests_passed_before, 0) as test_retention
    from pairs as p
    left join churn as c
        on c.run_key = p.run_key and c.from_round = p.from_round and c.to_round = p.to_round
)

select * from final
