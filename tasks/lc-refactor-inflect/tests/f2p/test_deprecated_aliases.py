"""Sub-step 5: old Perl-style method names are working deprecated aliases."""

import pytest

import inflect

ALIASES = {
    "pl": "plural",
    "plnoun": "plural_noun",
    "plverb": "plural_verb",
    "pladj": "plural_adj",
    "sinoun": "singular_noun",
    "prespart": "present_participle",
    "numwords": "number_to_words",
    "plequal": "compare",
    "plnounequal": "compare_nouns",
    "plverbequal": "compare_verbs",
    "pladjequal": "compare_adjs",
    "wordlist": "join",
}


def test_mapping_is_fixed():
    assert inflect.engine.deprecated_methods == ALIASES


@pytest.mark.parametrize("old", sorted(ALIASES))
def test_old_name_warns_and_returns_the_new_method(old):
    p = inflect.engine()
    with pytest.warns(DeprecationWarning) as record:
        method = getattr(p, old)
    assert any(ALIASES[old] in str(w.message) for w in record)
    assert method == getattr(p, ALIASES[old])


def test_old_names_give_the_same_results():
    p = inflect.engine()
    with pytest.warns(DeprecationWarning):
        assert p.pl("cat") == "cats"
    with pytest.warns(DeprecationWarning):
        assert p.sinoun("cats") == "cat"
    with pytest.warns(DeprecationWarning):
        assert p.numwords(12) == "twelve"
    with pytest.warns(DeprecationWarning):
        assert p.wordlist(["ant", "bee"]) == "ant and bee"
    with pytest.warns(DeprecationWarning):
        assert p.prespart("runs") == "running"
    with pytest.warns(DeprecationWarning):
        assert p.plequal("cat", "cats") == "s:p"


def test_unknown_attribute_error_names_the_attribute():
    p = inflect.engine()
    with pytest.raises(AttributeError, match="frobnicate"):
        p.frobnicate
    assert getattr(p, "frobnicate", None) is None
