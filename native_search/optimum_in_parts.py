"""The branch-and-bound's optimum on several workers: the search for ``k`` pieces cut into
the parts a count lists (:mod:`.subtree_count`), run on an executor, ``k`` coming down
from the greedy placement's size until a search finds nothing. That last search is the
proof, and its parts' subtrees, stitched, are the tree the one search would have written
(:mod:`.subtree_trees`): the certificate of a certified solve comes from the search that
answered it, not from a second one.

Why down, where the one search (:func:`~.branch_and_bound.optimum_events`) goes up from
one piece: only the refutation of ``optimum − 1`` is needed, and a search for ``k`` at or
above the optimum ends at its first placement, in seconds (measured, one core: 8 queens
on 14×14 in 2.6 s, 9 on 15×15 and on 16×16 in under 0.01 s), where each refutation below
``optimum − 1`` would be a search through every part."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor

from chessdom.chessboard import Objective, PlacementProblem, Square
from chessdom.native_search.branch_and_bound import checked_placement, search_arrays
from chessdom.native_search.greedy import greedy_domination, greedy_total_domination
from chessdom.native_search.subtree_trees import TreeOutgrown, search_in_parts


def optimum_in_parts_events(problem: PlacementProblem, executor: Executor | None, time_limit: float | None = None,
                            *, trees: bool = False, max_entries: int | None = None,
                            on_part: Callable[[int, int], None] | None = None) -> Iterator[tuple]:
    """The events :func:`~.branch_and_bound.optimum_events` sends — ``("solution",
    squares)`` for the greedy placement and each smaller one found, each checked, then
    ``("bound", k + 1, proof)`` once ``k`` is refuted — the searches' parts run on
    ``executor``. With ``trees`` the refutation is preceded by ``("tree", k, entries)``,
    unless its parts' subtrees outgrew ``max_entries`` (the checker's replay bound): then
    that search is run again recording nothing, so the answer is not lost for its
    certificate. At ``time_limit`` seconds the events end where the search stood.
    ``on_part(done, total)`` as each part of a search finds nothing (the searches above the
    optimum end at their first placement, so the parts counted are mostly the proof's)."""
    deadline = None if time_limit is None else time.time() + time_limit  # the workers' clock: wall time
    if search_arrays(problem).reach != (1 << problem.board.num_squares) - 1:
        yield ("infeasible", "some square is attacked from nowhere, so no placement totally dominates the board")
        return
    best = checked_placement(problem, _greedy(problem))
    yield ("bound", 1, "a placement holds at least one piece")
    yield ("solution", best)
    k = len(best) - 1
    while k >= 1:
        try:
            searched = search_in_parts(problem, k, executor, deadline, max_entries, recording=trees, on_part=on_part)
        except TreeOutgrown:
            searched = search_in_parts(problem, k, executor, deadline, on_part=on_part)
        if searched is None:
            return
        if searched.placement is not None:
            best = checked_placement(problem, searched.placement)
            yield ("solution", best)
            k = len(best) - 1
            continue
        if searched.tree is not None:
            yield ("tree", k, searched.tree)
        yield ("bound", k + 1, f"branch-and-bound exhausted every placement of {k} piece{'' if k == 1 else 's'}, "
                               f"in {searched.parts} parts")
        return


def _greedy(problem: PlacementProblem) -> list[Square]:
    board, piece, objective = problem.board, problem.piece, problem.objective
    if objective is Objective.TOTAL_DOMINATION:
        return greedy_total_domination(board, piece)
    return greedy_domination(board, piece, independent=objective is Objective.INDEPENDENT_DOMINATION)
