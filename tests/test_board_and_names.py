import pytest

from chessdom.chessboard import Board, BoardError, SquareNameError, file_name, parse_square, square_name


def test_a1_is_bottom_left_and_h8_top_right_on_the_chessboard():
    board = Board.square(8)
    assert parse_square(board, "a1") == 0
    assert board.coordinates(parse_square(board, "h8")) == (7, 7)
    assert square_name(board, board.index(0, 4)) == "e1"


def test_file_27_is_aa_and_files_continue_spreadsheet_style():
    assert [file_name(f) for f in (0, 25, 26, 27, 51, 52, 701, 702)] == ["a", "z", "aa", "ab", "az", "ba", "zz", "aaa"]


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 100), (100, 1), (27, 30), (100, 100)])
def test_every_name_round_trips(rows, cols):
    board = Board(rows, cols)
    names = [square_name(board, s) for s in board.squares()]
    assert len(set(names)) == board.num_squares
    assert [parse_square(board, name) for name in names] == list(board.squares())


def test_square_names_are_unique_on_every_board_up_to_100_by_100():
    # Unique names on the largest board imply unique names on each smaller one, since a
    # name depends only on (rank, file).
    board = Board(100, 100)
    assert len({square_name(board, s) for s in board.squares()}) == 10_000


@pytest.mark.parametrize("text", ["", "a", "1", "a0", "a01", "i1", "a9", "A 1", "é1", "aa1"])
def test_bad_or_off_board_names_are_rejected_naming_the_text(text):
    with pytest.raises(SquareNameError, match=repr(text).replace("\\", "\\\\")):
        parse_square(Board.square(8), text)


def test_upper_case_names_are_accepted():
    assert parse_square(Board.square(8), "H8") == 63


@pytest.mark.parametrize("rows,cols", [(0, 5), (5, 0), (10_001, 1), (-1, 3)])
def test_boards_outside_the_limits_are_rejected(rows, cols):
    with pytest.raises(BoardError):
        Board(rows, cols)


def test_board_sides_must_be_integers():
    with pytest.raises(BoardError, match="rows"):
        Board(8.0, 8)  # type: ignore[arg-type]
    with pytest.raises(BoardError, match="cols"):
        Board(8, True)  # type: ignore[arg-type]
