"""Launcher run INSIDE a sandbox (stdlib only, any Python >= 3.8): gateway forwarder + command.

    python3 inside.py --socket /run/realcli/gw/gw.sock --port 8765 -- CMD [ARGS...]

Listens on TCP ``127.0.0.1:PORT`` (before the command starts), relays every connection to
the gateway's Unix socket, runs CMD as a child with the inherited environment, and exits
with CMD's exit status (128+N when CMD was killed by signal N). The sandbox has no network
but loopback, so this is the agent's only way out, and it leads only to the gateway.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import subprocess
import sys
import threading

_CHUNK = 65536


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(_CHUNK)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)


def _relay(client: socket.socket, socket_path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(socket_path)
    except OSError as exc:
        sys.stderr.write(f"realcli forwarder: cannot reach gateway {socket_path}: {exc}\n")
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, socket_path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
            # The gateway writes a reply's headers and body separately; without NODELAY the
            # second segment waits for the client's delayed ACK (~40 ms per model call).
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            return
        threading.Thread(target=_relay, args=(client, socket_path), daemon=True).start()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="inside.py")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(64)  # listening before the command starts: no race for the agent
    threading.Thread(target=_serve, args=(listener, args.socket), daemon=True).start()

    try:
        child = subprocess.Popen(command)
    except OSError as exc:
        sys.stderr.write(f"realcli launcher: cannot run {command[0]!r}: {exc}\n")
        return 127

    def forward(signum: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            child.send_signal(signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    code = child.wait()
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
