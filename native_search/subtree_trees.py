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
(:func:`refuting_tree`)."""

from __future__ import annotations

from collections.abc import Mapping

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


def refuting_tree(problem: PlacementProblem, bound: int, executor=None) -> np.ndarray | None:
    """The tree refuting ``bound`` pieces for ``problem``, its parts searched on
    ``executor`` (here, one after the other, without one), or None where a part finds a
    placement of ``bound`` (nothing is refuted)."""
    parts = subtree_parts(problem, bound)
    if executor is None:
        answers = [list_part(problem, bound, part, recording=True) for part in parts]
    else:
        answers = [future.result() for future in
                   [executor.submit(list_part, problem, bound, part, None, True) for part in parts]]
    if any(found for _, found, _, _ in answers):
        return None
    return stitched_tree(problem, bound, parts, {part.key: answer[3] for part, answer in zip(parts, answers)})
