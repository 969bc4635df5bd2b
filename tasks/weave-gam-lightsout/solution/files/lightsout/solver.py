"""Find which cells to press to turn every light off.

Pressing is addition mod 2, so a board b is cleared by a press set x exactly when A x = b
over GF(2), where column j of A is the set of lights press j toggles. Gauss-Jordan
elimination gives one solution and a basis of the null space (presses that change nothing);
the fewest-press solution is the lightest of particular + any combination of that basis.
"""

from __future__ import annotations

from lightsout.board import Board, Move

MAX_NULLITY_ENUMERATED = 20


def _toggle_mask(rows: int, cols: int, r: int, c: int) -> int:
    mask = 0
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            mask |= 1 << (rr * cols + cc)
    return mask


def solve(board: Board) -> list[Move] | None:
    """The fewest presses that clear ``board`` (sorted), or None if it cannot be cleared."""
    rows, cols = len(board), len(board[0])
    n = rows * cols
    # Equation i (one per light): sum of presses that toggle light i == board[i] (mod 2).
    # A is symmetric, so row i of A is the toggle mask of cell i. Bit n holds the right side.
    eqs = []
    for r in range(rows):
        for c in range(cols):
            eqs.append(_toggle_mask(rows, cols, r, c) | (board[r][c] << n))
    pivots: list[int] = []  # pivot column of each reduced row
    rank = 0
    for col in range(n):
        pivot = next((i for i in range(rank, n) if eqs[i] >> col & 1), None)
        if pivot is None:
            continue
        eqs[rank], eqs[pivot] = eqs[pivot], eqs[rank]
        for i in range(n):
            if i != rank and eqs[i] >> col & 1:
                eqs[i] ^= eqs[rank]
        pivots.append(col)
        rank += 1
    if any(eqs[i] >> n & 1 for i in range(rank, n)):
        return None  # 0 = 1: this board cannot be cleared
    particular = 0
    for i, col in enumerate(pivots):
        if eqs[i] >> n & 1:
            particular |= 1 << col
    free = [col for col in range(n) if col not in set(pivots)]
    basis = []
    for f in free:
        vec = 1 << f
        for i, col in enumerate(pivots):
            if eqs[i] >> f & 1:
                vec |= 1 << col
        basis.append(vec)
    best = particular
    if len(basis) <= MAX_NULLITY_ENUMERATED:
        for combo in range(1, 1 << len(basis)):
            x = particular
            for k, vec in enumerate(basis):
                if combo >> k & 1:
                    x ^= vec
            if x.bit_count() < best.bit_count():
                best = x
    return [(j // cols, j % cols) for j in range(n) if best >> j & 1]
