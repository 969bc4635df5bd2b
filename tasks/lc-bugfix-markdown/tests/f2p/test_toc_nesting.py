"""Report 7: the table of contents nests headings by level."""

import re

import markdown


def tokens(text, **kw):
    m = markdown.Markdown(extensions=["toc"], **kw)
    m.convert(text)
    return m


def shape(toks):
    return [(t["id"], t["level"], shape(t["children"])) for t in toks]


def test_report_example():
    m = tokens("# A\n\n## B\n\n# C")
    assert shape(m.toc_tokens) == [("a", 1, [("b", 2, [])]), ("c", 1, [])]


def test_back_to_middle_level():
    m = tokens("# A\n\n## B\n\n### C\n\n## D")
    assert shape(m.toc_tokens) == [("a", 1, [("b", 2, [("c", 3, [])]), ("d", 2, [])])]


def test_skipped_levels():
    m = tokens("# A\n\n### B\n\n## C\n\n# D")
    assert shape(m.toc_tokens) == [("a", 1, [("b", 3, []), ("c", 2, [])]), ("d", 1, [])]


def test_repeated_section_names():
    text = "# API\n\n## Usage\n\n## Examples\n\n# CLI\n\n## Usage\n\n## Examples"
    m = tokens(text)
    assert shape(m.toc_tokens) == [
        ("api", 1, [("usage", 2, []), ("examples", 2, [])]),
        ("cli", 1, [("usage_1", 2, []), ("examples_1", 2, [])]),
    ]


def test_deep_unwind_with_duplicates():
    text = "# Guide\n\n## Install\n\n### Notes\n\n#### Details\n\n# Reference\n\n## Install\n\n### Notes"
    m = tokens(text)
    assert shape(m.toc_tokens) == [
        ("guide", 1, [("install", 2, [("notes", 3, [("details", 4, [])])])]),
        ("reference", 1, [("install_1", 2, [("notes_1", 3, [])])]),
    ]


def test_rendered_toc_structure():
    m = tokens("# A\n\n## B\n\n# C")
    toc = re.sub(r"\s+", "", m.toc)
    assert toc == (
        '<divclass="toc"><ul><li><ahref="#a">A</a><ul><li><ahref="#b">B</a></li></ul></li>'
        '<li><ahref="#c">C</a></li></ul></div>'
    )


def test_document_starting_below_top_level():
    m = tokens("## One\n\n### One.a\n\n## Two\n\n### Two.a\n\n## Three")
    assert [t["name"] for t in m.toc_tokens] == ["One", "Two", "Three"]
    assert [[c["name"] for c in t["children"]] for t in m.toc_tokens] == [["One.a"], ["Two.a"], []]
