"""provision/desktop.dconf loads in GLib with exactly the changed keys; out/migration.json."""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

WS = Path.cwd()
ANCHORS = json.loads(Path(__file__).resolve().parents[1].joinpath("anchors.json").read_text())
SECTION = "org/gnome/desktop/interface"
SCHEMA = "org.gnome.desktop.interface"


def test_dconf_keys() -> None:
    path = WS / "provision" / "desktop.dconf"
    assert path.is_file(), "provision/desktop.dconf is missing"
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"))
    assert parser.sections() == [SECTION], f"sections {parser.sections()}, expected [{SECTION}]"
    got = sorted(parser[SECTION])
    want = sorted(ANCHORS["changed"])
    extra = sorted(set(got) & set(ANCHORS["unchanged"]))
    assert not extra, f"{extra} are at their default: they do not belong in the file"
    assert got == want, f"keys {got}, expected {want}"


def test_dconf_values_load() -> None:
    """GLib's keyfile backend reads the file as dconf would: every value must parse as the
    key's GVariant type (else GLib falls back to the default) and equal the session's."""
    path = WS / "provision" / "desktop.dconf"
    assert path.is_file(), "provision/desktop.dconf is missing"
    with tempfile.TemporaryDirectory() as home:
        settings = Path(home) / ".config" / "glib-2.0" / "settings"
        settings.mkdir(parents=True)
        shutil.copyfile(path, settings / "keyfile")
        env = {**os.environ, "HOME": home, "GSETTINGS_BACKEND": "keyfile"}
        env.pop("XDG_CONFIG_HOME", None)
        for key, want in ANCHORS["changed"].items():
            proc = subprocess.run(
                ["gsettings", "get", SCHEMA, key],
                env=env,
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
            assert proc.returncode == 0, f"gsettings get {key}: {proc.stderr.strip()}"
            got = proc.stdout.strip()
            assert got == want, f"{key} loads as {got} (GLib), the session has {want}"


def test_migration_json() -> None:
    path = WS / "out" / "migration.json"
    assert path.is_file(), "out/migration.json is missing"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"changed": sorted(ANCHORS["changed"]), "unchanged": ANCHORS["unchanged"]}, data
