#!/bin/bash
# The report script was last edited on a Windows laptop: make sure it has CRLF line endings
# (idempotent) and keeps its executable bit, whatever the checkout did to it.
set -euo pipefail
sed -i 's/\r*$/\r/' scripts/nightly-report.sh
chmod 755 scripts/nightly-report.sh
