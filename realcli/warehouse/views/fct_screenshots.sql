-- fct_screenshots: one row per screenshot the run captured (the ledger's screenshot events),
-- with the run's axes, who took it (source: gui.screenshot, the agent's tool; witness, the
-- runner's capture after a CLI call that wrote an image; runner.final, the runner's last
-- capture of the display), the tool call behind it (call_id, tool_name, call_seq) and the
-- deliverables a judge traced to it (screenshot_provenance.capture_seq): backs_deliverables
-- and the judges that did (empty lists: no deliverable rests on this capture).
with captures as (
    select * from screenshots
),

calls as (
    select run_key, call_id, min(seq) as call_seq, arg_min(name, seq) as tool_name
    from tool_calls
    group by run_key, call_id
),

backing as (
    select
        run_key,
        capture_seq,
        list_sort(list_distinct(list(deliverable))) as backs_deliverables,
        list_sort(list_distinct(list(judge))) as backed_for_judges,
        list_sort(list_distinct(list(provenance))) as backing_provenance
    from screenshot_provenance
    where capture_seq is not null
    group by run_key, capture_seq
),

runs_ as (
    select * from fct_runs
),

final as (
    select
        c.run_key,
        r.experiment,
        r.model,
        r.harness,
        r.mode,
        r.protocol,
        r.seed,
        r.task_id,
        r.task_kind,
        r.in_denominator,
        c.seq,
        c.ts,
        c.sha256,
        c.width,
        c.height,
        c.bytes,
        c.path,
        c.source,
        c.source = 'witness' as is_witness,
        c.call_id,
        t.tool_name,
        t.call_seq,
        coalesce(b.backs_deliverables, []::varchar[]) as backs_deliverables,
        coalesce(b.backed_for_judges, []::varchar[]) as backed_for_judges,
        coalesce(b.backing_provenance, []::varchar[]) as backing_provenance
    from captures as c
    join runs_ as r on r.run_key = c.run_key
    left join calls as t on t.run_key = c.run_key and t.call_id = c.call_id
    left join backing as b on b.run_key = c.run_key and b.capture_seq = c.seq
)

select * from final
