#!/usr/bin/env python3
"""Sanity checks for lb/haproxy.cfg before it is pushed to lb-1 (no haproxy binary here)."""

from __future__ import annotations

import re
import sys

SERVER = re.compile(r"^\s*server\s+(\S+)\s+(\d+\.\d+\.\d+\.\d+):(\d+)(.*)$")


def problems(text: str) -> list[str]:
    out: list[str] = []
    section = None
    servers = 0
    for no, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0].strip()
        if not stripped:
            continue
        if not line[0].isspace():
            section = stripped.split()[0]
            continue
        if section == "backend" and stripped.startswith("server"):
            m = SERVER.match(stripped)
            if not m:
                out.append(f"line {no}: server needs NAME IP:PORT")
                continue
            servers += 1
            if not 0 < int(m.group(3)) < 65536:
                out.append(f"line {no}: bad port {m.group(3)}")
            if "check" not in m.group(4).split():
                out.append(f"line {no}: server {m.group(1)} has no health check")
        if stripped.startswith("option httpchk") and len(stripped.split()) != 4:
            out.append(f"line {no}: option httpchk needs METHOD URI")
    if servers == 0:
        out.append("no backend servers")
    return out


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else "lb/haproxy.cfg"
    found = problems(open(path, encoding="utf-8").read())
    for p in found:
        print(p)
    print("ok" if not found else f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
