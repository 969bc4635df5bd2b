"""out/freeze.json: the exhausted services and the worst one."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _truth import ANCHORS, FROZEN  # noqa: E402


def test_freeze_json() -> None:
    path = Path("out/freeze.json")
    assert path.is_file(), "out/freeze.json is missing"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"frozen": FROZEN, "worst_service": ANCHORS["worst_service"]}, data
