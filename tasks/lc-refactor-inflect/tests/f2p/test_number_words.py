"""Sub-step 6: ``NumberWords`` holds the number-wording machinery and its state."""

import importlib

import pytest

import inflect

HELPERS = [
    "millfn",
    "unitfn",
    "tenfn",
    "hundfn",
    "enword",
    "group1sub",
    "group1bsub",
    "group2sub",
    "group3sub",
    "hundsub",
    "tensub",
    "unitsub",
]


def _nw():
    return importlib.import_module("inflect.numbers").NumberWords


def test_exported():
    assert inflect.NumberWords is _nw()


def test_millfn_unitfn_tenfn():
    words = _nw()()
    assert words.millfn(1) == " thousand"
    assert words.millfn(0) == " "
    assert words.millfn(11) == " decillion"
    with pytest.raises(inflect.NumOutOfRangeError):
        words.millfn(12)
    assert words.unitfn(1, 2) == "one million"
    assert words.unitfn(5, 0) == "five "
    assert words.tenfn(3, 1, 2) == "thirty-one million"
    assert words.tenfn(1, 1, 2) == "eleven million"
    assert words.tenfn(0, 0, 0) == " "


def test_hundfn_uses_its_andword():
    assert _nw()(andword="and").hundfn(4, 3, 1, 2) == "four hundred and thirty-one  million, "
    assert _nw()().hundfn(4, 0, 0, 2) == "four hundred  million, "
    assert _nw()(andword="&").hundfn(4, 0, 5, 2) == "four hundred & five  million, "
    assert _nw()(andword="").hundfn(1, 0, 1, 0) == "one hundred  one  , "


def test_enword_groups():
    words = _nw()(zero="zero", one="one", andword="and")
    assert words.enword("347", 1) == "three, four, seven, "
    assert words.enword("0", 1) == " zero, "
    assert words.enword("34", 2) == "thirty-four , "
    assert words.enword("134", 3) == " one thirty-four , "
    assert words.enword("0", 0) == "zero"
    assert words.enword("1234", 0) == "one thousand, two hundred and thirty-four  , "
    assert _nw()(zero="oh").enword("0", 1) == " oh, "


def test_instances_are_independent():
    NumberWords = _nw()
    a = NumberWords(andword="and")
    b = NumberWords(andword="plus")
    assert a.enword("101", 0) == "one hundred and one  , "
    assert b.enword("101", 0) == "one hundred plus one  , "
    assert a.enword("101", 0) == "one hundred and one  , "


@pytest.mark.parametrize("name", HELPERS)
def test_helpers_are_gone_from_the_engine(name):
    _nw()
    assert not hasattr(inflect.engine(), name)


def test_number_to_words_keeps_no_state_on_the_engine():
    _nw()
    p = inflect.engine()
    before = dict(vars(p))
    assert p.number_to_words(1234567) == (
        "one million, two hundred and thirty-four thousand, five hundred and sixty-seven"
    )
    assert p.number_to_words(1234, group=2) == "twelve, thirty-four"
    assert p.number_to_words("12.5") == "twelve point five"
    assert p.number_to_words(101, andword="") == "one hundred one"
    assert p.number_to_words(0, zero="oh") == "oh"
    assert p.number_to_words(21, wantlist=True) == ["twenty-one"]
    assert p.number_to_words("1st") == "first"
    assert dict(vars(p)) == before
    assert not hasattr(p, "_number_args")
    assert not hasattr(p, "mill_count")
