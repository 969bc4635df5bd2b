#!/usr/bin/env python3
"""Check a plan-exchange DXF against the Unit 4B conventions.

usage: python3 tools/check_dxf.py out/plan.dxf

Conventions (what the fit-out contractor's CAD import expects):

* ASCII DXF: group-code / value line pairs; the file ends with the pair ``0`` / ``EOF``.
* A HEADER section that sets ``$INSUNITS`` (group code 70) to 4 = millimetres.
* An ENTITIES section with exactly one LWPOLYLINE per required layer, and nothing else:
  LIVING, KITCHEN, HALL, BED-1, BATH, BED-2 (the rooms) and ISLAND (the kitchen island).
* Every LWPOLYLINE is closed (group 70, bit 1 set), has at least 3 vertices, its vertex
  count (group 90) equals the number of 10/20 coordinate pairs, and it does not repeat
  its first vertex at the end.
* Coordinates in millimetres, inside the unit's extents (0..10395 x 0..8610).
* Every outline is counter-clockwise (positive signed area), the usual CAD convention.

Exit status 0 and a line starting with "OK" when the file conforms; 1 and one line per
problem otherwise.
"""

from __future__ import annotations

import sys

REQUIRED = ("LIVING", "KITCHEN", "HALL", "BED-1", "BATH", "BED-2", "ISLAND")
EXTENT = (10395.0, 8610.0)
TOL = 0.5


def pairs_of(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines()
    if len(lines) % 2:
        raise ValueError("odd number of lines: group codes and values must come in pairs")
    out = []
    for i in range(0, len(lines), 2):
        try:
            code = int(lines[i].strip())
        except ValueError:
            raise ValueError(f"line {i + 1}: group code {lines[i]!r} is not an integer") from None
        out.append((code, lines[i + 1].strip()))
    return out


def sections(pairs: list[tuple[int, str]]) -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list[tuple[int, str]]] = {}
    i = 0
    while i < len(pairs):
        if pairs[i] == (0, "SECTION") and i + 1 < len(pairs) and pairs[i + 1][0] == 2:
            name = pairs[i + 1][1]
            j = i + 2
            body = []
            while j < len(pairs) and pairs[j] != (0, "ENDSEC"):
                body.append(pairs[j])
                j += 1
            if j == len(pairs):
                raise ValueError(f"section {name} has no ENDSEC")
            out[name] = body
            i = j + 1
        else:
            i += 1
    return out


def entities(body: list[tuple[int, str]]) -> list[tuple[str, list[tuple[int, str]]]]:
    out: list[tuple[str, list[tuple[int, str]]]] = []
    for code, value in body:
        if code == 0:
            out.append((value, []))
        elif out:
            out[-1][1].append((code, value))
    return out


def signed_area(pts: list[tuple[float, float]]) -> float:
    return sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts))) / 2


def check(text: str) -> list[str]:
    problems: list[str] = []
    try:
        pairs = pairs_of(text)
        secs = sections(pairs)
    except ValueError as exc:
        return [str(exc)]
    if not pairs or pairs[-1] != (0, "EOF"):
        problems.append("file does not end with 0/EOF")
    header = secs.get("HEADER")
    if header is None:
        problems.append("no HEADER section")
    else:
        units = None
        for k, (code, value) in enumerate(header):
            if (code, value) == (9, "$INSUNITS") and k + 1 < len(header):
                units = header[k + 1]
        if units != (70, "4"):
            problems.append(f"$INSUNITS must be 70/4 (millimetres), found {units}")
    body = secs.get("ENTITIES")
    if body is None:
        problems.append("no ENTITIES section")
        return problems
    seen: dict[str, int] = {}
    for kind, groups in entities(body):
        if kind != "LWPOLYLINE":
            problems.append(f"unexpected entity {kind} (only LWPOLYLINE is allowed)")
            continue
        layer = next((v for c, v in groups if c == 8), None)
        if layer is None:
            problems.append("LWPOLYLINE without a layer (group 8)")
            continue
        seen[layer] = seen.get(layer, 0) + 1
        flags = next((v for c, v in groups if c == 70), "0")
        count = next((v for c, v in groups if c == 90), None)
        try:
            xs = [float(v) for c, v in groups if c == 10]
            ys = [float(v) for c, v in groups if c == 20]
            closed = int(flags) & 1
        except ValueError as exc:
            problems.append(f"{layer}: bad number ({exc})")
            continue
        if not closed:
            problems.append(f"{layer}: not closed (group 70 bit 1)")
        if len(xs) != len(ys):
            problems.append(f"{layer}: {len(xs)} x values but {len(ys)} y values")
            continue
        if count is None or count != str(len(xs)):
            problems.append(f"{layer}: vertex count (group 90) {count} != {len(xs)} vertices")
        pts = list(zip(xs, ys))
        if len(pts) < 3:
            problems.append(f"{layer}: fewer than 3 vertices")
            continue
        if abs(pts[0][0] - pts[-1][0]) <= TOL and abs(pts[0][1] - pts[-1][1]) <= TOL:
            problems.append(f"{layer}: repeats its first vertex at the end")
        for x, y in pts:
            if not (-TOL <= x <= EXTENT[0] + TOL and -TOL <= y <= EXTENT[1] + TOL):
                problems.append(f"{layer}: vertex ({x:g}, {y:g}) outside the unit (mm?)")
                break
        if signed_area(pts) <= 0:
            problems.append(f"{layer}: outline is clockwise (must be counter-clockwise)")
    for layer in REQUIRED:
        if seen.get(layer, 0) != 1:
            problems.append(f"layer {layer}: {seen.get(layer, 0)} LWPOLYLINE(s), expected 1")
    for layer in sorted(set(seen) - set(REQUIRED)):
        problems.append(f"unexpected layer {layer}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"cannot read {argv[1]}: {exc}")
        return 1
    problems = check(text)
    if problems:
        for p in problems:
            print(p)
        return 1
    print(f"OK: {len(REQUIRED)} closed counter-clockwise LWPOLYLINEs, units mm")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
