"""A certificate of the branch-and-bound's answer by its own search tree (contract version
5): the preorder array its refutation of ``value − 1`` pieces wrote as it searched
(:func:`chessdom.native_search.domination_kernel.recorded_search`), compressed into
``tree.bin``, which the independent checker replays with its own attack rule
(:mod:`chessdom.certificates.tree`). No formula and no second search: a solve within
:func:`~chessdom.models.dispatch.native_backend.recording_trees` keeps its tree for this
module to take; a result whose tree was not kept (solved elsewhere, or not recording) has
the same search run again, which is deterministic and writes the same tree, and the
manifest says which (``evidence.search``: ``"kept"`` or ``"again"``)."""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from chessdom.chessboard import Objective, Piece, PlacementProblem, PlacementResult
from chessdom.models.certificates.enumeration import Enumeration
from chessdom.models.certificates.manifest import file_entry, write_manifest
from chessdom.models.certificates.unavailable import CertificateUnavailable

from chessdom.certificates import (CONTRACT_V5, CONTRACT_V7, CONTRACT_V9, CONTRACT_V10, TREE, TREE_MAGIC, claim,
                                   enumeration_claim)
from chessdom.certificates.contract import MAX_TREE_BYTES

FORMS = ("auto", "tree", "drat", "lrat")
"""``CertifyOptions.form``: ``tree`` for the branch-and-bound's tree (its search run again
if the solve kept none), ``drat`` and ``lrat`` for the CaDiCaL refutations of the contract
formula in that proof format (:data:`~.options.AUTO_PROOF` the one ``auto`` takes),
``auto`` the tree where the solve that answered kept one (it ran within
:func:`~chessdom.models.dispatch.native_backend.recording_trees`), else the refutations."""
TREE_SOLVER = "branch-and-bound"
TREE_OBJECTIVES = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.TOTAL_DOMINATION)


def uses_tree(result: PlacementResult, form: str, enumeration: bool) -> bool:
    """Whether ``result``'s certificate (of its count, with ``enumeration``) is a search
    tree; ValueError for a tree asked of independence, which the tree does not certify.
    ``auto`` takes the tree the solve kept (it ran within
    :func:`~chessdom.models.dispatch.native_backend.recording_trees`), or the search run
    again where that was measured within reach (:func:`searched_again_in_reach`). A count
    the branch-and-bound made in one search kept the tree listing every placement:
    measured through the service (load 4.4–5.5), the count of γ(Q_11) certified by it in
    4.0 s against 28 s by DRAT (3 KB against 15 MB), of γ(Q_12) in 6.7 s against 88 s. A
    count in parts keeps the same tree stitched from its parts' subtrees: γ(Q_13)'s,
    through the library on 2 workers (load 2.1–2.3), counted in 19.4 s and certified in
    15.6 s (35.0 s in all, against 17.7 s uncertified and 79.2 s with the listing search
    run again)."""
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(FORMS)}, got {form!r}")

    fits = result.problem.objective in TREE_OBJECTIVES
    if form == "tree" and not fits:
        raise ValueError("form: a tree certifies domination, independent or total domination, not independence")
    if form != "auto" or not fits or result.value is None:
        return form == "tree"
    return has_kept_tree(result, enumeration) or searched_again_in_reach(result.problem, enumeration)


def has_kept_tree(result: PlacementResult, enumeration: bool) -> bool:
    """Whether the solve of ``result`` kept the tree its certificate (of its count, with
    ``enumeration``) takes, so that no search runs again."""
    from chessdom.models.dispatch.native_backend import kept_tree

    if result.value is None:
        return False
    if enumeration:
        return kept_tree(result.problem, result.value, take=False, listing=True) is not None
    return result.solver.name == TREE_SOLVER and kept_tree(result.problem, result.value - 1, take=False) is not None


def searched_again_in_reach(problem: PlacementProblem, enumeration: bool = False) -> bool:
    """Whether ``auto`` certifies an answer (a count, with ``enumeration``) that kept no
    tree by the branch-and-bound's tree, its search run again: queens' γ and i on the
    boards where ``auto`` answers by cubes (counts: in parts, which keep their tree only
    within :func:`~chessdom.models.dispatch.native_backend.recording_trees`) and that
    search was measured within reach (:data:`TREE_AGAIN`, :data:`COUNT_AGAIN`); and knights
    where the LP-bounded search writes it (:func:`lp_in_reach`)."""
    board = problem.board
    return (problem.piece == Piece.QUEEN and board.rows == board.cols
            and (problem.objective, board.rows) in (COUNT_AGAIN if enumeration else TREE_AGAIN)) or lp_in_reach(
        problem, enumeration)


def lp_in_reach(problem: PlacementProblem, enumeration: bool = False) -> bool:
    """Whether ``auto`` certifies an answer (a count, with ``enumeration``) by the tree of the
    LP-bounded search (:mod:`.lp_search`; contract version 10 where it branches by binary
    nodes, :data:`LP_BINARY`, else 9): knights' γ (and γt) on the square boards where it was
    measured ahead (:data:`LP_TREE`, :data:`LP_COUNT`)."""
    board = problem.board
    return (problem.piece == Piece.KNIGHT and board.rows == board.cols
            and (problem.objective, board.rows) in (LP_COUNT if enumeration else LP_TREE))


LP_TREE = frozenset({(Objective.DOMINATION, n) for n in (12, 13, 14, 15, 17)}
                    | {(Objective.TOTAL_DOMINATION, n) for n in range(12, 15)})
"""The knights' bounds :func:`lp_in_reach` takes, each measured (2 cores, a helper session's
tests running beside the first three): the
certificate of a CP-SAT answer made and checked, by this tree against the one LRAT proof,
γ(N_11) 0.66 s against 0.48 s (so below 12×12 the proof stays), γ(N_12) 0.65 against 0.88,
γ(N_13) 0.64 against 2.39; γ(N_14)'s certificate of SCIP's answer in 7.3 s (a 972,231-entry
tree checked in 0.27 s) where the LRAT proof took 31 s (J8); γ(N_15)'s search 267 s in one
search (38.4 M entries), 120.8 s in parts on 2 workers (quiet; 184 s at load 3 with the first
branching), where the LRAT cube bundle took 471 s (J8); by binary nodes (:data:`LP_BINARY`)
65.3 s and 36.5 s (1.8 M entries). On 16×16 the one LRAT proof stays
(γ(N_16) certified in 1.43× its solve, J9), where the binary search took 95.7 s in parts for
γ(N_16) ≤ 39 (24.7 s by reliability branching, not yet measured through a job). On γ(N_17) (J19) 29
of its 32 parts had come in when the job's hour ran out; with parts that hand back what they
outgrow (J21) its certified job took 1,940.6 s against the uncertified job's 84.3 s (a 218 MB
tree, checked in 8.7 s), within the hour asked of it, so 17×17 joined. Total domination,
the search for γt − 1 against ``auto``'s LRAT certificate made and checked (quiet, a one-off
script): γt(N_12) 4.5 s against 16.6 s, γt(N_14) 1.3 s against 27.2 s — but γt(N_13) 49.0 s
against 6.4 s, and γt(N_15) neither within 120 s and 300 s. By binary nodes
(:data:`LP_BINARY`) γt(N_13)'s certificate was made and checked in 2.97 s against the LRAT
proof's 6.42 s (``chessdom solve knight 13 --variant total --certify DIR``, quiet), so it joined;
γt(N_15) ≤ 42 was still not refuted in 900 s. Independent domination stays with
LRAT (i(N_12) 0.04 s against 0.99 s in all, i(N_14) 24.4 s against 6.9 s)."""
LP_COUNT = frozenset({(Objective.DOMINATION, 13), (Objective.DOMINATION, 14)})
"""And the counts, by the search listing every set of γ knights (one search, quiet): γ(N_13)'s
152 placements in 5.95 s (1,246,446 entries), where one LRAT proof took 9 s (J15); γ(N_14)'s 4 in
104.8 s (20,295,360 entries), where LRAT region cubes took 243 s (J15)."""
LP_BINARY = frozenset({Objective.DOMINATION, Objective.TOTAL_DOMINATION})
"""Where the LP-bounded search branches by binary nodes (contract version 10) rather than on
a square's dominators: measured one search each (a helper's tests beside most), binary against by squares, γ(N_12)
≤ 23 0.14 s against 0.18, γ(N_13) ≤ 27 0.27 against 0.19, γ(N_14) ≤ 31 3.45 against 4.67,
γ(N_15) ≤ 35 65.3 against 267, the count of γ(N_13) 5.25 against 4.78 and of γ(N_14) 63.1
against 104.8. Total domination took binary nodes once a refutation's square came by
reliability branching (:data:`~.lp_search.RELIABLE`; one search each, another on the second core): γt(N_12) ≤ 27
1.11 s against 4.5 s by squares (604 s by strong branching at every node), γt(N_13) ≤ 31
2.94 s against 49.0 s, γt(N_14) ≤ 35 0.71 s against 1.3 s."""
LP_SEARCH = "linear programming"
"""``evidence.search`` of a tree the LP-bounded search wrote: not the answer's own search
(SCIP or CP-SAT answered), a second one, whose leaves carry what the checker needs."""


TREE_AGAIN = frozenset({(Objective.DOMINATION, 14), (Objective.INDEPENDENT_DOMINATION, 14),
                        (Objective.DOMINATION, 15), (Objective.DOMINATION, 16),
                        (Objective.DOMINATION, 17), (Objective.INDEPENDENT_DOMINATION, 17),
                        (Objective.DOMINATION, 18), (Objective.INDEPENDENT_DOMINATION, 18)})
"""The queens' bounds :func:`searched_again_in_reach` takes, each measured (on 2 cores).
A certified solve of γ there is answered by this search itself, in parts
(:mod:`~chessdom.native_search.optimum_in_parts`, picked by ``auto``'s
``branch-and-bound-in-parts-for-certified-queen-domination``), and keeps its tree; the
search runs again only for an answer another engine gave:

* γ(Q_14), answered by cubes in 20 s through a default job (load 4–6): certified by LRAT
  region cubes in 255 s (180 MB, checked in 15 s); by the search run again in 136 s from
  the command line (90 s search, 1.1 MB tree, checked in 42 s);
* γ(Q_16), answered by cubes in 114 s from the command line (``--workers 2``, load 0.8–2):
  by the search run again in parts in 313 s (a 17.8 MB tree of 212,784,295 entries,
  checked in 120 s); LRAT region cubes gave up after 621 s, a cube of the finest level
  past the 32 MB proof limit (an atlas build, ``--entry-workers 2``, load about 2).

* γ(Q_15), answered by cubes in 398 s (an atlas build, ``--entry-workers 2``, load about 2):
  by the search run again in parts in 585 s (a 34 MB tree, checked in 228 s), within the
  contract's 2²⁹ nodes — past its earlier 2²⁸, where that search stopped after 186 s.
* i(Q_17), answered by cubes in 22.8 s (command line, ``--workers 2``, quiet): LRAT region
  cubes had staged 1.28 GB with 197 of 1,164 cubes refuted when stopped (a default job);
  the search in parts writes its tree in 12.4 s and it is checked in 4.7 s (1.8 MB). So
  ``auto`` answers a certified i(Q_17) and i(Q_18) by that search
  (``branch-and-bound-in-parts-for-certified-queen-domination``), and runs it
  again for another engine's answer: i(Q_18) 212.0 s, and 101.6 s to compress and check
  its 45 MB tree of 246 M nodes.
* γ(Q_17), answered by cubes in 104.1 s (command line, ``--workers 2``, quiet): the search in
  parts proves it in 57.2–60.5 s and its tree (60.2 M nodes, 3.9 MB) was checked in 51.5 s
  (beside a test run of mine), so ``auto`` answers it by that search
  (``branch-and-bound-in-parts-for-queen-domination-on-17x17``). LRAT was not measured on it.
* γ(Q_18), answered by cubes in 32.6 s (command line, quiet): their LRAT region cubes had
  refuted 198 of 2,502 when the 600 s asked ran out; the search in parts proves it in 695.5 s
  and its tree (59.1 M nodes, 3.4 MB) is checked in 34.3 s."""
COUNT_AGAIN = frozenset({(Objective.DOMINATION, 13), (Objective.DOMINATION, 14)})
"""And the counts: γ(Q_13)'s 288 placements, counted in parts in 17–28 s (load 4–6),
certified by LRAT in 571 s (423 MB), by the listing search run again in 72 s (1.4 MB tree
of 14.8 M entries, checked in 19 s). γ(Q_14)'s 4,632, in one search, took 905 s; listed by
the branch-and-bound in parts on 2 workers in 298 s, the stitched tree archived in 223 s
(44 MB) and checked in 209 s (an atlas build, ``--entry-workers 2``, load about 2), within
the contract's 2²⁹ nodes (2²⁸ before it, which this tree passed)."""


def search_tree(result: PlacementResult, seconds: float | None = None, executor: Executor | None = None,
                on_part: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, str]:
    """The tree refuting ``value − 1`` pieces, and whether it was ``kept`` from the solve,
    written by the search run ``again`` (within ``seconds``, None: no limit; in parts on
    ``executor``'s workers when given, :func:`_searched_in_parts`), or by the LP-bounded
    search (:data:`LP_SEARCH`, telling ``on_part(done, total)`` as its parts end)."""
    from chessdom.models.dispatch.native_backend import kept_tree

    bound = result.value - 1
    tree = kept_tree(result.problem, bound)
    if tree is not None:
        return tree, "kept"
    if lp_in_reach(result.problem) and result.solver.name != TREE_SOLVER:
        return _lp_searched(result.problem, bound, seconds, executor, on_part, listing=False), LP_SEARCH
    if executor is not None:
        return _searched_in_parts(result.problem, bound, seconds, executor, refuting=True), "again"
    from chessdom.native_search.branch_and_bound import search_arrays
    from chessdom.native_search.domination_kernel import STOPPED, recorded_search

    arrays = search_arrays(result.problem)
    exists, _, stats, tree = recorded_search(arrays.covers, arrays.excludes, arrays.full, bound,
                                             packing=arrays.packing, seconds=seconds)
    if stats[STOPPED]:
        raise CertificateUnavailable("the branch-and-bound's search, run again to write its tree, did not finish "
                                     "within the time limit")
    if exists:
        raise CertificateUnavailable(f"the branch-and-bound did not refute {bound} pieces again")
    return tree, "again"


def _searched_in_parts(problem: PlacementProblem, k: int, seconds: float | None, executor: Executor,
                      refuting: bool) -> np.ndarray:
    """The tree of the search for ``k`` pieces run again in parts on ``executor``
    (:func:`~chessdom.native_search.subtree_trees.tree_in_parts`): stitched, the same tree
    the one search writes, its parts on every worker."""
    from chessdom.models.dispatch.native_backend import replayable_entries
    from chessdom.native_search.subtree_trees import TreeOutgrown, tree_in_parts

    try:
        searched = tree_in_parts(problem, k, executor, None if seconds is None else time.time() + seconds,
                                 max_entries=replayable_entries(problem))
    except TreeOutgrown as error:
        raise CertificateUnavailable(f"{error}: take the LRAT form instead") from None
    if searched is None:
        raise CertificateUnavailable("the branch-and-bound's search, run again in parts to write its tree, did not "
                                     "finish within the time limit")
    if refuting and searched[1]:
        raise CertificateUnavailable(f"the branch-and-bound did not refute {k} pieces again")
    return searched[0]


def _lp_searched(problem: PlacementProblem, k: int, seconds: float | None, executor: Executor | None,
                 on_part: Callable[[int, int], None] | None, listing: bool) -> np.ndarray:
    """The tree of the LP-bounded search for ``k`` pieces (listing every set, for a count), in
    parts on ``executor``'s workers when given."""
    from chessdom.models.certificates.lp_search import LpSearchStopped, lp_tree

    try:
        tree, found, _ = lp_tree(problem, k, listing=listing, seconds=seconds, executor=executor, on_part=on_part,
                                 binary=problem.objective in LP_BINARY)
    except LpSearchStopped:
        raise CertificateUnavailable("the LP-bounded search writing the tree did not finish within the time "
                                     "limit") from None
    if found and not listing:
        raise CertificateUnavailable(f"the LP-bounded search did not refute {k} pieces")
    return tree


def tree_contract(tree: np.ndarray) -> str:
    """Version 10 for a tree holding a binary node, else 9 for one holding an LP leaf, else 7
    for one holding a packing leaf (each rejected by the replay of an earlier version), else 5."""
    from chessdom.models.certificates.lp_search import BINARY_NODE, LP_LEAF
    from chessdom.native_search.domination_kernel import PACKING_LEAF

    if bool(np.any(tree == BINARY_NODE)):
        return CONTRACT_V10
    if bool(np.any(tree == LP_LEAF)):
        return CONTRACT_V9
    return CONTRACT_V7 if bool(np.any(tree == PACKING_LEAF)) else CONTRACT_V5


def write_tree_file(path: Path, tree: np.ndarray) -> None:
    """``tree`` as the contract's ``tree.bin``: magic, node count, zlib-compressed int32."""
    payload = zlib.compress(np.asarray(tree, "<i4").tobytes(), 6)
    path.write_bytes(TREE_MAGIC + len(tree).to_bytes(8, "little") + payload)


def listing_tree(result: PlacementResult, seconds: float | None = None, executor: Executor | None = None,
                 on_part: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, str]:
    """The tree of the search listing every placement of ``value`` pieces: kept from the
    solve's count (in one search or in parts), written by that search run ``again`` (in
    parts on ``executor``'s workers when given), or by the LP-bounded search listing them
    (as :func:`search_tree`)."""
    from chessdom.models.dispatch.native_backend import kept_tree

    tree = kept_tree(result.problem, result.value, listing=True)
    if tree is not None:
        return tree, "kept"
    if lp_in_reach(result.problem, enumeration=True) and result.solver.name != TREE_SOLVER:
        return _lp_searched(result.problem, result.value, seconds, executor, on_part, listing=True), LP_SEARCH
    if executor is not None:
        return _searched_in_parts(result.problem, result.value, seconds, executor, refuting=False), "again"
    from chessdom.native_search.branch_and_bound import search_arrays
    from chessdom.native_search.domination_kernel import STOPPED, recorded_search

    arrays = search_arrays(result.problem)
    _, _, stats, tree = recorded_search(arrays.covers, arrays.excludes, arrays.full, result.value, list_rows=1,
                                        packing=arrays.packing, seconds=seconds)
    if stats[STOPPED]:
        raise CertificateUnavailable("the branch-and-bound's listing search, run again to write its tree, did not "
                                     "finish within the time limit")
    return tree, "again"


def write_tree_certificate(result: PlacementResult, staged: Path, check: Callable[[Path], dict],
                           report: Callable[[dict], None], listed: Enumeration | None = None,
                           seconds: float | None = None, executor: Executor | None = None) -> dict:
    """The tree certificate of ``result`` — of its count and classes, given the placements
    ``listed`` — written into ``staged`` and checked by ``check`` (the independent
    checker's verdict on a directory), a search run again given ``seconds`` (in parts on
    ``executor``'s workers when given): its manifest."""
    if result.value is None or result.value < 1:
        raise CertificateUnavailable("a tree refutes a bound below a placement of at least one piece")
    report({"state": "making", "form": "tree"})
    def on_part(done: int, total: int) -> None:
        report({"state": "making", "form": "tree", "done": done, "total": total})

    tree, search = (search_tree(result, seconds, executor, on_part) if listed is None
                    else listing_tree(result, seconds, executor, on_part))
    write_tree_file(staged / TREE, tree)
    if (size := (staged / TREE).stat().st_size) > MAX_TREE_BYTES:
        raise CertificateUnavailable(f"the tree's file took {size} bytes, more than the {MAX_TREE_BYTES} of a tree "
                                     "the checker reads")
    problem = result.problem.to_dict()
    bound = result.value - 1 if listed is None else result.value
    manifest = {"contract": tree_contract(tree), "problem": problem, "value": result.value, "claim": claim(problem, bound),
                "refuted": {"bound": bound, "relation": "at most"},
                "evidence": {"form": "tree", **file_entry(staged / TREE), "nodes": len(tree), "search": search},
                "optimum": {"solver": result.solver.name, "proof": result.proof},
                "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if listed is None:
        manifest["witness"] = list(result.placement)
    else:
        enumerated = listed.to_manifest()
        manifest["enumeration"] = enumerated
        manifest["claim"] = enumeration_claim(problem, result.value, enumerated["solutions"], enumerated["classes"],
                                              len(listed.symmetries))
    write_manifest(staged, manifest)
    report({"state": "checking"})
    manifest["check"] = check(staged)
    write_manifest(staged, manifest)
    return manifest
