"""The public behaviour of ``geometry`` and ``report.py`` must not change."""

import math
import subprocess
import sys
from pathlib import Path

import pytest

import geometry


@pytest.mark.parametrize(
    ("func", "args", "expected"),
    [
        ("circle_area", (1,), math.pi),
        ("circle_perimeter", (1,), 2 * math.pi),
        ("rectangle_area", (2, 3), 6),
        ("rectangle_perimeter", (2, 3), 10),
        ("square_area", (2.5,), 6.25),
        ("square_perimeter", (2.5,), 10),
        ("triangle_area", (3, 4, 5), 6),
        ("triangle_perimeter", (3, 4, 5), 12),
    ],
)
def test_formula_functions(func, args, expected):
    assert getattr(geometry, func)(*args) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: geometry.circle_area(0), "radius must be positive"),
        (lambda: geometry.circle_perimeter(-1), "radius must be positive"),
        (lambda: geometry.rectangle_area(0, 2), "width must be positive"),
        (lambda: geometry.rectangle_perimeter(2, 0), "height must be positive"),
        (lambda: geometry.square_area(-1), "side must be positive"),
        (lambda: geometry.triangle_area(1, 1, 0), "side c must be positive"),
        (lambda: geometry.triangle_perimeter(1, 1, 5), "sides do not form a triangle"),
        (lambda: geometry.area("circle", 1, 2), "circle needs 1 dimension"),
        (lambda: geometry.perimeter("rect", 1), "rectangle needs 2 dimensions"),
        (lambda: geometry.area("triangle", 1, 1), "triangle needs 3 dimensions"),
        (lambda: geometry.area("blob", 1), "unknown shape: blob"),
    ],
)
def test_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_dispatch_with_aliases_and_case():
    assert geometry.area("rect", 2, 3) == 6
    assert geometry.area("Rectangle", 2, 3) == 6
    assert geometry.perimeter(" CIRCLE ", 1) == pytest.approx(2 * math.pi)
    assert geometry.area("triangle", 3, 4, 5) == pytest.approx(6)


def test_describe():
    assert geometry.describe("square", 2) == "square: area=4.00 perimeter=8.00"
    assert geometry.describe("rect", 2, 3) == "rectangle: area=6.00 perimeter=10.00"
    assert geometry.describe("circle", 1) == "circle: area=3.14 perimeter=6.28"
    assert geometry.describe("triangle", 3, 4, 5) == "triangle: area=6.00 perimeter=12.00"


def test_parse_spec_and_total_area():
    assert geometry.parse_spec("RECT 2 3") == ("rect", (2.0, 3.0))
    assert geometry.parse_spec("circle") == ("circle", ())
    with pytest.raises(ValueError):
        geometry.parse_spec("   ")
    with pytest.raises(ValueError):
        geometry.parse_spec("square two")
    total = geometry.total_area(["circle 1", ("square", 2), ("rect", "2", 3), "triangle 3 4 5"])
    assert total == pytest.approx(math.pi + 4 + 6 + 6)
    assert geometry.total_area([]) == 0


def test_report_script(tmp_path):
    specs = tmp_path / "shapes.txt"
    specs.write_text("# my shapes\ncircle 1\n\nrect 2 3\nTriangle 3 4 5\n")
    proc = subprocess.run(
        [sys.executable, "report.py", str(specs)], cwd=Path.cwd(), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "circle: area=3.14 perimeter=6.28\n"
        "rectangle: area=6.00 perimeter=10.00\n"
        "triangle: area=6.00 perimeter=12.00\n"
        "total area: 15.14\n"
    )


def test_report_script_error(tmp_path):
    specs = tmp_path / "shapes.txt"
    specs.write_text("circle 1\nsquare 2\nhexagon 1\n")
    proc = subprocess.run(
        [sys.executable, "report.py", str(specs)], cwd=Path.cwd(), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == "line 3: unknown shape: hexagon"
