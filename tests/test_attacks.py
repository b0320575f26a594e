from hypothesis import given, settings
from hypothesis import strategies as st

from chessdom.chessboard import Board, Piece, attack_table

# Seed 001's "accessibility" table: from how many squares a knight can reach each square.
SEED_001_ACCESSIBILITY = [
    [2, 3, 4, 4, 4, 4, 3, 2],
    [3, 4, 6, 6, 6, 6, 4, 3],
    [4, 6, 8, 8, 8, 8, 6, 4],
    [4, 6, 8, 8, 8, 8, 6, 4],
    [4, 6, 8, 8, 8, 8, 6, 4],
    [4, 6, 8, 8, 8, 8, 6, 4],
    [3, 4, 6, 6, 6, 6, 4, 3],
    [2, 3, 4, 4, 4, 4, 3, 2],
]


def test_knight_degrees_on_8x8_equal_seed_001_accessibility_table():
    degrees = attack_table(Board.square(8), Piece.KNIGHT).degrees
    assert [list(degrees[r * 8 : r * 8 + 8]) for r in range(8)] == SEED_001_ACCESSIBILITY


def test_queen_in_a_corner_attacks_three_times_n_minus_one_squares():
    for n in range(1, 30):
        board = Board.square(n)
        table = attack_table(board, Piece.QUEEN)
        for corner in (0, n - 1, n * (n - 1), n * n - 1):
            assert table.degrees[corner] == 3 * (n - 1)


def test_rook_attacks_its_rank_and_file_on_a_rectangle():
    board = Board(3, 7)
    assert attack_table(board, Piece.ROOK).degrees == (6 + 2,) * 21


def test_king_in_the_middle_attacks_eight_and_in_a_corner_three():
    table = attack_table(Board.square(3), Piece.KING)
    assert table.degrees[4] == 8 and table.degrees[0] == 3


def test_bishop_lines_cover_every_diagonal_of_two_or_more_squares():
    # An n×n board has 2n−1 diagonals in each direction; the two corner ones are single squares.
    assert len(attack_table(Board.square(8), Piece.BISHOP).lines) == 2 * (2 * 8 - 1 - 2)


def test_knights_and_kings_have_no_lines():
    assert attack_table(Board.square(5), Piece.KNIGHT).lines == ()


def test_bitsets_and_lists_describe_the_same_attacks():
    board = Board(5, 9)
    for piece in Piece:
        table = attack_table(board, piece)
        for square in board.squares():
            assert table.bitsets[square] == sum(1 << t for t in table.lists[square])


def test_tables_are_computed_once_per_board_and_piece():
    assert attack_table(Board(6, 4), Piece.QUEEN) is attack_table(Board(6, 4), Piece.QUEEN)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    piece=st.sampled_from(list(Piece)),
    data=st.data(),
)
def test_attack_relation_is_symmetric_and_irreflexive(rows, cols, piece, data):
    board = Board(rows, cols)
    table = attack_table(board, piece)
    square = data.draw(st.integers(0, board.num_squares - 1))
    assert square not in table.lists[square]
    for target in table.lists[square]:
        assert square in table.lists[target]
