"""The evidence of certificate contract version 2, which independence keeps and
``split="never"`` or ``"always"`` asks for: one DRAT proof refuting the plain formula, or
a cube bundle (:mod:`.cubes`) over the totalizer's nodes with its cover proof."""

from __future__ import annotations

import contextlib
import time
from concurrent.futures import Executor
from pathlib import Path

from chessdom.certificates import FORMULA
from chessdom.chessboard import PlacementProblem
from chessdom.models.certificates.cubes import CubesFailed, count_cubes, prove_cubes, split_on_square
from chessdom.models.certificates.formula import PlainFormula
from chessdom.models.certificates.manifest import Evidence
from chessdom.models.certificates.options import Proving
from chessdom.models.certificates.prover import log_proof
from chessdom.models.certificates.unavailable import CertificateUnavailable

SINGLE_PROOF_SECONDS = 120.0
"""``split="auto"`` tries one proof for this long (or until it outgrows the size limit)
before splitting into cubes: measured, one proof is the cheaper certificate whenever it
fits (γ(Q_12) ≤ 5: 2.7 s and 14 MB in one proof, 17 s and 22 MB in 56 cubes)."""
CUBE_DEPTH = 2
"""The first cubes count pieces in the totalizer's nodes two levels below its root: with
the Hilbert order, the four quarters of the curve."""
FIRST_SQUARE_SPLITS = 4
"""Without a totalizer to count with, the first cubes fix the 4 squares that attack most."""


def remaining(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (a ``time.monotonic()``), None for no deadline."""
    return None if deadline is None else max(deadline - time.monotonic(), 0.0)


@contextlib.contextmanager
def cube_runner(executor: Executor | None, workers: int, what: str):
    """``executor``, or a local WorkerPool of ``workers`` processes for the time it is used,
    to prove cubes on; their failure is CertificateUnavailable (CubesFailed's reason, or a
    worker that died: memory, a killed cluster), but a satisfiable cube (a wrong optimum)
    is raised as it is."""
    try:
        if executor is not None:
            yield executor
            return
        from chessdom.processes import WorkerPool

        with WorkerPool(workers) as pool:
            yield pool
    except CubesFailed as reason:
        raise CertificateUnavailable(str(reason)) from None
    except CertificateUnavailable:  # told by a progress report (the room left for certificates): as it is
        raise
    except Exception as error:
        if isinstance(error, RuntimeError) and "satisfiable" in str(error):
            raise
        raise CertificateUnavailable(f"the {what} failed: {error}") from None


def size_in_words(bytes_: int) -> str:
    return f"{bytes_ / 2**20:.0f} MiB" if bytes_ >= 2**20 else f"{bytes_} bytes"


def prove_plain(problem: PlacementProblem, formula: PlainFormula, staged: Path, proving: Proving,
                encoding_and_bound: tuple[str, int]) -> Evidence:
    """One proof, or a cube bundle, refuting ``formula`` (already written to ``staged``):
    split ``never`` one proof, ``always`` a bundle, ``auto`` one proof within
    :data:`SINGLE_PROOF_SECONDS` and the size limit, else a bundle."""
    split, deadline, most = proving.options.split, proving.deadline, proving.max_proof_bytes
    if split != "always":
        limit = remaining(deadline)
        if split == "auto":
            limit = SINGLE_PROOF_SECONDS if limit is None else min(limit, SINGLE_PROOF_SECONDS)
        run = log_proof(staged / FORMULA, staged / "proof.drat", time_limit=limit, max_proof_bytes=most,
                        form=proving.proof_form)
        raise_unless_refuted(problem, run.status, run.wall_seconds, run.detail, most,
                             can_split=split == "auto" and remaining(deadline) != 0.0)
        if run.status == "unsat":
            return Evidence(run=run)
    cubes = _first_cubes(problem, formula, *encoding_and_bound)
    return _prove_by_cubes(problem, cubes, staged, proving)


def raise_unless_refuted(problem, status: str, seconds: float, detail: str, max_proof_bytes: int,
                         can_split: bool) -> None:
    if status == "unsat" or (can_split and status in ("too_large", "timeout")):
        return
    if status == "timeout":
        raise CertificateUnavailable(f"the proof-logging run did not finish within the time limit ({seconds:.1f} s)")
    if status == "too_large":
        raise CertificateUnavailable(f"proof larger than {size_in_words(max_proof_bytes)} (the limit)")
    if status == "sat":
        raise RuntimeError(f"{problem}: the plain formula is satisfiable, so the optimum (or the count) is wrong; "
                           f"the solver that proved it is wrong")
    raise CertificateUnavailable(f"the proof-logging solver failed: {detail}")


def _prove_by_cubes(problem: PlacementProblem, cubes: list[tuple[int, ...]], staged: Path, proving: Proving
                    ) -> Evidence:
    started = time.monotonic()
    deadline, max_proof_bytes, report = proving.deadline, proving.max_proof_bytes, proving.report
    report({"state": "making", "done": 0, "total": len(cubes)})
    with cube_runner(proving.executor, proving.options.workers, "cube proofs") as pool:
        bundle = prove_cubes(problem, staged, staged / FORMULA, cubes, pool, deadline=deadline,
                             max_proof_bytes=max_proof_bytes,
                             on_progress=lambda done, total: report({"state": "making", "done": done, "total": total}),
                             form=proving.proof_form)
    (staged / "cubes.txt").write_text("".join(" ".join(map(str, (*cube, 0))) + "\n" for cube in bundle.cubes),
                                      encoding="ascii")
    negated = tuple(tuple(-literal for literal in cube) for cube in bundle.cubes)
    cover = log_proof(staged / FORMULA, staged / "cover.drat", time_limit=remaining(deadline),
                      max_proof_bytes=max_proof_bytes, extra=negated, form=proving.proof_form)
    raise_unless_refuted(problem, cover.status, cover.wall_seconds, cover.detail, max_proof_bytes, can_split=False)
    return Evidence(bundle=bundle, cover=cover, seconds=time.monotonic() - started)


def _first_cubes(problem: PlacementProblem, formula: PlainFormula, encoding: str, bound: int
                 ) -> list[tuple[int, ...]]:
    """Count cubes over the totalizer's nodes when the bound is a totalizer's, else a split
    on the squares that attack most."""
    cubes = None
    if encoding == "totalizer":
        start, end = formula.cardinality
        inputs = list(formula.cardinality_literals)
        counted = bound
        if problem.objective.maximize:  # CardEnc.atleast is an atmost over the empty squares
            inputs, counted = [-literal for literal in inputs], len(inputs) - bound
        cubes = count_cubes(inputs, formula.clauses[start:end], counted, CUBE_DEPTH)
    if cubes:
        return cubes
    cubes = [()]
    for _ in range(FIRST_SQUARE_SPLITS):
        cubes = [child for cube in cubes for child in split_on_square(problem, cube)]
    return cubes
