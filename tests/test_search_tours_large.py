"""Large-board tours: Squirrel & Cull's move orders from the corner, the divide-and-
conquer construction up to 1000×1000, and the memory a large tour takes."""

import tracemalloc

import pytest

from chessdom.chessboard import Board, square_name
from chessdom.native_search import closed_tour_by_blocks, knight_tour, squirrel_cull_walk, verify_tour
from chessdom.native_search.squirrel_cull import TABLE, residue, rule_rows

# Runs of consecutive sizes, small to large: every row of the table (n mod 8, and n mod
# 16 for 5 and 13) several times over.
SAMPLE = [*range(5, 40), *range(200, 216), *range(680, 696)]


def test_the_sample_covers_every_row_of_the_table():
    assert {residue(n) for n in SAMPLE} == set(TABLE)


@pytest.mark.parametrize("n", SAMPLE)
def test_squirrel_cull_rule_walks_a_whole_tour_without_backtracking(n):
    squares, reached = squirrel_cull_walk(n)
    assert reached == n * n and verify_tour(Board.square(n), squares, closed=False)
    assert squares[0] == 0


def test_squirrel_cull_rule_fails_only_for_74_from_5_to_400():
    """Measured: 74 is its only failure up to 1000 (scripts/bench_search.py sweeps that far)."""
    failures = [n for n in range(5, 401) if squirrel_cull_walk(n)[1] < n * n]
    assert failures == [74]
    assert squirrel_cull_walk(74)[1] == 5_432


def test_where_the_rule_dead_ends_backtracking_finishes_the_tour():
    board = Board.square(74)
    result = knight_tour(board, "a1", tie_break="squirrel_cull")
    assert result.status == "found" and result.verified and result.nodes > board.num_squares
    stuck = knight_tour(board, "a1", tie_break="squirrel_cull", backtracking=False)
    assert stuck.status == "dead_end" and stuck.nodes == 5_432


@pytest.mark.parametrize("corner", ["a1", "i1", "a9", "i9"])
def test_the_rule_starts_from_any_corner_by_symmetry(corner):
    result = knight_tour(Board.square(9), corner, tie_break="squirrel_cull", backtracking=False)
    assert result.status == "found" and result.path[0] == corner and result.nodes == 81


def test_a_switch_square_off_a_small_board_is_never_reached():
    assert rule_rows(5)[2] == ("51324678", (3, 0))
    assert squirrel_cull_walk(5)[1] == 25


def test_tours_are_arrays_of_square_indices_named_on_request():
    result = knight_tour(Board.square(1000), "a1", closed=True)
    assert result.squares.dtype.name == "int32" and result.squares.shape == (1_000_000,)
    assert result.path[0] == "a1" and result.path[-1] == square_name(result.board, int(result.squares[-1]))


def test_a_2000x2000_closed_tour_takes_less_than_25_bytes_a_square():
    """The tour itself is 4 bytes a square (int32) and its check 1; before, the answer's
    square names alone took over 100. numpy reports its arrays to tracemalloc."""
    board = Board.square(2000)
    knight_tour(Board.square(24), closed=True)  # the block paths' caches are filled once
    tracemalloc.start()
    try:
        result = knight_tour(board, "a1", closed=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.status == "found" and result.verified
    assert peak < 25 * board.num_squares


@pytest.mark.parametrize("rows,cols", [(12, 10), (10, 12), (13, 12), (12, 13), (22, 22), (99, 100), (100, 31), (250, 250)])
def test_block_construction_gives_closed_tours(rows, cols):
    assert verify_tour(Board(rows, cols), closed_tour_by_blocks(rows, cols), closed=True)


def test_block_construction_refuses_boards_it_does_not_cover():
    with pytest.raises(ValueError):
        closed_tour_by_blocks(8, 8)


@pytest.mark.parametrize("closed", [False, True])
def test_a_1000x1000_tour_is_found_and_verified(closed):
    # Its speed is scripts/bench_search's business, not a test's.
    result = knight_tour(Board.square(1000), "e5", closed=closed)
    assert result.status == "found" and result.verified and result.path[0] == "e5"
    assert len(result.path) == 1_000_000


def test_odd_board_open_tour_by_search_below_the_construction_threshold():
    result = knight_tour(Board(151, 151), "a1")
    assert result.status == "found" and result.verified


def test_open_block_construction_on_odd_boards_from_random_majority_starts():
    import random

    from chessdom.native_search import open_tour_by_blocks

    rng = random.Random(5)
    for rows in range(13, 48, 2):
        for cols in (13, 15, 19, 23, 31, 47):
            board = Board(rows, cols)
            for _ in range(3):
                start = rng.randrange(board.num_squares)
                if sum(board.coordinates(start)) % 2 == 0:
                    tour = open_tour_by_blocks(rows, cols, start)
                    assert tour[0] == start and verify_tour(board, tour, closed=False)


def test_999x999_open_tour_is_constructed_from_any_majority_square():
    board = Board.square(999)
    for start in ("a1", "e5", square_name(board, board.index(500, 498))):
        result = knight_tour(board, start)
        assert result.status == "found" and result.method == "divide_and_conquer" and result.path[0] == start
    assert knight_tour(board, "b1").status == "none"
