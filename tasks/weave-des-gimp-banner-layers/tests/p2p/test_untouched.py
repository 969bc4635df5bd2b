"""What stays: the README, the compositor and the exported layer PNGs."""

from __future__ import annotations

import hashlib
from pathlib import Path

WS = Path.cwd()


def _sha(rel: str) -> str:
    return hashlib.sha256((WS / rel).read_bytes()).hexdigest()


def test_tools_and_assets_unchanged() -> None:
    assert {rel: _sha(rel) for rel in SHAS} == SHAS


def test_layer_pngs_unchanged() -> None:
    assert {name: _sha(f"banner/assets/{name}") for name in ASSETS} == ASSETS


SHAS = {
    "README.md": "e3997547b54260dba5327a6bd703c20460e56963c8c1ab3f89327c5054f22a89",
    "tools/compose.py": "a5be82f1378426bc203a27e348e1d5d491b362113c4da6da25286af994791fc6",
}
ASSETS = {
    "background.png": "bbb9c8f2cb2e4ce4284ae23bc6e886e8483f9b35ad57ac5c9705394940cbad3a",
    "badge.png": "4982948d17df0c39238f056505a329d7989a124bfe7aae7b83ce30cf1dc8c1ed",
    "glow.png": "13d00f62e4adfb0a0155d3d540dcf52041324de94421266414e3ad00a938d9d0",
    "headline.png": "b97493bfdac2f7171460e1852b02e63a394144ee392d72b4ef5e386c2e45079c",
    "old-price.png": "58b9bb6940abb524538e3c50e3baabd770a93f2159880365141212f57aacef19",
}
