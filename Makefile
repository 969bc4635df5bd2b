# The two commands of the README: `make demo` (set up, run the smoke sweep, ingest, report)
# and `make test` (set up, lint, type-check, run every test in 2 parallel pytest-xdist workers;
# README "Running the tests"). Both work on a fresh machine.
VENV := .venv/bin
export PATH := $(CURDIR)/.venv/bin:$(PATH)

.PHONY: setup demo test lint bench clean

setup:
	@bash scripts/setup.sh

demo: setup
	realcli run --multirun experiment=smoke_sweep
	realcli ingest
	realcli report

lint: setup
	$(VENV)/ruff check realcli analysis tests bench notebooks scripts
	$(VENV)/ruff format --check realcli analysis tests bench notebooks scripts
	$(VENV)/mypy
	$(VENV)/lint-imports

test: lint
	@bash scripts/setup.sh --agents
	$(VENV)/pytest -q -n 2 --dist loadgroup

bench: setup
	@bash scripts/setup.sh --agents
	$(VENV)/python bench/overhead.py --out docs/benchmarks.md
	$(VENV)/python bench/harnesses.py --out docs/benchmarks.md
	$(VENV)/python bench/gui.py --out docs/benchmarks.md
	$(VENV)/python bench/progress.py --out docs/benchmarks.md
	$(VENV)/python bench/guard.py --out docs/benchmarks.md
	$(VENV)/python bench/judge_calibration.py --out docs/judge.md

clean:
	rm -rf runs report warehouse.duckdb bench/out
