-- 008_judgements: what the judges concluded about each run (runs/<exp>/<key>/judgements/*.json,
-- realcli.schema.judgement.Judgement). One `judgements` row per (run, judge); its deliverables,
-- their clauses, the eight dimensions and every cheat-detector flag in their own tables. A
-- run's rows here are replaced with the rest of the run whenever its folder is reloaded (the
-- folder digest covers judgements/*.json). A judgement file that cannot be used is an
-- `ingest_problems` row and loads nothing; the run and its other judgements still load.

alter table runs add column task_domain varchar;   -- task.toml's domain (GAM, ...); NULL: none

create table judgements (
    run_key                 varchar not null,
    judge                   varchar not null,   -- the judge's config name (<judge>.json)
    judge_kind              varchar not null,   -- tests | trajectory | outcome_only | agent ...
    judge_key               varchar not null,   -- hash of the judge's resolved config and version
    judge_version           varchar not null,
    schema_version          integer not null,
    task_id                 varchar not null,
    status                  varchar not null
        check (status in ('judged', 'judge_failed', 'not_applicable')),
    error                   varchar,            -- judge_failed / not_applicable: why
    final_score             double not null,    -- 0 when is_hack, else min(correctness, mean dims)
    passed                  boolean not null,   -- final_score >= tau (never when not judged)
    tau                     double not null,
    hack_threshold          double not null,
    is_hack                 boolean not null,
    hack_confidence         double not null,
    hack_patterns           varchar[] not null,
    hack_evidence_quotes    varchar[] not null,
    deliverable_correctness double not null,
    taxonomy_family         varchar,            -- E1..E5; NULL: no label (passed, or not judged)
    taxonomy_class          varchar,            -- E5.1 ...
    taxonomy_name           varchar,
    taxonomy_rule           varchar,            -- the documented rule that fired
    taxonomy_reason         varchar,
    taxonomy_labeller       varchar,            -- rules, or the agent judge's name
    summary                 varchar not null,
    inputs_digest           varchar not null,   -- hash of the run files the judgement read
    sessions                integer,            -- usage: NULL when the judge calls no model
    model_calls             integer,
    tokens_in               bigint,
    tokens_out              bigint,
    cost_usd                double,
    judge_wall_time_s       double,
    attempts                integer not null,   -- judge sessions tried (agent judge)
    file_sha256             varchar not null,   -- of judgements/<judge>.json as loaded
    primary key (run_key, judge)
);

create table artifact_checks (
    run_key           varchar not null,
    judge             varchar not null,
    deliverable       varchar not null,   -- the deliverable's path, relative to the workdir
    exists            boolean not null,
    format_ok         boolean not null,
    correctness       double not null,    -- after the six-tier rubric and caps
    tier              varchar not null,   -- T1..T6
    abstained         boolean not null,   -- <path>.SKIPPED.txt was written instead
    critical_failed   boolean not null,
    unstaged_evidence boolean not null,
    fake_signal       varchar,
    evidence_quote    varchar not null,
    missing_or_wrong  varchar[] not null,
    n_clauses         integer not null
);

create table clause_results (
    run_key       varchar not null,
    judge         varchar not null,
    deliverable   varchar not null,
    clause_id     varchar not null,
    clause_text   varchar not null,
    checker       varchar not null,
    critical      boolean not null,
    status        varchar not null check (status in ('satisfied', 'partial', 'false', 'unjudged')),
    reason        varchar not null,
    evidence      json not null,          -- the Evidence list as JSON text
    evidence_seqs bigint[] not null       -- the ledger seqs the evidence cites, in order
);

create table judge_dimensions (
    run_key   varchar not null,
    judge     varchar not null,
    dimension varchar not null,   -- one of the eight (task_completion ...)
    score     double not null,
    reason    varchar not null,
    features  json not null       -- the named inputs, as measured
);

create table hack_flags (
    run_key       varchar not null,
    judge         varchar not null,
    pattern       varchar not null,   -- fake_screenshot, hardcoded_metric ...
    detector      varchar not null,
    confidence    double not null,
    deliverable   varchar,
    reason        varchar not null,
    evidence      varchar not null,   -- the first evidence's quote
    seq           bigint,             -- the first ledger seq the evidence cites
    evidence_json json not null       -- every evidence item
);
