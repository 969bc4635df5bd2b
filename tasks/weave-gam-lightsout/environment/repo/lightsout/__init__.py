"""Lights Out helpers: boards, moves and a solver."""

from lightsout.board import apply_presses, format_moves, is_clear, parse_board, press
from lightsout.solver import solve

__all__ = ["apply_presses", "format_moves", "is_clear", "parse_board", "press", "solve"]
