"""Apply the recalculated error budgets (work/budget.tsv, copied out of Calc) to
deploy/services.toml and write out/freeze.json. Edits the TOML line by line, so comments and
every other setting stay as they are."""

import json
import re
import sys
from pathlib import Path


def main() -> None:
    lines = [ln.split("\t") for ln in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines() if ln.strip()]
    head = lines[0]
    col = {name: head.index(name) for name in ("service", "allowed_min", "remaining_min", "status")}
    rows = {ln[col["service"]]: ln for ln in lines[1:]}
    remaining = {s: float(r[col["remaining_min"]]) for s, r in rows.items()}
    allowed = {s: float(r[col["allowed_min"]]) for s, r in rows.items()}
    frozen = sorted(s for s, r in rows.items() if r[col["status"]] == "FROZEN")
    assert frozen == sorted(s for s, v in remaining.items() if v < 0), "status and budget disagree: recalculate"
    path = Path("deploy/services.toml")
    out, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\[services\.([A-Za-z0-9_-]+)\]", line)
        if m:
            current = m.group(1)
        elif current in rows and line.startswith("deploy_freeze ="):
            line = f"deploy_freeze = {'true' if current in frozen else 'false'}"
        elif current in rows and line.startswith("budget_remaining_min ="):
            line = f"budget_remaining_min = {remaining[current]:.2f}"
        out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    worst = min(remaining, key=lambda s: remaining[s] / allowed[s])
    Path("out").mkdir(exist_ok=True)
    Path("out/freeze.json").write_text(json.dumps({"frozen": frozen, "worst_service": worst}, indent=2) + "\n", encoding="utf-8")
    print("frozen:", frozen, "worst:", worst)


if __name__ == "__main__":
    main()
