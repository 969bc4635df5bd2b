-- fct_tool_ops: one row per atomic operation of a tool call (tool_call_ops, migration 010)
-- with its run's axes. tool_channel is the call's own channel (a shell call is cli whatever it
-- ran); channel is the op's after re-attribution (a shell call running xdotool, scrot,
-- pyautogui... is GUI work: reattributed = true). Plain columns, for figures and other views.
with ops as (
    select * from tool_call_ops
),

runs_ as (
    select * from stg_runs
),

domains as (
    select run_key, task_domain from runs
),

final as (
    select
        o.run_key,
        r.experiment,
        r.task_id,
        r.task_kind,
        d.task_domain,
        r.model,
        r.harness,
        r.mode,
        r.status,
        o.seq,
        o.call_id,
        o.op_index,
        o.op,
        o.program,
        o.tool_channel,
        o.channel,
        o.reattributed
    from ops as o
    inner join runs_ as r on r.run_key = o.run_key
    left join domains as d on d.run_key = o.run_key
)

select * from final
