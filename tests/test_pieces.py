"""A piece is one declaration: what the declarations promise the rest of chessdom, and the
declarations they refuse."""

import pytest

from chessdom.chessboard import Declaration, Piece, Words
from chessdom.chessboard.pieces import DIAGONAL, KNIGHT_STEPS, ORTHOGONAL

NAMES = Words("test", "tests")


def test_a_piece_is_still_its_name():
    assert Piece("amazon") is Piece.AMAZON and Piece.QUEEN == "queen"
    assert [piece.value for piece in Piece][:5] == ["queen", "rook", "bishop", "knight", "king"]


def test_a_compound_piece_moves_as_its_two_parts_together():
    assert set(Piece.AMAZON.slides) == set(Piece.QUEEN.slides) and set(Piece.AMAZON.leaps) == set(Piece.KNIGHT.leaps)
    assert (Piece.CHANCELLOR.slides, Piece.CHANCELLOR.leaps) == (Piece.ROOK.slides, Piece.KNIGHT.leaps)
    assert (Piece.ARCHBISHOP.slides, Piece.ARCHBISHOP.leaps) == (Piece.BISHOP.slides, Piece.KNIGHT.leaps)


def test_the_queen_slides_along_ranks_files_diagonals_and_anti_diagonals_in_that_order():
    assert Piece.QUEEN.axes == ((0, 1), (1, 0), (1, 1), (1, -1)) and Piece.KNIGHT.axes == ()


def test_every_piece_has_its_own_letter_and_both_languages_name_it():
    assert len({piece.letter for piece in Piece}) == len(Piece)
    for piece in Piece:
        names = piece.to_dict()["names"]
        assert names["en"]["one"] and names["hu"]["instrumental"] and names["hu"]["accusative"], piece


@pytest.mark.parametrize("moves, refused", [
    ({"leaps": ((1, 2), (2, 1))}, "not the same under every board symmetry"),
    ({"slides": ((0, 1), (0, -1))}, "not the same under every board symmetry"),
    ({"slides": tuple((2 * dr, 2 * dc) for dr, dc in ORTHOGONAL)}, "smallest step"),
    ({"slides": ORTHOGONAL, "leaps": tuple((2 * dr, 2 * dc) for dr, dc in ORTHOGONAL)}, "repeats that slide"),
    ({"leaps": ((0, 0),)}, "its own square"),
])
def test_a_declaration_the_rest_of_chessdom_could_not_derive_from_is_refused(moves, refused):
    with pytest.raises(ValueError, match=refused):
        Declaration("test", "T", "T", NAMES, NAMES, **moves)


def test_a_fairy_piece_that_slides_and_leaps_on_other_lines_is_accepted():
    assert Declaration("test", "T", "T", NAMES, NAMES, slides=DIAGONAL, leaps=KNIGHT_STEPS + ORTHOGONAL).leaps
