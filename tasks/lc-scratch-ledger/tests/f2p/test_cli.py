"""Section 10: python -m ledgerlite."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

JOURNAL = """\
account assets:savings
account expenses:travel

2024-01-01 * Opening
    assets:bank   $500.00
    assets:cash   $1000
    equity

2024-01-15 Lunch
    expenses:food   $12.50
    assets:cash

2024-02-03 * Books
    expenses:books   $30
    assets:bank   = $470.00
"""


def run(*args, stdin=None, env_file=None):
    env = {k: v for k, v in os.environ.items() if k != "LEDGER_FILE"}
    if env_file is not None:
        env["LEDGER_FILE"] = str(env_file)
    return subprocess.run(
        [sys.executable, "-m", "ledgerlite", *map(str, args)],
        cwd=Path.cwd(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "main.journal"
    path.write_text(JOURNAL, encoding="utf-8")
    return path


def test_balance_household_example():
    proc = run("-f", "examples/household.journal", "balance")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:3] == [" $17756.95  assets", " $17679.45    bank", "  $7179.45      checking"]
    assert proc.stdout.endswith("----------\n         0\n")


def test_balance_options(journal):
    proc = run("-f", journal, "bal", "--flat", "--no-total", "expenses")
    assert (proc.returncode, proc.stdout) == (0, "$30.00  expenses:books\n$12.50  expenses:food\n")
    proc = run("-f", journal, "balance", "--depth", "1", "-e", "2024-02")
    assert proc.stdout == (
        " $1487.50  assets\n"
        "-$1500.00  equity\n"
        "   $12.50  expenses\n"
        "---------\n"
        "        0\n"
    )


def test_register_with_dates_and_period(journal):
    proc = run("-f", journal, "register", "cash", "-b", "2024-01-02")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "2024-01-15 Lunch                assets:cash                 -$12.50      -$12.50\n"
    proc = run("-f", journal, "reg", "-p", "2024-02", "not:books")
    assert proc.stdout == "2024-02-03 Books                assets:bank                 -$30.00      -$30.00\n"


def test_register_household_example():
    proc = run("-f", "examples/household.journal", "register", "checking", "-b", "2024-02")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 6
    assert lines[1] == "2024-02-10 Visa payment         assets:bank:checking       -$426.40    -$1626.40"
    assert lines[-1].endswith("$3100.00     $2873.60")


def test_accounts(journal):
    assert run("-f", journal, "accounts").stdout == (
        "assets:bank\nassets:cash\nassets:savings\nequity\nexpenses:books\nexpenses:food\nexpenses:travel\n"
    )
    assert run("-f", journal, "accounts", "expenses").stdout == "expenses:books\nexpenses:food\n"
    assert run("-f", journal, "accounts", "--depth", "1").stdout == "assets\nequity\nexpenses\n"
    assert run("-f", journal, "accounts", "--tree", "-b", "2024-02").stdout == "assets\n  bank\nexpenses\n  books\n"


def test_check_stdin_and_env(journal):
    proc = run("-f", "-", "check", stdin=JOURNAL)
    assert (proc.returncode, proc.stdout) == (0, "ok: 3 transactions, 7 postings\n")
    proc = run("check", env_file=journal)
    assert (proc.returncode, proc.stdout) == (0, "ok: 3 transactions, 7 postings\n")
    assert run("-f", "examples/household.journal", "check").stdout == "ok: 14 transactions, 31 postings\n"


def test_journal_errors_exit_1(tmp_path):
    bad = tmp_path / "bad.journal"
    bad.write_text(JOURNAL.replace("= $470.00", "= $400.00"), encoding="utf-8")
    proc = run("-f", bad, "balance")
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {bad}:15: balance assertion failed for assets:bank")
    unbalanced = tmp_path / "unbalanced.journal"
    unbalanced.write_text("2024-01-01 x\n    a  $1\n    b  -$2\n", encoding="utf-8")
    proc = run("-f", unbalanced, "check")
    assert proc.returncode == 1 and "transaction is unbalanced by" in proc.stderr
    assert proc.stderr.startswith(f"error: {unbalanced}:1:")


def test_other_errors(tmp_path, journal):
    missing = run("-f", tmp_path / "nope.journal", "balance")
    assert missing.returncode == 1 and missing.stderr.startswith("error:") and missing.stdout == ""
    assert "Traceback" not in missing.stderr
    no_file = run("balance")
    assert no_file.returncode == 1 and no_file.stderr.startswith("error:")
    bad_query = run("-f", journal, "register", "date:2024-13")
    assert bad_query.returncode == 1 and bad_query.stderr.startswith("error:")
    bad_date = run("-f", journal, "balance", "-b", "tomorrow")
    assert bad_date.returncode == 1 and bad_date.stderr.startswith("error:")


def test_usage_errors_exit_2(journal):
    assert run("-f", journal, "frobnicate").returncode == 2
    assert run("-f", journal, "balance", "--depth", "0").returncode == 2
    assert run("-f", journal, "balance", "--bogus").returncode == 2
