"""The refutation half of a certificate: the plain formula of "no better placement
exists" and a DRAT proof of it from a proof-logging SAT run, whatever backend proved the
bound first (CP-SAT's proofs are not DRAT; the SAT backend's formula has line variables
and redundant bounds the contract leaves out). Checking and the manifest are the
caller's (:mod:`chessdom.certify`): nothing here may vouch for its own output."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from chessdom.chessboard import PlacementProblem
from chessdom.models.plain_formula import DEFAULT_ENCODING, plain_formula
from chessdom.models.proof_logging import ProofRun, log_proof

FORMULA_FILE = "formula.cnf"
PROOF_FILE = "proof.drat"
MAX_PROOF_BYTES = 128 * 1024 * 1024
"""dratify peaks at about 11–15× the proof's size (measured: 893 MB for the 59 MB proof
of γ(Q_12) > 5), so 128 MiB keeps a check under about 2 GB."""
MAX_SQUARES = 1024
"""Larger boards are not certified: their formulas take seconds to build, uninterruptibly,
and the plain formula's refutations are out of reach long before (γ(Q_12) takes 10 s)."""


class CertificateUnavailable(Exception):
    """No certificate, for the reason given: the service's ``certificate_unavailable``."""


@dataclass(frozen=True)
class Refutation:
    bound: int
    encoding: str
    variables: int
    clauses: int
    run: ProofRun


def refuted_bound(problem: PlacementProblem, value: int) -> int:
    """What a certificate of the optimum ``value`` refutes: ``value − 1`` or fewer pieces,
    or for independence ``value + 1`` or more."""
    return value + 1 if problem.objective.maximize else value - 1


def _size(bytes_: int) -> str:
    return f"{bytes_ / 2**20:.0f} MiB" if bytes_ >= 2**20 else f"{bytes_} bytes"


def refute(
    problem: PlacementProblem,
    value: int,
    directory: Path,
    *,
    time_limit: float | None,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    encoding: str = DEFAULT_ENCODING,
) -> Refutation:
    """Write ``formula.cnf`` and ``proof.drat`` into ``directory`` for the optimum ``value``.

    Raises CertificateUnavailable (and leaves no proof behind) when there is nothing to
    refute, or the run hits ``time_limit`` or ``max_proof_bytes``. Raises RuntimeError
    when the plain formula is satisfiable: the optimum was wrong, which is a bug.
    """
    started = time.monotonic()
    bound = refuted_bound(problem, value)
    if problem.board.num_squares > MAX_SQUARES:
        raise CertificateUnavailable(f"boards of more than {MAX_SQUARES} squares are not certified")
    if bound > problem.board.num_squares:
        raise CertificateUnavailable(
            f"every square holds a piece: no set of {bound} exists on the {problem.board}, nothing to refute"
        )
    formula = plain_formula(problem, bound, encoding)
    formula_path, proof_path = directory / FORMULA_FILE, directory / PROOF_FILE
    formula.write_dimacs(formula_path)
    if time_limit is not None:
        time_limit -= time.monotonic() - started
    run = log_proof(formula_path, proof_path, time_limit=max(time_limit, 0.0) if time_limit is not None else None,
                    max_proof_bytes=max_proof_bytes)
    if run.status == "unsat":
        return Refutation(bound, encoding, formula.variables, len(formula.clauses), run)
    proof_path.unlink(missing_ok=True)
    if run.status == "timeout":
        raise CertificateUnavailable(f"the proof-logging run did not finish within the time limit "
                                     f"({run.wall_seconds:.1f} s)")
    if run.status == "too_large":
        raise CertificateUnavailable(f"proof larger than {_size(max_proof_bytes)} (the limit)")
    if run.status == "sat":
        raise RuntimeError(f"{problem}: the plain formula refuting {bound} is satisfiable, so {value} is not the "
                           f"optimum; the solver that proved it is wrong")
    raise CertificateUnavailable(f"the proof-logging solver failed: {run.detail}")
