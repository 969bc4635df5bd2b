"""Clause checkers: one module per checker kind, each registered in CHECKERS."""
