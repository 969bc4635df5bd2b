"""Check deploy/services.toml before the pipeline reads it; print the deploy freeze list.

    python3 tools/deploy_guard.py [deploy/services.toml]

Exit 0 and "OK" when every service has owner (string), deploy_freeze (bool) and
budget_remaining_min (number), and a service is frozen exactly when its remaining budget is
negative; exit 1 naming every problem otherwise.
"""

import sys
import tomllib
from pathlib import Path


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "deploy/services.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    problems, frozen = [], []
    for name, svc in sorted(data.get("services", {}).items()):
        if not isinstance(svc.get("owner"), str):
            problems.append(f"{name}: owner must be a string")
        if not isinstance(svc.get("deploy_freeze"), bool):
            problems.append(f"{name}: deploy_freeze must be true or false")
        left = svc.get("budget_remaining_min")
        if not isinstance(left, (int, float)) or isinstance(left, bool):
            problems.append(f"{name}: budget_remaining_min must be a number")
        elif svc.get("deploy_freeze") is not (left < 0):
            problems.append(f"{name}: deploy_freeze must be {str(left < 0).lower()} with {left} min left")
        if svc.get("deploy_freeze") is True:
            frozen.append(name)
    if not data.get("services"):
        problems.append("no [services.<name>] tables")
    for p in problems:
        print(f"{path}: {p}")
    if problems:
        return 1
    print(f"freeze: {', '.join(frozen) or 'none'}")
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
