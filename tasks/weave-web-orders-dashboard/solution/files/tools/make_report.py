#!/usr/bin/env python3
"""out/report.json from the values copied off the verified dashboard (files in .copied/)."""

import json
import re
from pathlib import Path

copied = Path(".copied")
orders = copied.joinpath("orders.txt").read_text().strip()
revenue = copied.joinpath("revenue.txt").read_text().strip()
code = copied.joinpath("code.txt").read_text().strip()
assert re.fullmatch(r"\d+", orders), orders
assert re.fullmatch(r"\$\d{1,3}(,\d{3})*\.\d{2}", revenue), revenue
assert re.fullmatch(r"WV-[0-9A-F]{4}-[0-9A-F]{4}", code), code
Path("out").mkdir(exist_ok=True)
report = {"month": "2024-09", "orders": int(orders), "revenue": revenue, "verification_code": code}
Path("out/report.json").write_text(json.dumps(report, indent=2) + "\n")
print(json.dumps(report, indent=2))
