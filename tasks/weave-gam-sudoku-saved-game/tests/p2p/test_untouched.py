"""What must keep working: the club's README stays."""

from pathlib import Path


def test_readme_is_kept() -> None:
    assert "saved game" in Path("README.md").read_text()
