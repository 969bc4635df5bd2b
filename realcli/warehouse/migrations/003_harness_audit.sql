-- 003_harness_audit: how each harness ran its agent, the tool pools it offered, and the
-- fidelity check of the gateway's calls against the harness's own session log.

alter table model_calls add column tools_digest varchar;
alter table model_calls add column system_digest varchar;

alter table runs add column permission_mode varchar;   -- from the session event; NULL: none
alter table runs add column n_tool_pools integer;      -- distinct (tools, system prompt) pairs
alter table runs add column fidelity_ok boolean;       -- NULL: the harness has no native log

create table sessions (
    run_key         varchar not null,
    seq             bigint not null,
    harness         varchar not null,
    harness_version varchar not null,
    mode            varchar not null,
    permission_mode varchar not null,
    argv            varchar[] not null,
    enforced        varchar[] not null,
    not_enforced    varchar[] not null
);

create table tool_pools (
    run_key        varchar not null,
    seq            bigint not null,
    tools_digest   varchar not null,
    system_digest  varchar not null,
    tools          varchar[] not null,
    schema_digests varchar[] not null,
    system_chars   integer not null,
    calls          integer not null
);

create table fidelity (
    run_key            varchar not null,
    seq                bigint not null,
    source             varchar not null,
    ok                 boolean not null,
    gateway_calls      integer not null,
    native_calls       integer,
    gateway_tokens_in  bigint not null,
    gateway_tokens_out bigint not null,
    native_tokens_in   bigint,
    native_tokens_out  bigint,
    native_tool_calls  integer not null,
    missing_tool_calls varchar[] not null,
    problems           varchar[] not null
);
