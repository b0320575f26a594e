"""The tree of a search run in parts (:mod:`.subtree_count`), stitched: the entries of the
nodes above the parts, written here as the one search writes them, with each part's
subtree (:func:`~.subtree_count.list_part`, recording) in its place, in the search's own
preorder whatever order the parts finished in. The one search's tree is its root's entry
followed by its children's subtrees one after the other, so the stitched array is, entry
for entry, the tree the one search writes (contract version 5 or 7): the independent
checker replays it as it replays that one, and needs no change.

The same holds for a bound: a search for ``k`` pieces that finds no placement writes the
same tree whether or not it lists (it ends early only at a placement found), so the parts
of a count of ``k`` that all find none stitch into the refutation of ``k``
(:func:`tree_in_parts`)."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Executor

import numpy as np

from chessdom.chessboard import PlacementProblem
from chessdom.native_search.branch_and_bound import search_arrays
from chessdom.native_search.subtree_count import Subtree, list_part, node_below, subtree_parts


class MissingSubtree(ValueError):
    """A part of the plan has no recorded subtree, or the plan is not the search's cut."""


def stitched_tree(problem: PlacementProblem, value: int, parts: list[Subtree],
                  subtrees: Mapping[str, np.ndarray]) -> np.ndarray:
    """The tree of the search for ``value`` pieces of ``problem`` run in ``parts``
    (:func:`~.subtree_count.subtree_parts`), given each part's subtree by its key."""
    arrays, keys = search_arrays(problem), {part.key for part in parts}
    deepest = max((len(part.chosen) for part in parts), default=value)  # no parts: the whole tree is above the cut
    pieces: list[np.ndarray] = []
    pending = [Subtree((), ())]
    while pending:  # preorder: a node, then its children's subtrees, the first child first
        node = pending.pop()
        if node.key in keys:
            if node.key not in subtrees:
                raise MissingSubtree(f"the part {node.key} has no recorded subtree")
            pieces.append(np.asarray(subtrees[node.key], np.int32))
            continue
        entries, children = node_below(arrays, value, node)
        if children and len(node.chosen) >= deepest:  # else a wrong plan would walk the whole search here
            raise MissingSubtree(f"the node {node.key} is below every part: the parts are not this search's cut")
        pieces.append(np.array(entries, np.int32))
        pending.extend(reversed(children or []))
    return np.concatenate(pieces) if pieces else np.zeros(0, np.int32)


def tree_in_parts(problem: PlacementProblem, k: int, executor: Executor | None = None,
                  deadline: float | None = None) -> tuple[np.ndarray, int] | None:
    """The tree of the search for ``k`` pieces of ``problem`` — listing every placement of
    ``k``, or, where it finds none, refuting ``k`` — its parts searched on ``executor``
    (here, one after the other, without one), and how many placements it found; None
    where a part stopped at ``deadline`` (``time.time()``)."""
    parts = subtree_parts(problem, k)
    if executor is None:
        answers = [list_part(problem, k, part, deadline, True) for part in parts]
    else:
        futures = [executor.submit(list_part, problem, k, part, deadline, True) for part in parts]
        answers = [future.result() for future in futures]
    if not all(complete for _, _, complete, _ in answers):
        return None
    subtrees = {part.key: answer[3] for part, answer in zip(parts, answers)}
    return stitched_tree(problem, k, parts, subtrees), sum(found for _, found, _, _ in answers)
