"""Regenerate the fixtures of weave-dav-gnumeric-seat-forecast (python3 tests/make_fixtures.py
from the bundle; needs Gnumeric's ssconvert). Deterministic; writes

- environment/profile/forecast.gnumeric: the revenue team's workbook, open in Gnumeric (in the
  app's per-run profile copy, never in the agent's sandbox): per region the Q3 seats, the
  churn and expansion rates and the Q4 forecast, a formula over them; only the running
  Gnumeric computes and shows the forecast;
- environment/repo/data/targets.csv: the Q4 seat targets (in the workspace);
- tests/anchors.json: the hidden expected values.
"""

from __future__ import annotations

import csv
import gzip
import json
import random
import subprocess
import tempfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

BUNDLE = Path(__file__).resolve().parents[1]
REGIONS = ["APAC", "Benelux", "DACH", "France", "Iberia", "Nordics", "UK&I"]


def main() -> None:
    rng = random.Random(1512)
    q3 = {r: rng.randrange(1800, 9000) for r in REGIONS}
    churn = {r: rng.randrange(15, 90) / 1000 for r in REGIONS}  # 1.5% .. 9.0%
    expansion = {r: rng.randrange(20, 140) / 1000 for r in REGIONS}
    forecast = {}
    for r in REGIONS:
        exact = Decimal(q3[r]) * (1 - Decimal(str(churn[r]))) * (1 + Decimal(str(expansion[r])))
        assert abs(exact - exact.to_integral_value()) != Decimal("0.5")
        forecast[r] = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    target = {}
    for i, r in enumerate(REGIONS):  # some regions miss the target, some beat it
        target[r] = forecast[r] + (rng.randrange(60, 400) * (1 if i % 3 == 0 else -1))
    with tempfile.TemporaryDirectory() as tmp:
        fc = Path(tmp) / "Forecast.csv"
        with fc.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(
                ["Region", "Q3 seats", "Churn", "Expansion", "Q4 forecast", "Q4 target", "Gap"]
            )
            for i, r in enumerate(REGIONS, start=2):
                w.writerow(
                    [
                        r,
                        q3[r],
                        churn[r],
                        expansion[r],
                        f"=ROUND(B{i}*(1-C{i})*(1+D{i}),0)",
                        "",
                        f'=IF(F{i}="","",E{i}-F{i})',
                    ]
                )
        gz = Path(tmp) / "forecast.gnumeric"
        subprocess.run(["ssconvert", str(fc), str(gz)], check=True, capture_output=True)
        xml = gzip.decompress(gz.read_bytes()).decode()
    # Gap (G2:G8) shaded red while negative: Gnumeric's own conditional style (Operator 5: <)
    shade = (
        f'        <gnm:StyleRegion startCol="6" startRow="1" endCol="6" endRow="{len(REGIONS)}">\n'
        '          <gnm:Style HAlign="GNM_HALIGN_GENERAL" VAlign="GNM_VALIGN_BOTTOM" Shade="0" '
        'Fore="0:0:0" Back="FFFF:FFFF:FFFF" PatternColor="0:0:0" Format="General">\n'
        '            <gnm:Font Unit="10" Bold="0" Italic="0" Underline="0" StrikeThrough="0" '
        'Script="0">Sans</gnm:Font>\n'
        '            <gnm:Condition Operator="5">\n'
        "              <gnm:Expression0>0</gnm:Expression0>\n"
        '              <gnm:Style Shade="1" Back="D3D3:2F2F:2F2F"/>\n'
        "            </gnm:Condition>\n"
        "          </gnm:Style>\n"
        "        </gnm:StyleRegion>\n"
    )
    assert xml.count("</gnm:Styles>") == 1
    xml = (
        xml.replace("</gnm:Styles>", shade + "      </gnm:Styles>")
        .replace('name="Forecast.csv"', 'name="Forecast"')
        .replace(">Forecast.csv<", ">Forecast<")
    )
    (BUNDLE / "environment" / "profile" / "forecast.gnumeric").write_text(xml)
    with (BUNDLE / "environment" / "repo" / "data" / "targets.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["region", "q4_target"])
        for r in sorted(REGIONS, key=lambda r: -target[r]):  # the team's own order
            w.writerow([r, target[r]])
    gap = {r: forecast[r] - target[r] for r in REGIONS}
    anchors = {
        "forecast": forecast,
        "target": target,
        "gap": gap,
        "short": sorted(r for r in REGIONS if gap[r] < 0),
        "worst_region": min(REGIONS, key=lambda r: gap[r] / target[r]),
    }
    (BUNDLE / "tests" / "anchors.json").write_text(json.dumps(anchors, indent=1) + "\n")
    print(anchors)


if __name__ == "__main__":
    main()
