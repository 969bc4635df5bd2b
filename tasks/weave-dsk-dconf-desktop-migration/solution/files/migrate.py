"""notes/session.txt (dconf Editor's copies: schema key value) vs GLib's defaults."""

import json
import os
import subprocess
from pathlib import Path

SCHEMA = "org.gnome.desktop.interface"
keys = Path("provision/keys.txt").read_text(encoding="utf-8").split()
current = {}
for line in Path("notes/session.txt").read_text(encoding="utf-8").splitlines():
    schema, key, value = line.split(" ", 2)
    if schema == SCHEMA:
        current[key] = value
env = {**os.environ, "GSETTINGS_BACKEND": "memory"}


def default(key: str) -> str:
    out = subprocess.run(["gsettings", "get", SCHEMA, key], env=env, capture_output=True, text=True)
    return out.stdout.strip()


changed = sorted(k for k in keys if current[k] != default(k))
unchanged = sorted(k for k in keys if k not in changed)
body = "".join(f"{k}={current[k]}\n" for k in changed)
Path("provision/desktop.dconf").write_text(
    f"[org/gnome/desktop/interface]\n{body}", encoding="utf-8"
)
Path("out").mkdir(exist_ok=True)
Path("out/migration.json").write_text(
    json.dumps({"changed": changed, "unchanged": unchanged}) + "\n"
)
print(Path("provision/desktop.dconf").read_text(), changed, unchanged)
