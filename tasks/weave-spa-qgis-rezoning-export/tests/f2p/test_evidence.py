"""evidence/qgis.png: QGIS's map rendering the active parcels in their current zone colours."""

from __future__ import annotations

from pathlib import Path

from realcli_testkit import colour_counts, read_png

WS = Path.cwd()
R1 = (0x9C, 0xCC, 0x65)  # the project's categorized fills
C1 = (0xE0, 0x45, 0x7B)
R2 = (0x4F, 0xC3, 0xF7)


def test_qgis_screenshot() -> None:
    img = read_png(WS / "evidence" / "qgis.png")
    assert img.size == (1024, 768), img.size
    counts = colour_counts(img)
    # At the start view P-104 (C1 after the unsaved edit) fills ~33000 px, the R1 parcels ~75000.
    assert counts[R1] >= 20000, f"only {counts[R1]} px of R1: the map is not shown (or selected)"
    assert counts[C1] >= 15000, f"only {counts[C1]} px of C1: P-104 is not shown in its new zone"
    assert counts[R2] < 500, "a parcel is drawn as R2: the saved zone, not QGIS's edit"
