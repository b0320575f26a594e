"""N-Queens: counts against OEIS, classes against an independent orbit count, first
solutions checked, traces."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import permutations

import pytest

from chessdom.chessboard import Board, images
from chessdom.native_search import nqueens_classes, nqueens_count, nqueens_first, nqueens_trace

# OEIS A000170 and A002562, n = 1…15 (n = 15 takes about 0.3 s).
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053]


@pytest.mark.parametrize("n", range(1, 16))
def test_solutions_and_classes_equal_oeis_a000170_and_a002562(n):
    result = nqueens_count(n, up_to_symmetry=True)
    assert result.count == A000170[n - 1] and result.up_to_symmetry == A002562[n - 1]


def _orbit_sizes_by_brute_force(n: int) -> Counter:
    """Every permutation checked for diagonal attacks, and each solution's orbit sized
    with the board's own symmetry tables: nothing shared with the kernel."""
    board = Board.square(n)
    solutions = {
        tuple(sorted(rank * n + file for rank, file in enumerate(files)))
        for files in permutations(range(n))
        if len({r + f for r, f in enumerate(files)}) == n == len({r - f for r, f in enumerate(files)})
    }
    orbits = {frozenset(images(board, solution)) for solution in solutions}
    return Counter(len(orbit) for orbit in orbits)


@pytest.mark.parametrize("n", range(4, 9))
def test_each_class_has_the_orbit_size_a_brute_force_finds(n):
    sizes = _orbit_sizes_by_brute_force(n)
    counted = nqueens_classes(n)
    assert (counted.eight, counted.four, counted.two) == (sizes[8], sizes[4], sizes[2])
    assert set(sizes) <= {2, 4, 8}, "only rotations fix an n-queens solution"


def test_twelve_queens_have_four_classes_fixed_by_the_quarter_turn():
    # The same brute force on n = 12 (too slow for a test: 12! permutations) gave these.
    counted = nqueens_classes(12)
    assert (counted.eight, counted.four, counted.two) == (1765, 18, 4)
    assert counted.solutions == 8 * 1765 + 4 * 18 + 2 * 4


def test_the_tasks_give_the_same_count_on_any_executor():
    with ThreadPoolExecutor(2) as pool:
        pooled = nqueens_classes(12, executor=pool)
    assert pooled == nqueens_classes(12)


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
        nqueens_count(63)
    with pytest.raises(ValueError):
        nqueens_first(-3)


def test_the_tasks_run_on_a_dask_cluster_through_its_executor():
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address="127.0.0.1:0") as client:
        assert nqueens_classes(10, executor=client.get_executor()) == nqueens_classes(10)
