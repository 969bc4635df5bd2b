"""The provided validator stays as shipped and still rejects a non-conforming DXF."""

import hashlib
import subprocess
import sys
from pathlib import Path

VALIDATOR_SHA256 = "8b0c4e0b9dcc51643c86476c3cae7da83de7e95e9d3b379cb81237738c09f613"


def test_validator_unchanged():
    data = Path("tools/check_dxf.py").read_bytes()
    assert hashlib.sha256(data).hexdigest() == VALIDATOR_SHA256


def test_validator_rejects_empty_dxf(tmp_path):
    bad = tmp_path / "bad.dxf"
    bad.write_text("0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n")
    res = subprocess.run([sys.executable, "tools/check_dxf.py", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1
    assert "layer LIVING" in res.stdout
