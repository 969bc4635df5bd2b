"""Import direction: realcli never imports analysis; analysis reads only warehouse/schema/util."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS_MAY_IMPORT = ("realcli.warehouse", "realcli.schema", "realcli.util", "realcli.registry")


def _imports(package: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def test_realcli_never_imports_analysis() -> None:
    bad = {
        f: n
        for f, n in _imports(ROOT / "realcli").items()
        if any(m == "analysis" or m.startswith("analysis.") for m in n)
    }
    assert bad == {}


def test_analysis_imports_only_the_read_side_of_realcli() -> None:
    bad = {
        f: sorted(
            m for m in names if m.startswith("realcli") and not m.startswith(ANALYSIS_MAY_IMPORT)
        )
        for f, names in _imports(ROOT / "analysis").items()
    }
    assert {f: m for f, m in bad.items() if m} == {}


def test_warehouse_imports_nothing_above_it() -> None:
    allowed = ("realcli.warehouse", "realcli.schema", "realcli.util", "realcli.ledger")
    bad = {
        f: sorted(m for m in names if m.startswith("realcli") and not m.startswith(allowed))
        for f, names in _imports(ROOT / "realcli" / "warehouse").items()
    }
    assert {f: m for f, m in bad.items() if m} == {}
