-- 001_raw_tables: what ingest loads from run folders (RUNS_DIR/<experiment>/<run_key>/).
-- One row per run in `runs`; its graded rounds, tests and sub-steps from verdict.json; its
-- ledger.jsonl as rows in `events`, with model and tool calls also typed in their own tables.
-- Verdict columns are NULL when the run has no verdict.json (status 'incomplete').

create table runs (
    run_key          varchar primary key,
    experiment       varchar not null,
    task_id          varchar not null,
    task_version     varchar,
    task_category    varchar,
    task_kind        varchar,
    task_digest      varchar,
    model            varchar not null,   -- model config option name (axis)
    model_backend    varchar,
    model_id         varchar,
    harness          varchar not null,   -- harness config option name (axis)
    harness_kind     varchar,
    harness_version  varchar,
    mode             varchar not null,
    channels         varchar,            -- comma-separated, e.g. 'cli,gui'
    protocol         varchar not null,
    protocol_rounds  integer,
    seed             bigint not null,
    status           varchar not null
        check (status in ('graded', 'infra_error', 'task_error', 'incomplete')),
    ledger_status    varchar,            -- status of the ledger's run_end event, if any
    complete         boolean not null,   -- every ledger line parsed and a run_end was written
    ledger_problems  varchar[] not null,
    verdict_error    varchar,
    n_rounds         integer,
    passed           boolean,
    f2p_pass         boolean,
    f2p_step         double,
    p2p_pass         boolean,
    p2p_step         double,
    f2p_test_share   double,             -- last round: share of F2P tests passed
    wall_time_s      double,
    agent_time_s     double,
    tests_time_s     double,
    n_events         integer not null,
    n_model_calls    integer not null,
    n_tool_calls     integer not null,
    n_gui_tool_calls integer not null,
    n_errors         integer not null,
    tokens_in        bigint not null,
    tokens_out       bigint not null,
    tokens_cached    bigint not null,
    cost_usd         double not null,
    started_at       timestamptz,
    ended_at         timestamptz,
    graded_at        timestamptz,
    realcli_version  varchar,
    git_sha          varchar,
    run_dir          varchar not null,
    spec_json        json not null,
    ingest_digest    varchar not null,   -- sha256 over spec.json, ledger.jsonl, verdict.json
    ingested_at      timestamptz not null
);

create table rounds (
    run_key        varchar not null,
    round          integer not null,
    passed         boolean not null,
    f2p_total      integer not null,
    f2p_passed     integer not null,
    f2p_pass       boolean not null,
    f2p_step       double not null,
    p2p_total      integer not null,
    p2p_passed     integer not null,
    p2p_pass       boolean not null,
    p2p_step       double not null,
    f2p_test_share double not null,
    primary key (run_key, round)
);

create table test_results (
    run_key    varchar not null,
    round      integer not null,
    test_set   varchar not null check (test_set in ('f2p', 'p2p')),
    nodeid     varchar not null,
    outcome    varchar not null,
    duration_s double not null,
    message    varchar not null
);

create table substep_results (
    run_key      varchar not null,
    round        integer not null,
    substep_id   varchar not null,
    passed       boolean not null,
    weight       double not null,
    tests_passed integer not null,
    tests_total  integer not null
);

create table events (
    run_key varchar not null,
    seq     bigint not null,
    kind    varchar not null,
    ts      timestamptz not null,
    payload json not null   -- the event without seq, kind and ts
);

create table model_calls (
    run_key       varchar not null,
    seq           bigint not null,
    ts            timestamptz not null,
    wire_format   varchar not null,
    backend       varchar not null,
    model         varchar not null,
    tokens_in     bigint not null,
    tokens_out    bigint not null,
    tokens_cached bigint not null,
    cost_usd      double not null,
    latency_ms    double not null,
    n_tool_calls  integer not null,
    finish_reason varchar not null,
    status        integer not null
);

create table tool_calls (
    run_key         varchar not null,
    seq             bigint not null,
    ts              timestamptz not null,
    call_id         varchar not null,
    name            varchar not null,
    raw_name        varchar not null,
    channel         varchar not null,
    atomic_op       varchar not null,
    result_seq      bigint,            -- the matching tool_result; NULL when none was written
    ok              boolean,
    exit_code       integer,
    duration_ms     double,
    n_touched_files integer
);
