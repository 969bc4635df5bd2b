#!/usr/bin/env python3
"""Check docs/spec.md and review/comments.csv against each other; write out/review_report.md.

Usage: python3 tools/review_report.py [--root DIR] [--check]

--check only validates (no report). Exit status 1 when a check fails; nothing is written then.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import io
import itertools
import re
import sys
from collections import Counter
from pathlib import Path

SPEC = Path("docs/spec.md")
COMMENTS = Path("review/comments.csv")
REPORT = Path("out/review_report.md")
HEADER = ["id", "section", "reviewer", "status", "comment"]
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)*) (.+?)\s*$")


def source_digest(spec: bytes, comments: bytes) -> str:
    """What the report was generated from: sha256 over both inputs, 16 hex digits."""
    return hashlib.sha256(spec + b"\0" + comments).hexdigest()[:16]


def front_matter(text: str) -> dict[str, str]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ValueError("docs/spec.md: no YAML front matter")
    meta: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            return meta
        key, sep, value = line.partition(":")
        if sep:
            meta[key.strip()] = value.strip()
    raise ValueError("docs/spec.md: front matter is not closed")


def revisions(text: str) -> list[list[str]]:
    """The rows of the table under '## Revision history' (cells stripped)."""
    rows: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Revision history"
            continue
        if inside and line.strip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells and cells[0] != "Rev" and not set("".join(cells)) <= set("-: "):
                rows.append(cells)
    return rows


def sections(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def _rev_key(rev: str) -> tuple[int, ...]:
    return tuple(int(p) for p in rev.split("."))


def check(spec_text: str, comments_text: str) -> tuple[list[str], dict]:
    errors: list[str] = []
    try:
        meta = front_matter(spec_text)
    except ValueError as exc:
        return [str(exc)], {}
    revs = revisions(spec_text)
    if not revs:
        errors.append("docs/spec.md: the Revision history table has no rows")
    for row in revs:
        if len(row) != 5:
            errors.append(
                f"revision row {row}: expected 5 cells (Rev, Date, Author, Approved by, Change)"
            )
            continue
        if not re.fullmatch(r"\d+\.\d+", row[0]):
            errors.append(f"revision {row[0]!r}: Rev must look like 1.2")
        try:
            dt.date.fromisoformat(row[1])
        except ValueError:
            errors.append(f"revision {row[0]}: bad date {row[1]!r} (YYYY-MM-DD)")
        if not all(row[2:]):
            errors.append(f"revision {row[0]}: empty cell")
    good = [r for r in revs if len(r) == 5 and re.fullmatch(r"\d+\.\d+", r[0])]
    for a, b in itertools.pairwise(good):
        if _rev_key(b[0]) <= _rev_key(a[0]) or b[1] < a[1]:
            errors.append(f"revisions {a[0]} and {b[0]} are not in ascending order")
    if good and meta.get("version") != good[-1][0]:
        errors.append(
            f"front matter version {meta.get('version')!r} is not the latest "
            f"revision {good[-1][0]!r}"
        )
    if meta.get("status") not in ("draft", "approved"):
        errors.append(f"front matter status {meta.get('status')!r} is not draft or approved")
    secs = sections(spec_text)
    reader = csv.reader(io.StringIO(comments_text))
    rows = list(reader)
    if not rows or rows[0] != HEADER:
        errors.append(f"review/comments.csv: header must be {','.join(HEADER)}")
        rows = [HEADER]
    comments = []
    seen: set[str] = set()
    for n, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != 5:
            errors.append(f"comments.csv line {n}: {len(row)} fields, expected 5 (quote commas)")
            continue
        cid, sec, reviewer, status, text = (c.strip() for c in row)
        if not re.fullmatch(r"C\d+", cid):
            errors.append(f"comments.csv line {n}: bad id {cid!r}")
        if cid in seen:
            errors.append(f"comments.csv line {n}: duplicate id {cid}")
        seen.add(cid)
        if sec not in secs:
            errors.append(f"comment {cid}: section {sec!r} is not a section of docs/spec.md")
        if status not in ("open", "resolved"):
            errors.append(f"comment {cid}: status {status!r} is not open or resolved")
        if not reviewer or not text:
            errors.append(f"comment {cid}: empty reviewer or comment")
        comments.append(
            {"id": cid, "section": sec, "reviewer": reviewer, "status": status, "text": text}
        )
    return errors, {"meta": meta, "revisions": good, "sections": secs, "comments": comments}


def render(facts: dict, digest: str) -> str:
    meta, revs, secs, comments = (
        facts["meta"],
        facts["revisions"],
        facts["sections"],
        facts["comments"],
    )
    comments = sorted(comments, key=lambda c: int(c["id"][1:]))
    status = Counter(c["status"] for c in comments)
    last = revs[-1]
    out = [
        f"# Review report: {meta.get('doc_id', '?')}",
        "",
        meta.get("title", ""),
        "",
        f"- Source digest: {digest}",
        f"- Spec version: {meta.get('version')} ({meta.get('status')})",
        f"- Latest revision: {last[0]}, {last[1]}, by {last[2]}, approved by {last[3]}",
        f"- Comments: {len(comments)} ({status['open']} open, {status['resolved']} resolved)",
        "",
        "## Open comments by section",
        "",
        "| Section | Title | Open | Comments |",
        "|---|---|---|---|",
    ]
    by_section: dict[str, list[str]] = {}
    for c in comments:
        if c["status"] == "open":
            by_section.setdefault(c["section"], []).append(c["id"])
    for sec in sorted(by_section, key=_rev_key):
        ids = by_section[sec]
        out.append(f"| {sec} | {secs.get(sec, '?')} | {len(ids)} | {', '.join(ids)} |")
    out += ["", "## Comments by reviewer", "", "| Reviewer | Open | Resolved |", "|---|---|---|"]
    for reviewer in sorted({c["reviewer"] for c in comments}):
        mine = [c for c in comments if c["reviewer"] == reviewer]
        n_open = sum(c["status"] == "open" for c in mine)
        out.append(f"| {reviewer} | {n_open} | {len(mine) - n_open} |")
    out += ["", "## Open comments", ""]
    for c in comments:
        if c["status"] == "open":
            out.append(f"- **{c['id']}** (§{c['section']}, {c['reviewer']}): {c['text']}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", help="repository root (default: .)")
    ap.add_argument("--check", action="store_true", help="validate only, write nothing")
    args = ap.parse_args(argv)
    root = Path(args.root)
    spec = (root / SPEC).read_bytes()
    comments = (root / COMMENTS).read_bytes()
    errors, facts = check(spec.decode("utf-8"), comments.decode("utf-8"))
    for e in errors:
        print(f"ERROR {e}")
    if errors:
        print(f"{len(errors)} problem(s); report not written")
        return 1
    if args.check:
        print("OK")
        return 0
    text = render(facts, source_digest(spec, comments))
    (root / REPORT).parent.mkdir(parents=True, exist_ok=True)
    (root / REPORT).write_text(text, encoding="utf-8")
    n_open = sum(c["status"] == "open" for c in facts["comments"])
    print(f"wrote {REPORT} ({len(facts['comments'])} comments, {n_open} open)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
