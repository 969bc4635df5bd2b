-- fct_trajectory_profile: one row per run: how long its trajectory is and how often it crosses
-- the GUI/CLI boundary (WeaveBench appendix A.2), from tool_call_ops.
-- Tool level: each call on its own channel (a shell call is cli). Atomic level: each op on its
-- re-attributed channel; a call is GUI at atomic level when any of its ops is.
-- switches_*: a call (op) whose channel differs from the previous call's (op's), in ledger
-- order; boundary_share_*: switching calls / tool calls; phases_atomic: maximal runs of calls
-- on one channel at atomic level (switching calls + 1; 0 without calls).
-- apps_states (realcli's definition of "distinct apps/business states touched"): the task's GUI
-- apps ([[gui.apps]]) when the run did any GUI work at atomic level, plus the distinct programs
-- its CLI ops ran, shell plumbing (cd, echo, sleep, export, ...) left out.
with runs_ as (
    select * from stg_runs
),

domains as (
    select run_key, task_domain from runs
),

ops as (
    select * from tool_call_ops
),

calls as (
    select
        run_key,
        seq,
        any_value(tool_channel) as tool_channel,
        case when bool_or(channel = 'gui') then 'gui' else 'cli' end as atomic_channel
    from ops
    group by run_key, seq
),

call_switches as (
    select
        run_key,
        tool_channel,
        atomic_channel,
        coalesce(tool_channel <> lag(tool_channel) over w, false) as tool_switch,
        coalesce(atomic_channel <> lag(atomic_channel) over w, false) as atomic_switch
    from calls
    window w as (partition by run_key order by seq)
),

per_call as (
    select
        run_key,
        count(*) as n_tool_calls,
        count(*) filter (where tool_channel = 'gui') as n_gui_calls_tool,
        count(*) filter (where tool_channel = 'cli') as n_cli_calls_tool,
        count(*) filter (where atomic_channel = 'gui') as n_gui_calls_atomic,
        count(*) filter (where atomic_channel = 'cli') as n_cli_calls_atomic,
        count(*) filter (where tool_switch) as switches_tool,
        count(*) filter (where atomic_switch) as boundary_calls_atomic
    from call_switches
    group by run_key
),

op_switches as (
    select
        run_key,
        channel,
        reattributed,
        coalesce(channel <> lag(channel) over (partition by run_key order by seq, op_index), false)
            as op_switch
    from ops
),

per_op as (
    select
        run_key,
        count(*) as n_ops,
        count(*) filter (where channel = 'gui') as n_gui_ops,
        count(*) filter (where reattributed) as n_reattributed_ops,
        count(*) filter (where op_switch) as switches_atomic
    from op_switches
    group by run_key
),

cli_programs as (
    select run_key, count(distinct program) as n_cli_programs
    from ops
    where
        channel = 'cli'
        and program is not null
        and program not in (
            'cd', 'echo', 'printf', 'sleep', 'true', 'false', 'export', 'set', 'unset', 'test',
            '[', ':', 'pwd', 'source', '.', 'exit', 'return', 'wait', 'read', 'shift', 'local',
            'alias', 'trap', 'declare', 'umask', 'ulimit'
        )
    group by run_key
),

gui_apps as (
    select run_key, count(distinct name) as n_gui_apps
    from run_gui_apps
    group by run_key
),

final as (
    select
        r.run_key,
        r.experiment,
        r.task_id,
        r.task_kind,
        d.task_domain,
        r.model,
        r.harness,
        r.mode,
        r.status,
        r.is_finished,
        r.passed,
        coalesce(c.n_tool_calls, 0) as n_tool_calls,
        coalesce(c.n_gui_calls_tool, 0) as n_gui_calls_tool,
        coalesce(c.n_cli_calls_tool, 0) as n_cli_calls_tool,
        coalesce(c.n_gui_calls_atomic, 0) as n_gui_calls_atomic,
        coalesce(c.n_cli_calls_atomic, 0) as n_cli_calls_atomic,
        coalesce(o.n_ops, 0) as n_ops,
        coalesce(o.n_gui_ops, 0) as n_gui_ops,
        coalesce(o.n_reattributed_ops, 0) as n_reattributed_ops,
        coalesce(c.switches_tool, 0) as switches_tool,
        coalesce(o.switches_atomic, 0) as switches_atomic,
        coalesce(c.switches_tool, 0) / nullif(c.n_tool_calls, 0) as boundary_share_tool,
        coalesce(c.boundary_calls_atomic, 0) / nullif(c.n_tool_calls, 0)
            as boundary_share_atomic,
        case when c.n_tool_calls > 0 then c.boundary_calls_atomic + 1 else 0 end as phases_atomic,
        case when coalesce(o.n_gui_ops, 0) > 0 then coalesce(g.n_gui_apps, 0) else 0 end
            as n_gui_apps_reached,
        coalesce(p.n_cli_programs, 0) as n_cli_programs,
        case when coalesce(o.n_gui_ops, 0) > 0 then coalesce(g.n_gui_apps, 0) else 0 end
        + coalesce(p.n_cli_programs, 0) as apps_states
    from runs_ as r
    left join domains as d on d.run_key = r.run_key
    left join per_call as c on c.run_key = r.run_key
    left join per_op as o on o.run_key = r.run_key
    left join cli_programs as p on p.run_key = r.run_key
    left join gui_apps as g on g.run_key = r.run_key
)

select * from final
