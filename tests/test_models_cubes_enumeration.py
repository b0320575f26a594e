"""Enumeration in parts: one per orbit of the tuples of region counts, each placement it
lists standing for its tuple's orbit; listed here or as cubes, the parts add up to the
plain enumeration."""

import contextlib
import importlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, canonical_form, symmetry_permutations
from chessdom.models import count_placements, solve
from chessdom.models.counting import listers
from chessdom.models.counting import parts as planner
from chessdom.models.counting.listers import part_placements, sat_placements
from chessdom.models.counting.parts import MAX_RINGS, Lister, Part, enumeration_parts, split_part
from chessdom.models.counting.regions import RegionOrbits, corner_guards, keeping
from chessdom.models.counting.tally import CountMismatch, Tally
from chessdom.models.cubes import count_by_cubes, enumerate_by_cubes, local_pool
from chessdom.models.encodings.symmetry_breaking import orbit_size

SMALL = [
    (Board(6, 6), Piece.QUEEN, Objective.DOMINATION, 3),
    (Board(7, 7), Piece.KNIGHT, Objective.DOMINATION, 10),
    (Board(6, 7), Piece.KNIGHT, Objective.DOMINATION, 8),
    (Board(5, 6), Piece.QUEEN, Objective.DOMINATION, 3),
    (Board(6, 6), Piece.QUEEN, Objective.INDEPENDENCE, 6),
    (Board(7, 7), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION, 4),
]


@pytest.fixture(scope="module")
def pool():
    with local_pool(2) as workers:
        yield workers


@pytest.mark.parametrize("board, piece, objective, value", SMALL, ids=str)
def test_every_placement_has_its_tuple_of_counts_in_the_orbit_of_exactly_one_part(board, piece, objective, value):
    problem = PlacementProblem(board, piece, objective)
    parts = enumeration_parts(problem, value)
    orbits = RegionOrbits(board, tuple(region for region, _ in parts[0].counts))  # knights: corner guards
    assert all(part.weight == len(orbits.orbit(tuple(c for _, c in part.counts))) for part in parts)
    for placement in sat_placements(problem, value):
        counts = tuple(len(set(placement).intersection(region)) for region in orbits.parts)
        assert sum(counts in orbits.orbit(tuple(c for _, c in part.counts)) for part in parts) == 1


@pytest.mark.parametrize("board, piece, objective, value", SMALL, ids=str)
def test_the_parts_listed_by_cubes_add_up_to_the_plain_enumeration(board, piece, objective, value, pool):
    problem = PlacementProblem(board, piece, objective)
    every = list(sat_placements(problem, value))
    tally, exact = enumerate_by_cubes(problem, value, pool)
    assert exact and tally.solutions == len(every)
    assert sorted(tally.classes) == sorted(sat_placements(problem, value, symmetry_breaking=True))
    assert {canonical_form(board, p) for p in every} == tally.classes
    assert sum(orbit_size(board, leader) for leader in tally.classes) == len(every)


@pytest.mark.parametrize("board", [Board(1, 1), Board(3, 3), Board(2, 5), Board(5, 8), Board(14, 14)], ids=str)
def test_the_corner_guards_partition_the_board_and_every_symmetry_keeps_them(board):
    guards = corner_guards(board)
    assert sorted(square for region in guards for square in region) == list(board.squares())
    assert all(len(region) == 1 for region in guards[:-1])
    for permutation in symmetry_permutations(board):
        assert {tuple(sorted(permutation[s] for s in region)) for region in guards} == set(guards)


def test_knight_counts_are_listed_by_lp_in_parts_split_on_the_corner_guards():
    board = Board(8, 8)
    knights = enumeration_parts(PlacementProblem(board, Piece.KNIGHT, Objective.DOMINATION), 12)
    assert all(part.lister is Lister.CPSAT_LP and not part.splittable for part in knights)
    assert {region for region, _ in knights[0].counts} == set(corner_guards(board))
    queens = enumeration_parts(PlacementProblem(board, Piece.QUEEN, Objective.DOMINATION), 5)
    assert not any(part.lister is Lister.CPSAT_LP for part in queens)


def test_knight_counts_from_14x14_are_one_part_of_lex_leaders_listed_by_scip():
    big = PlacementProblem(Board(14, 14), Piece.KNIGHT, Objective.DOMINATION)
    assert [(part.counts, part.weight, part.lister) for part in enumeration_parts(big, 32)] == [((), None, Lister.SCIP)]
    smaller = PlacementProblem(Board(13, 14), Piece.KNIGHT, Objective.DOMINATION)
    assert not any(part.lister is Lister.SCIP for part in enumeration_parts(smaller, 30))


@pytest.mark.parametrize("board, value", [(Board(7, 7), 10), (Board(6, 7), 8)], ids=str)
def test_a_count_by_scip_equals_the_plain_enumeration(board, value, monkeypatch):
    problem = PlacementProblem(board, Piece.KNIGHT, Objective.DOMINATION)
    by_lp = count_placements(problem, value, representatives=True)
    monkeypatch.setattr(planner, "MIP_FROM_SQUARES", board.num_squares)
    assert enumeration_parts(problem, value)[0].lister is Lister.SCIP
    assert count_placements(problem, value, representatives=True, check=True) == by_lp
    with ThreadPoolExecutor(2) as threads:  # as cubes, the one part on one worker
        assert count_by_cubes(problem, value, threads, representatives=True) == by_lp


def test_a_count_whose_representative_fails_the_checker_is_refused():
    problem = PlacementProblem(Board.square(6), Piece.QUEEN, Objective.DOMINATION)
    tally = Tally(problem)
    tally.add(Part((), None), [(0, 1, 2)])  # three queens on one rank miss most of the board
    with pytest.raises(CountMismatch, match="fails the checker"):
        tally.count(exact=False, representatives=True)


def test_a_board_with_too_many_tuples_is_counted_as_one_part_of_lex_leaders(monkeypatch):
    problem = PlacementProblem(Board(7, 7), Piece.KNIGHT, Objective.DOMINATION)
    by_orbits = count_placements(problem, 10, representatives=True)
    monkeypatch.setattr(planner, "MAX_PARTS", 1)
    assert [(part.counts, part.weight) for part in enumeration_parts(problem, 10)] == [((), None)]
    assert count_placements(problem, 10, representatives=True, check=True) == by_orbits


def test_a_tally_whose_classes_do_not_add_up_is_refused():
    problem = PlacementProblem(Board.square(6), Piece.QUEEN, Objective.DOMINATION)
    part, placement = next((part, placement) for part in enumeration_parts(problem, 3)
                           for placement in sat_placements(problem, 3, counts=part.counts)
                           if orbit_size(problem.board, placement) == part.weight)
    tally = Tally(problem)
    tally.add(part, [placement, placement])  # listed twice: twice what its class holds
    with pytest.raises(CountMismatch):
        tally.count(exact=True, representatives=False)


def test_cubes_on_any_executor_count_the_638_classes_of_the_4860_ways_five_queens_dominate_the_chessboard():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    with ThreadPoolExecutor(2) as threads:
        count = count_by_cubes(problem, 5, threads, time_limit=600, representatives=True)
    assert (count.solutions, count.up_to_symmetry, count.exact, len(count.representatives)) == (4860, 638, True, 638)


def test_an_enumeration_by_cubes_cut_short_says_so(pool):
    problem = PlacementProblem(Board.square(9), Piece.QUEEN, Objective.DOMINATION)
    count = count_by_cubes(problem, 5, pool, time_limit=0.2)
    assert not count.exact and count.solutions < 114  # OEIS A002564: γ(Q_9) = 5 in 114 ways


def test_counting_by_orbits_agrees_with_the_plain_count_it_no_longer_needs():
    problem = PlacementProblem(Board.square(7), Piece.QUEEN, Objective.DOMINATION)
    checked = count_placements(problem, 4, check=True, representatives=True)  # raises CountMismatch otherwise
    assert (checked.solutions, checked.exact) == (len(list(sat_placements(problem, 4))), True)


def test_a_solve_by_cubes_counts_by_cubes_on_its_own_workers(pool):
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    result = solve(problem, executor=pool, count=True, warm_start=0.001)
    assert result.solver.params["backend"] == "cubes" and result.count.solutions == 4860


def test_a_large_count_lists_its_parts_on_the_cube_workers_whatever_backend_solved(monkeypatch, pool):
    solving = importlib.import_module("chessdom.models.dispatch.solve")
    monkeypatch.setattr(solving, "COUNT_ON_WORKERS_FROM", 8 * 8)
    used = []

    @contextlib.contextmanager
    def workers():
        used.append(pool)
        yield pool

    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    result = solve(problem, solver="sat", count=True, cube_workers=workers)
    assert result.solver.params["backend"] == "sat" and used == [pool]
    assert (result.count.solutions, result.count.up_to_symmetry) == (4860, 638)


@pytest.mark.parametrize("board, piece, objective, value, splits", [
    (*SMALL[0], 2), (*SMALL[2], 2), (*SMALL[3], 1), (*SMALL[4], 1)], ids=str)
def test_parts_split_into_bands_still_stand_for_every_placement_once(board, piece, objective, value, splits):
    problem = PlacementProblem(board, piece, objective)
    every = list(sat_placements(problem, value))
    parts = enumeration_parts(problem, value)
    for _ in range(splits):
        parts = [piece for part in parts for piece in (split_part(problem, part) or [part])]
        tally = Tally(problem)
        for part in parts:
            tally.add(part, list(part_placements(problem, value, part)))
        assert tally.solutions == len(every)
        assert tally.classes == {canonical_form(board, p) for p in every}


def test_a_split_keeps_only_one_piece_per_orbit_under_the_symmetries_that_keep_the_part():
    problem = PlacementProblem(Board.square(8), Piece.QUEEN, Objective.DOMINATION)
    balanced = next(part for part in enumeration_parts(problem, 4) if [c for _, c in part.counts] == [1, 1, 1, 1])
    pieces = split_part(problem, balanced)
    # Each quadrant's queen is inside or outside the central 4×4: 16 ways, 6 up to the
    # square's 8 symmetries (0 to 4 inside, and 2 inside on a side or on a diagonal).
    assert (balanced.weight, len(pieces), sum(piece.weight for piece in pieces)) == (1, 6, 16)
    assert all(piece.rings == 2 for piece in pieces)
    assert split_part(problem, Part(pieces[0].counts, 1, MAX_RINGS)) == []


def test_parts_past_their_budget_are_split_and_still_add_up(pool):
    problem = PlacementProblem(Board.square(6), Piece.QUEEN, Objective.DOMINATION)
    every = list(sat_placements(problem, 3))
    seen = []
    tally, exact = enumerate_by_cubes(problem, 3, pool, budget=1e-9, on_progress=lambda *p: seen.append(p))
    assert exact and tally.solutions == len(every)
    assert tally.classes == {canonical_form(problem.board, p) for p in every}
    assert seen[-1][1] > len(enumeration_parts(problem, 3)) and seen[-1][0] == seen[-1][1]
    assert seen == sorted(seen)


def test_a_lex_leader_part_is_never_cut_by_the_budget(monkeypatch, pool):
    problem = PlacementProblem(Board(7, 7), Piece.KNIGHT, Objective.DOMINATION)
    monkeypatch.setattr(planner, "MAX_PARTS", 1)
    tally, exact = enumerate_by_cubes(problem, 10, pool, budget=1e-9)
    assert exact and tally.solutions == len(list(sat_placements(problem, 10)))


def test_what_a_part_listed_before_its_split_goes_to_its_pieces_once():
    problem = PlacementProblem(Board.square(7), Piece.QUEEN, Objective.DOMINATION)
    every = list(sat_placements(problem, 4))
    tally, handed = Tally(problem), 0
    for part in enumeration_parts(problem, 4):
        listed = list(part_placements(problem, 4, part))
        pieces = split_part(problem, part, listed[: len(listed) // 2])
        assert sum(len(piece.known) for piece in pieces) <= len(listed) // 2
        handed += sum(len(piece.known) for piece in pieces)
        for piece in pieces:
            placements = list(part_placements(problem, 4, piece))
            assert len(set(placements)) == len(placements) and set(piece.known) <= set(placements)
            tally.add(piece, placements)
    assert handed > 0 and tally.solutions == len(every) == 86  # OEIS A002564
    assert tally.classes == {canonical_form(problem.board, p) for p in every}


@pytest.mark.parametrize("board, piece, objective, value", [
    *(case for case in SMALL if case[1] is not Piece.KNIGHT),  # 10 knights: so many parts it took 105 s
    (Board(7, 7), Piece.QUEEN, Objective.DOMINATION, 4)], ids=str)
def test_a_part_lists_exactly_the_placements_with_its_counts_asking_sat_only_for_lex_leaders(
        board, piece, objective, value, monkeypatch):
    problem = PlacementProblem(board, piece, objective)
    every = list(sat_placements(problem, value))
    asked = []
    plain = listers.sat_placements

    def counted(*args):
        for placement in plain(*args):
            asked.append(placement)
            yield placement

    monkeypatch.setattr(listers, "sat_placements", counted)
    parts = enumeration_parts(problem, value)
    parts += [piece for part in parts for piece in split_part(problem, part)]
    for part in parts:
        asked.clear()
        listed = list(part_placements(problem, value, part))
        assert len(set(listed)) == len(listed)
        assert set(listed) == {p for p in every if all(len(set(p) & set(region)) == c for region, c in part.counts)}
        # One SAT answer per orbit under the symmetries that keep the part's counts.
        kept = keeping(board, part.counts) if part.counts else [tuple(board.squares())]
        assert len(asked) == len({min(tuple(sorted(g[s] for s in p)) for g in kept) for p in listed})
