"""N-Queens: counts against OEIS, first solutions checked, traces."""

import pytest

from chessdom.native_search import nqueens_count, nqueens_first, nqueens_trace

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]


@pytest.mark.parametrize("n", range(1, 13))
def test_solution_count_equals_oeis_a000170(n):
    assert nqueens_count(n).count == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 11))
def test_count_up_to_symmetry_equals_oeis_a002562(n):
    result = nqueens_count(n, up_to_symmetry=True)
    assert result.count == A000170[n - 1] and result.up_to_symmetry == A002562[n - 1]


@pytest.mark.parametrize("n", range(1, 16))
def test_first_solution_is_verified_or_absent_exactly_when_there_is_none(n):
    result = nqueens_first(n)
    if n in (2, 3):
        assert result.solution is None and not result.verified
    else:
        assert result.verified and len(result.solution) == n


def test_eight_queens_first_solution_in_backtracking_order():
    assert nqueens_first(8).solution == ("a1", "e2", "h3", "f4", "c5", "g6", "b7", "d8")


def test_trace_replays_to_the_first_solution():
    events = nqueens_trace(6)
    board = set()
    for event in events:
        if event["event"] == "place":
            board.add(event["square"])
        elif event["event"] == "remove":
            board.remove(event["square"])
    assert board == set(nqueens_first(6).solution)
    assert [e["step"] for e in events] == list(range(len(events)))


def test_trace_is_bounded():
    events = nqueens_trace(10, trace_limit=25)
    assert len(events) == 26 and events[-1]["event"] == "truncated" and events[-1]["dropped"] > 0


def test_bad_size_is_refused():
    with pytest.raises(ValueError):
        nqueens_count(0)
    with pytest.raises(ValueError):
        nqueens_first(-3)
