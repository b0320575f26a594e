"""Counting the optimal placements, and how many are distinct up to board symmetry, with
one representative placement per symmetry class.

The count is listed in parts (:func:`enumeration_parts`): one per orbit of the tuples of
per-region piece counts (:mod:`chessdom.models.regions`). A symmetry maps the placements
of one tuple one-to-one onto those of its image, so each placement a part lists stands
for as many as its tuple's orbit holds, and every class has a member in the part of its
tuple's orbit: the classes are the canonical forms of what the parts list. That is about
an eighth of the placements on a square board, without clauses breaking the whole group,
which slow SAT down: measured on γ(Q_13) (288 placements in 41 classes) on one core, the
lex-leader enumeration had 40 classes after 300 s, the parts list all 41 in 100 s. Only
the symmetries that keep a part's tuple are broken within it: the part asks SAT for the
lex-leaders under them and lists their images (:func:`part_placements`). Knights are
counted in parts by the squares that guard the corners instead, each listed by CP-SAT,
whose LP bound prunes (:func:`lists_by_lp`), and from 14×14 class by class by SCIP
(:func:`lists_by_mip`). Where a board has too many tuples the one
part is the whole space under lex-leader symmetry breaking
(:mod:`chessdom.models.symmetry_breaking`), each class found once, by its lex-leader.
Either way a complete count is checked against itself: the orbits of its classes must
add up to its placements. What checks it from outside is its
enumeration certificate (:mod:`chessdom.models.certificates`); ``check=True`` also
re-enumerates plainly, for tests and small boards.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from chessdom.chessboard import (
    Objective, Piece, PlacementProblem, SolutionCount, Square, canonical_form, check_placement, images, square_names,
    symmetry_permutations,
)
from chessdom.models.count_state import CountState, fingerprint
from chessdom.models.cpsat import build_model, placement_callback
from chessdom.models.formulation import formulate
from chessdom.models.mip import class_leaders
from chessdom.models.regions import (
    Counts, RegionOrbits, corner_guards, counts_within, keeping, line_budgets, sort_into, split_counts,
)
from chessdom.models.sat import SatParams, bounded_groups, build_cnf, line_budget_clauses
from chessdom.models.symmetry_breaking import lex_leader_clauses, orbit_size
from chessdom.processes.killable import run_killable

METHODS = ("sat", "cpsat")


class CountMismatch(RuntimeError):
    """The classes and their orbits disagree with a plain enumeration: always a bug."""


MAX_PARTS = 5_000
"""Beyond this many tuples of region counts (many pieces) the enumeration is one part,
under lex-leader symmetry breaking."""

@dataclass(frozen=True)
class Part:
    """The placements with exactly ``count`` pieces in each ``(region, count)`` of
    ``counts``. Each one listed stands for ``weight`` placements (its tuple's orbit); a
    ``weight`` of None lists lex-leaders only, each standing for its own orbit. The regions
    are the board's quadrants (and middle lines) cut into ``rings`` bands around the
    centre, or for ``by_lp`` parts the squares that guard the corners. ``known`` are placements of the part already listed (by the part it was split
    from): it lists them and, by SAT, the others. ``by_lp`` parts are listed by CP-SAT's
    LP-pruned enumeration instead (:func:`lists_by_lp`), and are not split; a ``by_mip``
    part is the whole space, its lex-leaders listed by SCIP (:func:`lists_by_mip`)."""

    counts: Counts
    weight: int | None
    rings: int = 1
    known: tuple[tuple[Square, ...], ...] = ()
    by_lp: bool = False
    by_mip: bool = False

    @property
    def symmetry_breaking(self) -> bool:
        return self.weight is None

    @property
    def splittable(self) -> bool:
        """Whether :func:`split_part` cuts it (lex-leaders and the finest parts it does not)."""
        return not self.symmetry_breaking and not self.by_lp and self.rings < MAX_RINGS


MAX_RINGS = 4
"""How finely :func:`split_part` cuts the regions: two halvings. A band is then an
eighth of the board's half-side at most (two ranks on 16×16)."""


def split_part(problem: PlacementProblem, part: Part, listed: list[tuple[Square, ...]] = ()) -> list[Part]:
    """``part`` as smaller parts, each region cut in two by a band around the centre
    (:func:`chessdom.models.regions.split_counts`): one per orbit under the symmetries
    that keep the part's counts, each listed placement standing for ``weight`` times that
    orbit's size; what ``part`` had ``listed`` goes to the pieces it falls in (moved by
    those symmetries), so none of it is listed twice or lost. Empty when the part cannot be
    split (lex-leaders, or cut to :data:`MAX_RINGS`). Measured on γ(Q_14), 8 queens, one
    core: the part (3, 2, 1, 2) lists its 191 placements in more than 90 s whole, in 215 s
    as 72 parts of at most 45 s each (split on the four busiest squares instead, 16 parts:
    257 s, one of 180 s)."""
    if not part.splittable:
        return []
    rings = 2 * part.rings
    split = split_counts(problem.board, part.counts, rings)
    held = sort_into(problem.board, part.counts, [counts for counts, _ in split], [*part.known, *listed])
    return [Part(counts, part.weight * orbit, rings, tuple(known))
            for (counts, orbit), known in zip(split, held)]


def enumeration_parts(problem: PlacementProblem, value: int) -> list[Part]:
    """One part per orbit of the tuples of region counts adding up to ``value`` pieces:
    together they stand for every placement once; or one lex-leader part when there are
    more than :data:`MAX_PARTS` tuples, or one part of lex-leaders by SCIP
    (:func:`lists_by_mip`)."""
    if lists_by_mip(problem):
        return [Part((), None, by_mip=True)]
    by_lp = lists_by_lp(problem)
    orbits = RegionOrbits(problem.board, corner_guards(problem.board) if by_lp else None)
    sizes = tuple(len(part) for part in orbits.parts)
    tuples = list(itertools.islice(counts_within(sizes, value, exactly=True), MAX_PARTS + 1))
    if len(tuples) > MAX_PARTS:
        return [Part((), None)]
    parts = []
    for counts in tuples:
        orbit = orbits.orbit(counts)
        if counts == max(orbit):  # the orbit's leader stands for it
            parts.append(Part(tuple(zip(orbits.parts, counts)), len(orbit), by_lp=by_lp))
    return parts


def lists_by_lp(problem: PlacementProblem) -> bool:
    """Whether a count lists its parts by CP-SAT's enumeration, whose LP prunes what
    cannot reach the value, split on the squares that guard the corners
    (:func:`chessdom.models.regions.corner_guards`): for knight domination, whose
    placements SAT finds one by one with no bound to prune by. Measured on one core:
    γ(N_12)'s 2 placements in 5.0 s (SAT's lex-leader part 48.3 s), γ(N_13)'s 152 in 36.8 s
    (221.1 s), γ(N_14)'s 4 in 315.7 s (SAT: not in 28 minutes); CP-SAT's enumeration of
    the whole space took 11.5, 80.0 and 593.0 s, and under lex-leader clauses 269.4 s
    for γ(N_12)."""
    return problem.piece is Piece.KNIGHT and problem.objective is Objective.DOMINATION


MIP_FROM_SQUARES = 14 * 14
"""From this many squares knight domination is counted by SCIP (:func:`lists_by_mip`)."""


def lists_by_mip(problem: PlacementProblem) -> bool:
    """Whether a count lists one lex-leader per class by SCIP
    (:func:`chessdom.models.mip.class_leaders`): knight domination from
    :data:`MIP_FROM_SQUARES` squares, where SCIP also proves the value. Measured through
    a default job, value and count, SCIP on one worker against the LP parts on two:
    γ(N_14)'s 4 placements in 22.2 s (168.0 s), γ(N_15)'s 504 in 63 classes in 1,572 s
    (2,996 s), γ(N_16)'s 2 in 363 s (6,311 s). Below, one core, classes are many and
    small: γ(N_11)'s 100 took 127.6 s (7.1 s), γ(N_13)'s 20 took 25.8 s (23.2 s)."""
    return lists_by_lp(problem) and problem.board.num_squares >= MIP_FROM_SQUARES


class Tally:
    """A count as its parts are listed: the placements they stand for, and their classes
    by canonical form (which is the lex-leader: for placements of one size the greatest
    bit string is the least sorted tuple of squares)."""

    def __init__(self, problem: PlacementProblem):
        self.problem = problem
        self.solutions = 0
        self.classes: set[tuple[Square, ...]] = set()

    def add(self, part: Part, placements: list[tuple[Square, ...]]) -> None:
        board = self.problem.board
        if part.weight is None:
            self.classes.update(placements)
            self.solutions += sum(orbit_size(board, leader) for leader in placements)
        else:
            self.classes.update(canonical_form(board, placement) for placement in placements)
            self.solutions += part.weight * len(placements)

    def count(self, exact: bool, representatives: bool, state: CountState | None = None) -> SolutionCount:
        """The count, each class's leader passed by the independent checker first; a
        complete one whose classes' orbits do not add up to its placements raises
        :class:`CountMismatch`, and one that passes is recorded as complete in ``state``.
        (The checker costs 0.06 ms a placement on 8×8.)"""
        board = self.problem.board
        check_leaders(self.problem, self.classes)
        if exact and sum(orbit_size(board, leader) for leader in self.classes) != self.solutions:
            raise CountMismatch(f"{self.problem}: {len(self.classes)} classes whose orbits do not add up to "
                                f"the {self.solutions} placements their parts stand for")
        if exact and state is not None:
            state.record_complete(self.solutions, len(self.classes))
        leaders = sorted(self.classes)
        return SolutionCount(
            self.solutions, len(leaders), exact,
            tuple(tuple(square_names(board, leader)) for leader in leaders) if representatives else None,
        )


def count_placements(
    problem: PlacementProblem,
    value: int,
    *,
    time_limit: float | None = None,
    method: str = "sat",
    representatives: bool = False,
    check: bool = False,
    state_dir: Path | None = None,
) -> SolutionCount:
    """Every placement of exactly ``value`` pieces meeting ``problem``'s constraints,
    counted, and counted up to the board's symmetries; ``exact`` is false when the time
    limit cut the enumeration short (both numbers are then lower bounds).

    Parameters
    ----------
    method: ``sat`` (part by part, by blocking clauses — measured, the 4860 placements of
        five queens dominating 8×8 take 3.5 s by blocking clauses and 125 s by enumeration
        with one CP-SAT worker — or, for knights, by CP-SAT's LP: :func:`lists_by_lp`) or
        ``cpsat`` (one lex-leader part).
    representatives: also return each class's lex-leader, by square names.
    check: also enumerate every placement without symmetry breaking and raise
        :class:`CountMismatch` unless the classes are exactly the canonical forms of all
        placements and their orbits add up to their number (slow: a test's check).
    state_dir: record each finished part there, and skip the parts recorded there by an
        earlier run of the same count (:mod:`chessdom.models.count_state`; ``sat`` only).

    Raises
    ------
    chessdom.models.count_state.StateMismatch: ``state_dir`` records another count.
    """
    if method not in METHODS:
        raise ValueError(f"unknown counting method {method!r} (expected one of {', '.join(METHODS)})")
    if state_dir is not None and method != "sat":
        raise ValueError("a count's state is kept part by part: method 'sat' only")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    tally = Tally(problem)
    state = None
    if method == "cpsat":
        leaders, exact = _cpsat_placements(problem, value, _left(deadline), symmetry_breaking=True)
        tally.add(Part((), None), leaders)
    else:
        parts = enumeration_parts(problem, value)
        state = None if state_dir is None else count_state(state_dir, problem, value, parts)
        exact = _list_parts(tally, value, parts, _left(deadline), state)
    if check and exact:
        if method == "cpsat":
            placements, complete = _cpsat_placements(problem, value, _left(deadline), symmetry_breaking=False)
        else:
            placements, complete = list(sat_placements(problem, value)), True
        if complete:
            check_classes(problem, sorted(tally.classes), placements)
    return tally.count(exact, representatives, state)


def check_classes(problem: PlacementProblem, leaders, placements) -> None:
    """Raise :class:`CountMismatch` unless ``leaders`` (which :meth:`Tally.count` puts
    through the checker, :func:`check_leaders`) are one per class of ``placements`` and
    their orbits add up to ``len(placements)``."""
    classes = {canonical_form(problem.board, leader) for leader in leaders}
    orbits = {canonical_form(problem.board, placement) for placement in placements}
    covered = sum(orbit_size(problem.board, leader) for leader in leaders)
    if len(classes) != len(leaders) or classes != orbits or covered != len(placements):
        raise CountMismatch(
            f"{problem}: {len(leaders)} representatives in {len(classes)} classes covering {covered} placements, "
            f"but the plain enumeration found {len(placements)} placements in {len(orbits)} classes"
        )


def check_leaders(problem: PlacementProblem, leaders) -> None:
    """Raise :class:`CountMismatch` unless the independent checker passes every placement."""
    for leader in leaders:
        if not problem.objective.satisfied_by(check_placement(problem.board, problem.piece, leader)):
            raise CountMismatch(f"{problem}: representative {square_names(problem.board, leader)} fails the checker")


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.01)


def count_state(state_dir: Path, problem: PlacementProblem, value: int, parts: list[Part]) -> CountState:
    """The records in ``state_dir`` of the count of ``problem``'s placements of ``value``
    pieces in ``parts``: raises :class:`~chessdom.models.count_state.StateMismatch` when
    they are another count's."""
    return CountState(state_dir, fingerprint(problem, value, parts, MAX_RINGS), f"{problem}, {value} pieces")


def restore_parts(state: CountState | None, tally: Tally, parts: list[Part]) -> list[Part]:
    """The parts left to list: those ``state`` records as finished go into ``tally``, those
    it records as split are cut again (no listed placements handed on: they only saved work)."""
    if state is None:
        return parts
    return state.restore(tally, parts, lambda part: split_part(tally.problem, part))


def _list_parts(tally: Tally, value: int, parts: list[Part], time_limit: float | None,
                state: CountState | None = None) -> bool:
    """List every part into ``tally`` — but those ``state`` recorded, and recording each
    one finished there — here or within ``time_limit`` in a killable child (keeping what
    it listed); whether the list is complete."""
    parts = restore_parts(state, tally, parts)
    record = (lambda part, placements: None) if state is None else state.record
    if time_limit is None:
        for part in parts:
            placements = list(part_placements(tally.problem, value, part))
            tally.add(part, placements)
            record(part, placements)
        return True
    listed: dict[int, list[tuple[Square, ...]]] = {}

    def follow(event: tuple) -> None:
        if event[0] == "placement":
            listed.setdefault(event[1], []).append(event[2])
        else:  # as it finishes, so that a kill of this process keeps it
            record(parts[event[1]], listed.get(event[1], []))

    _, finished = run_killable(part_events, (tally.problem, value, parts), time_limit, on_event=follow)
    for index, placements in listed.items():
        tally.add(parts[index], placements)
    return finished


def part_events(problem: PlacementProblem, value: int, parts: list[Part]) -> Iterator[tuple]:
    """``("placement", index, squares)`` for each placement each part lists, in order, and
    ``("finished", index)`` after each part's last, for a killable child."""
    for index, part in enumerate(parts):
        for placement in part_placements(problem, value, part):
            yield ("placement", index, placement)
        yield ("finished", index)


def part_placements(
    problem: PlacementProblem, value: int, part: Part, solver_name: str = SatParams.sat_solver
) -> Iterator[tuple[Square, ...]]:
    """The placements of ``value`` pieces one part lists: those it knows, then the rest.

    A part whose counts some symmetries keep (:func:`chessdom.models.regions.keeping`)
    asks SAT only for the lex-leaders under them and lists each one's images under them:
    those symmetries map the part's placements onto its placements, so none is lost.
    Measured on γ(Q_14), 8 queens, one core, each part listed whole: (3, 1, 1, 3), which
    four symmetries keep, 108.6 s instead of 275.2 s; (3, 2, 2, 1), kept by a transpose
    only, 41.0 s against 40.3 s (152 placements either way)."""
    if part.by_lp:
        yield from lp_placements(problem, value, part.counts)
        return
    if part.by_mip:
        yield from class_leaders(problem, value)
        return
    board = problem.board
    breakable = part.counts and not part.symmetry_breaking
    kept = keeping(board, part.counts) if breakable else symmetry_permutations(board)[:1]  # identity first
    known = sorted({image for placement in part.known for image in images(board, placement, kept)})
    yield from known
    listed = set(known)
    for leader in sat_placements(problem, value, solver_name, part.symmetry_breaking, part.counts,
                                 tuple(known), tuple(kept[1:])):
        for image in sorted(set(images(board, leader, kept)) - listed):
            listed.add(image)
            yield image


def sat_placements(
    problem: PlacementProblem, value: int, solver_name: str = SatParams.sat_solver, symmetry_breaking: bool = False,
    counts: tuple[tuple[tuple[Square, ...], int], ...] = (),
    known: tuple[tuple[Square, ...], ...] = (),
    breaking: tuple[tuple[Square, ...], ...] = (),
) -> Iterator[tuple[Square, ...]]:
    """Each placement once (each symmetry class once, by its lex-leader, with
    ``symmetry_breaking``): after each one, a clause forbids placing all of its pieces again.
    ``counts``, pairs of a region and how many pieces stand in it, narrow the enumeration
    to a part of the space (a cube's); ``known`` placements are blocked from the start;
    with ``breaking``, a subgroup's symmetries but the identity, only the lex-leaders
    under them are listed."""
    pool = IDPool()
    cnf = build_cnf(problem, pool, symmetry_breaking=symmetry_breaking)
    occupied = [pool.id(s) for s in problem.board.squares()]
    if breaking:
        flags = itertools.count()
        cnf.extend(lex_leader_clauses(problem.board, occupied, lambda: pool.id(("flag", next(flags))),
                                      list(breaking)))
    cnf.extend(CardEnc.equals(occupied, value, vpool=pool, encoding=EncType.totalizer).clauses)
    # Redundant, as in the SAT backend: no more lines of one direction hold pieces than
    # there are pieces (see bounded_groups: it lets SAT refute 6 queens on 13×13 in seconds).
    for group in bounded_groups(problem, pool)[1:]:
        if len(group) > value:
            cnf.extend(CardEnc.atmost(group, value, vpool=pool, encoding=EncType.totalizer).clauses)
    for region, count in counts:
        cnf.extend(CardEnc.equals([occupied[s] for s in region], count, vpool=pool, encoding=EncType.totalizer).clauses)
    formulation = formulate(problem)
    for lines, budget in line_budgets(formulation.lines, formulation.line_families, counts):
        cnf.extend(line_budget_clauses(pool, lines, budget))
    # Every placement has exactly `value` pieces, so no other contains a blocked one.
    cnf.extend([-occupied[s] for s in placement] for placement in known)
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            placement = tuple(s for s in problem.board.squares() if model[occupied[s] - 1] > 0)
            yield placement
            solver.add_clause([-occupied[s] for s in placement])


def lp_placements(problem: PlacementProblem, value: int, counts: Counts = ()) -> list[tuple[Square, ...]]:
    """Every placement of ``value`` pieces with ``counts``, by CP-SAT's enumeration with
    its fullest LP (linearization level 2), which prunes every branch whose relaxation
    needs more pieces; listed when the search ends, so a part cut short lists nothing."""
    placements, status = _cpsat_enumeration(problem, value, counts=counts, linearization_level=2)
    if status not in ("OPTIMAL", "INFEASIBLE"):
        raise RuntimeError(f"CP-SAT's enumeration of {problem} ended with status {status}")
    return placements


def _cpsat_placements(problem: PlacementProblem, value: int, time_limit: float | None, symmetry_breaking: bool):
    placements, status = _cpsat_enumeration(problem, value, time_limit=time_limit, symmetry_breaking=symmetry_breaking)
    return placements, status == "OPTIMAL"


def _cpsat_enumeration(
    problem: PlacementProblem, value: int, *, counts: Counts = (), time_limit: float | None = None,
    symmetry_breaking: bool = False, linearization_level: int | None = None,
) -> tuple[list[tuple[Square, ...]], str]:
    """The placements of ``value`` pieces with ``counts`` CP-SAT listed, and the name of its
    status (OR-Tools is loaded here, on the CP-SAT path only: see :mod:`chessdom.models.cpsat`)."""
    from ortools.sat.python import cp_model

    model, occupied = build_model(problem, symmetry_breaking=symmetry_breaking)
    model.clear_objective()
    model.add(sum(occupied) == value)
    for region, count in counts:
        model.add(sum(occupied[s] for s in region) == count)
    # One worker and no symmetry reasoning: measured with ortools 9.15, enumeration with
    # several workers silently misses solutions yet reports the search complete.
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.symmetry_level = 0
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    if linearization_level is not None:
        solver.parameters.linearization_level = linearization_level
    placements: list[tuple[Square, ...]] = []
    status = solver.solve(model, placement_callback(occupied, placements.append))
    return placements, solver.status_name(status)
