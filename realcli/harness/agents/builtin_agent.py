"""realcli's builtin agent: a minimal tool loop over OpenAI Chat Completions.

STANDALONE and stdlib-only (Python >= 3.11): it runs INSIDE the sandbox with the system
``/usr/bin/python3`` and must not import realcli. It talks only to the model gateway.

    python3 builtin_agent.py --base-url http://127.0.0.1:8765/v1 --model ID \\
        --instruction-file /run/realcli/task/instruction.md --workdir /app \\
        --max-turns 100 --tool-timeout 300 --output-limit 16000

Tools (``builtin_tools.py``, mounted beside this script): ``shell(cmd, timeout_s?)``,
``read_file(path)``, ``write_file(path, content)``, ``edit_file(path, old, new)``; relative
paths are relative to the workdir. Stdout is one
JSON object per line (flushed): ``session_start``, ``model_response``, ``tool_call``,
``tool_result``, ``message``, ``session_end`` (reason ``done``, ``max_turns`` or ``error``).
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

if __package__:  # imported on the host (realcli.harness.agents.builtin_agent, the tests)
    from .builtin_tools import (
        GUI_PREFIX,
        REQUEST_TIMEOUT_S,
        TOOLS,
        ToolFailure,
        Tools,
        gui_tools,
        truncate,
    )
else:  # run as a script in the sandbox: ``python3 -I`` puts no folder on sys.path
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from builtin_tools import (  # type: ignore[no-redef]
        GUI_PREFIX,
        REQUEST_TIMEOUT_S,
        TOOLS,
        ToolFailure,
        Tools,
        gui_tools,
        truncate,
    )

AGENT_NAME = "realcli-builtin"
AGENT_VERSION = "1"
RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0)
RETRY_STATUSES = frozenset({429, 502, 503, 504})

SYSTEM_PROMPT = """\
You are an autonomous software engineer working in a terminal. Your working directory is \
{workdir}. Use the tools to inspect and change files and to run commands; relative paths \
are relative to {workdir}. Work step by step and verify your changes (for example by \
running the tests). Nobody will answer questions: when the task is complete, reply with a \
short summary and no tool calls."""


GUI_PROMPT = """ A desktop is running: the gui_* tools take screenshots of it and click, type, \
scroll and press keys on it (coordinates in screen pixels). Some information exists only on \
screen, and some work can only be done with files and commands."""
GUI_ONLY_PROMPT = """ You have no terminal: work through the desktop with the gui_* tools."""


def system_prompt(workdir: str, channels: set[str]) -> str:
    text = SYSTEM_PROMPT.format(workdir=workdir)
    if "gui" in channels:
        text += GUI_PROMPT if "cli" in channels else GUI_ONLY_PROMPT
    return text


class GatewayFailure(Exception):
    """The model gateway failed in a way retrying will not fix."""


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def call_model(base_url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a chat completion; retry transient failures with backoff.

    Raises:
        GatewayFailure: a non-retryable HTTP error, a bad response, or retries exhausted.
    """
    data = json.dumps(body).encode("utf-8")
    url = base_url.rstrip("/") + "/chat/completions"
    last = ""
    for attempt in range(len(RETRY_DELAYS_S) + 1):
        if attempt:
            time.sleep(RETRY_DELAYS_S[attempt - 1])
        req = urllib.request.Request(
            url, data=data, method="POST", headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as resp:
                reply = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", errors="replace")[:500]
            last = f"HTTP {exc.code}: {detail}"
            if exc.code in RETRY_STATUSES:
                continue
            raise GatewayFailure(last) from exc
        except (
            urllib.error.URLError,
            http.client.HTTPException,
            ConnectionError,
            TimeoutError,
        ) as exc:
            last = f"{type(exc).__name__}: {exc}"
            continue
        except ValueError as exc:
            raise GatewayFailure(f"response is not JSON: {exc}") from exc
        if not isinstance(reply, dict) or not reply.get("choices"):
            raise GatewayFailure(f"response has no choices: {str(reply)[:500]}")
        return reply
    raise GatewayFailure(f"gateway unreachable after {len(RETRY_DELAYS_S) + 1} attempts: {last}")


def parse_arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise ToolFailure("tool call arguments must be a JSON object")
    try:
        args = json.loads(raw or "{}")
    except ValueError as exc:
        raise ToolFailure(f"tool call arguments are not valid JSON: {exc}") from exc
    if not isinstance(args, dict):
        raise ToolFailure("tool call arguments must be a JSON object")
    return args


def execute(tools: Tools, call_id: str, name: str, raw_args: Any, limit: int) -> str:
    """Run one tool call, emitting its ``tool_call`` and ``tool_result`` records; returns
    the (truncated) text sent back to the model."""
    started = time.monotonic()
    try:
        args: dict[str, Any] | None = parse_arguments(raw_args)
    except ToolFailure as exc:
        args, failure = None, str(exc)
    emit(
        {
            "type": "tool_call",
            "id": call_id,
            "name": name,
            "arguments": args if args is not None else {"_raw": raw_args},
        }
    )
    ok, exit_code = False, None
    if args is None:
        output = f"error: {failure}"
    else:
        try:
            if name.startswith(GUI_PREFIX):
                args = {**args, "_call_id": call_id}
            ok, exit_code, output = tools.run(name, args)
        except ToolFailure as exc:
            output = f"error: {exc}"
        except Exception as exc:  # a bug or an odd input must not end the session
            output = f"error: {type(exc).__name__}: {exc}"
    shown = truncate(output, limit)
    emit(
        {
            "type": "tool_result",
            "id": call_id,
            "ok": ok,
            "exit_code": exit_code,
            "output": shown,
            "output_sha256": hashlib.sha256(output.encode()).hexdigest(),
            "output_chars": len(output),
            "duration_ms": round((time.monotonic() - started) * 1000.0, 3),
        }
    )
    return shown if exit_code is None else f"exit code: {exit_code}\n{shown}"


def run(opts: argparse.Namespace) -> tuple[str, int, str]:
    """The agent loop: ``(reason, turns, detail)``."""
    instruction = Path(opts.instruction_file).read_text(encoding="utf-8")
    channels = set(opts.channels.split(","))
    gateway_root = opts.base_url.rstrip("/").removesuffix("/v1")
    tools = Tools(opts.workdir, opts.tool_timeout, gateway_root)
    offered = [t for t in TOOLS if "cli" in channels]
    if "gui" in channels:
        try:
            offered += gui_tools(gateway_root)
        except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
            return "error", 0, f"cannot list the GUI tools: {exc}"
    tools.offered = {t["function"]["name"] for t in offered}
    state = Path(opts.state_file) if opts.state_file else None
    if opts.resume and state is not None and state.is_file():
        # a resumed session: the earlier conversation, then the new user message
        messages: list[dict[str, Any]] = json.loads(state.read_text(encoding="utf-8"))
        messages.append({"role": "user", "content": instruction})
    else:
        messages = [
            {"role": "system", "content": system_prompt(opts.workdir, channels)},
            {"role": "user", "content": instruction},
        ]
    emit(
        {
            "type": "session_start",
            "agent": AGENT_NAME,
            "version": AGENT_VERSION,
            "model": opts.model,
            "workdir": opts.workdir,
            "max_turns": opts.max_turns,
            "tools": [t["function"]["name"] for t in offered],
            "resumed": bool(opts.resume and len(messages) > 2),
        }
    )
    for turn in range(1, opts.max_turns + 1):
        if state is not None:  # what a resumed session starts from
            save_state(state, messages)
        body = {"model": opts.model, "messages": messages, "tools": offered, "stream": False}
        try:
            reply = call_model(opts.base_url, body)
        except GatewayFailure as exc:
            return "error", turn - 1, str(exc)
        message = reply["choices"][0].get("message") or {}
        content = message.get("content")
        calls = message.get("tool_calls") or []
        emit(
            {"type": "model_response", "turn": turn, "content": content, "n_tool_calls": len(calls)}
        )
        if isinstance(content, str) and content.strip():
            emit({"type": "message", "role": "assistant", "text": content})
        assistant: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            assistant["tool_calls"] = calls
        messages.append(assistant)
        if not calls:
            if state is not None:
                save_state(state, messages)
            return "done", turn, ""
        for index, call in enumerate(calls):
            call_id = str(call.get("id") or f"call_{turn}_{index}")
            fn = call.get("function") or {}
            name = str(fn.get("name") or "")
            result = execute(tools, call_id, name, fn.get("arguments"), opts.output_limit)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
        for call_id, image in tools.images:  # tool messages carry text only: images follow
            messages.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": f"Screenshot ({call_id}):"},
                        {
                            "type": "image_url",
                            "image_url": {"url": f"data:image/png;base64,{image}"},
                        },
                    ],
                }
            )
        tools.images.clear()
    return "max_turns", opts.max_turns, ""


def save_state(path: Path, messages: list[dict[str, Any]]) -> None:
    """The conversation so far, atomically (``--resume`` continues from it)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="builtin_agent", description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--instruction-file", required=True)
    parser.add_argument("--workdir", default="/app")
    parser.add_argument("--max-turns", type=int, default=100)
    parser.add_argument("--tool-timeout", type=float, default=300.0)
    parser.add_argument("--output-limit", type=int, default=16000)
    parser.add_argument("--channels", default="cli", help="cli, gui or cli,gui")
    parser.add_argument("--state-file", default="", help="keep the conversation here")
    parser.add_argument(
        "--resume", action="store_true", help="continue the --state-file conversation"
    )
    opts = parser.parse_args(argv)
    reason, turns, detail = run(opts)
    emit({"type": "session_end", "reason": reason, "turns": turns, "detail": detail})
    return 0 if reason != "error" else 2


if __name__ == "__main__":
    sys.exit(main())
