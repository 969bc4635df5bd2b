"""The launcher of the openhands harness (see :mod:`realcli.harness.openhands`): runs the
OpenHands CLI inside the sandbox with the SDK's iteration limit set. Stdlib only."""

from __future__ import annotations

from realcli.harness.cli_agent import script_of

__all__ = ["launch_main", "launch_source"]


def launch_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run the OpenHands CLI with the SDK's iteration limit set (see the module docstring).

    Self-contained and stdlib only: its source is written to the per-run home and run with
    OpenHands's Python. ``launch.py --max-iterations N --instruction-file FILE -- CLI ARGS``.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="openhands_launch")
    parser.add_argument("--max-iterations", type=int, required=True)
    parser.add_argument("--instruction-file", required=True)
    parser.add_argument("cli_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cli_args = args.cli_args[1:] if args.cli_args[:1] == ["--"] else args.cli_args
    with open(args.instruction_file, encoding="utf-8") as f:
        instruction = f.read()

    from openhands.sdk.conversation.impl.local_conversation import LocalConversation

    init = LocalConversation.__init__
    limit = args.max_iterations

    def limited_init(self: object, *a: object, **kw: object) -> None:
        kw["max_iteration_per_run"] = limit
        init(self, *a, **kw)

    LocalConversation.__init__ = limited_init
    sys.argv = ["openhands", *cli_args, f"--task={instruction}"]
    from openhands_cli.entrypoint import main

    main()
    return 0


def launch_source() -> str:
    """The launcher as a script (its source plus the call)."""
    return script_of(launch_main)
