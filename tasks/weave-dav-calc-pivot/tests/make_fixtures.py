"""Regenerate the fixtures of weave-dav-calc-pivot (run from the bundle: python3
tests/make_fixtures.py). Deterministic; writes

- environment/profile/q3_sales.fods: the workbook open in Calc (in the app's per-run profile
  copy, never in the agent's sandbox): sheet Orders (every Q3 order, shipped and returned) and
  sheet Pivot, a real pivot table (DataPilot) of revenue by region and category, filtered to
  shipped orders, whose saved output predates the last orders (it must be refreshed);
- environment/repo/data/targets.ods: the regional targets, a real ODS (zip) the way Calc
  saves one (repeated columns and rows, display text beside the value);
- tests/anchors.json: the hidden expected values.
"""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

BUNDLE = Path(__file__).resolve().parents[1]
REGIONS = ["Central", "East", "North", "South", "West"]
CATEGORIES = ["Hardware", "Services", "Software"]
REPS = ["A. Moreau", "B. Okoye", "C. Lindgren", "D. Haddad", "E. Tanaka", "F. Novak"]
TARGETS = {"Central": 61000, "East": 52000, "North": 36000, "South": 78000, "West": 55000}
PRICES = {"Hardware": (420, 1890), "Services": (150, 980), "Software": (90, 640)}

NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"'
)


def orders() -> list[dict[str, object]]:
    rng = random.Random(20240930)
    out = []
    for n in range(1, 61):
        category = CATEGORIES[rng.randrange(3)]
        low, high = PRICES[category]
        units = rng.randint(2, 14)
        price = round(rng.uniform(low, high) / 5) * 5 - 0.01
        status = "returned" if rng.random() < 0.16 else "shipped"
        out.append({
            "order_id": f"Q3-{n:04d}", "date": f"2024-{7 + (n - 1) // 20:02d}-{1 + (n * 7) % 28:02d}",
            "region": REGIONS[rng.randrange(5)], "rep": REPS[rng.randrange(6)],
            "category": category, "units": units, "unit_price": round(price, 2), "status": status,
        })  # fmt: skip
    return out


def text_cell(value: str, style: str = "") -> str:
    st = f' table:style-name="{style}"' if style else ""
    return f'<table:table-cell office:value-type="string"{st}><text:p>{escape(value)}</text:p></table:table-cell>'


def float_cell(value: float, formula: str = "", style: str = "") -> str:
    f = f' table:formula="{escape(formula)}"' if formula else ""
    st = f' table:style-name="{style}"' if style else ""
    shown = f"{value:.2f}" if isinstance(value, float) and value != int(value) else f"{value:g}"
    return (f'<table:table-cell{f}{st} office:value-type="float" office:value="{value!r}">'
            f"<text:p>{shown}</text:p></table:table-cell>")  # fmt: skip


def pivot(rows: list[dict[str, object]]) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {r: dict.fromkeys(CATEGORIES, 0.0) for r in REGIONS}
    for o in rows:
        if o["status"] == "shipped":
            table[str(o["region"])][str(o["category"])] += float(o["units"]) * float(o["unit_price"])  # type: ignore[arg-type]
    return {r: {c: round(v, 2) for c, v in cats.items()} for r, cats in table.items()}


def workbook(rows: list[dict[str, object]], pv: dict[str, dict[str, float]]) -> str:
    head = ["order_id", "date", "region", "rep", "category", "units", "unit_price", "revenue", "status"]
    lines = ["<table:table-row>" + "".join(text_cell(h, "Head") for h in head) + "</table:table-row>"]
    for i, o in enumerate(rows, start=2):
        revenue = round(float(o["units"]) * float(o["unit_price"]), 2)  # type: ignore[arg-type]
        cells = [text_cell(str(o[k])) for k in ("order_id", "date", "region", "rep", "category")]
        cells += [float_cell(int(o["units"])), float_cell(float(o["unit_price"])),  # type: ignore[arg-type]
                  float_cell(revenue, f"of:=[.F{i}]*[.G{i}]"), text_cell(str(o["status"]))]  # fmt: skip
        lines.append("<table:table-row>" + "".join(cells) + "</table:table-row>")
    orders_xml = "\n".join(lines)
    last = len(rows) + 1
    # The pivot's output, as Calc lays it out (its cached cells; the pivot itself is below).
    prow = ['<table:table-row>' + text_cell("Filter") + "</table:table-row>",
            '<table:table-row>' + text_cell("status") + text_cell("shipped") + "</table:table-row>",
            '<table:table-row><table:table-cell/></table:table-row>',
            '<table:table-row>' + text_cell("Sum - revenue") + text_cell("category") + "</table:table-row>",
            '<table:table-row>' + text_cell("region") + "".join(text_cell(c) for c in CATEGORIES)
            + text_cell("Total Result") + "</table:table-row>"]  # fmt: skip
    for r in REGIONS:
        vals = [pv[r][c] for c in CATEGORIES]
        prow.append("<table:table-row>" + text_cell(r) + "".join(float_cell(v) if v else "<table:table-cell/>" for v in vals)
                    + float_cell(round(sum(vals), 2)) + "</table:table-row>")  # fmt: skip
    col_tot = [round(sum(pv[r][c] for r in REGIONS), 2) for c in CATEGORIES]
    prow.append("<table:table-row>" + text_cell("Total Result") + "".join(float_cell(v) for v in col_tot)
                + float_cell(round(sum(col_tot), 2)) + "</table:table-row>")  # fmt: skip
    pivot_xml = "\n".join(prow)
    end = 5 + len(REGIONS) + 1
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:styles><style:style style:name="Head" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style></office:styles>
<office:automatic-styles><style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="1.1in"/></style:style></office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Pivot"><table:table-column table:style-name="co1" table:number-columns-repeated="5"/>
{pivot_xml}
</table:table>
<table:table table:name="Orders"><table:table-column table:style-name="co1" table:number-columns-repeated="9"/>
{orders_xml}
</table:table>
<table:data-pilot-tables>
<table:data-pilot-table table:name="Q3 revenue" table:target-range-address="Pivot.A1:Pivot.E{end + 1}" table:buttons="Pivot.A2 Pivot.B4 Pivot.A5" table:show-filter-button="true">
<table:source-cell-range table:cell-range-address="Orders.A1:Orders.I{last}"/>
<table:data-pilot-field table:source-field-name="status" table:orientation="page" table:selected-page="shipped"><table:data-pilot-level table:show-empty="false"/></table:data-pilot-field>
<table:data-pilot-field table:source-field-name="region" table:orientation="row"><table:data-pilot-level table:show-empty="false"/></table:data-pilot-field>
<table:data-pilot-field table:source-field-name="category" table:orientation="column"><table:data-pilot-level table:show-empty="false"/></table:data-pilot-field>
<table:data-pilot-field table:source-field-name="revenue" table:orientation="data" table:function="sum"/>
</table:data-pilot-table>
</table:data-pilot-tables>
</office:spreadsheet></office:body></office:document>
"""


def targets_ods(path: Path) -> None:
    """A small ODS as Calc writes one: number-columns-repeated blanks inside rows, a repeated
    blank row, the display text (thousands separators) beside the float value."""
    rows = ["<table:table-row>" + text_cell("region") + text_cell("q3_target")
            + '<table:table-cell table:number-columns-repeated="2"/>' + text_cell("owner")
            + "</table:table-row>"]  # fmt: skip
    for i, (region, target) in enumerate(sorted(TARGETS.items(), key=lambda kv: -kv[1])):
        rows.append("<table:table-row>" + text_cell(region)
                    + f'<table:table-cell office:value-type="float" office:value="{target}"><text:p>{target:,}.00</text:p></table:table-cell>'
                    + '<table:table-cell table:number-columns-repeated="2"/>' + text_cell(REPS[i])
                    + "</table:table-row>")  # fmt: skip
    rows.append('<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="5"/></table:table-row>')
    rows.append("<table:table-row>" + text_cell("Approved by finance, 2024-06-28") + "</table:table-row>")
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {NS} office:version="1.3"><office:body><office:spreadsheet>
<table:table table:name="Targets"><table:table-column table:number-columns-repeated="5"/>
{chr(10).join(rows)}
</table:table></office:spreadsheet></office:body></office:document-content>
"""
    manifest = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype", (2024, 6, 28, 0, 0, 0)), "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        for name, body in (("content.xml", content), ("META-INF/manifest.xml", manifest)):
            z.writestr(zipfile.ZipInfo(name, (2024, 6, 28, 0, 0, 0)), body, compress_type=zipfile.ZIP_DEFLATED)


LATE = 8
"""The last orders were keyed in after the pivot was built: its cached output leaves them out
until it is refreshed in Calc (Data > Pivot Table > Refresh)."""


def main() -> None:
    rows = orders()
    pv = pivot(rows)
    stale = pivot(rows[:-LATE])
    doc = BUNDLE / "environment/profile/q3_sales.fods"
    doc.write_text(workbook(rows, stale), encoding="utf-8")
    targets_ods(BUNDLE / "environment/repo/data/targets.ods")
    revenue = {r: round(sum(pv[r].values()), 2) for r in REGIONS}
    pct = {r: round(100 * revenue[r] / TARGETS[r], 1) for r in REGIONS}
    all_revenue = round(sum(float(o["units"]) * float(o["unit_price"]) for o in rows), 2)  # type: ignore[arg-type]
    anchors = {
        "revenue": revenue,
        "target": TARGETS,
        "attainment_pct": pct,
        "order": sorted(REGIONS, key=lambda r: (pct[r], r)),
        "below_target": sorted(r for r in REGIONS if pct[r] < 100),
        "best_region": max(REGIONS, key=lambda r: pct[r]),
        "total_revenue": round(sum(revenue.values()), 2),
        "total_revenue_with_returns": all_revenue,
        "returned_orders": sum(o["status"] == "returned" for o in rows),
        "stale_revenue": {r: round(sum(stale[r].values()), 2) for r in REGIONS},
    }
    (BUNDLE / "tests/anchors.json").write_text(json.dumps(anchors, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(anchors, indent=1))


if __name__ == "__main__":
    main()
