#!/usr/bin/env python3
"""Count the 5xx answers in logs/edge-access.log inside the incident window.

usage: impact.py WINDOW      WINDOW = "2024-06-03T02:14:00Z/2024-06-03T02:51:00Z" (UTC;
start inclusive, end exclusive). Log timestamps are parsed with their own UTC offset
(edge-2 logs in local time, +0200).
"""

import re
import sys
from datetime import datetime

start_s, end_s = sys.argv[1].strip().split("/")
start = datetime.fromisoformat(start_s.replace("Z", "+00:00"))
end = datetime.fromisoformat(end_s.replace("Z", "+00:00"))
LINE = re.compile(r'\[([^\]]+)\] "[^"]*" (\d{3}) ')
count = by_node = 0
nodes: dict[str, int] = {}
with open("logs/edge-access.log") as f:
    for line in f:
        m = LINE.search(line)
        if not m:
            continue
        ts = datetime.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S %z")
        if start <= ts < end and m.group(2).startswith("5"):
            count += 1
            node = re.search(r"node=(\S+)", line).group(1)
            nodes[node] = nodes.get(node, 0) + 1
print(count)
print(f"by node: {nodes}", file=sys.stderr)
