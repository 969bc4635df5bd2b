"""Report 1: entities inside code are shown literally."""

import markdown


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_code_span_named_entity():
    assert md("Use `&copy;` to write ©.") == "<p>Use <code>&amp;copy;</code> to write ©.</p>"


def test_code_span_numeric_entities():
    out = md("Escapes: `&#169;` and `&#x27;`")
    assert "<code>&amp;#169;</code>" in out
    assert "<code>&amp;#x27;</code>" in out


def test_code_span_escaped_ampersand_entity():
    assert md("`&amp;`") == "<p><code>&amp;amp;</code></p>"


def test_indented_code_block():
    assert md("    x = '&lt;'") == "<pre><code>x = '&amp;lt;'\n</code></pre>"


def test_indented_code_block_mixed():
    out = md("Example:\n\n    if a &lt; b && c:\n        print('&nbsp;')\n")
    assert "<pre><code>if a &amp;lt; b &amp;&amp; c:\n    print('&amp;nbsp;')\n</code></pre>" in out


def test_code_span_in_heading():
    assert md("# The `&amp;` entity") == "<h1>The <code>&amp;amp;</code> entity</h1>"


def test_text_entities_outside_code_untouched():
    out = md("&copy; and `&copy;`")
    assert out == "<p>&copy; and <code>&amp;copy;</code></p>"
