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
``optimum − 1`` would be a search through every part. Only the small ones are run, first,
going up in this process while each takes less than :data:`QUICK_SECONDS`: they prove the
lower bounds that cost nothing, and on a small board they answer alone."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor

from chessdom.chessboard import PlacementProblem
from chessdom.native_search.branch_and_bound import (
    UNCOVERABLE, checked_placement, exhausted, greedy_start, search_arrays,
)
from chessdom.native_search.domination_kernel import STOPPED, dominating_set, recorded_search
from chessdom.native_search.subtree_trees import TreeOutgrown, search_in_parts


QUICK_SECONDS = 0.2
"""How long each of the first, small searches may take in this process, going up from one
piece before the parts come down: those that finish prove lower bounds at once (measured,
quiet machine: 5 queens refuted on 14×14 in 0.32 s, 6 on 16×16 in 0.29 s, recording), which
a solve stopped early and a job's live bounds show,
where coming down alone proves none until its last search. The first that does not finish
within it ends them."""


def optimum_in_parts_events(problem: PlacementProblem, executor: Executor | None, time_limit: float | None = None,
                            *, trees: bool = False, max_entries: int | None = None,
                            on_part: Callable[[int, int], None] | None = None) -> Iterator[tuple]:
    """The events :func:`~.branch_and_bound.optimum_events` sends — ``("solution",
    squares)`` for the greedy placement and each smaller one found, each checked, and
    ``("bound", k + 1, proof)`` each time ``k`` is refuted — the large searches' parts run on
    ``executor``. With ``trees`` the refutation that proves the optimum is preceded by
    ``("tree", k, entries)``, unless its parts' subtrees outgrew ``max_entries`` (the
    checker's replay bound): then that search is run again recording nothing, so the answer
    is not lost for its certificate. At ``time_limit`` seconds the events end where the
    search stood. ``on_part(done, total)`` as each part of a search finds nothing (the
    searches above the optimum end at their first placement, so the parts counted are
    mostly the proof's)."""
    deadline = None if time_limit is None else time.time() + time_limit  # the workers' clock: wall time
    arrays = search_arrays(problem)
    if arrays.reach != (1 << problem.board.num_squares) - 1:
        yield ("infeasible", UNCOVERABLE)
        return
    best = checked_placement(problem, greedy_start(problem))
    yield ("bound", 1, "a placement holds at least one piece")
    yield ("solution", best)
    quick = _QuickBounds(arrays, trees)
    yield from quick.events(problem, len(best), deadline)
    k = len(best) - 1 if quick.placement is None else quick.refuted
    while k >= max(quick.refuted + 1, 1):
        searched = _searched(problem, k, executor, deadline, (trees, max_entries, on_part))
        if searched is None:
            return
        if searched.placement is None:
            if searched.tree is not None:
                yield ("tree", k, searched.tree)
            yield ("bound", k + 1, f"{exhausted(k)}, in {searched.parts} parts")
            return
        best = checked_placement(problem, searched.placement)
        yield ("solution", best)
        k = len(best) - 1
    if trees and quick.tree is not None:  # the optimum is one more than the quick searches refuted
        yield ("tree", quick.refuted, quick.tree)


class _QuickBounds:
    """The searches going up from one piece in this process, each within
    :data:`QUICK_SECONDS`: ``refuted``, the most pieces refuted (with ``trees``, that
    refutation's ``tree``), and a ``placement`` where one found the optimum."""

    def __init__(self, arrays, trees: bool):
        self.arrays, self.trees = arrays, trees
        self.refuted, self.tree, self.placement = 0, None, None

    def events(self, problem: PlacementProblem, greedy_size: int, deadline: float | None) -> Iterator[tuple]:
        arrays = self.arrays
        for k in range(1, greedy_size):
            seconds = QUICK_SECONDS if deadline is None else min(QUICK_SECONDS, deadline - time.time())
            if seconds <= 0:
                return
            if self.trees:
                exists, sets, stats, tree = recorded_search(arrays.covers, arrays.excludes, arrays.full, k,
                                                            seconds=seconds, packing=arrays.packing)
            else:
                (exists, sets, stats), tree = dominating_set(arrays.covers, arrays.excludes, arrays.full, k,
                                                             seconds=seconds, packing=arrays.packing), None
            if stats[STOPPED]:
                return
            if exists:
                self.placement = checked_placement(problem, sets[0])
                yield ("solution", self.placement)
                return
            self.refuted, self.tree = k, tree
            yield ("bound", k + 1, exhausted(k))


def _searched(problem: PlacementProblem, k: int, executor: Executor | None, deadline: float | None, recording):
    """:func:`~.subtree_trees.search_in_parts` for ``k``, recording where ``recording``
    (``(trees, max_entries, on_part)``) says, and again without where the tree outgrew
    ``max_entries``."""
    trees, max_entries, on_part = recording
    try:
        return search_in_parts(problem, k, executor, deadline, max_entries, recording=trees, on_part=on_part)
    except TreeOutgrown:
        return search_in_parts(problem, k, executor, deadline, on_part=on_part)
