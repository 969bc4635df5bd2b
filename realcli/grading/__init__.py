"""Grading: run F2P/P2P tests over a finished workspace, and score saved test output (pure)."""

from realcli.grading.junit import parse_junit
from realcli.grading.score import grade_round, selector_matches

__all__ = ["grade_round", "parse_junit", "selector_matches"]
