"""Report 4: double quotes in attribute values are escaped."""

import xml.etree.ElementTree as etree

import markdown
from markdown.serializers import to_html_string, to_xhtml_string


def md(text, **kw):
    return markdown.markdown(text, **kw)


def test_image_alt_with_quotes():
    assert md('![a "quoted" word](/img.png)') == '<p><img alt="a &quot;quoted&quot; word" src="/img.png" /></p>'


def test_link_title_with_quotes_html_format():
    out = md("[link](http://example.com 'say \"hi\"')", output_format="html")
    assert out == '<p><a href="http://example.com" title="say &quot;hi&quot;">link</a></p>'


def test_link_title_with_quotes_xhtml_format():
    out = md("[link](http://example.com 'say \"hi\"')")
    assert out == '<p><a href="http://example.com" title="say &quot;hi&quot;">link</a></p>'


def test_image_title_with_quotes():
    out = md("![pic](/i.png 'the \"best\" one')", output_format="html")
    assert out == '<p><img alt="pic" src="/i.png" title="the &quot;best&quot; one"></p>'


def test_serializers_escape_quotes():
    el = etree.Element("div")
    el.set("title", 'a "b" <c> & d')
    el.text = 'x "y"'
    assert to_xhtml_string(el) == '<div title="a &quot;b&quot; &lt;c&gt; &amp; d">x "y"</div>'
    assert to_html_string(el) == '<div title="a &quot;b&quot; &lt;c&gt; &amp; d">x "y"</div>'


def test_attr_list_value_with_quotes():
    out = md("Paragraph\n{: title='a \"q\" b' }", extensions=["attr_list"])
    assert out == '<p title="a &quot;q&quot; b">Paragraph</p>'
