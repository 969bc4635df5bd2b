-- fct_cross_channel_drift: one row per finished run whose mode offers both channels (hybrid):
-- CLI edits made after the last GUI check, with no GUI observation after them (SPEC §4).
-- Over the ledger's tool calls, in seq order, with each call's raw channel (tool_calls.channel):
-- a CLI edit is a CLI tool call whose result touched files, or after which the workspace
-- snapshot changed (a snapshot event with its call_id and changed_files > 0); a GUI observation
-- is the agent looking at the display: a screenshot event it asked for (source not realcli's
-- own 'runner.*' or 'witness': the runner's capture after a CLI call that wrote an image is
-- evidence for the judge, not the agent looking), or a GUI-channel call whose op is a screenshot or a shell capture program
-- (gui: screenshot; gui: via shell (scrot | import | xwd | gnome-screenshot)), counted once with
-- the screenshot event the call caused (same call_id); a GUI check is a
-- GUI observation after at least one CLI edit (it could validate CLI work). Unverified CLI
-- edits: CLI edits after the run's last GUI observation, counted only in runs with a GUI check
-- (without one there is no validation to drift from); first_unverified_seq: the first of them.
-- drifted: at least one unverified edit. Whether the edited file is one the GUI shows is not
-- known here: a helper script written after the last look counts too (first_unverified_seq
-- points a reader at it).
with runs_ as (
    select
        f.*,
        s.channels
    from fct_runs as f
    inner join stg_runs as s on s.run_key = f.run_key
    where f.in_denominator
        and list_contains(string_split(coalesce(s.channels, ''), ','), 'cli')
        and list_contains(string_split(coalesce(s.channels, ''), ','), 'gui')
),

changed as (
    select run_key, call_id
    from snapshots
    where call_id is not null and changed_files > 0
    group by run_key, call_id
),

cli_edits as (
    select t.run_key, t.seq
    from tool_calls as t
    left join changed as c on c.run_key = t.run_key and c.call_id = t.call_id
    where t.channel = 'cli'
        and (coalesce(t.n_touched_files, 0) > 0 or c.call_id is not null)
),

capture_calls as (
    select run_key, seq, call_id
    from tool_calls
    where channel = 'gui'
        and atomic_op in (
            'gui: screenshot',
            'gui: via shell (scrot)',
            'gui: via shell (import)',
            'gui: via shell (xwd)',
            'gui: via shell (gnome-screenshot)'
        )
),

observations as (
    select run_key, seq
    from capture_calls
    union all
    select e.run_key, e.seq
    from events as e
    left join capture_calls as c
        on c.run_key = e.run_key and c.call_id = e.payload ->> 'call_id'
    where e.kind = 'screenshot'
        and coalesce(e.payload ->> 'source', '') not like 'runner.%'
        and coalesce(e.payload ->> 'source', '') <> 'witness'
        and c.call_id is null
),

first_edits as (
    select run_key, min(seq) as first_edit_seq, count(*) as n_cli_edits
    from cli_edits
    group by run_key
),

observed as (
    select
        o.run_key,
        count(*) as n_gui_observations,
        count(*) filter (where o.seq > e.first_edit_seq) as n_gui_checks,
        max(o.seq) as last_observation_seq
    from observations as o
    left join first_edits as e on e.run_key = o.run_key
    group by o.run_key
),

unverified as (
    select e.run_key, count(*) as n_unverified_cli_edits, min(e.seq) as first_unverified_seq
    from cli_edits as e
    inner join observed as o on o.run_key = e.run_key
    where o.n_gui_checks > 0 and e.seq > o.last_observation_seq
    group by e.run_key
),

final as (
    select
        r.run_key,
        r.model,
        r.harness,
        r.mode,
        r.protocol,
        r.seed,
        r.task_id,
        r.task_kind,
        r.passed,
        coalesce(e.n_cli_edits, 0) as n_cli_edits,
        coalesce(o.n_gui_observations, 0) as n_gui_observations,
        coalesce(o.n_gui_checks, 0) as n_gui_checks,
        coalesce(o.n_gui_checks, 0) > 0 as has_gui_check,
        o.last_observation_seq,
        coalesce(u.n_unverified_cli_edits, 0) as n_unverified_cli_edits,
        u.first_unverified_seq,
        coalesce(u.n_unverified_cli_edits, 0) > 0 as drifted
    from runs_ as r
    left join first_edits as e on e.run_key = r.run_key
    left join observed as o on o.run_key = r.run_key
    left join unverified as u on u.run_key = r.run_key
)

select * from final
