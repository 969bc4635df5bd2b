"""Sub-step 3: ``ClassicalOptions`` replaces the classical-mode dicts."""

import dataclasses
import importlib

import pytest

import inflect

FIELDS = ["all", "zero", "herd", "names", "persons", "ancient"]


def _opts():
    return importlib.import_module("inflect.classical").ClassicalOptions


def test_dataclass_shape():
    Opts = _opts()
    assert inflect.ClassicalOptions is Opts
    assert dataclasses.is_dataclass(Opts)
    assert [f.name for f in dataclasses.fields(Opts)] == FIELDS
    default = Opts()
    assert default.as_dict() == {
        "all": False,
        "zero": False,
        "herd": False,
        "names": True,
        "persons": False,
        "ancient": False,
    }
    assert list(default.as_dict()) == FIELDS
    with pytest.raises(dataclasses.FrozenInstanceError):
        default.herd = True


def test_enabled_and_disabled():
    Opts = _opts()
    assert Opts.enabled().as_dict() == dict.fromkeys(FIELDS, True)
    assert Opts.disabled().as_dict() == dict.fromkeys(FIELDS, False)
    assert Opts.enabled() == Opts(**dict.fromkeys(FIELDS, True))


def test_engine_starts_with_default_options():
    assert inflect.engine().classical_options == _opts()()


def test_classical_call_semantics():
    Opts = _opts()
    p = inflect.engine()
    p.classical()
    assert p.classical_options == Opts.enabled()
    p.classical(all=False)
    assert p.classical_options == Opts.disabled()
    p.classical(names=True, zero=True)
    assert p.classical_options == Opts(names=True, zero=True)
    p.classical(all=True, herd=False)
    assert p.classical_options == dataclasses.replace(Opts.enabled(), herd=False)
    q = inflect.engine()
    q.classical(herd=True)
    assert q.classical_options == Opts(herd=True)
    with pytest.raises(inflect.UnknownClassicalModeError):
        q.classical(bogus=True)
    with pytest.raises(TypeError):
        q.classical("names")


def test_classical_replaces_instead_of_mutating():
    p = inflect.engine()
    before = p.classical_options
    p.classical(zero=True)
    assert before == _opts()()
    assert p.classical_options is not before
    assert p.classical_options.zero is True


def test_assigning_options_changes_behaviour():
    Opts = _opts()
    p = inflect.engine()
    assert p.plural("buffalo") == "buffaloes"
    assert p.plural("error", 0) == "errors"
    p.classical_options = Opts(herd=True)
    assert p.plural("buffalo") == "buffalo"
    p.classical_options = Opts(zero=True)
    assert p.plural("error", 0) == "error"
    p.classical_options = Opts.enabled()
    assert p.plural("formula") == "formulae"
    assert p.plural("person") == "persons"
    p.classical_options = Opts()
    assert p.plural("formula") == "formulas"


def test_classical_dict_is_deprecated_and_read_only():
    p = inflect.engine()
    p.classical(herd=True)
    with pytest.warns(DeprecationWarning):
        d = p.classical_dict
    assert d == p.classical_options.as_dict()
    assert "classical_dict" not in vars(p)
    with pytest.raises(AttributeError):
        p.classical_dict = {}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("def_classical", dict(all=False, zero=False, herd=False, names=True, persons=False, ancient=False)),
        ("all_classical", dict.fromkeys(FIELDS, True)),
        ("no_classical", dict.fromkeys(FIELDS, False)),
    ],
)
def test_module_dicts_are_deprecated(name, expected):
    _opts()
    with pytest.warns(DeprecationWarning) as record:
        value = getattr(inflect, name)
    assert value == expected
    assert any("ClassicalOptions" in str(w.message) for w in record)
