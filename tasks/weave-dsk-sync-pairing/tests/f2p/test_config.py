"""server/config.xml pairs nas01 with the desktop and passes the validator."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_desktop_device() -> None:
    root = c.config()
    desktops = [d for d in root.findall("device") if d.get("name") == "desktop"]
    assert len(desktops) == 1, f"expected one device named 'desktop', found {len(desktops)}"
    assert desktops[0].get("id") == c.DESKTOP_ID, (
        f"device 'desktop' has ID {desktops[0].get('id')!r}, not the desktop's real device ID"
    )


def test_documents_shared() -> None:
    docs = c.folder(c.config(), c.DOCS_ID)
    assert docs is not None, "the Documents folder (h4kvm-2xq9p) is missing"
    ids = c.members(docs)
    assert c.DESKTOP_ID in ids, "Documents is not shared with the desktop"
    assert c.NAS_ID in ids and c.LAPTOP_ID in ids, "Documents lost nas01 or the laptop"


def test_photos_folder() -> None:
    root = c.config()
    photos = c.folder(root, c.PHOTOS_ID)
    assert photos is not None, "no folder uses the desktop's Photos folder ID"
    assert photos.get("label") == "Photos"
    assert photos.get("path") == "/srv/sync/photos", photos.get("path")
    ids = c.members(photos)
    assert c.DESKTOP_ID in ids, "Photos is not shared with the desktop"
    assert c.NAS_ID in ids, "Photos must keep nas01 itself in its device list"
    labels = [f.get("label") for f in root.findall("folder")]
    assert labels.count("Photos") == 1, f"expected one Photos folder, found {labels}"


def test_config_validates() -> None:
    tool = c.load("_syncconf")
    root = tool.load(str(c.CONFIG))
    errors, _warnings = tool.problems(root)
    assert not errors, errors
