"""Knight paths: optimality against BFS and networkx, heuristics, enemies, seed 000."""

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessdom.chessboard import Board, Piece, parse_square
from chessdom.native_search import forbidden_squares, knight_neighbours, knight_path, seed_000_knight_vs_rook_and_king
from chessdom.native_search.knight_graph import unbounded_knight_distance


def random_scenario(rng: random.Random):
    rows, cols = rng.randint(3, 14), rng.randint(3, 14)
    board = Board(rows, cols)
    squares = list(board.squares())
    rng.shuffle(squares)
    start = squares.pop()
    goals = [squares.pop() for _ in range(rng.randint(1, 3))]
    enemies = [(rng.choice(list(Piece)), squares.pop()) for _ in range(rng.randint(0, 2))]
    blocked = [squares.pop() for _ in range(rng.randint(0, len(squares) // 5))]
    return board, start, goals, blocked, enemies


def oracle_length(board, start, goals, blocked, enemies):
    """Shortest length by networkx on the knight graph minus forbidden squares."""
    forbidden = forbidden_squares(board, blocked, enemies)
    enemy_squares = {s for _, s in enemies}
    allowed_goals = {g for g in goals if g not in forbidden or g in enemy_squares}
    # Passing through a goal never shortens the way to the nearest goal, so every goal
    # may simply be a node of the graph.
    allowed = {s for s in board.squares() if s == start or s not in forbidden or s in allowed_goals}
    table = knight_neighbours(board)
    graph = nx.Graph()
    graph.add_nodes_from(allowed)
    graph.add_edges_from((s, t) for s in allowed for t in table[s] if t in allowed)
    lengths = []
    for goal in allowed_goals:
        if goal in graph and nx.has_path(graph, start, goal):
            lengths.append(nx.shortest_path_length(graph, start, goal))
    return min(lengths) if lengths else None


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_astar_and_bfs_lengths_equal_networkx_on_random_boards(seed):
    board, start, goals, blocked, enemies = random_scenario(random.Random(seed))
    expected = oracle_length(board, start, goals, blocked, enemies)
    for method, heuristic in [("bfs", "knight"), ("astar", "knight"), ("astar", "manhattan3"), ("astar", "zero")]:
        result = knight_path(board, start, goals, blocked=blocked, enemies=enemies, method=method, heuristic=heuristic)
        assert result.length == expected, (method, heuristic)
        assert result.optimal
        if result.found:
            check_path(board, result, start, goals, blocked, enemies)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_knight_heuristic_never_expands_more_than_zero(seed):
    board, start, goals, blocked, enemies = random_scenario(random.Random(seed))
    knight = knight_path(board, start, goals, blocked=blocked, enemies=enemies, heuristic="knight")
    zero = knight_path(board, start, goals, blocked=blocked, enemies=enemies, heuristic="zero")
    assert knight.nodes_expanded <= zero.nodes_expanded


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_dfs_finds_a_valid_path_whenever_one_exists(seed):
    board, start, goals, blocked, enemies = random_scenario(random.Random(seed))
    best = knight_path(board, start, goals, blocked=blocked, enemies=enemies, method="bfs")
    first = knight_path(board, start, goals, blocked=blocked, enemies=enemies, method="dfs")
    assert first.status == best.status and not first.optimal
    if first.found:
        assert first.length >= best.length and len(set(first.path)) == len(first.path)
        check_path(board, first, start, goals, blocked, enemies)


def check_path(board, result, start, goals, blocked, enemies):
    squares = [parse_square(board, name) for name in result.path]
    forbidden = forbidden_squares(board, blocked, enemies)
    assert squares[0] == start and squares[-1] in goals
    for a, b in zip(squares, squares[1:]):
        assert b in knight_neighbours(board)[a]
    enemy_squares = {s for _, s in enemies}
    for square in squares[1:-1]:
        assert square not in forbidden
    assert squares[-1] not in forbidden or squares[-1] in enemy_squares


def test_unbounded_knight_distance_matches_bfs_on_a_large_board():
    board = Board.square(41)
    centre = 20 * 41 + 20
    for goal in board.squares():
        dr, df = goal // 41 - 20, goal % 41 - 20
        if max(abs(dr), abs(df)) <= 12:
            path = knight_path(board, centre, goal, method="bfs")
            assert path.length == unbounded_knight_distance(dr, df)


def test_manhattan_is_reported_as_not_optimal():
    result = knight_path(Board.square(8), "a1", "h8", heuristic="manhattan")
    assert result.found and result.optimal is False


def test_a_goal_on_an_enemy_square_can_be_captured():
    board = Board.square(8)
    result = knight_path(board, "a1", ["b3"], enemies=[(Piece.ROOK, "b3")])
    assert result.path == ("a1", "b3")


def test_slider_rays_stop_at_the_first_enemy():
    board = Board.square(8)
    forbidden = forbidden_squares(board, [], [(Piece.ROOK, parse_square(board, "a1")), (Piece.KING, parse_square(board, "a3"))])
    assert parse_square(board, "a2") in forbidden and parse_square(board, "a5") not in forbidden


def test_unreachable_goal():
    board = Board.square(8)
    result = knight_path(board, "a1", "h8", blocked=["b3", "c2"])
    assert result.status == "unreachable" and result.path is None and result.length is None


def test_start_on_a_goal_is_a_path_of_length_zero():
    assert knight_path(Board.square(5), "c3", ["c3"]).length == 0


def test_seed_000_knight_checks_the_king_in_two_moves_by_every_method():
    for method in ("astar", "bfs", "dfs"):
        result = seed_000_knight_vs_rook_and_king(method)
        assert result.found and result.path[0] == "e1"
    assert seed_000_knight_vs_rook_and_king("astar").length == 2
    assert seed_000_knight_vs_rook_and_king("astar").optimal


def test_bad_arguments_are_refused():
    board = Board.square(8)
    with pytest.raises(ValueError):
        knight_path(board, "a1", "h8", method="teleport")
    with pytest.raises(ValueError):
        knight_path(board, "a1", "h8", heuristic="euclid")
    with pytest.raises(ValueError):
        knight_path(board, "a1", [])
    with pytest.raises(ValueError):
        knight_path(board, "a1", "i9")
