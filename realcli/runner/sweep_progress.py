"""Live progress of a ``realcli run --multirun`` sweep, and its summary table at the end.

A Hydra callback (:class:`SweepProgress`, added by ``realcli run`` to every multirun):

* ``on_multirun_start`` (the parent): plans the sweep (:mod:`realcli.runner.sweep_plan`: the
  total is known before the first job), makes the sweep's status folder and starts a watcher
  thread that reads the jobs' status files (:mod:`realcli.runner.sweep_status`) four times a
  second. It is the only writer of the console: on a terminal a rich ``Live`` display (a
  ``Progress`` bar with the counts, one line per running run) with the finished-run lines
  printed above it; elsewhere (CI, a pipe, a log file) plain lines, no ANSI: a status line
  ``[5/8] done · 1 running · 3 passed · 2 failed · 0 errors · 0 skipped · 00:41 elapsed · ETA
  00:22`` each time the counts change and every 30 s.
* ``on_job_start`` / ``on_job_end`` (each job's process: the callback travels pickled with
  Hydra's context): opens the job's status file; records an unexpected job failure.
* ``on_multirun_end`` (the parent): stops the watcher and prints the summary table.

``realcli run`` calls :func:`finish_sweep` after Hydra returns or raises, so the summary is
printed even when a job crashed, and its exit code is 2 when one did (as a bad config is).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hydra.core.utils import JobReturn, JobStatus
from hydra.experimental.callback import Callback
from omegaconf import DictConfig
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.text import Text

from realcli.runner.sweep_plan import PlannedRun, SweepPlan, plan_sweep
from realcli.runner.sweep_status import JobReporter, RunResult, read_job_status, result_from_json
from realcli.runner.sweep_store import from_store, wait_for_locked

__all__ = ["SweepProgress", "SweepState", "finish_sweep", "job_reporter"]

POLL_S = 0.25
PLAIN_EVERY_S = 30.0

_REPORTER: JobReporter | None = None  # this process's current job (set in on_job_start)
_ACTIVE: _Watcher | None = None  # the parent's watcher while a sweep runs
_EXIT: int | None = None  # the finished sweep's exit code (kept for realcli run)


def job_reporter() -> JobReporter | None:
    """The status file of the job running in this process, None outside a watched sweep."""
    return _REPORTER


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    s = round(seconds)
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60:02d}:{rest % 60:02d}"


@dataclass
class SweepState:
    """What the parent knows: the plan, each run's result, each job's status."""

    plan: SweepPlan | None
    started: float = field(default_factory=time.monotonic)
    results: dict[str, RunResult] = field(default_factory=dict)
    running: dict[int, dict[str, Any]] = field(default_factory=dict)
    failed_jobs: dict[int, str] = field(default_factory=dict)
    first_run_started: float | None = None

    def counts(self) -> dict[str, int]:
        results = list(self.results.values())
        errors = sum(r.is_error for r in results)
        planned = {j.num for j in self.plan.jobs if j.error is not None} if self.plan else set()
        errors += len(planned & set(self.failed_jobs))  # unplannable jobs: one error each
        done = len(results) + len(planned & set(self.failed_jobs))
        return {
            "done": done,
            "running": len(self.running),
            "passed": sum(r.passed and not r.is_error for r in results),
            "failed": sum(r.failed for r in results),
            "errors": errors,
            "skipped": sum(r.state in ("skipped", "locked") for r in results),
        }

    def eta(self) -> float | None:
        """Remaining runs over the throughput of the runs this sweep executed (skipped runs
        take no time, so they are not in the rate)."""
        c = self.counts()
        executed = c["done"] - c["skipped"]
        total = self.plan.total if self.plan else None
        if total is None or executed <= 0:
            return 0.0 if total is not None and c["done"] >= total else None
        since = self.first_run_started or self.started  # a run may start and end unseen
        rate = executed / max(time.monotonic() - since, 1e-6)
        return (total - c["done"]) / rate

    def status_line(self) -> str:
        c = self.counts()
        total = self.plan.total if self.plan else "?"
        return (
            f"[{c['done']}/{total}] done · {c['running']} running · {c['passed']} passed · "
            f"{c['failed']} failed · {c['errors']} errors · {c['skipped']} skipped · "
            f"{_clock(time.monotonic() - self.started)} elapsed · ETA {_clock(self.eta())}"
        )


class _Watcher:
    """The parent's thread: reads status files, prints lines, redraws the display."""

    def __init__(self, plan: SweepPlan | None, status_dir: Path) -> None:
        self.state = SweepState(plan)
        self.status_dir = status_dir
        self.console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
        self.live_mode = self.console.is_terminal and not self.console.is_dumb_terminal
        if not self.live_mode:  # a log or a pipe: never truncate cells to a narrow COLUMNS
            self.console.width = max(160, self.console.width)
        self._seen: dict[Path, tuple[int, int, int]] = {}
        self._lines: dict[int, int] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._last_plain: tuple[str, float] = ("", 0.0)
        self._runs = {r.run_key: r for r in plan.runs} if plan else {}
        self._progress = Progress(
            TextColumn("[bold]sweep"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            console=self.console,
        )
        self._task: TaskID = self._progress.add_task(
            "sweep", total=plan.total if plan else None, counts=""
        )
        self._live: Live | None = None
        self._thread = threading.Thread(target=self._loop, name="realcli-sweep", daemon=True)
        self.finished = False

    def start(self) -> None:
        if self.live_mode:
            self._live = Live(self._renderable(), console=self.console, refresh_per_second=4)
            self._live.start()
        self._thread.start()

    def _poll(self) -> None:
        for path in sorted(self.status_dir.glob("job-*.json")):
            try:  # each atomic rewrite is a new inode: coarse mtimes (NFS) miss no update
                st = path.stat()
            except OSError:
                continue
            version = (st.st_ino, st.st_mtime_ns, st.st_size)
            if self._seen.get(path) == version:
                continue
            data = read_job_status(path)
            if data is None:
                continue
            self._seen[path] = version
            self._take(data)

    def _take(self, data: dict[str, Any]) -> None:
        job = int(data.get("job", -1))
        st = self.state
        for key, raw in (data.get("runs") or {}).items():
            st.results[key] = result_from_json(raw)
        running = data.get("running")
        if running:
            st.running[job] = running
            if st.first_run_started is None:
                st.first_run_started = time.monotonic()
        else:
            st.running.pop(job, None)
        if data.get("state") == "error":
            st.failed_jobs[job] = error = str(data.get("error") or "failed")
            for run in self.state.plan.runs if self.state.plan else []:
                if run.job == job and run.run_key not in st.results:
                    st.results[run.run_key] = RunResult("error", error=f"not run: {error}")
        lines = data.get("lines") or []
        for line in lines[self._lines.get(job, 0) :]:
            self.console.print(Text(line))
        self._lines[job] = len(lines)

    def _counts_text(self) -> str:
        c = self.state.counts()
        st = self.state
        return (
            f"· {c['running']} running · {c['passed']} passed · {c['failed']} failed · "
            f"{c['errors']} errors · {c['skipped']} skipped · "
            f"{_clock(time.monotonic() - st.started)} elapsed · ETA {_clock(st.eta())}"
        )

    def _renderable(self) -> Group:
        lines: list[Any] = [self._progress]
        for job, r in sorted(self.state.running.items()):
            planned = self._runs.get(str(r.get("run_key")))
            what = _describe(planned) if planned else f"job #{job}"
            since = time.time() - float(r.get("since") or time.time())
            lines.append(
                Text(f"  running  {r.get('run_key')} {r.get('task_id')}  {what}  {_clock(since)}")
            )
        return Group(*lines)

    def _refresh(self) -> None:
        c = self.state.counts()
        self._progress.update(self._task, completed=c["done"], counts=self._counts_text())
        if self._live is not None:
            self._live.update(self._renderable())
            return
        line = self.state.status_line()
        key = line.split(" · ", 2)[0] + str(c)
        now = time.monotonic()
        if key != self._last_plain[0] or now - self._last_plain[1] >= PLAIN_EVERY_S:
            self.console.print(line)
            self._last_plain = (key, now)

    def _loop(self) -> None:
        while not self._stop.wait(POLL_S):
            with self._lock:
                self._poll()
                self._refresh()

    def flush(self) -> None:
        """Read and print now (a job of the basic launcher ended in this process: its lines
        come before Hydra announces the next job)."""
        with self._lock:
            self._poll()
            self._refresh()

    def stop(self) -> SweepState:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        with self._lock:
            self._poll()
            planned = self.state.plan.runs if self.state.plan else []
            locked = [r for r in planned if (s := self.state.results.get(r.run_key)) and s.pending]
            say = self.console.print
            self.state.results.update(wait_for_locked(locked, say))  # another sweep's runs
            for run in planned:
                if run.run_key not in self.state.results:  # the shared run store may know it
                    stored = from_store(run, "stored")
                    if stored is not None:
                        self.state.results[run.run_key] = stored
                        continue
                if run.run_key not in self.state.results:  # its job died without a word
                    self.state.results[run.run_key] = RunResult(
                        "error", error="not run: its job ended without reporting it"
                    )
            for job in self.state.plan.jobs if self.state.plan else []:
                if job.error is not None:
                    self.state.failed_jobs.setdefault(job.num, job.error)
            self.state.running.clear()
            self._refresh()
        if self._live is not None:
            self._live.stop()
        self.finished = True
        return self.state


def _describe(run: PlannedRun) -> str:
    return (
        f"seed={run.seed} model={run.model} harness={run.harness} mode={run.mode}"
        f" protocol={run.protocol}"
    )


def finish_sweep() -> int | None:
    """Stop the sweep's display and print its summary (once); the exit code: 2 when a job
    crashed, else 0 (also when called again, e.g. after the summary itself failed). None when
    no sweep was watched."""
    global _ACTIVE, _EXIT
    watcher, _ACTIVE = _ACTIVE, None
    if watcher is None:
        return _EXIT
    from realcli.runner.sweep_summary import print_summary

    state = watcher.stop()
    _EXIT = 2 if state.failed_jobs else 0
    try:
        print_summary(watcher.console, state)
    finally:
        shutil.rmtree(watcher.status_dir, ignore_errors=True)
    return _EXIT


class SweepProgress(Callback):
    """See the module docstring. Holds only picklable state (a path)."""

    def __init__(self) -> None:
        self.status_dir: str | None = None

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        global _ACTIVE, _EXIT
        _EXIT = None
        sweep_dir = Path(str(config.hydra.sweep.dir))
        status_dir = sweep_dir / ".status" / f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        status_dir.mkdir(parents=True, exist_ok=True)
        self.status_dir = str(status_dir)
        _ACTIVE = _Watcher(plan_sweep(config), status_dir)
        _ACTIVE.start()

    def on_job_start(self, config: DictConfig, **kwargs: Any) -> None:
        global _REPORTER
        if self.status_dir is None:
            return
        num = int(config.hydra.job.num)
        _REPORTER = JobReporter(Path(self.status_dir) / f"job-{num}.json", num)

    def on_job_end(self, config: DictConfig, job_return: JobReturn, **kwargs: Any) -> None:
        global _REPORTER
        reporter, _REPORTER = _REPORTER, None
        if reporter is None:
            return
        if job_return.status == JobStatus.FAILED:
            exc = job_return._return_value
            reporter.failed(f"{type(exc).__name__}: {exc}")
        reporter.done()
        if _ACTIVE is not None:  # the job ran in the parent (basic launcher)
            _ACTIVE.flush()

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        code = finish_sweep()
        if code:
            raise SystemExit(code)
