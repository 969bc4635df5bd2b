-- 004_protocols_progress: what the LongCLI protocols told the agent (`intervention` events),
-- the workspace snapshots (`snapshot` events), and progress.json (when each goal first held and
-- when it broke again, from the progress replay; absent unless the replay ran).

alter table runs add column n_interventions integer;   -- intervention events in the ledger
alter table runs add column n_snapshots integer;       -- snapshot events in the ledger
alter table runs add column has_progress boolean;      -- a usable progress.json was loaded

create table interventions (
    run_key     varchar not null,
    seq         bigint not null,
    ts          timestamptz not null,
    round       integer not null,
    type        varchar not null,   -- plan | feedback | guidance
    trigger     varchar not null,   -- protocol | round_end | stall | agent_stopped
    source      varchar not null,   -- reference_plan | tests | task_guidance | model:<name>
    substep     varchar,            -- the sub-step the guidance is about
    delivery    varchar not null,   -- prompt | resume | transcript | inject
    text        varchar not null,
    budget_left integer             -- interventions still allowed after this one
);

create table snapshots (
    run_key       varchar not null,
    seq           bigint not null,
    ts            timestamptz not null,
    round         integer not null,
    step          integer not null,   -- tool calls of the run so far (0: the initial workspace)
    call_id       varchar,            -- the tool call after which it was taken
    commit        varchar not null,   -- in the run's snapshots.git
    tree          varchar not null,
    changed_files integer not null,
    duration_ms   double not null
);

create table progress_goals (
    run_key         varchar not null,
    goal            varchar not null,   -- a sub-step id or a P2P test node id
    kind            varchar not null check (kind in ('substep', 'p2p')),
    reference_order integer,            -- sub-steps: 1-based position in task.toml
    depends_on      varchar[] not null,
    initial         boolean not null,   -- held on the initial workspace (step 0)
    first_pass_step integer,            -- first step at which it held; NULL: never
    broke_at        integer[] not null, -- steps at which it stopped holding after having held
    restored_at     integer[] not null, -- steps at which it held again
    final           boolean not null    -- held on the last snapshot
);

create table progress_runs (
    run_key       varchar not null,
    method        varchar not null,   -- bisection | exhaustive
    grid          integer not null,
    n_snapshots   integer not null,
    last_step     integer not null,
    n_evaluations integer not null,   -- snapshots whose tests were run
    seconds       double not null
);
