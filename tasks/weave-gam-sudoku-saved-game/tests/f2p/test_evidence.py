"""evidence/solved.png: GNOME Sudoku's completion: the board dimmed under the Well done dialog.

Playing the last digit in makes GNOME Sudoku dim the whole board (white cells #FFFFFF turn
#404040, given cells #CCCCCC turn #333333) and open its completion dialog (#F6F5F4) over it;
a board that is still being played shows white and grey cells instead.
"""

from pathlib import Path

from realcli_testkit import bbox_of, count_near, read_png  # realcli's shared test helpers

DIM_OPEN, DIM_GIVEN = (0x40, 0x40, 0x40), (0x33, 0x33, 0x33)
OPEN, GIVEN, DIALOG = (0xFF, 0xFF, 0xFF), (0xCC, 0xCC, 0xCC), (0xF6, 0xF5, 0xF4)


def test_solved_screenshot() -> None:
    path = Path("evidence/solved.png")
    assert path.is_file(), "evidence/solved.png is missing"
    img = read_png(path)
    assert img.size == (1024, 768), "not a full screenshot of the 1024x768 display"
    board = bbox_of(img, DIM_OPEN, 0)
    assert board and board[2] > 400 and board[3] > 400, "no dimmed (completed) board on it"
    dimmed = count_near(img, DIM_OPEN, 0, board) + count_near(img, DIM_GIVEN, 0, board)
    area = board[2] * board[3]
    assert dimmed > 0.6 * area, "the board is not dimmed: the puzzle is not completed"
    playing = count_near(img, OPEN, 0, board) + count_near(img, GIVEN, 0, board)
    assert playing < 0.02 * area, "white or grey cells still show: the game is still being played"
    assert count_near(img, DIALOG, 3, board) > 12000, "no completion dialog over the board"
