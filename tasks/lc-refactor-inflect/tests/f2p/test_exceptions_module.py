"""Sub-step 1: ``inflect.exceptions`` and no more printing to stdout."""

import importlib

import pytest

import inflect

NAMES = [
    "UnknownClassicalModeError",
    "BadNumValueError",
    "BadChunkingOptionError",
    "NumOutOfRangeError",
    "BadUserDefinedPatternError",
    "BadRcFileError",
    "BadGenderError",
]


def _exceptions():
    return importlib.import_module("inflect.exceptions")


def test_base_class():
    exc = _exceptions()
    assert issubclass(exc.InflectError, Exception)
    assert inflect.InflectError is exc.InflectError


@pytest.mark.parametrize("name", NAMES)
def test_exceptions_derive_from_inflect_error(name):
    exc = _exceptions()
    cls = getattr(exc, name)
    assert issubclass(cls, exc.InflectError)
    assert getattr(inflect, name) is cls


def test_unknown_classical_mode_message():
    p = inflect.engine()
    with pytest.raises(_exceptions().InflectError) as excinfo:
        p.classical(bogus=True)
    assert isinstance(excinfo.value, inflect.UnknownClassicalModeError)
    assert "bogus" in str(excinfo.value)


def test_bad_num_value_message():
    with pytest.raises(inflect.BadNumValueError, match="many"):
        inflect.engine().num("many")


def test_bad_chunking_option_message():
    with pytest.raises(inflect.BadChunkingOptionError, match="4"):
        inflect.engine().number_to_words(1234, group=4)


def test_bad_gender_message():
    p = inflect.engine()
    with pytest.raises(inflect.BadGenderError, match="robot"):
        p.gender("robot")
    with pytest.raises(inflect.BadGenderError, match="robot"):
        p.singular_noun("they", gender="robot")


@pytest.mark.parametrize(
    ("method", "args"),
    [
        ("defnoun", ("(??", "x")),
        ("defadj", ("(??", "x")),
        ("defa", ("(??",)),
        ("defan", ("(??",)),
        ("defverb", ("(??", "x", "a", "b", "c", "d")),
    ],
)
def test_bad_pattern_message(method, args):
    p = inflect.engine()
    with pytest.raises(inflect.BadUserDefinedPatternError) as excinfo:
        getattr(p, method)(*args)
    assert "(??" in str(excinfo.value)


def test_number_out_of_range_message():
    with pytest.raises(inflect.NumOutOfRangeError, match="out of range"):
        inflect.engine().number_to_words("1" + "0" * 36)


def test_errors_never_print(monkeypatch, capsys):
    # Even a caller that switches the old flag on gets no output any more.
    monkeypatch.setattr(inflect, "STDOUT_ON", True, raising=False)
    p = inflect.engine()
    with pytest.raises(inflect.BadUserDefinedPatternError):
        p.defnoun("(??", "x")
    with pytest.raises(inflect.NumOutOfRangeError):
        p.number_to_words("1" + "0" * 36)
    out, err = capsys.readouterr()
    assert out == ""


def test_stdout_flag_and_print3_are_deprecated(capsys):
    assert "STDOUT_ON" not in vars(inflect)
    assert "print3" not in vars(inflect)
    with pytest.warns(DeprecationWarning):
        assert inflect.STDOUT_ON is False
    with pytest.warns(DeprecationWarning):
        print3 = inflect.print3
    print3("hello")
    assert capsys.readouterr().out == ""
