"""Bug 6: assoc_in honours ``factory`` for every level it returns."""

from collections import OrderedDict, defaultdict

import toolz.curried
from toolz import assoc_in


class Tracked(dict):
    """A dict subclass used as a factory."""


def test_report_example():
    out = assoc_in({}, ["a", "b"], 1, factory=OrderedDict)
    assert type(out) is OrderedDict
    assert type(out["a"]) is OrderedDict
    assert out == {"a": {"b": 1}}


def test_top_level_uses_factory():
    out = assoc_in({"x": 1}, ["x"], 2, factory=Tracked)
    assert type(out) is Tracked
    assert out == {"x": 2}


def test_existing_nested_levels_use_factory():
    d = {"a": {"b": {"c": 1}, "other": 2}}
    out = assoc_in(d, ["a", "b", "c"], 9, factory=Tracked)
    assert type(out) is Tracked
    assert type(out["a"]) is Tracked
    assert type(out["a"]["b"]) is Tracked
    assert out == {"a": {"b": {"c": 9}, "other": 2}}
    assert type(d["a"]) is dict and d["a"]["b"] == {"c": 1}


def test_defaultdict_factory():
    def factory():
        return defaultdict(int)

    out = assoc_in({"a": {"n": 1}}, ["a", "m"], 5, factory=factory)
    assert isinstance(out, defaultdict) and isinstance(out["a"], defaultdict)
    assert out["a"]["missing"] == 0
    assert dict(out["a"]) == {"n": 1, "m": 5, "missing": 0}


def test_curried_assoc_in_with_factory():
    set_b = toolz.curried.assoc_in(keys=["a", "b"], value=3, factory=OrderedDict)
    out = set_b({})
    assert type(out) is OrderedDict and type(out["a"]) is OrderedDict
    assert out == {"a": {"b": 3}}
