"""Sub-step 2: the monolithic module is split into a package with a thin facade."""

import importlib
import re
import warnings
from pathlib import Path

import pytest

import inflect

MOVED = [
    ("util", "enclose"),
    ("util", "joinstem"),
    ("util", "bysize"),
    ("util", "make_pl_si_lists"),
    ("nouns", "pl_sb_irregular"),
    ("nouns", "si_sb_irregular"),
    ("nouns", "pl_sb_uninflected_herd"),
    ("nouns", "si_sb_ves_ve"),
    ("nouns", "pl_prep_list"),
    ("nouns", "pl_prep"),
    ("pronouns", "pl_pron_nom"),
    ("pronouns", "si_pron"),
    ("pronouns", "get_si_pron"),
    ("pronouns", "singular_pronoun_genders"),
    ("verbs", "plverb_irregular_pres"),
    ("verbs", "pl_v_oes_oe"),
    ("adjectives", "pl_adj_special"),
    ("adjectives", "pl_adj_poss_keys"),
    ("articles", "A_abbrev"),
    ("articles", "A_ordinal_an"),
    ("numbers", "nth"),
    ("numbers", "nth_suff"),
    ("numbers", "ordinal_suff"),
    ("numbers", "mill"),
    ("core", "Words"),
    ("core", "PARTITION_WORD"),
    ("core", "FUNCTION_CALL"),
    ("core", "DIGIT"),
    ("core", "PRESENT_PARTICIPLE_REPLACEMENTS"),
    ("core", "string_to_constant"),
]


@pytest.mark.parametrize(("module", "name"), MOVED)
def test_name_lives_in_its_new_module(module, name):
    mod = importlib.import_module(f"inflect.{module}")
    assert hasattr(mod, name)
    assert name not in vars(inflect)


@pytest.mark.parametrize(("module", "name"), MOVED)
def test_old_name_is_a_deprecated_alias(module, name):
    mod = importlib.import_module(f"inflect.{module}")
    with pytest.warns(DeprecationWarning) as record:
        value = getattr(inflect, name)
    assert value is getattr(mod, name)
    assert any(f"inflect.{module}.{name}" in str(w.message) for w in record)


def test_engine_lives_in_core():
    core = importlib.import_module("inflect.core")
    assert inflect.engine is core.engine
    assert inflect.engine.__module__ == "inflect.core"
    # public names of the facade do not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert inflect.engine().plural("cat") == "cats"
        assert issubclass(inflect.BadGenderError, Exception)
        assert issubclass(inflect.NumOutOfRangeError, Exception)
    # names that never existed still raise AttributeError
    with pytest.raises(AttributeError):
        inflect.no_such_thing_here


def test_facade_is_thin():
    init = Path(inflect.__file__)
    assert init.name == "__init__.py"
    lines = [line for line in init.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) <= 150
    assert "re.compile(" not in init.read_text(encoding="utf-8")
    assert not re.search(r"^class engine\b", init.read_text(encoding="utf-8"), re.M)


def test_moved_helpers_keep_their_behaviour():
    util = importlib.import_module("inflect.util")
    assert util.enclose("test") == "(?:test)"
    assert util.joinstem(-2, ["ephemeris", "iris", ".*itis"]) == "(?:ephemer|ir|.*it)"
    assert util.bysize(["ant", "cat", "frog"]) == {3: {"ant", "cat"}, 4: {"frog"}}
    nouns = importlib.import_module("inflect.nouns")
    assert nouns.pl_sb_irregular["child"] == "children"
    numbers = importlib.import_module("inflect.numbers")
    assert numbers.nth[1] == "st" and numbers.mill[1] == " thousand"
