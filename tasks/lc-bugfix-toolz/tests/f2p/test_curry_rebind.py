"""Bug 7: later keyword arguments override earlier ones in curried functions."""

from functools import partial

import toolz.curried
from toolz import curry


def f(x, y=0):
    return x + y


def g(a, b, *, scale=1, offset=0):
    return (a + b) * scale + offset


def test_report_example():
    cf = curry(f)
    assert cf(y=1)(y=2)(1) == f(1, y=2)
    assert cf(y=1)(y=2)(y=3)(1) == f(1, y=3)


def test_keywords_attribute_updated():
    cf = curry(f)
    assert cf(y=1)(y=2).keywords == {"y": 2}


def test_curry_with_initial_keyword_then_rebind():
    cg = curry(g, scale=2)
    assert cg(scale=10)(1)(2) == 30
    assert cg(offset=1)(scale=3)(1, 2) == 10


def test_curry_of_partial_uses_new_keyword():
    p = partial(f, y=1)
    assert curry(p, y=2)(1) == 3


def test_curry_of_curry_uses_new_keyword():
    c1 = curry(f, y=1)
    assert curry(c1, y=5)(1) == 6


def test_curried_namespace_get_in_default():
    assert toolz.curried.get_in(default=0)(default=1)(["missing"], {}) == 1
