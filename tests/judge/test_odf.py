"""The judge reads OpenDocument packages as packages (not as UTF-8 text): the ODF 1.3 package
rules, the media type its suffix implies, the text a regex clause reads, bounded parts."""

from __future__ import annotations

import io
import zipfile

import pytest

from realcli.judge.checkers.common import FormatError, Parsed, deliverable_format, parse
from realcli.judge.odf import OdfError, read_odf
from realcli.schema.task_spec import Deliverable
from tests.conftest import REPO

ODT = REPO / "tasks/weave-doc-writer-retention-review/environment/repo/docs/retention-policy.odt"
ODS = REPO / "tasks/weave-dav-calc-pivot/environment/repo/data/targets.ods"
FODS = REPO / "tasks/weave-ops-calc-error-budget/environment/profile/budget.fods"
CONTENT = (
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
    "<text:h>Policy</text:h><text:p>Kept for <text:span>30</text:span> days.</text:p>"
    "</office:text></office:body></office:document-content>"
)
MANIFEST = (
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'
)


def _package(members: list[tuple[str, str | bytes]], stored_mimetype: bool = True) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            method = zipfile.ZIP_STORED if name == "mimetype" and stored_mimetype else None
            zf.writestr(name, data, compress_type=method)
    return buf.getvalue()


def _odt(**overrides: str | bytes | None) -> bytes:
    parts: dict[str, str | bytes | None] = {
        "mimetype": "application/vnd.oasis.opendocument.text",
        "META-INF/manifest.xml": MANIFEST,
        "content.xml": CONTENT,
    }
    parts.update(overrides)
    return _package([(k, v) for k, v in parts.items() if v is not None])


def _parse(fmt: str, data: bytes) -> Parsed:
    return parse(None, "doc", fmt, data)  # type: ignore[arg-type]  # run: images only


def test_a_real_libreoffice_package_parses_with_its_text() -> None:
    pkg = read_odf(ODT.read_bytes(), "odt")
    assert pkg.media_type == "application/vnd.oasis.opendocument.text"
    assert "content.xml" in pkg.parts and pkg.parts[0] == "mimetype"
    assert "retention" in pkg.text.lower()
    ods = _parse("ods", ODS.read_bytes())
    assert ods.summary.startswith("ODF spreadsheet package") and ods.text


def test_the_text_joins_spans_one_line_per_paragraph() -> None:
    parsed = _parse("odt", _odt())
    assert parsed.text == "Policy\nKept for 30 days."
    assert parsed.doc.tag.endswith("document-content")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"Kept for 30 days.", "not a zip package"),
        (_package([("content.xml", CONTENT), ("mimetype", "x")]), "first member is not"),
        (
            _package(
                [("mimetype", "application/vnd.oasis.opendocument.text")], stored_mimetype=False
            ),
            "compressed",
        ),
        (_odt(mimetype="application/zip"), "not an OpenDocument media type"),
        (_odt(mimetype="application/vnd.oasis.opendocument.spreadsheet"), "a .odt file holds"),
        (_odt(**{"META-INF/manifest.xml": None}), "no META-INF/manifest.xml"),
        (_odt(**{"content.xml": "<a>"}), "content.xml is not XML"),
        (_odt(**{"content.xml": '<!DOCTYPE a [<!ENTITY b "c">]><a/>'}), "declares XML entities"),
        (_odt(**{"content.xml": "<a/>"}), "not office:document-content"),
    ],
)
def test_a_broken_package_says_what_is_wrong(data: bytes, reason: str) -> None:
    with pytest.raises(OdfError, match=reason):
        read_odf(data, "odt")
    with pytest.raises(FormatError, match="not an ODF odt package"):
        _parse("odt", data)


def test_a_part_larger_than_the_limit_is_refused_before_it_is_read() -> None:
    bomb = _odt(**{"content.xml": b"<a>" + b" " * (65 * 1024 * 1024) + b"</a>"})
    assert len(bomb) < 1024 * 1024  # compresses to almost nothing
    with pytest.raises(OdfError, match="bytes uncompressed"):
        read_odf(bomb)


def test_the_suffix_implies_the_format_and_flat_odf_is_xml() -> None:
    assert deliverable_format(Deliverable(path="out/r.ods", kind="file")) == "ods"
    assert deliverable_format(Deliverable(path="docs/p.fodt", kind="file")) == "xml"
    assert deliverable_format(Deliverable(path="b.fods", kind="file", format="fods")) == "xml"
    assert _parse("xml", FODS.read_bytes()).summary.startswith("XML <document>")


def test_the_format_check_of_every_deliverable_parses_odf() -> None:
    from realcli.judge.artifacts import _PARSERS

    _PARSERS["odt"](_odt())
    with pytest.raises(OdfError):
        _PARSERS["ods"](_odt())  # a text package is not a spreadsheet
    _PARSERS["fods"](FODS.read_bytes())
