"""Cube-and-conquer certificates: a refutation one proof cannot carry, split into cubes
whose literals are variables of ``formula.cnf`` itself, each refuted by a DRAT proof of
its own on an executor (a local :class:`~chessdom.processes.WorkerPool` or a Dask
cluster), plus a cover proof that the cubes leave nothing out (Heule, Kullmann, Wieringa
& Biere, HVC 2011).

The first cubes count pieces by region. With the Hilbert literal order the totalizer's
inner nodes count contiguous runs of the curve — quadrants and their quarters — and their
output variables are literals of the formula: ``¬o_{a+1}`` of a node says "at most ``a``
of its squares hold a piece". One cube per tuple of counts over the nodes at a depth of
the tree that adds up to the bound; every model of the formula satisfies one of them (its
nodes' true outputs add up to at most the bound), which the cover proof shows in
hundredths of a second. A cube whose proof outgrows the size limit is split in two on
the free square that attacks most (both branches propagate far), until each fits.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from pathlib import Path

from chessdom.chessboard import PlacementProblem, attack_table
from chessdom.models.certificates.prover import ProofRun, log_proof

Cube = tuple[int, ...]
MAX_COUNT_CUBES = 2_000
"""Beyond this many count tuples (far above an optimum, or counting empty squares for
independence) the first cubes split on squares instead."""


class CubesFailed(Exception):
    """The bundle was not finished: ``reason`` says why (time, or a proof that failed)."""


def totalizer_nodes(inputs: list[int], clauses: list[list[int]]) -> dict[frozenset[int], dict[int, int]]:
    """The totalizer's nodes, read off its clauses: for each node (the set of input
    literals below it), its output variables by the count each stands for.

    python-sat's totalizer has clauses ``¬a_i ∨ ¬b_j ∨ o_{i+j}`` and ``¬a_i ∨ o_i`` only (no
    clause between two outputs of a node), so an output's count is the least sum over its
    clauses of its premises' counts, an input counting 1."""
    input_set = set(inputs)
    premises: dict[int, list[list[int]]] = {}
    for clause in clauses:
        positive = [literal for literal in clause
                    if literal > 0 and literal not in input_set and -literal not in input_set]
        if len(clause) > 1 and len(positive) == 1:
            premises.setdefault(positive[0], []).append([-literal for literal in clause if literal != positive[0]])
    known: dict[int, tuple[frozenset[int], int]] = {literal: (frozenset((literal,)), 1) for literal in inputs}

    def node_of(variable: int) -> tuple[frozenset[int], int]:
        if variable not in known:
            support, count = frozenset(), None
            for body in premises[variable]:
                parts = [node_of(literal) for literal in body]
                support = support.union(*(part[0] for part in parts))
                total = sum(part[1] for part in parts)
                count = total if count is None else min(count, total)
            known[variable] = (support, count)
        return known[variable]

    nodes: dict[frozenset[int], dict[int, int]] = {}
    for variable in sorted(premises):
        support, count = node_of(variable)
        nodes.setdefault(support, {})[count] = variable
    return nodes


def regions_at_depth(inputs: list[int], nodes: dict, depth: int) -> list[frozenset[int]]:
    """The nodes ``depth`` levels below the root (single inputs where the tree ends sooner)."""
    level = [frozenset(inputs)]
    for _ in range(depth):
        below = []
        for region in level:
            children = [node for node in nodes if node < region and not any(node < other < region for other in nodes)]
            covered = frozenset().union(*children)
            below += children + [frozenset((literal,)) for literal in sorted(region - covered)]
        level = below
    return level


def count_cubes(inputs: list[int], clauses: list[list[int]], bound: int, depth: int) -> list[Cube] | None:
    """One cube per tuple of counts over the regions at ``depth`` adding up to ``bound``
    (each at most its region's size), or None when there would be more than
    :data:`MAX_COUNT_CUBES` of them."""
    nodes = totalizer_nodes(inputs, clauses)
    regions = regions_at_depth(inputs, nodes, depth)
    sizes = [min(len(region), bound) for region in regions]
    target = min(bound, sum(sizes))
    tuples = [t for t in itertools.islice(_tuples(sizes, target), MAX_COUNT_CUBES + 1)]
    if len(tuples) > MAX_COUNT_CUBES:
        return None
    cubes = []
    for counts in tuples:
        cube = []
        for region, count in zip(regions, counts):
            if count < len(region):  # "at most count of this region"
                cube.append(-(next(iter(region)) if len(region) == 1 else nodes[region][count + 1]))
        cubes.append(tuple(cube))
    return cubes


def _tuples(sizes: list[int], total: int):
    """Every tuple of counts, each within its size, adding up to exactly ``total``. Only
    counts the other regions can still make up are tried: without that, refuting 30 rooks
    on 29×29 (four regions of about 210, a total of 811) explored dead branches for
    minutes before yielding its first tuple, past the request's deadline."""
    if not sizes:
        if total == 0:
            yield ()
        return
    rest_most = sum(sizes[1:])
    for count in range(max(0, total - rest_most), min(sizes[0], total) + 1):
        for rest in _tuples(sizes[1:], total - count):
            yield (count, *rest)


def split_on_square(problem: PlacementProblem, cube: Cube) -> list[Cube]:
    """``cube`` in two: with and without a piece on the free square that attacks most."""
    degrees = attack_table(problem.board, problem.piece).degrees
    fixed = {abs(literal) for literal in cube}
    free = [s for s in problem.board.squares() if s + 1 not in fixed]
    if not free:
        raise CubesFailed("a cube with every square fixed still outgrew the proof limit")
    square = min(free, key=lambda s: (-degrees[s], s)) + 1
    return [(*cube, square), (*cube, -square)]


def run_all(pending: set[Future], settle: Callable[[Future], set[Future]], done: Callable[[], int], *,
            deadline: float | None, what: str, on_progress: Callable[[int, int], None] | None) -> None:
    """Wait for the ``pending`` proofs, handing each finished one to ``settle``, which returns
    the futures submitted in its place (a split cube's children); ``on_progress(done,
    total)`` is told after each round. Raises CubesFailed at the deadline; whatever is left
    is canceled however this ends."""
    try:
        while pending:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise CubesFailed(f"the {what} did not finish within the time limit ({done()} of "
                                  f"{done() + len(pending)} refuted)")
            finished, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in finished:
                pending |= settle(future)
            if on_progress is not None:
                on_progress(done(), done() + len(pending))
    finally:
        for future in pending:
            future.cancel()


def prove_cube(formula: str, proof: str, cube: Cube, time_limit: float | None, max_proof_bytes: int,
               form: str = "drat") -> ProofRun:
    """One cube's refutation, where an executor's worker runs it (the files must be
    visible there: this machine, or a shared filesystem)."""
    units = tuple((literal,) for literal in cube)
    return log_proof(Path(formula), Path(proof), time_limit=time_limit, max_proof_bytes=max_proof_bytes, extra=units,
                     form=form)


@dataclass(frozen=True)
class Bundle:
    cubes: list[Cube]
    runs: list[ProofRun]
    """One per cube, in order; cube ``i`` (from 1) has its proof in ``cube-i.drat``."""
    splits: int
    """Cubes split again because their proof outgrew the limit."""


def prove_cubes(problem: PlacementProblem, directory: Path, formula: Path, cubes: list[Cube], executor: Executor,
                *, deadline: float | None, max_proof_bytes: int,
                on_progress: Callable[[int, int], None] | None = None, form: str = "drat") -> Bundle:
    """Refute every cube on ``executor``, splitting those whose proof outgrows
    ``max_proof_bytes``; the proofs end up in ``directory`` as ``cube-1.drat``, … in the
    order of the returned cubes; ``on_progress(done, total)`` is told after each round of
    finished proofs (the total grows when a cube is split). Raises CubesFailed (its partial
    proofs deleted by the caller with the staging directory) at the deadline or when a cube
    cannot be refuted."""
    serial = itertools.count()
    futures: dict[Future, tuple[Cube, Path]] = {}

    def submit(cube: Cube) -> Future:
        path = directory / f".cube-{next(serial)}.drat"
        limit = None if deadline is None else max(deadline - time.monotonic(), 0.01)
        future = executor.submit(prove_cube, str(formula), str(path), cube, limit, max_proof_bytes, form)
        futures[future] = (cube, path)
        return future

    done: list[tuple[Cube, Path, ProofRun]] = []
    splits = 0

    def settle(future: Future) -> set[Future]:
        nonlocal splits
        cube, path = futures[future]
        run = future.result()
        if run.status == "unsat":
            done.append((cube, path, run))
            return set()
        if run.status == "too_large":
            splits += 1
            return {submit(child) for child in split_on_square(problem, cube)}
        if run.status == "sat":
            raise RuntimeError(f"{problem}: a cube of the plain formula is satisfiable, so the optimum is "
                               "wrong; the solver that proved it is wrong")
        raise CubesFailed(f"a cube's proof-logging run ended with {run.status} {run.detail}".strip())

    run_all({submit(cube) for cube in cubes}, settle, lambda: len(done), deadline=deadline, what="cubes",
            on_progress=on_progress)
    done.sort(key=lambda item: item[0])
    for index, (_, path, _) in enumerate(done, start=1):
        path.rename(directory / f"cube-{index}.drat")
    return Bundle([cube for cube, _, _ in done], [run for _, _, run in done], splits)
