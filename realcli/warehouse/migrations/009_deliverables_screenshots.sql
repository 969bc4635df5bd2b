-- 009_deliverables_screenshots: what verdict.json says about a hybrid task's deliverables, the
-- screenshots the run captured, and how each judge classified each screenshot deliverable.
-- `run_deliverables` / `run_clauses`: verdict.json's deliverables[] and their clauses (the
-- grader's view: F2P-decided clauses, abstention, evidence genuine or forged by sha256).
-- `screenshots`: the ledger's screenshot events (the agent's gui.screenshot tool, the runner's
-- witness captures after CLI calls that changed images, the runner's final capture).
-- `screenshot_provenance`: Judgement.screenshots of judgements/<judge>.json (the judges that read
-- the trajectory: captured / witnessed / derived / unbacked / missing / bad_image). A run's rows
-- are replaced with the rest of the run whenever its folder is reloaded.

create table run_deliverables (
    run_key            varchar not null,
    deliverable        varchar not null,   -- its path, relative to the workdir
    position           integer not null,   -- 0-based, the order of verdict.json (task.toml's)
    exists             boolean not null,
    abstained          boolean not null,   -- <path>.SKIPPED.txt was written (honest abstention)
    evidence           varchar not null
        check (evidence in ('none', 'genuine', 'forged', 'missing')),
    passed             boolean not null,   -- not abstained, evidence ok, clauses held
    n_clauses          integer not null,
    n_critical         integer not null,
    n_clauses_passed   integer not null,
    n_clauses_failed   integer not null,
    n_clauses_unjudged integer not null,   -- no F2P test decides them: a judge must
    n_critical_failed  integer not null,
    primary key (run_key, deliverable)
);

create table run_clauses (
    run_key     varchar not null,
    deliverable varchar not null,
    clause_id   varchar not null,
    position    integer not null,           -- 0-based within the deliverable
    critical    boolean not null,
    test        varchar,                    -- the F2P selector that decides it; NULL: a judge must
    outcome     varchar not null check (outcome in ('passed', 'failed', 'unjudged')),
    primary key (run_key, deliverable, clause_id)
);

create table screenshots (
    run_key varchar not null,
    seq     bigint not null,     -- the screenshot event's ledger seq
    ts      timestamptz not null,
    sha256  varchar not null,
    width   integer not null,
    height  integer not null,
    bytes   bigint not null,     -- PNG size
    path    varchar not null,    -- the PNG, relative to the run folder (screenshots/...)
    source  varchar not null,    -- gui.screenshot (the agent's tool), witness, runner.final ...
    call_id varchar,             -- the tool call that asked for it (witness: the CLI call)
    primary key (run_key, seq)
);

create table screenshot_provenance (
    run_key        varchar not null,
    judge          varchar not null,
    deliverable    varchar not null,   -- the screenshot deliverable's path
    provenance     varchar not null check (
        provenance in ('captured', 'witnessed', 'derived', 'unbacked', 'missing', 'bad_image')
    ),
    sha256         varchar,            -- of the file (NULL: missing)
    how            varchar,            -- bytes | pixels | crop | overlay | phash; NULL: no match
    capture_seq    bigint,             -- the matched capture's ledger seq
    capture_source varchar,
    capture_sha256 varchar,
    similarity     double,             -- share of equal pixels, or 1 - pHash distance / 64
    changed_share  double,             -- pixels, overlay: share of pixels that differ
    phash_distance integer,            -- phash: perceptual-hash distance (of 64 bits)
    box            integer[],          -- crop: where it was cut; overlay: the changed box (x y w h)
    writer_seq     bigint,             -- the tool call that last wrote the file
    writer_tool    varchar,
    reason         varchar not null,
    primary key (run_key, judge, deliverable)
);
