"""An MCP client run inside the agent's sandbox: starts realcli's GUI MCP server there (stdio
or streamable HTTP), lists its tools, takes a screenshot, clicks and types, and prints one
JSON line per step. Usage: ``python mcp_client.py SERVER_SCRIPT stdio|http X Y TEXT``."""

import asyncio
import base64
import hashlib
import json
import os
import socket
import subprocess
import sys
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters

server, transport, text = sys.argv[1], sys.argv[2], sys.argv[5]
x, y = int(sys.argv[3]), int(sys.argv[4])
env = {"REALCLI_GATEWAY_URL": os.environ["REALCLI_GATEWAY_URL"]}


def say(**fields):
    print(json.dumps(fields, ensure_ascii=False), flush=True)


async def session(client):
    async with client as c:
        tools = await c.list_tools()
        say(step="tools", names=[t.name for t in tools.tools])
        shot = await c.call_tool("screenshot", {})
        png = base64.b64decode(shot.content[0].data)
        say(
            step="screenshot",
            sha256=hashlib.sha256(png).hexdigest(),
            text=shot.content[-1].text,
            kinds=[b.type for b in shot.content],
        )
        for name, args in (
            ("click", {"x": x, "y": y}),
            ("keypress", {"keys": "End shift+Home BackSpace"}),
            ("type", {"text": text}),
            ("click", {"x": -1, "y": y}),
        ):
            result = await c.call_tool(name, args)
            say(step=name, error=result.is_error, text=result.content[-1].text)


if transport == "stdio":
    params = StdioServerParameters(command=sys.executable, args=[server], env=env)
    asyncio.run(session(Client(params)))
else:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, server, "--transport", "http", "--port", str(port)],
        env={**os.environ, **env},
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline or proc.poll() is not None:
                sys.exit(f"the MCP server did not listen: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.05)
        asyncio.run(session(Client(f"http://127.0.0.1:{port}/mcp")))
    finally:
        proc.terminate()
        proc.wait(10)
