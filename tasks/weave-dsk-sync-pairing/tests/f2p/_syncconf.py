#!/usr/bin/env python3
"""syncconf: offline checks for a Syncthing-style config.xml before it is deployed.

Usage:
    python3 tools/syncconf.py validate server/config.xml   # exit 0 when the config is valid
    python3 tools/syncconf.py check-id DEVICE-ID           # is this a well-formed device ID?
    python3 tools/syncconf.py show server/config.xml       # devices and folders, as JSON

Device IDs are 8 groups of 7 base32 characters (A-Z, 2-7) separated by dashes. Every
13 data characters are followed by one Luhn mod 32 check character, so a mistyped or
truncated ID is rejected here instead of silently never connecting.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
FOLDER_ID = re.compile(r"^[a-z0-9]{5}-[a-z0-9]{5}$")
CANONICAL = re.compile(r"^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$")


def luhn32(data: str) -> str:
    """The Luhn mod 32 check character of ``data`` (base32 characters)."""
    factor, total = 1, 0
    for ch in data:
        addend = factor * ALPHABET.index(ch)
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return ALPHABET[(32 - total % 32) % 32]


def device_id_problem(device_id: str) -> str | None:
    """None when ``device_id`` is a canonical, check-summed device ID, else why not."""
    if not CANONICAL.match(device_id):
        return "not of the form XXXXXXX-XXXXXXX-... (8 groups of 7 characters A-Z, 2-7)"
    flat = device_id.replace("-", "")
    for i in range(4):
        chunk = flat[i * 14 : (i + 1) * 14]
        if luhn32(chunk[:13]) != chunk[13]:
            return f"check character of block {i + 1} does not match (typo?)"
    return None


def load(path: str) -> ET.Element:
    root = ET.parse(path).getroot()
    if root.tag != "configuration":
        raise ValueError(f"root element is <{root.tag}>, expected <configuration>")
    return root


def problems(root: ET.Element) -> tuple[list[str], list[str]]:
    """(errors, warnings) for a parsed configuration."""
    errors: list[str] = []
    warnings: list[str] = []
    devices: dict[str, str] = {}
    names: set[str] = set()
    for dev in root.findall("device"):
        did = dev.get("id", "")
        name = dev.get("name", "")
        why = device_id_problem(did)
        if why:
            errors.append(f"device {name or '?'!r}: bad device ID {did!r}: {why}")
        if not name:
            errors.append(f"device {did!r}: missing name")
        elif name in names:
            errors.append(f"device name {name!r} is used twice")
        if did in devices:
            errors.append(f"device ID {did!r} is listed twice")
        names.add(name)
        devices[did] = name
    folder_ids: set[str] = set()
    paths: set[str] = set()
    shared: set[str] = set()
    for folder in root.findall("folder"):
        fid = folder.get("id", "")
        label = folder.get("label", "") or fid
        path = folder.get("path", "")
        if not FOLDER_ID.match(fid):
            errors.append(f"folder {label!r}: bad folder ID {fid!r} (expected xxxxx-xxxxx)")
        elif fid in folder_ids:
            errors.append(f"folder ID {fid!r} is used twice")
        folder_ids.add(fid)
        if not path.startswith("/"):
            errors.append(f"folder {label!r}: path {path!r} is not absolute")
        elif path in paths:
            errors.append(f"folder {label!r}: path {path!r} is used by another folder")
        paths.add(path)
        members = [d.get("id", "") for d in folder.findall("device")]
        if len(set(members)) != len(members):
            errors.append(f"folder {label!r}: a device is listed twice")
        for member in members:
            if member not in devices:
                errors.append(f"folder {label!r}: shared with unknown device {member!r}")
            shared.add(member)
        if len(members) < 2:
            warnings.append(f"folder {label!r} is not shared with any remote device")
    for did, name in devices.items():
        if did not in shared:
            warnings.append(f"device {name!r} shares no folder")
    return errors, warnings


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("validate", "check-id", "show"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    cmd, arg = argv
    if cmd == "check-id":
        why = device_id_problem(arg.strip())
        print(f"{arg.strip()}: {'OK' if why is None else why}")
        return 0 if why is None else 1
    try:
        root = load(arg)
    except (OSError, ET.ParseError, ValueError) as exc:
        print(f"ERROR {arg}: {exc}")
        return 1
    if cmd == "show":
        doc = {
            "devices": [{"id": d.get("id"), "name": d.get("name")} for d in root.findall("device")],
            "folders": [
                {
                    "id": f.get("id"),
                    "label": f.get("label"),
                    "path": f.get("path"),
                    "devices": [d.get("id") for d in f.findall("device")],
                }
                for f in root.findall("folder")
            ],
        }
        print(json.dumps(doc, indent=2))
        return 0
    errors, warnings = problems(root)
    for w in warnings:
        print(f"WARNING {w}")
    for e in errors:
        print(f"ERROR {e}")
    if errors:
        print(f"{arg}: INVALID ({len(errors)} error(s))")
        return 1
    n_dev = len(root.findall("device"))
    n_fold = len(root.findall("folder"))
    print(f"{arg}: OK ({n_dev} devices, {n_fold} folders)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
