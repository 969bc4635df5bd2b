import hashlib
from pathlib import Path

TARGETS_SHA256 = "cd2a137aa51213b542e6235ac422d5c6ede3588c580af68a972669ed6c3ab6ba"


def test_targets_untouched():
    data = Path("data/targets.csv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == TARGETS_SHA256
