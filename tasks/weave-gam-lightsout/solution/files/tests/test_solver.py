import random
import unittest

from lightsout.board import apply_presses, is_clear
from lightsout.solver import solve


def random_board(rows, cols, rng):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    presses = rng.sample(cells, rng.randint(1, len(cells) // 2))
    return apply_presses([[0] * cols for _ in range(rows)], presses)


class SolverTests(unittest.TestCase):
    def test_random_boards_are_cleared(self):
        rng = random.Random(7)
        for rows, cols in [(6, 6), (8, 8), (7, 7), (5, 5), (4, 9), (9, 9)]:
            for _ in range(5):
                board = random_board(rows, cols, rng)
                moves = solve(board)
                self.assertIsNotNone(moves)
                self.assertTrue(is_clear(apply_presses(board, moves)), (rows, cols))

    def test_unsolvable_5x5(self):
        board = [[0] * 5 for _ in range(5)]
        board[0][0] = 1  # a single corner light cannot be cleared on 5x5
        self.assertIsNone(solve(board))

    def test_minimal_on_5x5(self):
        # the four solutions of the all-lit 5x5 board have 15 presses each
        self.assertEqual(len(solve([[1] * 5 for _ in range(5)])), 15)


if __name__ == "__main__":
    unittest.main()
