"""realcli's builtin agent: a minimal tool loop over OpenAI Chat Completions.

STANDALONE and stdlib-only (Python >= 3.11): it runs INSIDE the sandbox with the system
``/usr/bin/python3`` and must not import realcli. It talks only to the model gateway.

    python3 builtin_agent.py --base-url http://127.0.0.1:8765/v1 --model ID \\
        --instruction-file /run/realcli/task/instruction.md --workdir /app \\
        --max-turns 100 --tool-timeout 300 --output-limit 16000

Tools: ``shell(cmd, timeout_s?)``, ``read_file(path)``, ``write_file(path, content)``,
``edit_file(path, old, new)``; relative paths are relative to the workdir. Stdout is one
JSON object per line (flushed): ``session_start``, ``model_response``, ``tool_call``,
``tool_result``, ``message``, ``session_end`` (reason ``done``, ``max_turns`` or ``error``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

AGENT_NAME = "realcli-builtin"
AGENT_VERSION = "1"
RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0)
RETRY_STATUSES = frozenset({429, 502, 503, 504})
REQUEST_TIMEOUT_S = 600.0
SHELL_GRACE_S = 1.0  # wait for output after the shell exits (daemons may hold the pipe)

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


def _function(name: str, description: str, props: dict[str, Any], required: list[str]) -> Any:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": required},
        },
    }


_STR = {"type": "string"}
TOOLS = [
    _function(
        "shell",
        "Run a bash command (bash -lc) in the working directory. Returns the exit code and "
        "the combined stdout and stderr.",
        {"cmd": _STR, "timeout_s": {"type": "number", "description": "wall clock limit"}},
        ["cmd"],
    ),
    _function("read_file", "Read a UTF-8 text file.", {"path": _STR}, ["path"]),
    _function(
        "write_file",
        "Create or overwrite a file with the given content (parent folders are created).",
        {"path": _STR, "content": _STR},
        ["path", "content"],
    ),
    _function(
        "edit_file",
        "Replace the exact text `old` with `new` in a file; `old` must occur exactly once.",
        {"path": _STR, "old": _STR, "new": _STR},
        ["path", "old", "new"],
    ),
]


CLI_TOOLS = {"shell", "read_file", "write_file", "edit_file"}
GUI_PREFIX = "gui_"


def gui_tools(gateway_root: str) -> list[Any]:
    """The GUI channel's tools as the trusted GUI service describes them (``gui_<name>``)."""
    req = urllib.request.Request(gateway_root + "/gui/tools", method="GET")
    with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as resp:
        listed = json.loads(resp.read())["tools"]
    return [
        {
            "type": "function",
            "function": {
                "name": GUI_PREFIX + t["name"],
                "description": t["description"],
                "parameters": t["input_schema"],
            },
        }
        for t in listed
    ]


class ToolFailure(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


class GatewayFailure(Exception):
    """The model gateway failed in a way retrying will not fix."""


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _drain(stream: Any, chunks: list[bytes]) -> None:
    while True:
        data = stream.read1(65536)
        if not data:
            return
        chunks.append(data)


def truncate(text: str, limit: int) -> str:
    """Head and tail of ``text`` within ``limit`` characters, with a marker in between."""
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text) - limit} characters truncated ...]\n"
    keep = max(limit - len(marker), 0)
    head = keep // 2
    return text[:head] + marker + text[len(text) - (keep - head) :]


class Tools:
    def __init__(self, workdir: str, default_timeout_s: float, gateway_root: str = "") -> None:
        self.workdir = workdir
        self.default_timeout_s = default_timeout_s
        self.gateway_root = gateway_root
        self.offered: set[str] = set(CLI_TOOLS)
        self.images: list[tuple[str, str]] = []
        """(call id, base64 PNG) of screenshots to show the model after the tool results."""

    def path(self, raw: Any) -> Path:
        if not isinstance(raw, str) or not raw:
            raise ToolFailure("'path' must be a non-empty string")
        p = Path(raw)
        return p if p.is_absolute() else Path(self.workdir) / p

    def run(self, name: str, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        """Execute one tool call: ``(ok, exit_code, output)``."""
        if name not in self.offered:
            raise ToolFailure(
                f"unknown tool {name!r}; available: {', '.join(sorted(self.offered))}"
            )
        if name.startswith(GUI_PREFIX):
            return self.gui(name[len(GUI_PREFIX) :], args)
        if name == "shell":
            return self.shell(args)
        if name == "read_file":
            return True, None, self.read_file(args)
        if name == "write_file":
            return True, None, self.write_file(args)
        if name == "edit_file":
            return True, None, self.edit_file(args)
        raise ToolFailure(
            f"unknown tool {name!r}; available: shell, read_file, write_file, edit_file"
        )

    def shell(self, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        cmd = args.get("cmd")
        if not isinstance(cmd, str) or not cmd.strip():
            raise ToolFailure("'cmd' must be a non-empty string")
        timeout = args.get("timeout_s") or self.default_timeout_s
        if not isinstance(timeout, int | float) or timeout <= 0:
            raise ToolFailure("'timeout_s' must be a positive number")
        timeout = min(float(timeout), self.default_timeout_s)
        proc = subprocess.Popen(
            ["bash", "-lc", cmd],
            cwd=self.workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert proc.stdout is not None
        chunks: list[bytes] = []
        reader = threading.Thread(target=_drain, args=(proc.stdout, chunks), daemon=True)
        reader.start()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(timeout=SHELL_GRACE_S)
            text = b"".join(chunks).decode("utf-8", errors="replace")
            return False, None, f"{text}\n[command timed out after {timeout:g}s and was killed]"
        # A background process may keep the pipe open: take what is there, leave it running.
        reader.join(timeout=SHELL_GRACE_S)
        text = b"".join(chunks).decode("utf-8", errors="replace")
        return proc.returncode == 0, proc.returncode, text

    def gui(self, tool: str, args: dict[str, Any]) -> tuple[bool, int | None, str]:
        """A GUI primitive, performed (and screenshots hashed) by the trusted GUI service."""
        call_id = args.pop("_call_id", None)
        body = json.dumps({**args, "call_id": call_id}).encode("utf-8")
        req = urllib.request.Request(
            f"{self.gateway_root}/gui/{tool}",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT_S) as resp:
                result = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", errors="replace")[:500]
            raise ToolFailure(f"GUI {tool} failed: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise ToolFailure(f"GUI {tool} failed: {exc}") from exc
        image = result.get("image_png_base64")
        if isinstance(image, str) and image and call_id:
            self.images.append((str(call_id), image))
        return bool(result.get("ok")), None, str(result.get("text") or "")

    def read_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        try:
            return path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise ToolFailure(f"cannot read {path}: {exc.strerror or exc}") from exc

    def write_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        content = args.get("content")
        if not isinstance(content, str):
            raise ToolFailure("'content' must be a string")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode("utf-8"))
        except OSError as exc:
            raise ToolFailure(f"cannot write {path}: {exc.strerror or exc}") from exc
        return f"wrote {len(content)} characters to {path}"

    def edit_file(self, args: dict[str, Any]) -> str:
        path = self.path(args.get("path"))
        old, new = args.get("old"), args.get("new")
        if not isinstance(old, str) or not old or not isinstance(new, str):
            raise ToolFailure("'old' must be a non-empty string and 'new' a string")
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ToolFailure(f"cannot read {path}: {exc}") from exc
        count = text.count(old)
        if count != 1:
            raise ToolFailure(f"'old' must occur exactly once in {path}, found {count} times")
        try:
            path.write_bytes(text.replace(old, new, 1).encode("utf-8"))
        except OSError as exc:
            raise ToolFailure(f"cannot write {path}: {exc.strerror or exc}") from exc
        return f"edited {path}"


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
