"""Render the overhead benchmark's results as the generated section of docs/benchmarks.md."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from overhead_common import BEGIN, END, TARGET_RATIO, TARGET_RERUN, median
from overhead_suite import PHASES


# --------------------------------------------------------------------------- Markdown
def ms(x: float) -> str:
    return f"{x * 1000:.0f}"


def verdict_word(ok: bool) -> str:
    return "**meets**" if ok else "**misses**"


def pct(v: float) -> str:
    return f"{v * 100:.1f}%"


def x(v: float) -> str:
    return f"{v:.2f}×"


def markdown(info: dict[str, Any], s: dict[str, Any], micro_rows: list[dict[str, Any]]) -> str:
    rows = s["rows"]
    su = s["suite"]
    sha = info["git_sha"]
    if info["git_sha_end"] != sha:
        sha += f" at the start, {info['git_sha_end']} at the end: the code changed during the run!"
    out = [
        BEGIN,
        "",
        "## Results",
        "",
        f"- Machine: {info['nproc']} CPUs, Python {info['python']}, {info['platform']},"
        f" {info['bwrap']}",
        f"- Date: {info['date']}; git {sha}",
        f"- Load average at start / end: {fmt_load(info['loadavg_start'])} /"
        f" {fmt_load(info['loadavg_end'])} (the machine was {busy(info)})",
        f"- Command: `{info['command']}` ({info['repeat']} repetitions after {info['warmup']}"
        f" warm-up, {info['micro_n']} per micro-measurement; took"
        f" {info['elapsed_s'] / 60:.1f} min)",
        f"- Raw results: `{info['raw_json']}`",
        "",
        "### Per-run overhead against the floor (model=noop)",
        "",
        "| task | floor s | realcli run s | overhead s | **ratio** | caches empty: run s"
        " | ratio | CLI command s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['task']} | {r['floor_s']:.2f} | {r['warm_s']:.2f} | {r['overhead_warm_s']:.2f}"
            f" | **{x(r['ratio_warm'])}** | {r['cold_s']:.2f} | {x(r['ratio_cold'])}"
            f" | {r['cli_s']:.2f} | {x(r['ratio_cli'])} |"
        )
    out += [
        f"| **geometric mean** | | | | **{x(s['ratio_warm_geomean'])}** | |"
        f" {x(s['ratio_cold_geomean'])} | | {x(s['ratio_cli_geomean'])} |",
        f"| **max** | | | | **{x(s['ratio_warm_max'])}** | | {x(s['ratio_cold_max'])} | |"
        f" {x(s['ratio_cli_max'])} |",
        "",
        "Seconds are medians over the repetitions; *overhead* and the ratios are medians of the"
        " paired per-repetition values, so they need not match the seconds columns exactly."
        " *realcli run*: in-process `execute_run` in a fresh runs dir, realcli's caches filled"
        " (every run of a task version after its first on a machine); *caches empty*: the"
        " same with an empty `paths.cache_dir` (a task version's first run, which computes"
        " its expected-test inventory); *CLI command*:"
        " `realcli run model=noop task=<id>` as a new process, caches filled.",
        "",
        f"**Target: at most {TARGET_RATIO}×.**",
        "",
        f"- realcli run (steady state): {verdict_word(s['ratio_warm_max'] <= TARGET_RATIO)}:"
        f" geometric mean {x(s['ratio_warm_geomean'])}, worst task {x(s['ratio_warm_max'])}"
        f" (ratio of minima {x(s['ratio_warm_of_minima_geomean'])}).",
        f"- a task version's first run (caches empty):"
        f" {verdict_word(s['ratio_cold_max'] <= TARGET_RATIO)}: geometric mean"
        f" {x(s['ratio_cold_geomean'])}, worst {x(s['ratio_cold_max'])}; it costs"
        f" {statistics.fmean(r['first_run_extra_s'] for r in rows):.2f} s more per task"
        " (between the header and `round_start`: see the breakdown).",
        f"- one-task CLI command: {verdict_word(s['ratio_cli_max'] <= TARGET_RATIO)}:"
        f" geometric mean {x(s['ratio_cli_geomean'])}, worst {x(s['ratio_cli_max'])}; a new"
        " process also pays Python start-up, imports, Hydra compose and the task catalog"
        f" (median {median([r['cli_startup_s'] for r in rows]):.2f} s outside the run).",
        "",
        "### Whole suite through the CLI, and the rerun case",
        "",
        "| | seconds | |",
        "|---|---:|---|",
        f"| floor over the {len(rows)} tasks, back to back | {su['floor_s']:.2f} | |",
        f"| `realcli run model=noop`, fresh runs dir, caches empty | {su['cold_first_s']:.2f} |"
        f" {x(su['cold_ratio'])} the floor |",
        f"| the same command again (every run skipped) | {su['cold_rerun_s']:.2f} |"
        f" {pct(su['cold_rerun_fraction'])} of that first run |",
        f"| `realcli run model=noop`, fresh runs dir, caches filled | {su['warm_first_s']:.2f} |"
        f" {x(su['warm_ratio'])} the floor |",
        f"| the same command again (every run skipped) | {su['warm_rerun_s']:.2f} |"
        f" {pct(su['warm_rerun_fraction'])} of that first run |",
        "",
        f"**The whole suite as one command against the {TARGET_RATIO}× target** (one process"
        " start-up shared by every task): caches filled"
        f" {verdict_word(su['warm_ratio'] <= TARGET_RATIO)} ({su['warm_ratio']:.3f}×), caches"
        f" empty {verdict_word(su['cold_ratio'] <= TARGET_RATIO)} ({su['cold_ratio']:.3f}×).",
        "",
        f"**Rerun target: under {pct(TARGET_RERUN)} of the first run.** Against a first run"
        " with empty caches (a fresh machine):"
        f" {verdict_word(su['cold_rerun_fraction'] < TARGET_RERUN)}"
        f" ({pct(su['cold_rerun_fraction'])}); against a first run with caches filled (any"
        " later experiment over the same task versions):"
        f" {verdict_word(su['warm_rerun_fraction'] < TARGET_RERUN)}"
        f" ({pct(su['warm_rerun_fraction'])}). A rerun is almost entirely process start-up:"
        " Python, imports, Hydra compose, task catalog and digests.",
        "",
        "### Where realcli's time goes (in-process run, caches filled; ms, medians)",
        "",
        "| phase | " + " | ".join(short(r["task"]) for r in rows) + " | mean | floor counterpart |",
        "|---|" + "---:|" * (len(rows) + 1) + "---|",
    ]
    counterpart = {
        "prep": "`cp -r` repo + tests: {copy}",
        "f2p_exec": "`pytest f2p`: {f2p}",
        "p2p_exec": "`pytest p2p`: {p2p}",
    }
    floor_mean = {
        k: statistics.fmean(r["floor_parts"][f"{k}_s"] for r in rows)
        for k in ("copy", "f2p", "p2p")
    }

    def row(label: str, vals: list[float], floor: str, bold: bool = False) -> str:
        cells = [ms(v) for v in vals] + [ms(statistics.fmean(vals))]
        if bold:
            cells = [f"**{c}**" for c in cells]
        return f"| {label} | " + " | ".join(cells) + f" | {floor} |"

    for key, label in PHASES:
        cp = counterpart.get(key, "none (all overhead)").format(
            **{k: ms(v) for k, v in floor_mean.items()}
        )
        out.append(row(label, [r["phases_warm"][key] for r in rows], cp))
    out += [
        row("**run wall time**", [r["warm_s"] for r in rows],
            f"floor: **{ms(statistics.fmean(r['floor_s'] for r in rows))}**", bold=True),
        row("*caches empty (first run): extra time in workspace prep (inventory)*",
            [r["first_run_extra_s"] for r in rows], "none (all overhead)"),
        "",
        "The agent session (the three `agent:` rows; `budget.wall_clock_s` in the ledger) is"
        f" {ms(statistics.fmean(r['phases_warm']['agent_session'] for r in rows))} ms on"
        " average.",
        "",
        "Where the overhead comes from (mean over tasks of the medians, ms; the pytest"
        " difference is within noise when it is small or negative):",
        "",
        "| overhead | ms |",
        "|---|---:|",
        *attribution(rows),
        "",
        "### Micro-measurements (median of " + str(info["micro_n"]) + ", ms)",
        "",
        "| group | what | median ms | min ms |",
        "|---|---|---:|---:|",
    ]  # fmt: skip
    for m in micro_rows:
        out.append(f"| {m['group']} | {m['name']} | {ms(m['median_s'])} | {ms(m['min_s'])} |")
    out += ["", END]
    return "\n".join(out) + "\n"


def attribution(rows: list[dict[str, Any]]) -> list[str]:
    def mean(fn: Callable[[dict[str, Any]], float]) -> float:
        return statistics.fmean(fn(r) for r in rows)

    def ph(r: dict[str, Any], *keys: str) -> float:
        return sum(r["phases_warm"][k] for k in keys)

    def floor_tests(r: dict[str, Any]) -> float:
        return float(r["floor_parts"]["f2p_s"] + r["floor_parts"]["p2p_s"])

    parts = [
        ("agent session (noop: all of it)", mean(lambda r: ph(r, "agent_session"))),
        (
            "sandboxed pytest − plain pytest (f2p + p2p)",
            mean(lambda r: ph(r, "f2p_exec", "p2p_exec") - floor_tests(r)),
        ),
        ("grading copies, JUnit parsing, logs", mean(lambda r: ph(r, "f2p_copy", "p2p_copy"))),
        (
            "workspace prep − the floor's `cp -r`",
            mean(lambda r: ph(r, "prep") - r["floor_parts"]["copy_s"]),
        ),
        ("run setup + verdict/ledger/lock", mean(lambda r: ph(r, "setup", "finish"))),
    ]
    total = mean(lambda r: r["warm_s"] - r["floor_s"])
    lines = [f"| {name} | {ms(v)} |" for name, v in parts]
    lines.append(f"| **realcli run − floor (medians)** | **{ms(total)}** |")
    lines.append(
        "| *+ a task version's first run (caches empty)* |"
        f" *{ms(mean(lambda r: r['first_run_extra_s']))}* |"
    )
    return lines


def short(task_id: str) -> str:
    return task_id.removeprefix("smoke-")


def fmt_load(load: Sequence[float]) -> str:
    return " ".join(f"{x:.2f}" for x in load)


def busy(info: dict[str, Any]) -> str:
    load = max(info["loadavg_start"][0], info["loadavg_end"][0])
    return "busy: other jobs ran meanwhile" if load > 0.75 * info["nproc"] else "mostly idle"


def write_section(path: Path, section: str) -> None:
    """Replace the generated part of ``path`` (between the markers), keeping the rest."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
