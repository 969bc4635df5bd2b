"""Expected values and helpers for the weave-dsk-sync-pairing tests (hidden from the agent)."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
WS = Path.cwd()
CONFIG = WS / "server" / "config.xml"

DESKTOP_ID = "KVT7CZ7-XWVCLD2-HOZIUOT-FVI5YX5-VWLKUU5-4T6EWKB-NAUKB4O-MXYCOAF"
NAS_ID = "QSDYWHJ-Z64PAKH-3LRJ6XO-DROZGGT-KULSTQI-76YNKFN-JZBOPD4-6DM7ZAM"
LAPTOP_ID = "6JFOYHI-25YRKSH-HNO2JBA-EWZF7HV-JCA76OB-EP7BWCT-SHPVLHH-GM3EHAF"
DOCS_ID = "h4kvm-2xq9p"
PHOTOS_ID = "p7wzd-c3nfe"
MUSIC_ID = "m2qrt-8yhvk"
PAIRING_CODE = "PAIR-UPMC-EMXL"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def config() -> ET.Element:
    return ET.parse(CONFIG).getroot()


def folder(root: ET.Element, folder_id: str) -> ET.Element | None:
    found = [f for f in root.findall("folder") if f.get("id") == folder_id]
    assert len(found) <= 1, f"folder ID {folder_id} appears {len(found)} times"
    return found[0] if found else None


def members(node: ET.Element) -> list[str]:
    return [d.get("id", "") for d in node.findall("device")]
