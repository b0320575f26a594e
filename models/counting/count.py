"""A count put together: its parts planned (:mod:`.parts`), listed here or in a killable
child (:mod:`.listers`), recorded as each finishes (:mod:`.state`) and tallied
(:mod:`.tally`). A complete count is checked against itself: the orbits of its classes
must add up to its placements; ``check=True`` also re-enumerates plainly, for tests and
small boards."""

from __future__ import annotations

import time
from pathlib import Path

from chessdom.chessboard import PlacementProblem, SolutionCount, Square
from chessdom.models.counting.listers import cpsat_enumeration, part_events, part_placements, sat_placements
from chessdom.models.counting.parts import Part, enumeration_parts
from chessdom.models.counting.state import CountState, count_state, restore_parts
from chessdom.models.counting.tally import Tally, check_classes
from chessdom.processes.killable import run_killable

METHODS = ("sat", "cpsat")


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
    method: ``sat`` (part by part, each by its lister: :func:`~chessdom.models.counting.parts.lister_for`;
        measured, the 4860 placements of five queens dominating 8×8 take 3.5 s by blocking
        clauses and 125 s by enumeration with one CP-SAT worker) or ``cpsat`` (one
        lex-leader part).
    representatives: also return each class's lex-leader, by square names.
    check: also enumerate every placement without symmetry breaking and raise
        :class:`~chessdom.models.counting.tally.CountMismatch` unless the classes are
        exactly the canonical forms of all placements and their orbits add up to their
        number (slow: a test's check).
    state_dir: record each finished part there, and skip the parts recorded there by an
        earlier run of the same count (:mod:`chessdom.models.counting.state`; ``sat`` only).

    Raises
    ------
    chessdom.models.counting.state.StateMismatch: ``state_dir`` records another count.
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


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.01)


def _cpsat_placements(problem: PlacementProblem, value: int, time_limit: float | None, symmetry_breaking: bool):
    """CP-SAT's placements, and whether it listed them all."""
    placements, status = cpsat_enumeration(problem, value, time_limit=time_limit, symmetry_breaking=symmetry_breaking)
    return placements, status == "OPTIMAL"


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
