"""The contract every sandbox backend satisfies. Subclass it and provide ``make_sandbox``.

Real processes only: commands really run in the sandbox, the gateway really listens on a
Unix socket, and leftover processes are looked for in the host's /proc.
"""

from __future__ import annotations

import secrets
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from realcli.gateway import Gateway, NoopBackend
from realcli.sandbox import Sandbox, SandboxError

MakeSandbox = Callable[..., Sandbox]
REPO = Path(__file__).resolve().parents[2]


def sh(sandbox: Sandbox, script: str, timeout_s: float = 20.0, **kw: object) -> tuple[int, str]:
    r = sandbox.exec(["sh", "-c", script], timeout_s=timeout_s, **kw)  # type: ignore[arg-type]
    return r.returncode, r.stdout + r.stderr


def unique_sleep() -> str:
    """A sleep duration no other process on the host has in its argv."""
    return f"{1000 + secrets.randbelow(10**6)}.{secrets.randbelow(10**6):06d}"


class SandboxContract:
    own_root: frozenset[str] = frozenset()
    """Paths of the sandbox's own root filesystem when it is an image (docker's ``/var``,
    ``/etc/shadow``, ``/root/.bashrc``): they may exist inside, but none may be a mount of the
    host's (no mount point of them in ``/proc/self/mountinfo``). Empty: the root is the host's
    and none may exist."""

    @pytest.fixture
    def make_sandbox(self, tmp_path: Path) -> MakeSandbox:
        raise NotImplementedError("subclasses provide make_sandbox(**options)")

    @pytest.fixture
    def sandbox(self, make_sandbox: MakeSandbox) -> Sandbox:
        return make_sandbox()

    # ----------------------------------------------------------------- exec basics
    def test_exec_returns_output_and_exit_code(self, sandbox: Sandbox) -> None:
        r = sandbox.exec(["sh", "-c", "echo out; echo err >&2; exit 7"], timeout_s=20)
        assert (r.returncode, r.stdout, r.stderr, r.timed_out) == (7, "out\n", "err\n", False)
        assert not r.ok and r.duration_s > 0
        assert sandbox.exec(["true"], timeout_s=20).ok

    def test_exec_stdin_cwd_and_env(self, sandbox: Sandbox) -> None:
        r = sandbox.exec(["cat"], timeout_s=20, stdin="héllo\n")
        assert r.stdout == "héllo\n"
        r = sandbox.exec(["sh", "-c", "pwd; echo $X"], timeout_s=20, cwd="/tmp", env={"X": "y"})
        assert r.stdout == "/tmp\ny\n"
        assert sandbox.exec(["pwd"], timeout_s=20).stdout.strip() == sandbox.options.workdir

    def test_missing_command_is_a_failed_result(self, sandbox: Sandbox) -> None:
        r = sandbox.exec(["no-such-command-xyz"], timeout_s=20)
        assert r.returncode != 0 and not r.timed_out

    def test_bad_arguments_raise(self, sandbox: Sandbox, make_sandbox: MakeSandbox) -> None:
        with pytest.raises(ValueError):
            sandbox.exec([], timeout_s=5)
        with pytest.raises(ValueError):
            sandbox.exec(["true"], timeout_s=0)
        with pytest.raises(ValueError):
            sandbox.exec(["true"], timeout_s=5, cwd="relative")
        with pytest.raises(SandboxError):
            make_sandbox(workspace=Path("/nonexistent/realcli-ws")).exec(["true"], timeout_s=5)

    def test_timeout_kills_the_whole_tree(
        self, sandbox: Sandbox, processes_with_arg: Callable[[str], list[int]]
    ) -> None:
        tag = unique_sleep()
        started = time.monotonic()
        r = sandbox.exec(["sh", "-c", f"setsid sleep {tag} & sleep {tag}"], timeout_s=1.0)
        assert r.timed_out and r.returncode != 0
        assert time.monotonic() - started < 6
        assert processes_with_arg(tag) == []

    # ----------------------------------------------------------------- filesystem
    def test_workspace_writable_system_read_only(self, make_sandbox: MakeSandbox) -> None:
        sandbox = make_sandbox()
        code, out = sh(sandbox, "echo hi > made.txt && mkdir -p d/e && touch d/e/f")
        assert code == 0, out
        assert (sandbox.options.workspace / "made.txt").read_text() == "hi\n"
        for target in ("/usr/realcli-probe", "/etc/realcli-probe", "/bin/realcli-probe"):
            code, out = sh(sandbox, f"touch {target}")
            assert code != 0, target
        code, out = sh(sandbox, f"touch {sys.base_prefix}/realcli-probe")
        assert code != 0
        code, _ = sh(sandbox, "echo x > /tmp/t && test -d $HOME && echo y > $HOME/h")
        assert code == 0

    def test_no_host_paths_visible(self, sandbox: Sandbox) -> None:
        probes = [
            "/etc/shadow",
            "/etc/gshadow",
            "/etc/ssl/private",
            "/etc/ssh",
            "/root/.ssh",
            "/home",
            "/work/shared",
            str(REPO / "pyproject.toml"),
            str(REPO / "realcli"),
            str(REPO / "tasks"),
            "/mnt",
            "/opt",
            "/var",
            "/srv",
        ]
        hidden = [p for p in probes if p not in self.own_root]
        _, out = sh(sandbox, " ; ".join(f"test -e {p} && echo VISIBLE {p}" for p in hidden))
        assert "VISIBLE" not in out
        _, out = sh(sandbox, "cat /proc/self/mountinfo")
        mount_points = {line.split()[4] for line in out.splitlines() if len(line.split()) > 4}
        assert not mount_points & self.own_root, "a path of the image's root is the host's"
        # /root exists only as the parent of the Python installation, nothing else of it.
        _, out = sh(sandbox, "ls -A /root")
        image_own = {p.removeprefix("/root/") for p in self.own_root if p.startswith("/root/")}
        visible = set(out.split()) - image_own
        assert visible <= {".pyenv"} if sys.base_prefix.startswith("/root/") else not visible
        _, out = sh(sandbox, "ls /etc")
        assert "passwd" in out.split()
        assert "shadow" not in out.split() or "/etc/shadow" in self.own_root

    def test_python_with_pytest_works_inside(self, sandbox: Sandbox) -> None:
        (sandbox.options.workspace / "test_ok.py").write_text("def test_ok():\n    assert 1\n")
        r = sandbox.exec(["python", "-m", "pytest", "-q", "-p", "no:cacheprovider"], timeout_s=60)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "1 passed" in r.stdout

    def test_ro_binds(self, make_sandbox: MakeSandbox, tmp_path: Path) -> None:
        tests = tmp_path / "hidden-tests"
        tests.mkdir()
        (tests / "t.txt").write_text("grading")
        sandbox = make_sandbox(ro_binds=((tests, "/grading"),))
        code, out = sh(sandbox, "cat /grading/t.txt; touch /grading/x")
        assert out.startswith("grading") and code != 0

    # ----------------------------------------------------------------- secrets, network
    def test_no_host_env_leaks(
        self, make_sandbox: MakeSandbox, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        secret = "fake-" + secrets.token_hex(16)
        monkeypatch.setenv("FAKE_API_KEY", secret)
        sandbox = make_sandbox(env={"ALLOWED": "yes"})
        r = sandbox.exec(
            ["sh", "-c", "env; cat /proc/[0-9]*/environ | tr '\\0' '\\n'"], timeout_s=20
        )
        assert secret not in r.stdout and "FAKE_API_KEY" not in r.stdout
        assert "ALLOWED=yes" in r.stdout and "HOME=/tmp/home" in r.stdout
        r = sandbox.exec(["sh", "-c", "cat /proc/[0-9]*/cmdline | tr '\\0' ' '"], timeout_s=20)
        assert str(sandbox.options.workspace) not in r.stdout  # host paths stay outside

    def test_host_loopback_listener_unreachable(self, sandbox: Sandbox) -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            port = listener.getsockname()[1]
            probe = (
                "import socket,sys\n"
                "s=socket.socket(); s.settimeout(3)\n"
                f"try:\n    s.connect(('127.0.0.1', {port})); print('CONNECTED')\n"
                "except OSError as e:\n    print('REFUSED', type(e).__name__)\n"
            )
            r = sandbox.exec(["python3", "-c", probe], timeout_s=20)
            assert r.stdout.startswith("REFUSED"), r.stdout + r.stderr
            _, out = sh(sandbox, "cat /proc/net/dev")
            interfaces = {line.split(":")[0].strip() for line in out.splitlines() if ":" in line}
            assert interfaces == {"lo"}

    def test_gateway_reachable_through_forwarder(
        self, make_sandbox: MakeSandbox, socket_dir: Path
    ) -> None:
        calls: list[object] = []
        with Gateway(NoopBackend(), calls.append, model_id="m-1").start(socket_dir / "gw.sock"):
            sandbox = make_sandbox(gateway_socket=socket_dir / "gw.sock", gateway_port=18765)
            probe = (
                "import json,os,urllib.request as u\n"
                "base=os.environ['REALCLI_GATEWAY_URL']\n"
                "print(json.load(u.urlopen(base+'/models'))['data'][0]['id'])\n"
                "req=u.Request(base+'/chat/completions', method='POST',"
                " data=json.dumps({'model':'m-1','messages':[{'role':'user','content':'hi'}]})"
                ".encode(), headers={'Content-Type':'application/json'})\n"
                "print(json.load(u.urlopen(req))['choices'][0]['message']['content'])\n"
            )
            r = sandbox.exec(["python3", "-c", probe], timeout_s=30)
            assert r.returncode == 0, r.stderr
            assert r.stdout.split() == ["m-1", "done"]
            assert len(calls) == 1
            r = sandbox.exec(["sh", "-c", "exit 5"], timeout_s=20)
            assert r.returncode == 5  # the launcher relays the command's exit code

    # ----------------------------------------------------------------- processes
    def test_spawn_streams_stdout_and_keeps_stderr(self, sandbox: Sandbox) -> None:
        with sandbox.spawn(["sh", "-c", "echo one; echo oops >&2; echo two; exit 3"]) as proc:
            assert list(proc.stdout) == ["one\n", "two\n"]
            assert proc.wait(timeout=20) == 3
            assert proc.stderr_text() == "oops\n"
            assert proc.poll() == 3

    def test_spawn_wait_timeout_raises(self, sandbox: Sandbox) -> None:
        with sandbox.spawn(["sleep", "30"]) as proc:
            with pytest.raises(TimeoutError):
                proc.wait(timeout=0.2)
            assert proc.poll() is None

    def test_kill_tree_kills_daemons(
        self, sandbox: Sandbox, processes_with_arg: Callable[[str], list[int]]
    ) -> None:
        a, b, c = unique_sleep(), unique_sleep(), unique_sleep()
        script = (
            f"setsid sleep {a} & nohup sleep {b} >/dev/null 2>&1 & "
            f"(setsid sh -c 'sleep {c} & exit 0' &) ; echo ready; sleep 1000"
        )
        proc = sandbox.spawn(["sh", "-c", script])
        try:
            assert next(iter(proc.stdout)) == "ready\n"
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not all(processes_with_arg(t) for t in (a, b, c)):
                time.sleep(0.05)
            assert all(processes_with_arg(t) for t in (a, b, c)), "daemons did not start"
        finally:
            proc.kill_tree()
            proc.kill_tree()  # idempotent
        assert [processes_with_arg(t) for t in (a, b, c)] == [[], [], []]
        proc.close()

    def test_command_exit_takes_daemons_along(
        self, sandbox: Sandbox, processes_with_arg: Callable[[str], list[int]]
    ) -> None:
        tag = unique_sleep()
        r = sandbox.exec(
            ["sh", "-c", f"setsid nohup sleep {tag} >/dev/null 2>&1 & exit 0"], timeout_s=20
        )
        assert r.returncode == 0 and not r.timed_out
        assert processes_with_arg(tag) == []

    # ----------------------------------------------------------------- limits
    def test_memory_limit_stops_allocation_bomb(self, make_sandbox: MakeSandbox) -> None:
        sandbox = make_sandbox(memory_mb=256)
        r = sandbox.exec(["python3", "-c", "x = bytearray(1 << 30)"], timeout_s=20)
        assert r.returncode != 0 and "MemoryError" in r.stderr
        r = sandbox.exec(["python3", "-c", "x = bytearray(16 << 20); print('ok')"], timeout_s=20)
        assert r.stdout == "ok\n"

    def test_file_size_limit(self, make_sandbox: MakeSandbox) -> None:
        sandbox = make_sandbox(max_file_mb=1)
        code, _ = sh(sandbox, "head -c 3000000 /dev/zero > big.bin")
        assert code != 0
        assert (sandbox.options.workspace / "big.bin").stat().st_size <= 1024 * 1024
