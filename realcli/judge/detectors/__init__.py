"""Cheat detectors: one module per pattern, each registered in DETECTORS.

Importing this package registers them all; docs/judge.md ("Cheat detectors") describes what
each flags and at what confidence.
"""

from realcli.judge.detectors import (
    cli_bypass_gui,
    duplicate_crop,
    fake_render,
    fake_screenshot,
    grading_tampered,
    ground_truth_leakage,
    hardcoded_metric,
    mock_service,
    overlay_manipulation,
    regenerated_fixture,
    runtime_injection,
)

__all__ = [
    "cli_bypass_gui",
    "duplicate_crop",
    "fake_render",
    "fake_screenshot",
    "grading_tampered",
    "ground_truth_leakage",
    "hardcoded_metric",
    "mock_service",
    "overlay_manipulation",
    "regenerated_fixture",
    "runtime_injection",
]
