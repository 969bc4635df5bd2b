"""What must stay as it is: the validator, the README, nas01's other settings."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from pathlib import Path

WS = Path.cwd()
NAS_ID = "QSDYWHJ-Z64PAKH-3LRJ6XO-DROZGGT-KULSTQI-76YNKFN-JZBOPD4-6DM7ZAM"
LAPTOP_ID = "6JFOYHI-25YRKSH-HNO2JBA-EWZF7HV-JCA76OB-EP7BWCT-SHPVLHH-GM3EHAF"
MUSIC_ID = "m2qrt-8yhvk"


def _sha(rel: str) -> str:
    return hashlib.sha256((WS / rel).read_bytes()).hexdigest()


def test_validator_unchanged() -> None:
    assert (
        _sha("tools/syncconf.py")
        == "b60be09020d23e4969790739cd401ef56793f68b07a0387bacc4eee92f1c2450"
    )


def test_readme_unchanged() -> None:
    assert _sha("README.md") == "ee0b7e1860c07e31fbe6d12c0856114936c88b059bd0f4d81ceaee32ec40e522"


def test_existing_devices_kept() -> None:
    root = ET.parse(WS / "server" / "config.xml").getroot()
    devices = {d.get("name"): d.get("id") for d in root.findall("device")}
    assert devices.get("nas01") == NAS_ID
    assert devices.get("laptop") == LAPTOP_ID


def test_music_not_on_server() -> None:
    root = ET.parse(WS / "server" / "config.xml").getroot()
    assert all(f.get("id") != MUSIC_ID for f in root.findall("folder"))
    assert all((f.get("label") or "").lower() != "music" for f in root.findall("folder"))


def test_server_settings_kept() -> None:
    root = ET.parse(WS / "server" / "config.xml").getroot()
    assert root.findtext("gui/address") == "127.0.0.1:8384"
    assert root.findtext("options/globalAnnounceEnabled") == "false"
    assert root.findtext("options/relaysEnabled") == "false"
