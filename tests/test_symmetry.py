from hypothesis import given, settings
from hypothesis import strategies as st

from chessdom.chessboard import Board, Piece, canonical_form, check_placement, count_up_to_symmetry, images
from chessdom.chessboard.symmetry import symmetry_permutations


def test_square_board_has_eight_symmetries_and_rectangle_four():
    assert len(symmetry_permutations(Board.square(5))) == 8
    assert len(symmetry_permutations(Board(3, 5))) == 4


def test_symmetries_are_permutations_of_the_squares():
    for board in (Board.square(6), Board(4, 7)):
        for permutation in symmetry_permutations(board):
            assert sorted(permutation) == list(board.squares())


@settings(max_examples=50, deadline=None)
@given(n=st.integers(1, 9), data=st.data())
def test_canonical_form_is_equal_across_all_eight_images(n, data):
    board = Board.square(n)
    placement = data.draw(st.sets(st.integers(0, n * n - 1), min_size=1, max_size=6))
    forms = {canonical_form(board, image) for image in images(board, placement)}
    assert forms == {canonical_form(board, placement)}


@settings(max_examples=50, deadline=None)
@given(rows=st.integers(1, 8), cols=st.integers(1, 8), piece=st.sampled_from(list(Piece)), data=st.data())
def test_symmetries_preserve_domination(rows, cols, piece, data):
    board = Board(rows, cols)
    placement = data.draw(st.sets(st.integers(0, board.num_squares - 1), max_size=8))
    dominating = check_placement(board, piece, placement).dominating
    for image in images(board, placement):
        assert check_placement(board, piece, image).dominating == dominating


def test_the_four_corners_of_a_square_board_are_one_orbit():
    board = Board.square(4)
    assert count_up_to_symmetry(board, [[0], [3], [12], [15]]) == 1
    assert count_up_to_symmetry(board, [[0], [1], [5]]) == 3
