"""Sub-step 4: the ``Gender`` enum."""

import enum
import importlib

import pytest

import inflect

VALUES = {
    "NEUTER": "neuter",
    "FEMININE": "feminine",
    "MASCULINE": "masculine",
    "GENDER_NEUTRAL": "gender-neutral",
    "FEMININE_OR_MASCULINE": "feminine or masculine",
    "MASCULINE_OR_FEMININE": "masculine or feminine",
}


def _gender():
    return importlib.import_module("inflect.pronouns").Gender


def test_members():
    Gender = _gender()
    assert issubclass(Gender, enum.Enum) and issubclass(Gender, str)
    assert {m.name: m.value for m in Gender} == VALUES
    assert inflect.Gender is Gender
    assert Gender.FEMININE == "feminine"


def test_default_gender_is_neuter_member():
    p = inflect.engine()
    assert p.thegender is _gender().NEUTER
    assert p.singular_noun("they") == "it"


@pytest.mark.parametrize("name", sorted(VALUES))
def test_gender_accepts_members_and_values(name):
    Gender = _gender()
    p = inflect.engine()
    p.gender(VALUES[name])
    assert p.thegender is Gender[name]
    q = inflect.engine()
    q.gender(Gender[name])
    assert q.thegender is Gender[name]


def test_singular_pronouns_follow_the_gender():
    Gender = _gender()
    p = inflect.engine()
    p.gender(Gender.FEMININE)
    assert p.singular_noun("they") == "she"
    assert p.singular_noun("themselves") == "herself"
    p.gender("masculine or feminine")
    assert p.singular_noun("they") == "he or she"
    assert p.singular_noun("they", gender=Gender.GENDER_NEUTRAL) == "they"
    assert p.singular_noun("themselves", gender="gender-neutral") == "themself"
    assert p.singular_noun("theirs", gender=Gender.MASCULINE) == "his"
    assert p.thegender is Gender.MASCULINE_OR_FEMININE


@pytest.mark.parametrize("bad", ["robot", "Feminine", "FEMININE", 3])
def test_invalid_genders_raise(bad):
    _gender()
    p = inflect.engine()
    with pytest.raises(inflect.BadGenderError):
        p.gender(bad)
    with pytest.raises(inflect.BadGenderError):
        p.singular_noun("they", gender=bad)
    assert p.thegender is _gender().NEUTER


def test_singular_pronoun_genders_set_is_kept():
    pronouns = importlib.import_module("inflect.pronouns")
    _gender()
    assert pronouns.singular_pronoun_genders == set(VALUES.values())
