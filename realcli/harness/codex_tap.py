"""The rollout tap of the codex harness (see :mod:`realcli.harness.codex`): runs ``codex exec``
inside the sandbox and streams its rollout and stdout as JSON lines. Stdlib only."""

from __future__ import annotations

from realcli.harness.cli_agent import script_of

__all__ = ["tap_main", "tap_source"]


def tap_main() -> int:  # pragma: no cover - runs inside the sandbox (tested through runs)
    """Run ``codex exec`` and stream its rollout and stdout as JSON lines (module docstring).

    Self-contained and stdlib only. ``tap.py --codex-home DIR --model ID --catalog-model NAME
    --catalog-patch JSON --max-turns N --prompt-file FILE -- CODEX ARGS...`` (the codex
    binary first; ``debug models --bundled`` is run with it).
    """
    import argparse
    import contextlib
    import json
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    parser = argparse.ArgumentParser(prog="codex_tap")
    parser.add_argument("--codex-home", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--catalog-model", required=True)
    parser.add_argument("--catalog-patch", default="{}")
    parser.add_argument("--catalog-file", required=True)
    parser.add_argument("--max-turns", type=int, default=0)
    parser.add_argument("--prompt-file", required=True)
    parser.add_argument("--poll", type=float, default=0.05)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    lock = threading.Lock()

    def emit(record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False)
        with lock:
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except (BrokenPipeError, ValueError):
                pass

    # 1. the model catalog
    try:
        bundled = subprocess.run(
            [cmd[0], "debug", "models", "--bundled"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        models = json.loads(bundled.stdout)["models"]
        by_slug = {m.get("slug"): m for m in models if isinstance(m, dict)}
        base = args.model if args.model in by_slug else args.catalog_model
        entry = dict(by_slug[base])
        entry.update({"slug": args.model, "display_name": args.model})
        entry.update(json.loads(args.catalog_patch))
        with open(args.catalog_file, "w", encoding="utf-8") as f:
            json.dump({"models": [entry]}, f)
        emit({"type": "catalog", "model": args.model, "base": base})
    except Exception as exc:  # Codex then runs on its fallback metadata: say so
        emit({"type": "tap_error", "stage": "catalog", "error": f"{type(exc).__name__}: {exc}"})

    # 2. codex exec
    with open(args.prompt_file, encoding="utf-8") as f:
        prompt = f.read()
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    assert proc.stdin is not None and proc.stdout is not None
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write(prompt)
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()
    emit({"type": "tap_start", "pid": proc.pid})

    def forward(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            proc.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            text = line.rstrip("\n")
            try:
                event = json.loads(text)
            except ValueError:
                event = None
            if isinstance(event, dict):
                emit({"type": "exec", "event": event})
            else:
                emit({"type": "exec", "text": text})

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()

    # 3. the rollout, line by line
    sessions = os.path.join(args.codex_home, "sessions")
    offsets: dict = {}
    state = {"turns": 0, "calls": 0, "stopped": False}

    def tail() -> None:
        found = []
        for root, _dirs, files in os.walk(sessions):
            found += [os.path.join(root, n) for n in files if n.startswith("rollout-")]
        for path in sorted(found):  # one rollout per exec (sub-agents are off)
            try:
                with open(path, "rb") as f:
                    f.seek(offsets.get(path, 0))
                    data = f.read()
            except OSError:
                continue
            end = data.rfind(b"\n") + 1  # complete lines only
            offsets[path] = offsets.get(path, 0) + end
            for raw in data[:end].splitlines():
                try:
                    record = json.loads(raw.decode("utf-8", errors="replace"))
                except ValueError:
                    emit({"type": "tap_error", "stage": "rollout", "error": raw[:200].decode()})
                    continue
                watch(record)
                meta = record.get("payload") if isinstance(record, dict) else None
                base = meta.get("base_instructions") if isinstance(meta, dict) else None
                if isinstance(meta, dict) and isinstance(base, dict) and "text" in base:
                    n = len(str(base["text"]))  # ~20 KB, kept in the rollout file itself
                    meta["base_instructions"] = {"text": f"[{n} characters: see the rollout]"}
                emit({"type": "rollout", "file": os.path.basename(path), "record": record})

    def watch(record: object) -> None:
        if not isinstance(record, dict):
            return
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return
        if record.get("type") == "response_item" and payload.get("type") in (
            "function_call",
            "custom_tool_call",
        ):
            state["calls"] += 1
        elif record.get("type") == "token_usage_record":
            state["turns"] += 1
            asked, state["calls"] = state["calls"], 0
            if args.max_turns and state["turns"] >= args.max_turns and asked:
                state["stopped"] = True  # the next model call would be one too many
                with contextlib.suppress(OSError):
                    proc.terminate()

    while proc.poll() is None:
        tail()
        time.sleep(args.poll)
    reader.join(timeout=5.0)
    tail()
    code = proc.returncode
    emit({"type": "tap_end", "exit_code": code, "max_turns": state["stopped"]})
    return code if code >= 0 else 128 - code


def tap_source() -> str:
    """The tap as a script (its source plus the call)."""
    return script_of(tap_main)
