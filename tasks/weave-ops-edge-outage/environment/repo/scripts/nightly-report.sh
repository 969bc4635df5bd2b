#!/bin/bash
# Nightly edge report: request counts per status class from the edge access log.
# Run by report-runner from cron (see services/report-runner.ini).
set -euo pipefail

LOG="${1:-logs/edge-access.log}"
OUT_DIR="${REPORT_DIR:-reports}"
mkdir -p "$OUT_DIR"

awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^"(GET|POST|PUT|DELETE|PATCH|HEAD)$/) { print $(i + 3); break } }' "$LOG" \
  | awk '{ c[substr($1, 1, 1) "xx"]++ } END { for (k in c) print k, c[k] }' \
  | sort > "$OUT_DIR/status-classes.txt"

echo "report written to $OUT_DIR/status-classes.txt"
