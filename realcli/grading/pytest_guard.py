"""realcli's pytest guard: the program that runs pytest inside the grading sandbox.

It is started as ``python -I pytest_guard.py STREAM JUNIT -- <pytest arguments>`` with a fresh
secret key on its standard input, and it runs before any code of the workspace is imported.
Everything the code under test could use to turn a failing test into a pass is watched:

- **A result stream the tested code cannot forge undetected.** Every test report, collection
  error and finding is one line of ``STREAM``: ``<mac> <json>``, where each MAC is an
  HMAC-SHA256 (with the key read from stdin, which is then closed) over the previous MAC and
  the record, so a line added, changed, removed or reordered breaks the chain. The last record
  (``end``) carries pytest's exit status, the counts and the SHA-256 of the JUnit XML.
- **What really happened, beside what was reported.** A hook wrapper around
  ``pytest_runtest_makereport`` sees the call's exception itself (``CallInfo.excinfo``); a test
  that raised but is reported passed is a finding, whoever rewrote the report.
- **pytest's own code does not change.** Every function and class attribute of ``_pytest``,
  ``pytest``, ``pluggy`` and this guard is fingerprinted before the first conftest loads and
  checked again at collection end, at every report and at the end; a plugin that the code
  under test registers for a reporting hook is a finding too.
- **An audit hook** (``sys.addaudithook``: Python cannot remove it) blocks and records setting
  attributes on those classes or functions (``object.__setattr__``), heap walks
  (``gc.get_objects`` / ``get_referrers`` / ``get_referents``, the way to find the key) and
  opening the stream or the JUnit XML for writing from code of the workspace.
- **No exit hook runs.** After pytest returns, the guard writes ``end`` and leaves with
  ``os._exit``, so ``atexit`` handlers of the code under test never see the finished report.

The host (:mod:`realcli.grading.guard`) checks the chain, the canary test it planted among the
task's tests (which must be reported failed), the exit status, the summary line and the XML;
any disagreement marks the test set tampered. This file imports nothing of realcli (it runs
with the grading sandbox's Python and pytest only).
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import hmac
import json
import os
import sys
import threading
import types
from collections.abc import Generator
from typing import Any

import pytest

__all__ = ["main"]

_WATCHED_PREFIXES = ("_pytest", "pytest", "pluggy")
_REPORTING_HOOKS = frozenset(
    {
        "pytest_runtest_makereport",
        "pytest_runtest_logreport",
        "pytest_runtest_protocol",
        "pytest_runtestloop",
        "pytest_report_teststatus",
        "pytest_report_to_serializable",
        "pytest_report_from_serializable",
        "pytest_collectreport",
        "pytest_make_collect_report",
        "pytest_terminal_summary",
        "pytest_sessionfinish",
        "pytest_unconfigure",
    }
)
_MESSAGE_CHARS = 2000
_AUDITED = frozenset(
    {
        "object.__setattr__",
        "object.__delattr__",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "open",
        "os.remove",
        "os.rename",
        "os.truncate",
        "os.link",
        "os.symlink",
    }
)
_MAX_FINDINGS = 50
_os_write = os.write
_os_exit = os._exit
_os_open = os.open
_os_close = os.close
_os_fsync = os.fsync
_hmac_new = hmac.new
_sha256 = hashlib.sha256
_dumps = json.dumps
_getframe = sys._getframe
_realpath = os.path.realpath


class _Stream:
    """Append-only, HMAC-chained record writer (see the module docstring)."""

    def __init__(self, path: str, key: bytes) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        self._fd = _os_open(path, flags, 0o600)
        self._key = key
        self._prev = b""
        self._seq = 0
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        with self._lock:
            body = _dumps({"seq": self._seq, **record}, sort_keys=True, ensure_ascii=True)
            mac = _hmac_new(self._key, self._prev + body.encode(), _sha256).hexdigest()
            _os_write(self._fd, f"{mac} {body}\n".encode())
            self._prev = mac.encode()
            self._seq += 1

    def close(self) -> None:
        with self._lock:
            _os_fsync(self._fd)
            _os_close(self._fd)


def _watched(module_name: str) -> bool:
    return module_name.startswith(_WATCHED_PREFIXES) or module_name in (__name__, "__main__")


class _Fingerprint:
    """Object and code ids of every function and class member of the watched modules, each
    binding recorded once, so that a check is one pass of identity comparisons."""

    def __init__(self) -> None:
        # (namespace, name, the bound object, its code or None, label). Objects, not id()s:
        # ``id`` is an audited event, and the audit hook would run once per comparison.
        self.entries: list[tuple[dict[str, Any], str, Any, Any, str]] = []
        seen_classes: list[type] = []
        for name, module in list(sys.modules.items()):
            if module is None or not _watched(name):
                continue
            namespace = vars(module)
            for attr, value in list(namespace.items()):
                if isinstance(value, types.FunctionType):
                    self._add(namespace, attr, value, f"{name}.{attr}")
                elif isinstance(value, type):
                    self.entries.append((namespace, attr, value, None, f"{name}.{attr}"))
                    owner = str(getattr(value, "__module__", "") or "")
                    if _watched(owner) and not any(value is c for c in seen_classes):
                        seen_classes.append(value)
                        members = vars(value)
                        for member, obj in list(members.items()):
                            label = f"{owner}.{value.__qualname__}.{member}"
                            self._add(members, member, obj, label)  # type: ignore[arg-type]

    def _add(self, namespace: dict[str, Any], name: str, obj: Any, label: str) -> None:
        func = getattr(obj, "fget", None) if isinstance(obj, property) else obj
        func = getattr(func, "__func__", func)
        if isinstance(func, types.FunctionType):
            self.entries.append((namespace, name, obj, func.__code__, label))

    def __len__(self) -> int:
        return len(self.entries)

    def changed(self, codes: bool) -> list[str]:
        """Labels of the bindings that now hold another object (or, with ``codes``, another
        code object: reading ``__code__`` is an audited event, so that costs more)."""
        out: list[str] = []
        missing = object()
        for namespace, name, expected, code, label in self.entries:
            obj = namespace.get(name, missing)
            if obj is not expected:
                out.append(label)
            elif code is not None and codes:
                func = obj.fget if isinstance(obj, property) else obj
                func = getattr(func, "__func__", func)
                if getattr(func, "__code__", None) is not code:
                    out.append(label)
        return out


class Guard:
    """The pytest plugin object (registered first, through ``pytest.main(plugins=...)``)."""

    def __init__(
        self, stream: _Stream, stream_path: str, junit_path: str, workdir: str, trusted: str
    ) -> None:
        self.stream = stream
        self.stream_path = stream_path
        self.junit_path = junit_path
        self.workdir = workdir.rstrip("/") + "/"
        self.trusted = trusted.rstrip("/") + "/"
        self.prints: _Fingerprint | None = None
        self.plugins_at_start: list[Any] = []
        self.raised: dict[tuple[str, str], str] = {}
        self.findings: list[str] = []
        self.reported: set[str] = set()
        self.flagged: list[Any] = []
        self.counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0, "xfailed": 0}
        self.ready = False
        self.inside_guard = threading.local()
        self.config: Any = None

    # ------------------------------------------------------------------ findings
    def finding(self, reason: str) -> None:
        if reason in self.findings:
            return
        self.findings.append(reason)
        if len(self.findings) <= _MAX_FINDINGS:  # the count is in the end record anyway
            self.stream.write({"t": "finding", "reason": reason[:_MESSAGE_CHARS]})

    def check(self, where: str, codes: bool = True) -> None:
        if not self.ready:
            return
        now = self.prints.changed(codes) if self.prints else []
        changed = sorted(k for k in now if k not in self.reported)
        if changed:
            self.reported.update(changed)
            shown = ", ".join(changed[:5]) + (" …" if len(changed) > 5 else "")
            self.finding(f"pytest internals changed (seen at {where}): {shown}")
        self._check_plugins(where)

    def _check_plugins(self, where: str) -> None:
        if self.config is None:
            return
        pm = self.config.pluginmanager
        for plugin in pm.get_plugins():
            known = (*self.plugins_at_start, *self.flagged, self)
            if any(plugin is p for p in known):
                continue
            source = getattr(plugin, "__file__", None) or getattr(
                sys.modules.get(type(plugin).__module__), "__file__", None
            )
            if source and _realpath(source).startswith(self.trusted):
                continue  # a conftest of the task's own tests
            if source and not _realpath(source).startswith(self.workdir):
                continue  # installed plugins (site-packages)
            hooks = sorted(
                name
                for name in dir(plugin)
                if name in _REPORTING_HOOKS and callable(getattr(plugin, name, None))
            )
            if hooks:
                self.flagged.append(plugin)
                name = pm.get_name(plugin) or repr(plugin)[:80]
                self.finding(
                    f"plugin {name} from {source or 'the code under test'} registered "
                    f"reporting hooks {', '.join(hooks)} (seen at {where})"
                )

    # ------------------------------------------------------------------ audit hook
    def audit(self, event: str, args: tuple[Any, ...]) -> None:
        if event not in _AUDITED or not self.ready:
            return  # most events (id(), frame and code reads, imports) cost one set lookup
        if getattr(self.inside_guard, "on", False):
            return
        if event in ("object.__setattr__", "object.__delattr__"):
            target = args[0]
            module = str(getattr(target, "__module__", "") or "")
            if isinstance(target, type | types.FunctionType) and _watched(module):
                # pytest never swaps its own code objects: whoever does is tampering
                qual = getattr(target, "__qualname__", repr(target))
                self._block(f"the code under test set {module}.{qual}.{args[1]}")
        elif event in ("gc.get_objects", "gc.get_referrers", "gc.get_referents"):
            if self._workspace_on_stack():
                self._block(f"{event} from the code under test")
        elif event == "open" and args and isinstance(args[0], str | bytes):
            mode = args[1] if len(args) > 1 else "r"
            flags = args[2] if len(args) > 2 else 0
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR))
            )
            path = os.fsdecode(args[0])
            if writing and _realpath(path) in self._protected() and self._workspace_on_stack():
                self._block(f"the code under test opened {path} for writing")
        elif event in ("os.remove", "os.rename", "os.truncate", "os.link", "os.symlink"):
            paths = [os.fsdecode(a) for a in args[:2] if isinstance(a, str | bytes)]
            hit = [p for p in paths if _realpath(p) in self._protected()]
            if hit and self._workspace_on_stack():
                self._block(f"the code under test tried {event} on {hit[0]}")

    def _protected(self) -> set[str]:
        return {_realpath(self.junit_path), _realpath(self.stream_path)}

    def _workspace_on_stack(self) -> bool:
        frame: types.FrameType | None = _getframe(2)
        while frame is not None:
            filename = _realpath(frame.f_code.co_filename)
            if filename.startswith(self.workdir) and not filename.startswith(self.trusted):
                return True
            frame = frame.f_back
        return False

    def _block(self, what: str) -> None:
        self.inside_guard.on = True
        try:
            self.finding(f"blocked: {what}")
        finally:
            self.inside_guard.on = False
        raise RuntimeError(f"realcli grading: {what} is not allowed while tests run")

    # ------------------------------------------------------------------ pytest hooks
    @pytest.hookimpl(trylast=True)
    def pytest_load_initial_conftests(self, early_config: Any) -> None:
        # after pytest's own set-up (legacypath patches Config here) and just before the
        # first conftest loads (Config's own trylast implementation, registered earlier,
        # runs after this one): nothing of the workspace has been imported yet
        self.config = early_config
        self.prints = _Fingerprint()
        self.plugins_at_start = list(early_config.pluginmanager.get_plugins())
        self.ready = True
        self.stream.write({"t": "ready", "fingerprinted": len(self.prints)})

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.counts["error"] += 1
            self.stream.write(
                {
                    "t": "collect_error",
                    "nodeid": report.nodeid,
                    "message": _message(report),
                }
            )

    def pytest_collection_finish(self, session: Any) -> None:
        self.stream.write({"t": "collected", "n": len(session.items)})
        self.check("collection end")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> Generator[None, Any, None]:
        # the exception as the call raised it, before any makereport implementation runs
        excinfo = call.excinfo
        if excinfo is not None:
            self.raised[(item.nodeid, call.when)] = excinfo.typename
        outcome = yield
        report = outcome.get_result()
        if excinfo is not None and report.passed:
            self.finding(
                f"{item.nodeid} ({call.when}) raised {excinfo.typename} but its report says passed"
            )

    def pytest_runtest_logreport(self, report: Any) -> None:
        raised = self.raised.get((report.nodeid, report.when))
        wasxfail = hasattr(report, "wasxfail")
        if raised is not None and report.passed:
            self.finding(
                f"{report.nodeid} ({report.when}) raised {raised} but was logged as passed"
            )
        if report.when == "call":
            key = {"passed": "passed", "failed": "failed", "skipped": "skipped"}[report.outcome]
            if wasxfail and key == "skipped":
                key = "xfailed"
            self.counts[key] += 1
        elif report.failed:
            self.counts["error"] += 1
        elif report.skipped:
            self.counts["xfailed" if wasxfail else "skipped"] += 1
        self.stream.write(
            {
                "t": "report",
                "nodeid": report.nodeid,
                "when": report.when,
                "outcome": report.outcome,
                "raised": raised,
                "wasxfail": wasxfail,
                "duration": round(float(getattr(report, "duration", 0.0) or 0.0), 6),
                "message": _message(report) if not report.passed else "",
            }
        )
        if report.when == "teardown":  # code swaps are caught by the audit hook meanwhile
            self.check(f"report of {report.nodeid}", codes=False)

    def pytest_sessionfinish(self) -> None:
        self.check("session end")


def _message(report: Any) -> str:
    crash = getattr(getattr(report, "longrepr", None), "reprcrash", None)
    text = getattr(crash, "message", None)
    if text is None:
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (file, line, reason)
            text = str(longrepr[2])
        else:
            text = str(longrepr or "")
    return text[:_MESSAGE_CHARS]


def _sha256_file(path: str) -> str | None:
    try:
        fd = _os_open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    digest = _sha256()
    try:
        while chunk := os.read(fd, 1 << 16):
            digest.update(chunk)
    finally:
        _os_close(fd)
    return digest.hexdigest()


def main(argv: list[str]) -> None:
    key_line = sys.stdin.readline().strip()
    devnull = _os_open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    _os_close(devnull)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    if len(argv) < 5 or argv[4] != "--" or len(key_line) != 64:
        sys.stderr.write(
            "usage: pytest_guard.py STREAM JUNIT WORKDIR TRUSTED -- ARGS (key on stdin)\n"
        )
        _os_exit(4)
    stream_path, junit_path, workdir, trusted = argv[:4]
    stream = _Stream(stream_path, bytes.fromhex(key_line))
    del key_line
    guard = Guard(stream, stream_path, junit_path, workdir, trusted)
    stream.write({"t": "start", "pytest": pytest.__version__, "python": sys.version.split()[0]})
    sys.addaudithook(guard.audit)
    gc.collect()
    code = 3
    try:
        code = int(pytest.main(argv[5:], plugins=[guard]))
    except BaseException as exc:
        guard.finding(f"pytest did not return normally: {type(exc).__name__}")
    junit_sha256 = _sha256_file(junit_path)
    # Exit handlers run now, under the audit hook, instead of after the report is final;
    # one that rewrites the report is blocked, and any change it makes anyway is seen here.
    try:
        atexit._run_exitfuncs()
    except BaseException as exc:
        guard.finding(f"an exit handler did not return normally: {type(exc).__name__}")
    if _sha256_file(junit_path) != junit_sha256:
        guard.finding("the JUnit XML changed while exit handlers ran")
    guard.inside_guard.on = True
    stream.write(
        {
            "t": "end",
            "exit": code,
            "counts": guard.counts,
            "findings": len(guard.findings),
            "junit_sha256": junit_sha256,
        }
    )
    stream.close()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        _os_exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
