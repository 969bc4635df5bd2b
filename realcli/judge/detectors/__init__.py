"""Cheat detectors: one module per pattern, each registered in DETECTORS."""
