"""Step traces: bounded, replayable, and off by default."""

from chessdom.chessboard import Board
from chessdom.native_search import knight_path, knight_tour


def test_tours_have_no_trace_unless_asked():
    assert knight_tour(Board.square(8)).trace is None


def test_tour_trace_replays_to_the_tour():
    result = knight_tour(Board.square(6), "c4", trace=True)
    placed = []
    for event in result.trace:
        if event["event"] == "place":
            placed.append(event["square"])
        elif event["event"] == "remove":
            assert placed.pop() == event["square"]
    assert tuple(placed) == result.path


def test_backtracking_shows_in_the_trace():
    result = knight_tour(Board.square(6), "c4", method="dfs", trace=True)
    assert any(event["event"] == "remove" for event in result.trace)
    assert {"event", "step", "why", "square"} <= set(result.trace[1])


def test_traces_are_bounded():
    result = knight_tour(Board.square(6), "c4", method="dfs", trace=True, trace_limit=100)
    assert len(result.trace) == 101 and result.trace[-1]["event"] == "truncated"
    large = knight_tour(Board.square(1000), closed=True, trace=True, trace_limit=50)
    assert len(large.trace) == 50 and large.trace[0]["square"] == "a1"


def test_path_trace_ends_with_the_moves_of_the_path():
    result = knight_path(Board.square(8), "a1", "h8", trace=True)
    moves = [event["square"] for event in result.trace if event["event"] == "move"]
    assert tuple(moves) == result.path[1:]
    assert all(event["event"] in ("expand", "move") for event in result.trace)
