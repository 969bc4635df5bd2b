"""Report 5: line breaks inside reference labels count as a space."""

import markdown


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_collapsed_reference_label_wrapped():
    out = md("See the [Python\nhomepage][] for details.\n\n[python homepage]: https://www.python.org")
    assert out == '<p>See the <a href="https://www.python.org">Python\nhomepage</a> for details.</p>'


def test_full_reference_label_wrapped():
    out = md("See [the docs][docs\nsite].\n\n[docs site]: https://example.com/docs")
    assert out == '<p>See <a href="https://example.com/docs">the docs</a>.</p>'


def test_shortcut_reference_wrapped():
    out = md("A [multi\nline] shortcut.\n\n[multi line]: /x")
    assert out == '<p>A <a href="/x">multi\nline</a> shortcut.</p>'


def test_case_insensitive_and_wrapped():
    out = md("Read the [User\nGuide][].\n\n[USER GUIDE]: /guide")
    assert out == '<p>Read the <a href="/guide">User\nGuide</a>.</p>'


def test_image_reference_wrapped():
    out = md("![The\nlogo][logo\nimage]\n\n[logo image]: /logo.png")
    assert out == '<p><img alt="The\nlogo" src="/logo.png" /></p>'


def test_wrapped_label_with_quoted_title():
    out = md("Visit [our\nsite][].\n\n[our site]: https://example.com 'The \"official\" site'")
    assert out == (
        '<p>Visit <a href="https://example.com" title="The &quot;official&quot; site">our\nsite</a>.</p>'
    )
