"""Where the shared test helpers (:mod:`realcli.grading.realcli_testkit`) are in a grading
sandbox: the file is mounted read-only in :data:`TESTKIT_MOUNT`, which pytest's ``pythonpath``
puts before the workspace, so task tests ``import realcli_testkit``."""

from __future__ import annotations

from pathlib import Path

__all__ = ["TESTKIT_FILE", "TESTKIT_IMPORT", "TESTKIT_MOUNT"]

TESTKIT_FILE = Path(__file__).with_name("realcli_testkit.py")
TESTKIT_MOUNT = "/run/realcli/testkit"
TESTKIT_IMPORT = "realcli_testkit"
