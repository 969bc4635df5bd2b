"""Check the offsite backup job's files before a commit: python3 deploy/check_deploy.py.

It checks the layout only (it cannot know the credentials): offsite.env has the keys the unit
needs and no secret, each secret file is mode 0600 and holds one line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
KEYS = ("RESTIC_REPOSITORY", "RESTIC_PASSWORD_FILE", "B2_ACCOUNT_ID", "B2_ACCOUNT_KEY_FILE")
SECRETS = {"restic-password": "RESTIC_PASSWORD_FILE", "b2-account-key": "B2_ACCOUNT_KEY_FILE"}
FORBIDDEN = ("RESTIC_PASSWORD", "B2_ACCOUNT_KEY")


def env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(r"([A-Z0-9_]+)=(\S*)", line)
        if not m:
            raise SystemExit(f"{path}:{n}: not KEY=value (no spaces, no quotes): {line!r}")
        values[m.group(1)] = m.group(2)
    return values


def main() -> int:
    problems: list[str] = []
    env = env_file(DEPLOY / "offsite.env")
    problems += [f"offsite.env: {k} is missing" for k in KEYS if not env.get(k)]
    problems += [f"offsite.env: {k} is a secret, put it in secrets/" for k in FORBIDDEN if k in env]
    if not re.fullmatch(r"b2:[a-z0-9-]+:[\w./-]+", env.get("RESTIC_REPOSITORY", "")):
        problems.append("offsite.env: RESTIC_REPOSITORY is not b2:<bucket>:<path>")
    if not re.fullmatch(r"[0-9a-f]{25}", env.get("B2_ACCOUNT_ID", "")):
        problems.append("offsite.env: B2_ACCOUNT_ID is not a 25-digit B2 application key ID")
    for name, key in SECRETS.items():
        path = DEPLOY / "secrets" / name
        if env.get(key) != f"/etc/restic/offsite/{name}":
            problems.append(f"offsite.env: {key} must be /etc/restic/offsite/{name}")
        if not path.is_file():
            problems.append(f"secrets/{name} is missing")
            continue
        if path.stat().st_mode & 0o077:
            problems.append(f"secrets/{name} is readable by others: chmod 600 it")
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) != 1 or not lines[0] or lines[0] != lines[0].strip():
            problems.append(f"secrets/{name} must hold exactly one line, the secret")
    for problem in problems:
        print("FAIL", problem)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
