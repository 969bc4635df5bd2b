"""No module in ``realcli/`` passes 450 lines (issue 14, acceptance e; STYLE.md: a file past
~400 lines is asking to be split along a seam you can name)."""

from __future__ import annotations

from pathlib import Path

REALCLI = Path(__file__).resolve().parents[1] / "realcli"
MAX_LINES = 450


def oversized(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``path: N lines`` for each ``.py`` file under ``root`` longer than ``limit``, longest
    first."""
    counts = []
    for path in root.rglob("*.py"):
        with path.open("rb") as f:
            n = sum(1 for _ in f)
        if n > limit:
            counts.append((n, path.relative_to(root.parent).as_posix()))
    return [f"{p}: {n} lines" for n, p in sorted(counts, key=lambda c: (-c[0], c[1]))]


def test_no_realcli_module_passes_450_lines() -> None:
    found = oversized(REALCLI)
    assert not found, f"{len(found)} module(s) over {MAX_LINES} lines:\n" + "\n".join(found)


def test_the_count_is_lines_and_names_each_file(tmp_path: Path) -> None:
    pkg = tmp_path / "realcli"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "ok.py").write_text("x = 1\n" * 450)
    (pkg / "sub" / "big.py").write_text("x = 1\n" * 451)
    (pkg / "bigger.py").write_text("x = 1\n" * 600 + "y = 2")  # no final newline: 601 lines
    assert oversized(pkg) == ["realcli/bigger.py: 601 lines", "realcli/sub/big.py: 451 lines"]
