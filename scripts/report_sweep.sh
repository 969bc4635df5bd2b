#!/usr/bin/env bash
# The sweep behind issue 12's acceptance (a): every shipped task with replay and noop over
# several harnesses and modes, self-correction with progress replay, the judge calibration
# runs, both judges, then ingest and the report. About 45 min on 2 cores.
#   bash scripts/report_sweep.sh [RUNS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$PATH" REALCLI_TASKS_DIR="$PWD/tasks"
export REALCLI_RUNS_DIR="${1:-$PWD/runs-report-sweep}"
CLI=smoke-bugfix-intervals,smoke-feature-todo,smoke-refactor-shapes,smoke-scratch-csvstats
CLI=$CLI,lc-bugfix-markdown,lc-bugfix-toolz,lc-feature-isodate,lc-feature-tinydb
CLI=$CLI,lc-refactor-inflect,lc-refactor-marshmallow,lc-scratch-ledger,lc-scratch-minisql
WEAVE=weave-dav-bar-digitize,weave-des-brand-refresh,weave-doc-review-signoff
WEAVE=$WEAVE,weave-dsk-sync-pairing,weave-gam-lightsout,weave-ops-edge-outage
WEAVE=$WEAVE,weave-spa-floorplan-dxf,weave-web-orders-dashboard
L="hydra/launcher=joblib hydra.launcher.n_jobs=2"
run() { realcli run --multirun experiment_name=report_sweep "$@" $L; }
run task=$CLI model=replay,noop harness=builtin,codex mode=cli_only
run task=smoke-bugfix-intervals,smoke-feature-todo,lc-feature-tinydb model=noop,replay \
  protocol=self_correct progress.replay=true
run task=$WEAVE model=replay,noop harness=builtin,codex mode=hybrid
run task=$WEAVE model=replay harness=builtin mode=cli_only,gui_only
# the judge issue's calibration cases (planted hacks, planted failures, honest controls)
python bench/judge_calibration.py --runs-dir "$REALCLI_RUNS_DIR/.calibration" --out /dev/null \
  >/dev/null
mkdir -p "$REALCLI_RUNS_DIR/calibration"
find "$REALCLI_RUNS_DIR/.calibration/default" -mindepth 1 -maxdepth 1 -type d ! -name '.*' \
  -exec mv -n {} "$REALCLI_RUNS_DIR/calibration/" \;
realcli judge
realcli judge judge=outcome_only
realcli ingest --runs-dir "$REALCLI_RUNS_DIR" --warehouse "$REALCLI_RUNS_DIR/warehouse.duckdb"
realcli report --warehouse "$REALCLI_RUNS_DIR/warehouse.duckdb" --out "$REALCLI_RUNS_DIR/report"
