"""The native branch-and-bound (:mod:`chessdom.native_search.branch_and_bound`) as a backend
of the dispatcher, ``solver="bnb"``: its bounds and placement reported as the SAT backend
reports its own, and its count of the optimal placements — one search, or in parts
(:mod:`chessdom.native_search.subtree_count`) listed on an executor's workers and recorded
one by one in a state directory (:mod:`chessdom.models.counting.state`), so that a count
stopped part-way goes on from its records. Its optimum runs in this process: the compiled
search stops itself at the time limit (it reads a flag at every node), so it needs no child
to kill."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from pathlib import Path

import numpy as np

from chessdom.chessboard import PlacementProblem, SolutionCount, square_names
from chessdom.models.counting.state import CountState, branch_and_bound_state
from chessdom.models.counting.tally import CountMismatch
from chessdom.models.encodings.backend_answer import Outcome, outcome_of
from chessdom.models.encodings.symmetry_breaking import orbit_size

NAME = "branch-and-bound"
# native_search is imported where it is used: it loads numba, 0.18 s of every start of
# chessdom.models (measured with -X importtime), which a SAT or CP-SAT solve never needs.
UNLIMITED_SECONDS = 365 * 24 * 3600.0
"""The time limit a search given none is given: the compiled search reads no signals, and
only one that has a limit runs in a thread of its own, which leaves the calling thread free
to take Ctrl-C (inline, γ(Q_14) went on for 50 s after it)."""
STOPPING_SECONDS = 2.0
"""How long past the time limit the parts running are waited for: each stops itself at the
limit (the flag its search reads) and hands back what it listed; past this it is canceled."""


_COMPILED: list[bool] = []  # one entry once this process holds the kernels' machine code


def compile_kernels() -> float:
    """Seconds spent making the search's numba kernels ready in this process — compiled
    on the first run after installing (measured 9.6 s, reported before as the solve's
    wall time), loaded from numba's cache after it (about 0.3 s) — by one search of the
    4×4 board, optimum and count, as the service's warm workers do
    (:mod:`chessdom.api.runtime.warm`); 0.0 once they are ready."""
    if _COMPILED:
        return 0.0
    began = time.perf_counter()
    from chessdom.chessboard import Board, Objective, Piece
    from chessdom.native_search import branch_and_bound

    branch_and_bound(PlacementProblem(Board.square(4), Piece.QUEEN, Objective.DOMINATION), count=True)
    _COMPILED.append(True)
    return round(time.perf_counter() - began, 3)


_RECORDING = [0]
"""How many :func:`recording_trees` are open: a count, not a context variable, because the
dispatcher may solve on a thread of its own."""
_KEPT: dict[tuple[PlacementProblem, int, bool], np.ndarray] = {}
"""Kept trees by problem, pieces and whether the search listed every set (a count's)."""
KEPT_TREES = 4
"""Trees kept for a certificate to take, the oldest forgotten past this many (γ(Q_13) ≤ 6's is 2 MB)."""


@contextlib.contextmanager
def recording_trees():
    """Within it, each branch-and-bound solve keeps the tree of its last refutation for
    :func:`kept_tree` (a certified solve: the certificate is the answering search's own
    tree); outside it the search is compiled without writing one."""
    _RECORDING[0] += 1
    try:
        yield
    finally:
        _RECORDING[0] -= 1


def kept_tree(problem: PlacementProblem, bound: int, *, take: bool = True, listing: bool = False
              ) -> np.ndarray | None:
    """The tree a solve within :func:`recording_trees` wrote refuting ``bound`` pieces for
    ``problem`` — with ``listing``, its count's tree listing every set of ``bound`` — or
    None; taken unless not ``take`` (a certificate takes it once)."""
    key = (problem, bound, listing)
    return _KEPT.pop(key, None) if take else _KEPT.get(key)


def _keep(problem: PlacementProblem, bound: int, tree: np.ndarray, listing: bool = False) -> None:
    _KEPT[(problem, bound, listing)] = tree
    while len(_KEPT) > KEPT_TREES:
        del _KEPT[next(iter(_KEPT))]


def solve_branch_and_bound(problem: PlacementProblem, *, time_limit: float | None = None,
                           on_event: Callable[[tuple], None] | None = None, executor: Executor | None = None
                           ) -> Outcome:
    """The optimum of ``problem`` by branch-and-bound, or what it proved within ``time_limit``
    — in one search here, or given an ``executor`` in parts on its workers
    (:mod:`~chessdom.native_search.optimum_in_parts`); within :func:`recording_trees` its
    last refutation's tree is kept (and the trees of an earlier solve of ``problem``
    forgotten: a kept tree is always the latest solve's)."""
    from chessdom.native_search.branch_and_bound import VERSION, optimum_events, search_bounds
    from chessdom.native_search.optimum_in_parts import optimum_in_parts_events

    for key in [key for key in _KEPT if key[0] == problem]:
        del _KEPT[key]

    def reported(events):
        for event in events:
            if event[0] == "tree":
                _keep(problem, event[1], event[2])
                continue
            if on_event is not None:
                on_event(event)
            yield event

    recording = _RECORDING[0] > 0
    params = {"bound": search_bounds(problem)}
    if executor is None:
        events = optimum_events(problem, UNLIMITED_SECONDS if time_limit is None else time_limit, trees=recording)
    else:
        on_part = None if on_event is None else (lambda done, total: on_event(("search parts", done, total)))
        events = optimum_in_parts_events(problem, executor, time_limit, trees=recording,
                                         max_entries=replayable_entries(problem), on_part=on_part)
        params["method"] = "parts"
    return outcome_of(reported(events), solver_name=NAME, solver_version=VERSION, params=params)


def recording() -> bool:
    """Whether a solve now runs within :func:`recording_trees`: a certified solve, whose
    certificate may be the answering search's own tree."""
    return _RECORDING[0] > 0


def count_by_branch_and_bound(problem: PlacementProblem, value: int, *, time_limit: float | None = None,
                              representatives: bool = False, executor: Executor | None = None,
                              state_dir: Path | None = None,
                              on_progress: Callable[[int, int], None] | None = None) -> SolutionCount:
    """Every optimal placement listed by the search; one stopped by ``time_limit`` holds
    those listed until then (``exact`` false). Given an ``executor`` or a ``state_dir`` the
    search runs in parts: on the executor's workers (here, one after the other, without
    one), each finished part recorded in ``state_dir`` and not listed again by a count given
    the same directory; ``on_progress(done, total)`` as parts finish. Within
    :func:`recording_trees` a complete count keeps its listing tree for :func:`kept_tree`:
    the one search's own, or in parts, each part's subtree (recorded beside its record in
    ``state_dir``, so that a count resumed keeps it too) stitched into that same tree
    (:func:`~chessdom.native_search.subtree_trees.stitched_tree`).

    Raises
    ------
    chessdom.models.counting.state.StateMismatch: ``state_dir`` records another count.
    """
    from chessdom.native_search.branch_and_bound import count_optimal
    from chessdom.native_search.subtree_count import subtree_parts

    if executor is None and state_dir is None:
        keep = (lambda tree: _keep(problem, value, tree, listing=True)) if _RECORDING[0] else None
        return count_optimal(problem, value, representatives=representatives,
                             time_limit=UNLIMITED_SECONDS if time_limit is None else time_limit, on_tree=keep)
    parts = subtree_parts(problem, value)
    state = None if state_dir is None else branch_and_bound_state(state_dir, problem, value, [p.key for p in parts])
    listed = _Listed(problem, value, recording=_RECORDING[0] > 0)
    todo = [part for part in parts if not listed.restored(part.key, state)]
    deadline = None if time_limit is None else time.time() + time_limit  # the workers' clock too: wall time
    with ThreadPoolExecutor(1) if executor is None else contextlib.nullcontext(executor) as runner:
        exact = _list_parts(runner, listed, todo, deadline, state, _progress(on_progress, len(parts) - len(todo),
                                                                             len(parts)))
    counted = listed.count(exact, representatives, state)
    if counted.exact and listed.trees is not None and len(listed.trees) == len(parts):
        from chessdom.native_search.subtree_trees import stitched_tree

        _keep(problem, value, stitched_tree(problem, value, parts, listed.trees), listing=True)
    return counted


def _list_parts(executor: Executor, listed: _Listed, parts: list, deadline: float | None,
                state: CountState | None, progress: Callable[[int], None]) -> bool:
    """List ``parts`` on ``executor`` into ``listed``, each one finished recorded in
    ``state``: whether every one finished before ``deadline`` (wall time)."""
    from chessdom.native_search.subtree_count import list_part

    pending: dict[Future, object] = {
        executor.submit(list_part, listed.problem, listed.value, part, deadline, listed.trees is not None): part
        for part in parts}
    exact = True
    try:
        while pending:
            timeout = None if deadline is None else max(deadline - time.time(), 0) + STOPPING_SECONDS
            finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            if not finished:
                return False
            for future in finished:
                part = pending.pop(future)
                rows, found, complete, subtree = future.result()
                kept = listed.add(rows, found)
                subtree = listed.keep_subtree(part.key, subtree)
                if complete and state is not None:
                    state.record_listed(part.key, kept, found, subtree)
                exact = exact and complete
                progress(1 if complete else 0)
    finally:
        for future in pending:
            future.cancel()
    return exact


class _Listed:
    """The placements the parts have listed (a million at most, as the one search keeps)
    and how many they found; ``recording``, the subtrees they searched (``trees``), until
    they outgrow what the checker replays (then None, and no tree is kept)."""

    def __init__(self, problem: PlacementProblem, value: int, recording: bool = False):
        from chessdom.native_search.branch_and_bound import MAX_LISTED

        self.problem, self.value, self.room = problem, value, MAX_LISTED
        self.rows: list[np.ndarray] = []
        self.found = 0
        self.trees: dict[str, np.ndarray] | None = {} if recording else None
        self.entries = 0

    def restored(self, key: str, state: CountState | None) -> bool:
        """Whether ``state`` records the part ``key`` finished; if so its placements are
        added, and its subtree where it recorded one."""
        if state is None or key not in state.finished:
            return False
        self.add(np.array(state.finished[key], np.int16).reshape(-1, self.value), state.found[key])
        if self.trees is not None and self.keep_subtree(key, state.subtree(key)) is None:
            self.trees = None  # a record without its subtree (written before they were kept): no tree
        return True

    def keep_subtree(self, key: str, subtree: np.ndarray | None) -> np.ndarray | None:
        """Keep the part ``key``'s ``subtree`` while the trees fit what the checker replays:
        the one kept (None once they do not)."""
        if self.trees is None or subtree is None:
            return None
        self.entries += len(subtree)
        if self.entries > replayable_entries(self.problem):
            self.trees = None  # γ(Q_13)'s count: 14.8 M entries (59 MB); far larger ones would only fill memory
            return None
        self.trees[key] = subtree
        return subtree

    def add(self, rows: np.ndarray, found: int) -> np.ndarray:
        """Add a part's ``found`` placements, of which ``rows`` were listed: those kept."""
        kept = rows[:max(self.room, 0)]
        self.rows.append(kept)
        self.room -= len(kept)
        self.found += found
        return kept

    def count(self, exact: bool, representatives: bool, state: CountState | None) -> SolutionCount:
        """The count by symmetry class, each class's leader checked; a complete one whose
        classes' orbits do not add up to its placements raises
        :class:`~chessdom.models.counting.tally.CountMismatch` (a part listed twice or left
        out), and one that passes is recorded as complete in ``state``."""
        from chessdom.native_search.branch_and_bound import checked_leaders

        board = self.problem.board
        rows = np.concatenate(self.rows) if self.rows else np.zeros((0, self.value), np.int16)
        leaders = checked_leaders(self.problem, rows)
        exact = exact and len(rows) == self.found
        if exact and sum(orbit_size(board, leader) for leader in leaders) != self.found:
            raise CountMismatch(f"{self.problem}: {len(leaders)} classes whose orbits do not add up to the "
                                f"{self.found} placements the parts listed")
        if exact and state is not None:
            state.record_complete(self.found, len(leaders))
        names = tuple(tuple(square_names(board, leader)) for leader in leaders) if representatives else None
        return SolutionCount(self.found, len(leaders), exact, names)


def replayable_entries(problem: PlacementProblem) -> int:
    """The most entries the independent checker replays of a tree of ``problem``: the
    contract's cap on nodes, and on nodes × squares × 64-bit words."""
    from chessdom.certificates.contract import MAX_TREE_NODES, MAX_TREE_WORK

    squares = problem.board.num_squares
    return min(MAX_TREE_NODES, MAX_TREE_WORK // (squares * ((squares + 63) // 64)))


def _progress(on_progress: Callable[[int, int], None] | None, done: int, total: int) -> Callable[[int], None]:
    """Counts parts finished into ``on_progress(done, total)``, told at once of those already done."""
    if on_progress is None:
        return lambda finished: None
    on_progress(done, total)
    tally = [done]

    def finished(parts: int) -> None:
        tally[0] += parts
        on_progress(tally[0], total)

    return finished
