"""Cube-and-conquer: the cubes cover the space without overlap, and a split refutation
agrees with a monolithic one."""

import itertools
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form
from chessdom.chessboard.symmetry import symmetry_permutations
from chessdom.models import solve
from chessdom.models.counting.listers import sat_placements
from chessdom.models.cubes import CubeAnswer, conquer, local_pool, refine, regions, split
from chessdom.models.cubes.splitting import volume
from chessdom.models.cubes.stop import FileStop, close_when_done
from chessdom.models.encodings.formulation import formulate
from chessdom.models.counting.regions import line_budgets
from cubes_seen import satisfies

CASES = [
    (Board(6, 6), Piece.QUEEN, Objective.DOMINATION, 3),
    (Board(7, 7), Piece.KNIGHT, Objective.DOMINATION, 10),
    (Board(5, 6), Piece.QUEEN, Objective.DOMINATION, 3),
    (Board(6, 6), Piece.QUEEN, Objective.INDEPENDENCE, 6),
]


def test_the_regions_partition_the_board_and_every_symmetry_permutes_them():
    for board in (Board(7, 7), Board(8, 8), Board(5, 8)):
        parts = regions(board)
        assert sorted(s for part in parts for s in part) == list(board.squares())
        for permutation in symmetry_permutations(board):
            assert {frozenset(permutation[s] for s in part) for part in parts} == {frozenset(p) for p in parts}


@pytest.mark.parametrize("board", [Board(5, 5), Board(6, 6), Board(5, 6)], ids=str)
def test_every_placement_keeps_the_line_budgets_its_region_counts_imply(board):
    # Cubes and count parts assume these bounds: one too tight would refute a cube that
    # holds a placement, or leave placements out of a count.
    formulation = formulate(PlacementProblem(board, Piece.QUEEN, Objective.DOMINATION))
    lines = [set(line) for line in formulation.lines]
    parts, budgets, tight = regions(board), {}, 0
    for placement in map(set, itertools.combinations(board.squares(), 3)):
        counts = tuple((part, len(placement.intersection(part))) for part in parts)
        if counts not in budgets:
            budgets[counts] = line_budgets(formulation.lines, formulation.line_families, counts)
        for bounded, budget in budgets[counts]:
            occupied = sum(1 for i in bounded if lines[i] & placement)
            assert occupied <= budget, (sorted(placement), bounded, budget)
            tight += occupied == budget
    assert tight > 0  # some bind exactly: they are not vacuous


@pytest.mark.parametrize("board, piece, objective, value", CASES, ids=str)
def test_every_optimal_placement_lies_in_exactly_one_cube(board, piece, objective, value):
    problem = PlacementProblem(board, piece, objective)
    cubes = split(problem, value, one_per_orbit=False)
    cubes = [child for cube in cubes for child in refine(cube, 2)]  # refinement keeps the partition
    placements = list(sat_placements(problem, value))
    assert all(sum(satisfies(cube, p) for cube in cubes) == 1 for p in placements)
    # ... so the solution counts of the cubes add up to the full count
    assert sum(sum(satisfies(cube, p) for p in placements) for cube in cubes) == len(placements)


@pytest.mark.parametrize("board, piece, objective, value", CASES, ids=str)
def test_one_cube_per_orbit_still_meets_every_symmetry_class(board, piece, objective, value):
    problem = PlacementProblem(board, piece, objective)
    cubes = split(problem, value)
    assert len(cubes) < len(split(problem, value, one_per_orbit=False))
    for placement in sat_placements(problem, value):
        images = [tuple(sorted(p[s] for s in placement)) for p in symmetry_permutations(board)]
        assert any(satisfies(cube, image) for cube in cubes for image in images), canonical_form(board, placement)


def test_under_symmetry_breaking_every_lex_leader_lies_in_a_cube():
    # A lex-leader need not have the greatest tuple of its orbit: 3 of the 13 classes of
    # four queens on 7×7 were outside every cube when cubes were one per orbit.
    problem = PlacementProblem(Board.square(7), Piece.QUEEN, Objective.DOMINATION)
    cubes = split(problem, 4, symmetry_breaking=True)
    leaders = list(sat_placements(problem, 4, symmetry_breaking=True))
    assert len(leaders) == 13
    assert all(any(satisfies(cube, leader) for cube in cubes) for leader in leaders)


def test_four_queens_cannot_dominate_nine_by_nine_in_any_cube():
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    with ThreadPoolExecutor(2) as executor:
        conquest = conquer(split(problem, 4), executor)
    assert conquest.status == "refuted" and conquest.cubes_done == conquest.cubes_total


def test_a_cube_that_finds_a_placement_answers_at_once_with_a_checked_one():
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    with ThreadPoolExecutor(2) as executor:
        conquest = conquer(split(problem, 5), executor)
    assert conquest.status == "found" and len(conquest.placement) <= 5


def test_the_stop_file_outlives_no_cube_that_reads_it(tmp_path):
    signal, late = FileStop(str(tmp_path / "stop")), Future()
    signal.set()
    close_when_done(signal, [late])
    assert signal.is_set()  # a cube that starts late still sees it
    late.set_result(None)
    assert not signal.is_set() and not list(tmp_path.iterdir())


def test_a_search_stopped_at_its_first_placement_leaves_no_stop_file(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    with ThreadPoolExecutor(2) as executor:
        assert conquer(split(problem, 5), executor).status == "found"
    assert not list(tmp_path.iterdir())


class FirstCubesRunOverBudget(ThreadPoolExecutor):
    """Every first cube reports that it ran past its budget; refined ones are solved."""

    def submit(self, fn, cube, limit, stop):
        if not cube.occupied and not cube.empty:
            over = Future()
            over.set_result(CubeAnswer("budget", None, limit))
            return over
        return super().submit(fn, cube, None, stop)


def test_cubes_split_past_their_budget_still_refute_the_bound():
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    first = split(problem, 4)
    with FirstCubesRunOverBudget(2) as executor:
        conquest = conquer(first, executor, cube_budget=1.0)
    assert conquest.status == "refuted" and conquest.cubes_total > len(first)
    assert conquest.cubes_done == conquest.cubes_total  # each first cube counts as its refinements


def test_an_optimisation_by_cubes_proves_the_optimum():
    problem = PlacementProblem(Board.square(10), Piece.QUEEN, Objective.DOMINATION)
    with ThreadPoolExecutor(2) as executor:
        started = time.monotonic()
        result = solve(problem, executor=executor, warm_start=0.001)
        elapsed = time.monotonic() - started
    assert result.optimal and result.value == 5 and "cubes" in result.proof
    assert result.solver.params["cube_budget"] is None  # another executor (a cluster's) splits none either
    # The serial part (the warm start and the first placement) is recorded apart from the cubes'.
    assert 0 < result.solver.params["effort"]["warm_start_seconds"] <= elapsed


def test_on_local_workers_no_cube_is_split_by_default():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    with local_pool(2) as pool:
        result = solve(problem, executor=pool, warm_start=0.001)
    assert result.optimal and result.value == 5 and result.solver.params["cube_budget"] is None


def test_the_largest_cubes_come_first():
    problem = PlacementProblem(Board(9, 9), Piece.QUEEN, Objective.DOMINATION)
    volumes = [volume(cube) for cube in split(problem, 4)]
    assert volumes == sorted(volumes, reverse=True) and volumes[0] > volumes[-1]
