#!/usr/bin/env python3
"""Dev tool (not part of the agent's workspace): generate environment/repo/logs/edge-access.log
deterministically and print the impact count (5xx in the incident window, UTC, [start, end))."""

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "environment/repo/logs/edge-access.log"
START = datetime(2024, 6, 3, 1, 30, tzinfo=timezone.utc)
END = datetime(2024, 6, 3, 3, 20, tzinfo=timezone.utc)
W0 = datetime(2024, 6, 3, 2, 14, tzinfo=timezone.utc)
W1 = datetime(2024, 6, 3, 2, 51, tzinfo=timezone.utc)
CEST = timezone(timedelta(hours=2))

rnd = random.Random(2417)
API = ["/api/v1/payments", "/api/v1/payments/{id}", "/api/v1/refunds", "/api/v1/customers/{id}",
       "/api/v1/balance", "/api/v1/webhooks"]
STATIC = ["/static/app.js", "/static/app.css", "/static/logo.svg", "/favicon.ico", "/"]
UAS = ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/125.0",
       "okhttp/4.12.0", "python-requests/2.31.0", "PaymentsSDK-iOS/3.4.1",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) Safari/605.1.15"]


def fmt(ts, node):
    local = ts.astimezone(CEST if node == "edge-2" else timezone.utc)
    return local.strftime("%d/%b/%Y:%H:%M:%S %z")


def line(ts, node, method, path, status, upstream):
    ip = f"{rnd.choice([10, 172, 192])}.{rnd.randint(0, 255)}.{rnd.randint(0, 255)}.{rnd.randint(1, 254)}"
    size = 0 if status >= 500 else rnd.randint(120, 9000)
    rt = f"{rnd.uniform(0.001, 0.4):.3f}"
    ua = rnd.choice(UAS)
    return (f'{ip} - - [{fmt(ts, node)}] "{method} {path} HTTP/1.1" {status} {size} "-" "{ua}" '
            f'node={node} rt={rt} upstream={upstream}')


events = []
t = START
while t < END:
    t += timedelta(seconds=rnd.choice([0, 0, 1, 1, 1, 2]))
    for _ in range(rnd.randint(1, 3)):
        node = rnd.choice(["edge-1", "edge-1", "edge-2"])
        failed_over = t >= W1
        if failed_over and rnd.random() < 0.9:
            continue  # traffic moved to the standby region; only a trickle remains
        if rnd.random() < 0.62:
            path = rnd.choice(API).replace("{id}", str(rnd.randint(1000, 99999)))
            method = "POST" if "payments" in path and rnd.random() < 0.5 else "GET"
            if W0 <= t:
                up = "127.0.0.1:8080"
                status = rnd.choices([502, 504, 499], [0.86, 0.08, 0.06])[0]
            else:
                up = "127.0.0.1:8080"
                status = rnd.choices([200, 201, 400, 404, 500, 503], [0.8, 0.08, 0.05, 0.04, 0.02, 0.01])[0]
        else:
            path, method, up = rnd.choice(STATIC), "GET", "-"
            status = rnd.choices([200, 304, 404], [0.8, 0.15, 0.05])[0]
        events.append((t, node, method, path, status, up))
    if t >= W1:
        # synthetic probe keeps hitting the broken route after the fail-over
        if t.second % 30 == 0:
            events.append((t, "edge-1", "GET", "/api/v1/balance", 502, "127.0.0.1:8080"))

# boundary lines (both nodes) right at the window edges
for ts in (W0 - timedelta(seconds=1), W0, W1 - timedelta(seconds=1), W1):
    for node in ("edge-1", "edge-2"):
        events.append((ts, node, "GET", "/api/v1/balance", 502, "127.0.0.1:8080"))

events.sort(key=lambda e: e[0])
lines = [line(*e) for e in events]
OUT.write_text("\n".join(lines) + "\n")
impact = sum(1 for e in events if W0 <= e[0] < W1 and 500 <= e[4] <= 599)
naive = sum(1 for e in events if W0 <= (e[0].astimezone(CEST if e[1] == "edge-2" else timezone.utc).replace(tzinfo=timezone.utc)) < W1 and 500 <= e[4] <= 599)
print(f"{len(lines)} lines; impact={impact}; naive (ignoring the +0200 offset)={naive}")
