"""Launcher run INSIDE a Docker sandbox (stdlib only, any Python >= 3.8), after the container
runtime: per-process limits, then the command (through the gateway forwarder when asked).

    python3 -I -S docker_inside.py --as BYTES --cpu S --fsize BYTES [--data] \
        [--forwarder inside.py --socket S --port P] -- CMD [ARGS...]

Why not Docker's own ulimits: the runtime (runc, a Go program) starts under them, and an
address-space limit of a few hundred MB stops it before the command runs. So the limits are
set here, in the container, by the process that then becomes the command (``exec``), as
``local``'s ``preexec_fn`` does. A command that cannot start exits 127 with
``realcli launcher: cannot run`` (the mark the runner looks for), as ``inside.py`` does.
"""

from __future__ import annotations

import os
import resource
import sys

LAUNCH_FAILED_EXIT = 127
LAUNCH_FAILED_MARK = "realcli launcher: cannot run"


def main(argv: list[str]) -> int:
    if "--" not in argv:
        sys.stderr.write("docker_inside.py: usage: ... -- CMD [ARGS...]\n")
        return 2
    split = argv.index("--")
    opts, command = argv[:split], argv[split + 1 :]
    values: dict[str, str] = {}
    flags: set[str] = set()
    i = 0
    while i < len(opts):
        if opts[i] == "--data":
            flags.add("data")
            i += 1
        else:
            values[opts[i].lstrip("-")] = opts[i + 1]
            i += 2
    if not command:
        sys.stderr.write("docker_inside.py: no command given\n")
        return 2
    memory = resource.RLIMIT_DATA if "data" in flags else resource.RLIMIT_AS
    for which, key in (
        (memory, "as"),
        (resource.RLIMIT_CPU, "cpu"),
        (resource.RLIMIT_FSIZE, "fsize"),
    ):
        if key in values:
            value = int(values[key])
            resource.setrlimit(which, (value, value))
    if "forwarder" in values:
        forwarder = values["forwarder"]
        gateway = ["--socket", values["socket"], "--port", values["port"], "--"]
        command = [sys.executable, "-I", "-S", forwarder, *gateway, *command]
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"{LAUNCH_FAILED_MARK} {command[0]!r}: {exc}\n")
        return LAUNCH_FAILED_EXIT
    return LAUNCH_FAILED_EXIT  # not reached: execvp replaces this process


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
