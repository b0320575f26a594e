"""Knight's tours on small and medium boards: theory, search, verification."""

import pytest

from chessdom.chessboard import Board, parse_square, square_name
from chessdom.native_search import knight_tour, tour_impossibility, verify_tour


def majority_colour(board, square):
    rank, file = board.coordinates(square)
    return (rank + file) % 2 == 0


def test_every_majority_colour_start_on_5x5_gives_an_open_tour():
    board = Board.square(5)
    starts = [s for s in board.squares() if majority_colour(board, s)]
    assert len(starts) == 13
    for start in starts:
        result = knight_tour(board, start)
        assert result.status == "found" and result.verified
        assert result.path[0] == square_name(board, start)


def test_every_minority_colour_start_on_5x5_is_refused_at_once_with_a_reason():
    board = Board.square(5)
    starts = [s for s in board.squares() if not majority_colour(board, s)]
    assert len(starts) == 12
    for start in starts:
        result = knight_tour(board, start)
        assert result.status == "none" and result.nodes == 0
        assert "colour" in result.reason


@pytest.mark.parametrize("n", [6, 8])
def test_every_start_on_6x6_and_8x8_gives_an_open_tour(n):
    board = Board.square(n)
    for start in board.squares():
        result = knight_tour(board, start)
        assert result.status == "found" and result.verified and len(result.path) == n * n


@pytest.mark.parametrize("method", ["warnsdorff", "dfs"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_boards_two_to_four_have_no_tour_and_say_why(n, method):
    result = knight_tour(Board.square(n), method=method)
    assert result.status == "none" and result.reason and result.nodes == 0


def test_one_square_board_is_its_own_open_tour_but_not_a_closed_one():
    assert knight_tour(Board.square(1)).path == ("a1",)
    assert knight_tour(Board.square(1), closed=True).status == "none"


@pytest.mark.parametrize("rows,cols", [(3, 4), (3, 5), (3, 6), (3, 7), (4, 4), (4, 5), (2, 5), (1, 3)])
def test_board_theory_agrees_with_exhaustive_search(rows, cols):
    """Where theory says a board has no tour, plain DFS from every start agrees; where
    it does not, some start has one."""
    board = Board(rows, cols)
    from chessdom.native_search.tour_search import depth_first_tour
    from chessdom.native_search.knight_graph import knight_neighbours

    table = knight_neighbours(board)
    searched = {depth_first_tour(table, s, node_limit=10**7).status for s in board.squares()}
    theory_says_none = all(tour_impossibility(board, s, False) for s in board.squares())
    assert ("found" not in searched) == theory_says_none


def test_closed_tour_theory_agrees_with_search_on_small_boards():
    from chessdom.native_search.knight_graph import knight_neighbours
    from chessdom.native_search.tour_search import depth_first_tour

    for rows, cols in [(3, 4), (3, 6), (4, 5), (3, 8)]:
        board = Board(rows, cols)
        table = knight_neighbours(board)
        assert tour_impossibility(board, 0, True) is not None
        assert depth_first_tour(table, 0, finals=frozenset(table[0]), node_limit=10**7).status == "none"
    for rows, cols in [(5, 6), (3, 10), (3, 12), (6, 7)]:
        assert knight_tour(Board(rows, cols), closed=True).status == "found", (rows, cols)


@pytest.mark.parametrize("n", range(6, 101, 2))
def test_closed_tours_exist_for_every_even_board_from_6_to_100(n):
    result = knight_tour(Board.square(n), closed=True)
    assert result.status == "found" and result.verified and result.closed
    assert verify_tour(Board.square(n), [parse_square(Board.square(n), s) for s in result.path], closed=True)


@pytest.mark.parametrize("rows,cols", [(5, 5), (5, 7), (7, 7)])
def test_odd_boards_have_no_closed_tour(rows, cols):
    result = knight_tour(Board(rows, cols), closed=True)
    assert result.status == "none" and "Schwenk" in result.reason


def test_closed_tour_starts_where_asked_and_returns():
    board = Board.square(30)
    result = knight_tour(board, "m17", closed=True)
    assert result.path[0] == "m17" and result.verified


def test_plain_dfs_proves_no_tour_by_exhausting_the_search():
    """3×4 from b1 has no open tour although the board has tours (from other squares)."""
    board = Board(3, 4)
    statuses = {s: knight_tour(board, s, method="dfs").status for s in board.squares()}
    assert "found" in statuses.values() and "none" in statuses.values()
    for start, status in statuses.items():
        if status == "none":
            assert "exhaustive" in knight_tour(board, start, method="dfs").reason


def test_plain_dfs_reports_the_node_limit():
    result = knight_tour(Board.square(6), "c4", method="dfs", node_limit=1_000)
    assert result.status == "limit" and result.nodes == 1_000 and result.path is None


def test_greedy_walk_without_backtracking_reports_a_dead_end():
    # The plain clockwise order dead-ends on some sizes from a1 (64×64 is the first).
    result = knight_tour(Board.square(64), backtracking=False)
    assert result.status == "dead_end" and result.path is None
    assert knight_tour(Board.square(64)).status == "found"


@pytest.mark.parametrize("tie_break", ["first", "random", "pohl", "roth", "squirrel_cull"])
@pytest.mark.parametrize("lookahead", [0, 2])
def test_every_tie_break_and_lookahead_finds_verified_tours(tie_break, lookahead):
    for n in (5, 7, 8, 12):
        result = knight_tour(Board.square(n), tie_break=tie_break, lookahead=lookahead, seed=3)
        assert result.status == "found" and result.verified


def test_random_tie_break_is_reproducible_from_its_seed():
    board = Board.square(20)
    first = knight_tour(board, tie_break="random", seed=7)
    assert first.path == knight_tour(board, tie_break="random", seed=7).path


def test_rectangular_boards():
    for rows, cols in [(5, 6), (6, 9), (7, 10), (12, 31), (33, 20)]:
        for closed in (False, True):
            result = knight_tour(Board(rows, cols), closed=closed)
            if closed and (rows * cols) % 2:
                assert result.status == "none"
            else:
                assert result.status == "found" and result.verified, (rows, cols, closed)


def test_bad_arguments_are_refused():
    board = Board.square(8)
    with pytest.raises(ValueError):
        knight_tour(board, method="teleport")
    with pytest.raises(ValueError):
        knight_tour(board, tie_break="coin")
    with pytest.raises(ValueError):
        knight_tour(board, node_limit=0)
    with pytest.raises(ValueError):
        knight_tour(board, "z9")


def test_verify_tour_rejects_broken_tours():
    board = Board.square(5)
    path = [parse_square(board, s) for s in knight_tour(board).path]
    assert verify_tour(board, path, closed=False)
    assert not verify_tour(board, path[:-1], closed=False)
    assert not verify_tour(board, [path[1], path[0], *path[2:]], closed=False)
    assert not verify_tour(board, path, closed=True)


def test_to_dict_is_plain_json_data():
    data = knight_tour(Board.square(5)).to_dict()
    assert data["status"] == "found" and isinstance(data["path"], list) and data["verified"] is True


def test_pruning_keeps_warnsdorff_backtracking_small_on_7x7():
    """Without the dead-end pruning some 7×7 starts need over 200,000 nodes."""
    board = Board.square(7)
    for start in board.squares():
        if majority_colour(board, start):
            result = knight_tour(board, start)
            assert result.status == "found" and result.nodes <= 250


def test_divide_and_conquer_on_request_and_only_where_it_applies():
    result = knight_tour(Board(12, 14), "c5", method="divide_and_conquer")
    assert result.status == "found" and result.method == "divide_and_conquer" and result.path[0] == "c5"
    with pytest.raises(ValueError):
        knight_tour(Board.square(8), method="divide_and_conquer")


def test_lookahead_is_bounded():
    with pytest.raises(ValueError):
        knight_tour(Board.square(8), lookahead=50)
