"""Join the workbook's forecast (copied out of Gnumeric) with the targets; write the files.

Usage: python3 tools/gap.py work/forecast.tsv data/targets.csv
Prints the targets in the workbook's row order (for typing into its Q4 target column).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path


def main() -> None:
    rows = list(csv.DictReader(Path(sys.argv[1]).read_text().splitlines(), delimiter="\t"))
    targets = {
        r["region"]: int(r["q4_target"])
        for r in csv.DictReader(Path(sys.argv[2]).read_text().splitlines())
    }
    table = []
    for row in rows:
        region, forecast = row["Region"], int(row["Q4 forecast"])
        target = targets[region]
        table.append(
            {
                "region": region,
                "q4_forecast": forecast,
                "q4_target": target,
                "gap": forecast - target,
                "attainment_pct": round(forecast / target * 100, 1),
            }
        )
    out = Path("out")
    out.mkdir(exist_ok=True)
    with (out / "gap.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0]))
        w.writeheader()
        w.writerows(sorted(table, key=lambda r: (r["gap"], r["region"])))
    subprocess.run(["ssconvert", str(out / "gap.csv"), str(out / "gap.xlsx")], check=True)
    short = sorted(r["region"] for r in table if r["gap"] < 0)
    worst = min(table, key=lambda r: r["attainment_pct"])["region"]
    (out / "summary.json").write_text(json.dumps({"short": short, "worst_region": worst}) + "\n")
    print("workbook order:", " ".join(str(targets[r["Region"]]) for r in rows))


if __name__ == "__main__":
    main()
