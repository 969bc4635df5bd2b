#!/usr/bin/env python3
"""Local dev server for the expense drafts app (runs next to the browser, in the app's own
network namespace: nothing outside it can reach it).

  /api/check.js      the finance team's restore check (reads the browser's localStorage)
  /...               the site under development, read-only from the workspace's site/
Every response is sent with Cache-Control: no-store, so a reload always shows the files
as they are on disk.
"""

from __future__ import annotations

import mimetypes
import os
import posixpath
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE = Path(os.environ.get("WEB_WORKSPACE", "/run/realcli/workspace")) / "site"
PORT = int(os.environ.get("WEB_PORT", "8432"))
API = {
    "/api/check.js": (HERE / "check.js", "text/javascript"),
}


class Handler(BaseHTTPRequestHandler):
    server_version = "expenses-devserver/1.0"

    def log_message(self, fmt: str, *args: object) -> None:
        sys.stderr.write("devserver: " + fmt % args + "\n")

    def send_body(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        if path in API:
            file, ctype = API[path]
            self.send_body(200, file.read_bytes(), ctype)
            return
        rel = posixpath.normpath(urllib.parse.unquote(path)).lstrip("/")
        if rel in ("", "."):
            rel = "index.html"
        target = (SITE / rel).resolve()
        try:
            target.relative_to(SITE.resolve())
        except ValueError:
            self.send_body(403, b"forbidden\n", "text/plain")
            return
        if target.is_dir():
            target = target / "index.html"
        try:
            body = target.read_bytes()
        except OSError:
            self.send_body(404, f"not found: /{rel}\n".encode(), "text/plain")
            return
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype.endswith("javascript"):
            ctype += "; charset=utf-8"
        self.send_body(200, body, ctype)


def main() -> int:
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
