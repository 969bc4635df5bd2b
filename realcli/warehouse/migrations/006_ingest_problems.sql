-- 006_ingest_problems: what the latest ingest of each run folder found wrong with it. A folder
-- that could not be loaded at all has rows with outcome 'folder skipped' (and no runs row); a
-- run loaded with a defect (a corrupt ledger line, an unreadable verdict, a missing run_end...)
-- has rows with the outcome of that defect. A folder's rows are replaced whenever it is read
-- again and dropped when it leaves the runs folder.

create table ingest_problems (
    run_dir     varchar not null,   -- the run folder
    run_key     varchar,            -- NULL: the folder was skipped before its key was known
    file        varchar not null,   -- the file that is wrong (or the folder itself)
    location    varchar,            -- the field (spec.seed), the ledger line (line 7); NULL: whole file
    problem     varchar not null,
    fix         varchar not null,
    outcome     varchar not null,   -- folder skipped | loaded as incomplete | ...
    ingested_at timestamptz not null
);
