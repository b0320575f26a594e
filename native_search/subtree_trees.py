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

import contextlib
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass

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


class TreeOutgrown(ValueError):
    """The parts' subtrees hold more entries than the caller can use (the checker's replay
    bound): the rest of the search was given up."""


def tree_in_parts(problem: PlacementProblem, k: int, executor: Executor | None = None,
                  deadline: float | None = None, max_entries: int | None = None) -> tuple[np.ndarray, int] | None:
    """The tree of the search for ``k`` pieces of ``problem`` — listing every placement of
    ``k``, or, where it finds none, refuting ``k`` — its parts searched on ``executor``
    (here, one after the other, without one), and how many placements it found; None
    where a part stopped at ``deadline`` (``time.time()``). :class:`TreeOutgrown` as soon
    as the finished parts' subtrees hold more than ``max_entries``, the parts not started
    cancelled: γ(Q_16)'s refutation of 8 queens wrote 212,784,295 entries in 355 s on one
    worker, when the checker replayed at most 67,108,864 entries of a 16×16 tree (the cap on
    its work was 2³⁶, since raised to 2³⁸), and was refused only then."""
    parts = subtree_parts(problem, k)
    runner = contextlib.nullcontext(executor) if executor is not None else ThreadPoolExecutor(1)
    with runner as running:
        futures = [running.submit(list_part, problem, k, part, deadline, True) for part in parts]
        try:
            _within(futures, max_entries)
            answers = [future.result() for future in futures]
        finally:
            for future in futures:
                future.cancel()
    if not all(complete for _, _, complete, _ in answers):
        return None
    subtrees = {part.key: answer[3] for part, answer in zip(parts, answers)}
    tree = stitched_tree(problem, k, parts, subtrees)
    _within_bound(len(tree), max_entries)
    return tree, sum(found for _, found, _, _ in answers)


def _within(futures: list[Future], max_entries: int | None) -> None:
    """Wait for ``futures``; TreeOutgrown once their subtrees add up past ``max_entries``."""
    entries = 0
    for future in as_completed(futures):
        subtree = future.result()[3]
        entries += 0 if subtree is None else len(subtree)
        _within_bound(entries, max_entries)


def _within_bound(entries: int, max_entries: int | None) -> None:
    if max_entries is not None and entries > max_entries:
        raise TreeOutgrown(f"the search's parts wrote more than the {max_entries} entries of a tree the checker "
                           f"replays on this board")


@dataclass(frozen=True)
class PartsSearch:
    """What :func:`search_in_parts` found: a ``placement`` (square numbers) of at most
    ``k`` pieces, or none and, where the parts recorded, the ``tree`` refuting ``k``."""

    placement: tuple[int, ...] | None
    tree: np.ndarray | None
    parts: int


def search_in_parts(problem: PlacementProblem, k: int, executor: Executor | None = None,
                    deadline: float | None = None, max_entries: int | None = None,
                    recording: bool = False, on_part: Callable[[int, int], None] | None = None
                    ) -> PartsSearch | None:
    """The search for a placement of at most ``k`` pieces of ``problem`` in parts on
    ``executor`` (here, one after the other, without one), ended by the first part that
    finds one (the parts not started are cancelled, those running finish unheard); where
    none does, with ``recording``, the parts' subtrees stitched into the tree refuting
    ``k`` (:class:`TreeOutgrown` past ``max_entries``). None where a part stopped at
    ``deadline`` (``time.time()``). ``on_part(done, total)`` as each part finds nothing."""
    parts = subtree_parts(problem, k)
    runner = contextlib.nullcontext(executor) if executor is not None else ThreadPoolExecutor(1)
    with runner as running:
        futures = {running.submit(list_part, problem, k, part, deadline, recording, True): part for part in parts}
        subtrees: dict[str, np.ndarray] = {}
        entries = done = 0
        try:
            for future in as_completed(futures):
                rows, found, complete, subtree = future.result()
                if found:
                    return PartsSearch(tuple(int(s) for s in rows[0] if s >= 0), None, len(parts))
                if not complete:
                    return None
                if recording:
                    subtrees[futures[future].key] = subtree
                    entries += len(subtree)
                    _within_bound(entries, max_entries)
                done += 1
                if on_part is not None:
                    on_part(done, len(parts))
        finally:
            for future in futures:
                future.cancel()
    tree = stitched_tree(problem, k, parts, subtrees) if recording else None
    if tree is not None:
        _within_bound(len(tree), max_entries)
    return PartsSearch(None, tree, len(parts))
