"""Q3 attainment from the refreshed pivot (copied out of Calc) and the targets ODS.

Reads work/pivot.tsv (the pivot's region x category block as Calc copies it: tab-separated,
header row, a "Total Result" column and row) and data/targets.ods (stdlib zipfile + XML,
honouring number-columns-repeated / number-rows-repeated and office:value over the display
text); writes out/attainment.csv, out/summary.json and out/q3_report.ods.
"""

from __future__ import annotations

import csv
import json
import sys
import zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

T = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
O = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
X = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"


def ods_rows(path: Path, sheet: str) -> list[list[object]]:
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("content.xml"))
    for table in root.iter(f"{{{T}}}table"):
        if table.get(f"{{{T}}}name") != sheet:
            continue
        rows: list[list[object]] = []
        for row in table.iter(f"{{{T}}}table-row"):
            cells: list[object] = []
            for cell in row:
                if cell.tag not in (f"{{{T}}}table-cell", f"{{{T}}}covered-table-cell"):
                    continue
                n = int(cell.get(f"{{{T}}}number-columns-repeated", "1"))
                kind = cell.get(f"{{{O}}}value-type")
                if kind in ("float", "currency", "percentage"):
                    value: object = float(cell.get(f"{{{O}}}value", "0"))
                elif kind is None:
                    value = None
                else:
                    value = "".join("".join(p.itertext()) for p in cell.findall(f"{{{X}}}p"))
                cells.extend([value] * min(n, 64))
            for _ in range(min(int(row.get(f"{{{T}}}number-rows-repeated", "1")), 64)):
                rows.append(list(cells))
        return rows
    raise SystemExit(f"{path}: no sheet {sheet!r}")


def targets(path: Path) -> dict[str, float]:
    rows = ods_rows(path, "Targets")
    head = [str(c) if c is not None else "" for c in rows[0]]
    ri, ti = head.index("region"), head.index("q3_target")
    out = {}
    for row in rows[1:]:
        if len(row) > ti and isinstance(row[ti], float) and isinstance(row[ri], str):
            out[row[ri]] = row[ti]
    return out


def pivot_totals(path: Path) -> dict[str, float]:
    lines = [ln.split("\t") for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    head = lines[0]
    total = head.index("Total Result")
    return {ln[0]: float(ln[total]) for ln in lines[1:] if ln[0] != "Total Result"}


def cell(value: object, style: str | None) -> str:
    st = f' table:style-name="{style}"' if style else ""
    if isinstance(value, float):
        return (f'<table:table-cell{st} office:value-type="float" office:value="{value!r}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    return f'<table:table-cell{st} office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def write_ods(path: Path, rows: list[list[object]], below: set[str]) -> None:
    body = ["<table:table-row>" + "".join(cell(h, None) for h in rows[0]) + "</table:table-row>"]
    for r in rows[1:]:
        style = "below" if r[0] in below else None
        body.append("<table:table-row>" + "".join(cell(v, style) for v in r) + "</table:table-row>")
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="{O}" xmlns:table="{T}" xmlns:text="{X}"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3">
<office:automatic-styles>
<style:style style:name="below" style:family="table-cell"><style:table-cell-properties fo:background-color="#ff8080"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="Attainment">
<table:table-column table:number-columns-repeated="4"/>
{chr(10).join(body)}
</table:table></office:spreadsheet></office:body></office:document-content>
"""
    manifest = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)


def main() -> None:
    revenue = pivot_totals(Path(sys.argv[1] if len(sys.argv) > 1 else "work/pivot.tsv"))
    goal = targets(Path("data/targets.ods"))
    pct = {r: round(100 * revenue[r] / goal[r], 1) for r in revenue}
    order = sorted(revenue, key=lambda r: (pct[r], r))
    Path("out").mkdir(exist_ok=True)
    rows: list[list[object]] = [["region", "revenue", "target", "attainment_pct"]]
    rows += [[r, revenue[r], goal[r], pct[r]] for r in order]
    with open("out/attainment.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(rows[0])
        for r in order:
            w.writerow([r, f"{revenue[r]:.2f}", f"{goal[r]:.0f}", f"{pct[r]:.1f}"])
    below = sorted(r for r in order if pct[r] < 100)
    summary = {
        "total_revenue": round(sum(revenue.values()), 2),
        "below_target": below,
        "best_region": max(order, key=lambda r: pct[r]),
    }
    Path("out/summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_ods(Path("out/q3_report.ods"), rows, set(below))
    print(json.dumps(summary))
    for row in rows:
        print(*row, sep="\t")


if __name__ == "__main__":
    main()
