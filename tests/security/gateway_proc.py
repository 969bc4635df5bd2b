"""A real gateway in a process of its own (what the flood test measures): a Noop backend,
its call log on, a Unix socket; prints ``ready`` and serves until stdin closes.

    python gateway_proc.py SOCKET LOG MAX_BODY_BYTES MAX_CONCURRENT MAX_INFLIGHT_BYTES
"""

from __future__ import annotations

import sys
from pathlib import Path

from realcli.gateway import Gateway, NoopBackend


def main(argv: list[str]) -> None:
    sock, log = Path(argv[0]), Path(argv[1])
    max_body, concurrent, inflight = (int(a) for a in argv[2:5])
    gw = Gateway(
        NoopBackend(),
        lambda event: None,
        log_path=log,
        max_body_bytes=max_body,
        max_concurrent=concurrent,
        max_inflight_bytes=inflight,
        queue_timeout_s=60,
    )
    with gw.start(sock):
        print("ready", flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main(sys.argv[1:])
