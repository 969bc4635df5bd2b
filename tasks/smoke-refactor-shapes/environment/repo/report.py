"""Print a summary line for every shape spec in a file, then the total area.

Usage: python report.py FILE
"""

from __future__ import annotations

import sys
from pathlib import Path

import geometry


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python report.py FILE", file=sys.stderr)
        return 2
    total = 0.0
    for number, line in enumerate(Path(args[0]).read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            kind, dims = geometry.parse_spec(line)
            print(geometry.describe(kind, *dims))
            total += geometry.area(kind, *dims)
        except ValueError as exc:
            print(f"line {number}: {exc}", file=sys.stderr)
            return 1
    print(f"total area: {total:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
