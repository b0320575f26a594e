"""``from_atlas``: a placement request answered from the atlas's entry for its n×n problem,
without solving. The entry's witness is checked again by the placement checker before it
is reported: the atlas on disk is data, and a changed byte must not become an answer.
(Every placement answer links the entry beside it: :func:`~chessdom.api.http.atlas.atlas_link`.)"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.metadata import version

from flask import current_app

from chessdom.atlas import Entry
from chessdom.atlas.schema import PROVED
from chessdom.chessboard import (
    PlacementProblem, PlacementResult, SolutionCount, SolverInfo, Status, check_placement, parse_squares,
)
from chessdom.models import literature_value
from chessdom.models.dispatch.literature import literature_count

from chessdom.api.http.answers import answer_json
from chessdom.api.http.atlas import atlas_entry, served_atlas
from chessdom.api.runtime.answer import Answer
from chessdom.api.runtime.calls import Call, PlacementArguments


def with_atlas(call: Call, request, solve: Callable[[], dict]) -> dict:
    """The answer to ``call``: for a placement problem whose request says ``from_atlas``,
    the atlas's when it can give it; else solved by ``solve``."""
    if isinstance(call.arguments, PlacementArguments) and getattr(request, "from_atlas", False):
        entry = atlas_entry(call.arguments.problem)
        if entry is not None and (body := _from_atlas(entry, call.arguments, request)) is not None:
            return body
    return solve()


def _from_atlas(entry: Entry, arguments: PlacementArguments, request) -> dict | None:
    """The entry as a placement answer, or None when it cannot be one: not proved, asked
    for what it has not (a certificate made now, a trace, a count it lacks), or a witness
    the checker refuses (then the problem is solved, and logged)."""
    wants_count = arguments.count is not None
    if entry.status != PROVED or request.certify or request.trace or (wants_count and entry.count_all is None):
        return None
    started = time.perf_counter()
    problem = arguments.problem
    if not _witness_holds(problem, entry):
        current_app.logger.error("atlas entry %s: the placement checker refuses its witness; solving instead", entry.stem)
        return None
    count = None
    if wants_count:
        representatives = None
        if arguments.count.representatives:
            representatives = tuple(found.squares for found in served_atlas().classes(entry))
        count = literature_count(problem, SolutionCount(entry.count_all, entry.count_classes, True, representatives))
    result = PlacementResult(
        problem=problem, status=Status.OPTIMAL, value=entry.value, lower_bound=entry.value, upper_bound=entry.value,
        placement=entry.witness, verified=True,
        proof=f"the atlas's entry {entry.stem}, its certificate checked by {entry.checked_by}",
        solver=SolverInfo("atlas", version("chessdom"), {"entry": entry.stem, "built_by": entry.chessdom_version,
                                                          "revision": entry.revision}),
        wall_time=time.perf_counter() - started, literature=literature_value(problem, entry.value), count=count,
    )
    return answer_json(Answer(result, cached=True))


def _witness_holds(problem: PlacementProblem, entry: Entry) -> bool:
    """The witness checked as any placement is: on the board, of the entry's size,
    feasible for the objective."""
    try:
        squares = parse_squares(problem.board, entry.witness)
        check = check_placement(problem.board, problem.piece, squares)
    except ValueError:  # a square off the board, or given twice
        return False
    return len(squares) == entry.value and problem.objective.satisfied_by(check)
