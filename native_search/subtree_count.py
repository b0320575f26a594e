"""The branch-and-bound's count in parts: the subtrees below the first nodes of its own
search, each listed on its own (on a worker, in any order), so that a count can run on
several cores and be resumed part by part (the parts are run and recorded by
:mod:`chessdom.models.dispatch.native_backend`).

The search branches on an undominated square's candidates, the ``i``-th child choosing
candidate ``i`` and excluding candidates ``1..i-1`` (:mod:`.domination_kernel`), so the
children's placements are disjoint and together all of their parent's: the subtrees of any
set of nodes that ends every path from the root — :func:`subtree_parts` — hold each optimal
placement exactly once, and the count is their sum. A part is named by its node alone: the
squares ``chosen`` on the way down and those ``excluded`` there (its placements are the
optimal ones holding every chosen square and no excluded one, whatever branched above), so
its :attr:`Subtree.key` means the same in every run.

Measured (one core, quiet machine): γ(Q_13)'s 37 subtrees of the root take 0.01–0.70 s
(13.6 s in all, as the one search); its 1,001 at depth two at most 0.05 s. The tree is
even: a few hundred parts leave no part much longer than the others. A random sample of
parts, times their number, estimates a count's work before it runs (with others' work on
the machine): 40 of γ(Q_14)'s 1,175 gave 497 ± 46 s of one core, where the whole count took
460–497 s; 24 of γ(Q_15)'s 1,364 took 3.3–33 s each, about 17,700 ± 2,300 s in all.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from chessdom.chessboard import PlacementProblem
from chessdom.native_search.branch_and_bound import MAX_LISTED, SearchArrays, search_arrays
from chessdom.native_search.domination_kernel import FOUND, STOPPED, list_subtree, node_entries

COUNT_PARTS = 256
"""The nodes a count is cut at, at least: the search's nodes of the first depth that has
this many. Fixed, not taken from the number of workers, so that a count's parts are the same
on any machine and its records resume anywhere. Measured on queens: γ(Q_13) has 37 nodes at
depth one, 1,001 at depth two; γ(Q_14) 40 at depth one, whose subtrees take 905 s in all
(two processes on each core), the largest 60 s — cut there, γ(Q_15)'s would be tens of
minutes each, a part lost to a kill and a last part run alone."""


@dataclass(frozen=True)
class Subtree:
    """The optimal placements holding every square of ``chosen`` and none of ``excluded``
    (squares by number), which the search lists below one of its nodes."""

    chosen: tuple[int, ...]
    excluded: tuple[int, ...]

    @property
    def key(self) -> str:
        """The node as text, ``chosen|excluded``: what a count's records name it by."""
        return f"{','.join(map(str, self.chosen))}|{','.join(map(str, self.excluded))}"


def subtree_parts(problem: PlacementProblem, value: int, at_least: int = COUNT_PARTS) -> list[Subtree]:
    """The nodes of the search for placements of ``value`` pieces that a count lists one by
    one: the root's children, then all of theirs, a whole depth at a time (parts of one depth
    are alike in size), until there are ``at_least``; nodes the bound already ends are left
    out (they hold nothing), nodes that are a placement already are kept as they are."""
    arrays = search_arrays(problem)
    placements: list[Subtree] = []
    level = [Subtree((), ())]
    while level and len(placements) + len(level) < at_least:
        deeper: list[Subtree] = []
        for node in level:
            children = _children(arrays, value, node)
            if children is None:
                placements.append(node)
            else:
                deeper.extend(children)
        level = deeper
    return placements + level


def list_part(problem: PlacementProblem, value: int, part: Subtree, deadline: float | None = None,
              recording: bool = False, first: bool = False) -> tuple[np.ndarray, int, bool, np.ndarray | None]:
    """``(placements, found, complete, tree)``: the placements of ``part`` (rows of square
    numbers, at most :data:`~.branch_and_bound.MAX_LISTED`), how many it has, whether the
    search finished, and with ``recording`` the part's subtree as the one search writes it
    (:mod:`.subtree_trees` stitches them), else None; at ``deadline`` (``time.time()``, the
    one clock a worker on another machine shares) it stops, keeping those listed. With
    ``first`` the part's search ends at its first placement of at most ``value`` pieces
    (an optimum's search, not a count's): ``found`` is 1 and the row holds it, ``-1`` past
    its squares. A part that finds none writes the same subtree either way."""
    seconds = None if deadline is None else deadline - time.time()
    if seconds is not None and seconds <= 0:
        return np.zeros((0, value), np.int16), 0, False, None
    arrays = search_arrays(problem)
    sets, stats, tree = list_subtree(arrays.covers, arrays.excludes, arrays.full, value,
                                     np.array(part.chosen, np.int64), allowed_below(arrays, part),
                                     list_rows=0 if first else MAX_LISTED, seconds=seconds, packing=arrays.packing,
                                     recording=recording)
    found, complete = int(stats[FOUND]), not stats[STOPPED]
    kept = tree.copy() if recording and complete else None  # not a view of the search's 4 MB buffer
    return sets[:min(found, MAX_LISTED)].copy(), found, complete, kept


def allowed_below(arrays: SearchArrays, node: Subtree) -> np.ndarray:
    """The squares the search may still choose below ``node``: neither chosen nor excluded
    there, nor taken from the candidates by a square chosen (independent domination)."""
    allowed = arrays.full.copy()
    for square in node.excluded + node.chosen:
        allowed[square >> 6] &= ~(np.uint64(1) << np.uint64(square & 63))
    for square in node.chosen:
        allowed &= ~arrays.excludes[square]
    return allowed


def _children(arrays: SearchArrays, value: int, node: Subtree) -> list[Subtree] | None:
    """The node's children in the search, or None where it is a placement already."""
    return node_below(arrays, value, node)[1]


def node_below(arrays: SearchArrays, value: int, node: Subtree) -> tuple[list[int], list[Subtree] | None]:
    """What the search writes into its tree for ``node`` itself
    (:func:`~.domination_kernel.node_entries`), and its children: none where a bound ends
    it, None where it is a placement already."""
    dominated = np.zeros(arrays.full.shape[0], np.uint64)
    for square in node.chosen:
        dominated |= arrays.covers[square]
    entries, candidates = node_entries(arrays.covers, arrays.full, dominated, allowed_below(arrays, node),
                                       value - len(node.chosen), arrays.packing)
    if candidates is None:
        return entries, None
    return entries, [Subtree(node.chosen + (int(square),), node.excluded + tuple(int(c) for c in candidates[:i]))
                     for i, square in enumerate(candidates)]
