import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessdom.chessboard import Board, BoardError, Piece, attack_table, check_placement, parse_squares, square_names

EIGHT = Board.square(8)


def test_five_queens_on_the_long_diagonal_dominate_the_chessboard():
    # Five queens on the long diagonal suffice on 8×8: one of the classical solutions.
    queens = parse_squares(EIGHT, ["a1", "c3", "d4", "e5", "g7"])
    check = check_placement(EIGHT, Piece.QUEEN, queens)
    assert check.undominated == [] and check.dominating


def test_four_queens_on_the_long_diagonal_leave_squares_undominated():
    queens = parse_squares(EIGHT, ["a1", "c3", "e5", "g7"])
    check = check_placement(EIGHT, Piece.QUEEN, queens)
    assert not check.dominating
    assert square_names(EIGHT, check.undominated) == ["f2", "h4", "b6", "d8"]


def test_eight_non_attacking_rooks_on_the_diagonal_are_independent_and_dominating():
    rooks = [r * 8 + r for r in range(8)]
    check = check_placement(EIGHT, Piece.ROOK, rooks)
    assert check.dominating and check.independent and check.attacking_pairs == []
    assert not check.total  # a rook's own square is attacked by no other rook


def test_a_lone_piece_never_totally_dominates():
    check = check_placement(Board.square(1), Piece.KING, [0])
    assert check.dominating and not check.total


def test_two_kings_side_by_side_attack_each_other():
    board = Board(2, 2)
    check = check_placement(board, Piece.KING, [0, 1])
    assert check.attacking_pairs == [(0, 1)] and not check.independent and check.total


def test_queens_attack_through_each_other_on_a_line():
    board = Board(1, 5)
    check = check_placement(board, Piece.QUEEN, [0, 2, 4])
    assert check.attacking_pairs == [(0, 2), (0, 4), (2, 4)]


def test_knights_covering_a_1000x1000_board_are_checked():
    board = Board(1000, 1000)
    # A knight always changes colour, so knights on every dark square attack every light
    # square and never each other.
    dark = [s for s in board.squares() if (s // 1000 + s % 1000) % 2 == 0]
    check = check_placement(board, Piece.KNIGHT, dark)
    assert check.dominating and check.independent and not check.total


def test_squares_off_the_board_or_repeated_are_rejected():
    with pytest.raises(BoardError):
        check_placement(EIGHT, Piece.KING, [64])
    with pytest.raises(BoardError):
        check_placement(EIGHT, Piece.KING, [3, 3])


@settings(max_examples=80, deadline=None)
@given(
    rows=st.integers(1, 9),
    cols=st.integers(1, 9),
    piece=st.sampled_from(list(Piece)),
    data=st.data(),
)
def test_checker_agrees_with_the_attack_tables(rows, cols, piece, data):
    # The checker computes attacks from geometry on a grid; the tables from move lists.
    # Two independent derivations must agree on every placement.
    board = Board(rows, cols)
    squares = data.draw(st.sets(st.integers(0, board.num_squares - 1), max_size=board.num_squares))
    table = attack_table(board, piece)
    expected = np.zeros(board.num_squares, dtype=bool)
    for s in squares:
        expected[list(table.lists[s])] = True
    check = check_placement(board, piece, squares)
    assert (check.attacked.ravel() == expected).all()
    pairs = sorted((s, t) for s in squares for t in table.lists[s] if t in squares and s < t)
    assert check.attacking_pairs == pairs
    assert check.attacking_pair_count == len(pairs)
    assert check.attacking_pairs_up_to(3) == pairs[:3]
