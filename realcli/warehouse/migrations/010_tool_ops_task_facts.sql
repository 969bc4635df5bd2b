-- 010_tool_ops_task_facts: each tool call as atomic operations (realcli.ledger.atomic_ops) and
-- the P1 facts of the run's task copy (task.toml: atoms, p1_atoms, GUI apps). Built at ingest
-- from the run folder (realcli/warehouse/tool_facts.py); a run's rows here are replaced with
-- the rest of the run.

create table tool_call_ops (
    run_key      varchar not null,
    seq          bigint not null,     -- the tool_call event's seq (tool_calls.seq)
    call_id      varchar not null,
    op_index     integer not null,    -- 0.. in the order the call runs them
    op           varchar not null,    -- exec: shell | exec: python | exec: xdotool | computer: click | fs: write ...
    program      varchar,             -- the program a shell op ran; NULL for other ops
    tool_channel varchar not null,    -- the call's own channel at tool level (a shell call: cli)
    channel      varchar not null,    -- the op's channel after re-attribution
    reattributed boolean not null     -- channel <> tool_channel (GUI work hidden in a shell call)
);

create table run_task_atoms (
    run_key     varchar not null,
    atom        varchar not null,     -- K1 .. S2 (realcli.schema.atoms)
    family      varchar not null,     -- K N F V I S
    macro_group varchar not null,     -- cli | gui
    anchor      boolean not null      -- F3 / V1: induced by the deliverable contract
);

create table run_p1_atoms (
    run_key varchar not null,
    id      varchar not null,
    channel varchar not null,         -- cli | gui: the channel only it can be done on
    atom    varchar,                  -- the catalogue atom it is an instance of; NULL: not given
    text    varchar not null
);

create table run_gui_apps (
    run_key varchar not null,
    name    varchar not null,         -- [[gui.apps]] name
    window_title varchar not null     -- the window title the app opens
);
