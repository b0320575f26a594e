"""Step traces: bounded, replayable, and off by default."""

from chessdom.chessboard import Board, parse_square, square_name
from chessdom.native_search import knight_neighbours, knight_path, knight_tour


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


def test_path_trace_ends_with_the_moves_of_the_path():
    result = knight_path(Board.square(8), "a1", "h8", trace=True)
    moves = [event["square"] for event in result.trace if event["event"] == "move"]
    assert tuple(moves) == result.path[1:]
    assert all(event["event"] in ("expand", "move") for event in result.trace)


def test_a_cut_trace_says_where_it_was_cut_and_how_much_follows():
    large = knight_tour(Board.square(1000), closed=True, trace=True, trace_limit=50)
    assert len(large.trace) == 51 and large.trace[0]["square"] == "a1"
    assert large.trace[-1] == {"event": "truncated", "step": 50, "why": "trace_limit", "dropped": 1_000_000 - 50}


def _replay(events):
    """The squares standing after the events (a tour's path or DFS stack)."""
    standing = []
    for event in events:
        if event["event"] == "resume":
            standing = list(event["square"])
        elif event["event"] == "place":
            standing.append(event["square"])
        elif event["event"] == "remove":
            assert standing.pop() == event["square"]
    return standing


def test_a_long_trace_read_page_by_page_is_the_whole_trace():
    """Plain DFS from a1 on 5×5 takes 17,655 steps: more than one page of 10,000."""
    board = Board.square(5)
    whole = knight_tour(board, "a1", method="dfs", trace=True, trace_limit=100_000).trace
    assert whole[-1]["event"] != "truncated" and len(whole) == 17_655
    pages, offset = [], 0
    while True:
        page = knight_tour(board, "a1", method="dfs", trace=True, trace_limit=5_000, trace_offset=offset).trace
        if offset:
            resume, page = page[0], page[1:]
            assert resume["event"] == "resume" and resume["step"] == offset
            assert resume["square"] == _replay(whole[:offset]), "the page starts from the board as it stands"
        pages += [event for event in page if event["event"] != "truncated"]
        if page[-1]["event"] != "truncated":
            break
        offset = page[-1]["step"]
    assert pages == whole


def test_a_page_past_the_end_shows_the_final_board():
    result = knight_tour(Board.square(6), "c4", trace=True, trace_offset=10**6)
    assert result.trace == [{"event": "resume", "step": 36, "why": "trace_page", "square": list(result.path)}]


def test_warnsdorff_steps_show_the_accessibility_of_every_candidate():
    """Seed 001's accessibility table, step by step: the onward moves of each candidate,
    recounted here from the squares visited so far."""
    board = Board.square(8)
    result = knight_tour(board, "a1", tie_break="first", backtracking=False, trace=True)
    visited = {result.trace[0]["square"]}
    ties = 0
    for event in result.trace[1:]:
        assert event["why"] == "warnsdorff" and event["square"] == event["candidates"][0]
        for name, degree in zip(event["candidates"], event["degrees"], strict=True):
            assert name not in visited
            onward = {square_name(board, t) for t in knight_neighbours(board)[parse_square(board, name)]}
            assert degree == len(onward - visited - {name})
        assert event["degrees"][0] == min(event["degrees"])
        tied = event["degrees"].count(event["degrees"][0]) > 1
        assert ("tie_break" in event) == tied and event.get("tie_break", "first") == "first"
        ties += tied
        visited.add(event["square"])
    assert ties > 0
