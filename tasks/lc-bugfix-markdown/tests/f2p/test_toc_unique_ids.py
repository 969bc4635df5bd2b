"""Report 6: toc gives every heading a unique id."""

import re

import markdown
from markdown.extensions.toc import unique


def convert(text, **kw):
    m = markdown.Markdown(extensions=["toc"], **kw)
    html = m.convert(text)
    return m, html


def heading_ids(html):
    return re.findall(r'<h\d id="([^"]+)"', html)


def test_report_example():
    _, html = convert("# Intro\n\n# Intro\n\n# Intro")
    assert heading_ids(html) == ["intro", "intro_1", "intro_2"]


def test_toc_links_follow_unique_ids():
    m, _ = convert("# Setup\n\n## Usage\n\n# Deploy\n\n## Usage")
    assert re.findall(r'href="#([^"]+)"', m.toc) == ["setup", "usage", "deploy", "usage_1"]


def test_marker_toc_uses_unique_ids():
    _, html = convert("[TOC]\n\n# FAQ\n\n# FAQ")
    assert '<a href="#faq_1">FAQ</a>' in html
    assert heading_ids(html) == ["faq", "faq_1"]


def test_explicit_ids_are_respected():
    m = markdown.Markdown(extensions=["toc", "attr_list"])
    html = m.convert("# Intro {: #intro }\n\n# Intro\n\n# Other {: #intro_1 }\n\n# Intro")
    assert heading_ids(html) == ["intro", "intro_2", "intro_1", "intro_3"]


def test_unique_helper_records_ids():
    ids = set()
    assert unique("foo", ids) == "foo"
    assert unique("foo", ids) == "foo_1"
    assert unique("foo", ids) == "foo_2"
    assert ids == {"foo", "foo_1", "foo_2"}


def test_unique_helper_numbered_base():
    ids = {"item_1"}
    assert unique("item_1", ids) == "item_2"
    assert unique("item_1", ids) == "item_3"
    assert "item_3" in ids


def test_toc_tokens_ids():
    m, _ = convert("## A\n\n## A\n\n## B\n\n## A")
    assert [t["id"] for t in m.toc_tokens] == ["a", "a_1", "b", "a_2"]
