"""talk/script.md (shown slides, their notes) and out/deck.json (every slide)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_common", Path(__file__).with_name("_common.py"))
assert _spec is not None and _spec.loader is not None
c = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(c)


def test_speaker_script() -> None:
    got = (c.WS / "talk" / "script.md").read_text(encoding="utf-8")
    want = c.expected_script()
    assert "Backup: raw data" not in got, "the hidden slide is in the script"
    assert got.strip() == want.strip(), f"script differs:\n{got}\n--- expected ---\n{want}"


def test_deck_json() -> None:
    deck = json.loads((c.WS / "out" / "deck.json").read_text(encoding="utf-8"))
    got = [(s["n"], s["title"], s["hidden"], s["notes"]) for s in deck["slides"]]
    want = [(n, t, h, "\n".join(notes)) for n, (t, _, h, notes) in enumerate(c.SLIDES, 1)]
    assert got == want, got
