"""Report 2: code spans end at a run of exactly the opening length."""

import markdown


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_double_backtick_inside_single():
    assert md("Write `a``b` here.") == "<p>Write <code>a``b</code> here.</p>"


def test_triple_backtick_inside_double():
    assert md("`` foo ``` bar ``") == "<p><code>foo ``` bar</code></p>"


def test_unclosed_run_is_literal():
    assert md("Stray `a`` backtick") == "<p>Stray `a`` backtick</p>"


def test_longer_trailing_run_not_a_closer():
    assert md("``x`` and `y```") == "<p><code>x</code> and `y```</p>"


def test_two_spans_with_inner_runs():
    out = md("```a``b``` and ``c```d``")
    assert out == "<p><code>a``b</code> and <code>c```d</code></p>"


def test_span_inside_emphasis():
    assert md("*see `x``y`*") == "<p><em>see <code>x``y</code></em></p>"


def test_span_in_list_item():
    out = md("* run `ls``-l`\n* done")
    assert "<li>run <code>ls``-l</code></li>" in out
