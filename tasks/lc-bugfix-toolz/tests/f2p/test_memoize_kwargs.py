"""Bug 8: memoize distinguishes calls that differ in keyword values."""

from toolz import memoize


def test_report_example():
    @memoize
    def scale(x, factor=1):
        return x * factor

    assert scale(2, factor=3) == 6
    assert scale(2, factor=10) == 20


def test_each_keyword_value_computed_once():
    calls = []

    def f(x, y=0):
        calls.append((x, y))
        return x + y

    mf = memoize(f)
    assert mf(1, y=2) == 3
    assert mf(1, y=3) == 4
    assert mf(1, y=2) == 3
    assert calls == [(1, 2), (1, 3)]


def test_keyword_only_function():
    @memoize
    def greet(*, name="world", punct="!"):
        return "hello " + name + punct

    assert greet(name="a") == "hello a!"
    assert greet(name="b") == "hello b!"
    assert greet(name="a", punct="?") == "hello a?"


def test_var_keyword_function():
    @memoize
    def build(**opts):
        return sorted(opts.items())

    assert build(a=1) == [("a", 1)]
    assert build(a=2) == [("a", 2)]


def test_prefilled_cache_with_documented_key():
    cache = {((2,), frozenset({("factor", 3)})): "cached"}
    mf = memoize(lambda x, factor=1: x * factor, cache=cache)
    assert mf(2, factor=3) == "cached"
    assert mf(2, factor=4) == 8


def test_cache_keys_written_in_documented_format():
    cache = {}
    mf = memoize(lambda x, factor=1: x * factor, cache=cache)
    mf(2, factor=3)
    mf(2, factor=5)
    assert cache == {
        ((2,), frozenset({("factor", 3)})): 6,
        ((2,), frozenset({("factor", 5)})): 10,
    }
