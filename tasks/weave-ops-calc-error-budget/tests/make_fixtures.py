"""Regenerate the fixtures of weave-ops-calc-error-budget (python3 tests/make_fixtures.py from
the bundle). Deterministic; writes

- environment/profile/budget.fods: the SRE error-budget workbook open in Calc (in the app's
  per-run profile copy, never in the agent's sandbox). Sheet Incidents: every Q3 incident
  (service, start, minutes of downtime); sheet Budget: per service its SLO, the allowed
  downtime, the downtime used (SUMIF over Incidents), the remaining budget and a status
  (IF remaining < 0: FROZEN), with a conditional format shading the FROZEN rows. The saved
  (cached) results predate the last incidents, and the frozen profile never recalculates on
  load: the statuses and the shading stay stale until the agent recalculates;
- environment/repo/deploy/services.toml: the deploy pipeline's per-service settings;
- tests/anchors.json: the hidden expected values.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from xml.sax.saxutils import escape

BUNDLE = Path(__file__).resolve().parents[1]
SLO = {
    "api-gateway": 99.95, "auth": 99.99, "billing": 99.9, "catalog": 99.5,
    "checkout": 99.95, "notifications": 99.0, "reports": 99.0, "search": 99.9,
}  # fmt: skip
QUARTER_MIN = 92 * 1440
LATE = 6
NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"'
)
GENERATOR = "LibreOffice/7.4.7.2$Linux_X86_64 LibreOffice_project/40$Build-2"
"""Saved by LibreOffice itself: Calc then trusts the saved results (a document from another
generator is recalculated on load whatever the setting)."""


def incidents() -> list[tuple[str, str, int]]:
    rng = random.Random(7303)
    names = sorted(SLO)
    out = []
    for n in range(34):
        service = names[rng.randrange(len(names))]
        minutes = rng.choice([3, 4, 6, 8, 9, 12, 14, 18, 22, 27, 35, 41])
        day = 1 + (n * 83) % 92
        month, dom = (7, day) if day <= 31 else (8, day - 31) if day <= 62 else (9, day - 62)
        out.append((service, f"2024-{month:02d}-{dom:02d} {rng.randrange(24):02d}:{rng.randrange(60):02d}", minutes))
    # the late incidents (entered after the last recalculation): two big outages
    out[-LATE:] = [("checkout", "2024-09-27 14:05", 48), ("search", "2024-09-28 03:40", 95),
                   ("catalog", "2024-09-28 09:12", 7), ("auth", "2024-09-29 22:31", 6),
                   ("reports", "2024-09-30 11:02", 30), ("billing", "2024-09-30 16:44", 5)]  # fmt: skip
    return out


def s(value: str, style: str = "") -> str:
    st = f' table:style-name="{style}"' if style else ""
    return f'<table:table-cell office:value-type="string"{st}><text:p>{escape(value)}</text:p></table:table-cell>'


def f(value: float, formula: str = "", style: str = "") -> str:
    fm = f' table:formula="{escape(formula)}"' if formula else ""
    st = f' table:style-name="{style}"' if style else ""
    shown = f"{value:.2f}" if value != int(value) else f"{int(value)}"
    return f'<table:table-cell{fm}{st} office:value-type="float" office:value="{value!r}"><text:p>{shown}</text:p></table:table-cell>'


def budget(rows: list[tuple[str, str, int]]) -> dict[str, dict[str, float]]:
    out = {}
    for name, slo in sorted(SLO.items()):
        allowed = round((100 - slo) / 100 * QUARTER_MIN, 2)
        used = sum(m for sv, _, m in rows if sv == name)
        out[name] = {"slo": slo, "allowed": allowed, "used": used, "remaining": round(allowed - used, 2)}
    return out


def workbook(rows: list[tuple[str, str, int]], cached: dict[str, dict[str, float]]) -> str:
    inc = ["<table:table-row>" + s("service", "Head") + s("start", "Head") + s("minutes_down", "Head") + "</table:table-row>"]
    inc += ["<table:table-row>" + s(sv) + s(st) + f(m) + "</table:table-row>" for sv, st, m in rows]
    last = len(rows) + 1
    head = ["service", "slo_pct", "allowed_min", "used_min", "remaining_min", "status"]
    bud = ["<table:table-row>" + "".join(s(h, "Head") for h in head) + "</table:table-row>"]
    for i, name in enumerate(sorted(SLO), start=2):
        c = cached[name]
        status = "FROZEN" if c["remaining"] < 0 else "ok"
        bud.append("<table:table-row>" + s(name) + f(c["slo"])
                   + f(c["allowed"], f"of:=ROUND((100-[.B{i}])/100*{QUARTER_MIN};2)")
                   + f(c["used"], f"of:=SUMIF([$Incidents.$A$2:.$A${last}];[.A{i}];[$Incidents.$C$2:.$C${last}])")
                   + f(c["remaining"], f"of:=[.C{i}]-[.D{i}]")
                   + f'<table:table-cell table:formula="of:=IF([.E{i}]&lt;0;&quot;FROZEN&quot;;&quot;ok&quot;)" office:value-type="string" office:string-value="{status}"><text:p>{status}</text:p></table:table-cell>'
                   + "</table:table-row>")  # fmt: skip
    end = len(SLO) + 1
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:meta><meta:generator>{GENERATOR}</meta:generator></office:meta>
<office:styles>
<style:style style:name="Head" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="Exhausted" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties fo:background-color="#d32f2f"/><style:text-properties fo:color="#ffffff" fo:font-weight="bold"/></style:style>
</office:styles>
<office:automatic-styles><style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="1.25in"/></style:style></office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Budget"><table:table-column table:style-name="co1" table:number-columns-repeated="6"/>
{chr(10).join(bud)}
<calcext:conditional-formats><calcext:conditional-format calcext:target-range-address="Budget.E2:Budget.F{end}">
<calcext:condition calcext:apply-style-name="Exhausted" calcext:value="formula-is([$Budget.$F2]=&quot;FROZEN&quot;)" calcext:base-cell-address="Budget.E2"/>
</calcext:conditional-format></calcext:conditional-formats>
</table:table>
<table:table table:name="Incidents"><table:table-column table:style-name="co1" table:number-columns-repeated="3"/>
{chr(10).join(inc)}
</table:table>
</office:spreadsheet></office:body></office:document>
"""


SERVICES_TOML = '''# Deploy pipeline settings, one table per service. `deploy_freeze = true` blocks every
# deploy but hotfixes until the quarter ends; `budget_remaining_min` is the SRE workbook's
# remaining error budget in minutes (negative: exhausted). tools/deploy_guard.py checks it.
'''


def main() -> None:
    rows = incidents()
    truth = budget(rows)
    stale = budget(rows[:-LATE])
    (BUNDLE / "environment/profile/budget.fods").write_text(workbook(rows, stale), encoding="utf-8")
    toml = SERVICES_TOML
    for name in sorted(SLO):
        owner = name.split("-")[0]
        toml += f'\n[services.{name}]\nowner = "team-{owner}"\ndeploy_freeze = false\nbudget_remaining_min = 0.0\n'
    (BUNDLE / "environment/repo/deploy/services.toml").write_text(toml, encoding="utf-8")
    frozen = sorted(n for n, b in truth.items() if b["remaining"] < 0)
    anchors = {
        "remaining": {n: b["remaining"] for n, b in truth.items()},
        "used": {n: b["used"] for n, b in truth.items()},
        "frozen": frozen,
        "stale_frozen": sorted(n for n, b in stale.items() if b["remaining"] < 0),
        "worst_service": min(truth, key=lambda n: truth[n]["remaining"] / truth[n]["allowed"]),
    }
    (BUNDLE / "tests/anchors.json").write_text(json.dumps(anchors, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(anchors, indent=1))


if __name__ == "__main__":
    main()
