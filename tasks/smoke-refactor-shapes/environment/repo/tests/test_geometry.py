import math

import pytest

import geometry


def test_circle():
    assert geometry.circle_area(1) == pytest.approx(math.pi)
    assert geometry.circle_perimeter(1) == pytest.approx(2 * math.pi)


def test_dispatch():
    assert geometry.area("rect", 2, 3) == 6
    assert geometry.perimeter("square", 2) == 8
    assert geometry.area("triangle", 3, 4, 5) == pytest.approx(6)


def test_describe():
    assert geometry.describe("square", 2) == "square: area=4.00 perimeter=8.00"


def test_errors():
    with pytest.raises(ValueError):
        geometry.area("circle", -1)
    with pytest.raises(ValueError):
        geometry.area("blob", 1)
