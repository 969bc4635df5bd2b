"""Report 3: pipes inside code spans do not split table cells, whatever the number of spans."""

import re

import markdown


def table(text, **kw):
    return markdown.markdown(text, extensions=["tables"], **kw)


def body_rows(html):
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_report_example():
    html = table("| A | B |\n|---|---|\n| `a|b` | `c|d` |")
    assert body_rows(html) == [["<code>a|b</code>", "<code>c|d</code>"]]


def test_three_code_cells_without_borders():
    html = table("A | B | C\n--|---|--\n`x|y` | `1|2` | `p|q`")
    assert body_rows(html) == [["<code>x|y</code>", "<code>1|2</code>", "<code>p|q</code>"]]


def test_mixed_text_and_several_spans():
    html = table(
        "| Operator | Example | Notes |\n"
        "|:---------|:-------:|------:|\n"
        "| or | `a|b` | see `c|d` |\n"
        "| pipe | `x|y` | `p|q` or `r|s` |\n"
    )
    assert body_rows(html) == [
        ["or", "<code>a|b</code>", "see <code>c|d</code>"],
        ["pipe", "<code>x|y</code>", "<code>p|q</code> or <code>r|s</code>"],
    ]


def test_header_row_with_code_spans():
    html = table("| `a|b` | `c|d` |\n|---|---|\n| 1 | 2 |")
    heads = re.findall(r"<th[^>]*>(.*?)</th>", html)
    assert heads == ["<code>a|b</code>", "<code>c|d</code>"]


def test_double_backtick_spans_in_cells():
    html = table("| A | B |\n|---|---|\n| ``a`|`b`` | ``c|d`` |")
    assert body_rows(html) == [["<code>a`|`b</code>", "<code>c|d</code>"]]


def test_code_with_inner_backticks_next_to_pipe_cell():
    html = table("| A | B |\n|---|---|\n| `a``b` | `c|d` |")
    assert body_rows(html) == [["<code>a``b</code>", "<code>c|d</code>"]]


def test_entities_in_code_cells():
    html = table("| Entity | Shows |\n|---|---|\n| `&lt;` | `<` |\n| `&amp;` | `&` |")
    assert body_rows(html) == [
        ["<code>&amp;lt;</code>", "<code>&lt;</code>"],
        ["<code>&amp;amp;</code>", "<code>&amp;</code>"],
    ]
