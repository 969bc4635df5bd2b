# Copied from the inflect 5.6.2 test suite (tests/test_pl_si.py); the word list is read from this folder and
# failures are no longer appended to badsi.txt.
import os

import inflect

FNAME = os.path.join(os.path.dirname(__file__), "words.txt")
# FNAME = 'tests/list-of-nouns.txt'
# FNAME = '/usr/share/dict/british-english'
# FNAME = 'tricky.txt'


def getwords():
    words = open(FNAME).readlines()
    words = [w.strip() for w in words]
    return words


def test_pl_si():
    p = inflect.engine()
    words = getwords()
    for word in words:
        if word == "":
            continue
        if word[-2:] == "'s":
            continue
        #        if word[-1] == 's':
        #            continue
        p.classical(all=False)
        check_pl_si(p, word)
        p.classical(all=True)
        check_pl_si(p, word)


def check_pl_si(p, word):
    assert p.singular_noun(p.plural_noun(word, 2), 1) == word
