"""Bug 5: update_in / assoc_in never mutate their input."""

import copy

from toolz import assoc_in, update_in


def inc(x):
    return x + 1


def test_report_example():
    base = {"cfg": {"debug": False}, "name": "app"}
    dev = assoc_in(base, ["cfg", "debug"], True)
    assert base == {"cfg": {"debug": False}, "name": "app"}
    assert dev == {"cfg": {"debug": True}, "name": "app"}


def test_update_in_nested_input_unchanged():
    d = {"a": {"b": {"c": 1}}, "x": 0}
    snapshot = copy.deepcopy(d)
    out = update_in(d, ["a", "b", "c"], inc)
    assert out == {"a": {"b": {"c": 2}}, "x": 0}
    assert d == snapshot


def test_levels_along_path_are_new_objects():
    inner = {"c": 1}
    middle = {"b": inner}
    d = {"a": middle}
    out = assoc_in(d, ["a", "b", "c"], 5)
    assert out is not d
    assert out["a"] is not middle
    assert out["a"]["b"] is not inner
    assert inner == {"c": 1}


def test_missing_leaf_under_existing_level():
    d = {"a": {}}
    out = update_in(d, ["a", "count"], inc, default=0)
    assert out == {"a": {"count": 1}}
    assert d == {"a": {}}


def test_results_from_same_base_are_independent():
    base = {"cfg": {"x": 0, "y": 0}}
    r1 = assoc_in(base, ["cfg", "x"], 1)
    r2 = assoc_in(base, ["cfg", "x"], 2)
    assert r1["cfg"]["x"] == 1
    assert r2["cfg"]["x"] == 2
    assert base["cfg"]["x"] == 0


def test_sibling_values_preserved():
    d = {"a": {"keep": [1, 2], "n": 1}, "b": {"z": 3}}
    out = update_in(d, ["a", "n"], inc)
    assert out == {"a": {"keep": [1, 2], "n": 2}, "b": {"z": 3}}
    assert d["a"] == {"keep": [1, 2], "n": 1}
