"""One solver per worker for a query's cubes: asked one cube after another under
assumptions, it answers each cube as a solver of its own would."""

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models import solve
from chessdom.models.counting.listers import sat_placements
from chessdom.models.counting.regions import keeping
from chessdom.models.cubes import refine, split
from chessdom.models.cubes.incremental import QuerySolver, solver_for

from cubes_seen import satisfies

CASES = [
    (Board(8, 8), Piece.QUEEN, Objective.DOMINATION, 5),
    (Board(5, 6), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, 3),
    (Board(7, 7), Piece.KNIGHT, Objective.DOMINATION, 10),
    (Board(6, 6), Piece.QUEEN, Objective.INDEPENDENCE, 6),
]
SAMPLE = 60
"""Cubes asked per case: the leapers and independence have thousands (many tuples of
region counts), each of which a fresh solver would encode again."""


def test_the_cases_values_are_the_optima():
    for board, piece, objective, value in CASES:
        assert solve(PlacementProblem(board, piece, objective), solver="sat").value == value


@pytest.mark.parametrize("board, piece, objective, value", CASES, ids=str)
@pytest.mark.parametrize("below", [1, 0], ids=["refuting", "finding"])
def test_one_solver_answers_every_cube_as_a_fresh_one_would(board, piece, objective, value, below):
    problem = PlacementProblem(board, piece, objective)
    pieces = value - below if not objective.maximize else value + below
    every = split(problem, pieces, one_per_orbit=False)
    cubes = every[::-(-len(every) // SAMPLE)]
    cubes += refine(cubes[len(cubes) // 2])  # cubes with fixed squares, after the others
    shared = solver_for(cubes[0])
    found = 0
    for cube in cubes:
        assert solver_for(cube) is shared
        answer = next(shared.events(cube))
        alone = QuerySolver(cube)
        assert answer[0] == next(alone.events(cube))[0]
        alone.delete()
        if answer[0] == "solution":
            found += 1
            assert satisfies(cube, answer[1])
            assert len(answer[1]) == pieces if objective.maximize else len(answer[1]) <= pieces
    if below:
        assert found == 0
    elif len(cubes) > len(every):  # every cube asked, with a refined one twice
        assert found > 0


def test_a_new_query_replaces_the_solver_held():
    problem = PlacementProblem(Board(6, 6), Piece.QUEEN, Objective.DOMINATION)
    first = solver_for(split(problem, 3)[0])
    second = solver_for(split(problem, 2)[0])
    assert second is not first and second.key != first.key
    assert solver_for(split(problem, 2)[-1]) is second


SYMMETRIC = [
    (Board(7, 7), Piece.QUEEN, Objective.DOMINATION, 4),
    (Board(6, 6), Piece.QUEEN, Objective.DOMINATION, 3),
    (Board(5, 6), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, 3),
    (Board(6, 6), Piece.QUEEN, Objective.INDEPENDENCE, 6),
]


@pytest.mark.parametrize("board, piece, objective, value", SYMMETRIC, ids=str)
def test_a_cube_broken_by_its_own_symmetries_has_a_placement_exactly_when_the_list_says(board, piece, objective, value):
    # A cube whose region counts and fixed squares a symmetry keeps is asked for the
    # lex-leader under those symmetries only: never refuted where a placement lies in it.
    problem = PlacementProblem(board, piece, objective)
    every = list(sat_placements(problem, value))
    cubes = split(problem, value, one_per_orbit=False)
    cubes += [child for cube in cubes[:3] for child in refine(cube, 2)]
    symmetric = 0
    for cube in cubes:
        solver = solver_for(cube)
        answer = next(solver.events(cube))
        assert (answer[0] == "solution") == any(satisfies(cube, placement) for placement in every), cube.counts
        symmetric += bool(_kept_by_a_symmetry(cube))
    assert symmetric > 0


def _kept_by_a_symmetry(cube) -> bool:
    return any({p[s] for s in cube.occupied} == set(cube.occupied) and {p[s] for s in cube.empty} == set(cube.empty)
               for p in keeping(cube.problem.board, cube.counts)[1:])
