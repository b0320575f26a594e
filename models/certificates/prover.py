"""The proof-logging run: CaDiCaL 1.9.5 (python-sat) refutes a DIMACS formula and streams
a text DRAT proof — or a binary LRAT one, renumbered and compressed once it is complete
(:mod:`.lrat`) — straight to a file as it solves, in a child killed at a deadline or when
the proof outgrows a limit (the checker holds a proof in memory, about 11–15× its size, so
a limit on the file is a limit on memory). Anything but ``unsat`` deletes the proof."""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from chessdom.processes.killable import run_killable

FORMS = ("drat", "lrat")
"""What a run writes: text DRAT (contract versions 2 and 3), or binary LRAT stored as
contract version 6 has it (:mod:`.lrat`)."""
LRAT_RAW_FACTOR = 3
"""An LRAT run may write this many times the size limit before it is compressed: gzip
keeps about a third of it (γ(Q_12) ≤ 5: 20.2 MB, 6.4 MB stored), so the stored proof stays
near the limit, and the checker holds about 5 bytes a raw byte (about 0.5 GB at 32 MiB × 3)."""

SOLVER = {"name": "cadical195", "library": "python-sat", "version": version("python-sat")}


@dataclass(frozen=True)
class ProofRun:
    status: str
    """``unsat`` (the proof is complete), ``sat``, ``timeout``, ``too_large`` or ``failed``."""
    solve_seconds: float | None
    """CaDiCaL's solve alone, measured in the child."""
    wall_seconds: float
    proof_bytes: int
    detail: str = ""


def log_proof(formula: Path | None, proof: Path, *, time_limit: float | None, max_proof_bytes: int,
              extra: tuple[tuple[int, ...], ...] = (), form: str = "drat") -> ProofRun:
    """Solve ``formula`` plus the ``extra`` clauses (a cube's units, a cover's negated
    cubes; with no ``formula``, a lemma's own clauses alone) writing a proof of ``form``
    (:data:`FORMS`) to ``proof``, which is kept only when they are refuted (``unsat``)
    within both limits; whatever else happens, it is deleted. The size limit is the stored
    proof's; the solver's own LRAT output may reach :data:`LRAT_RAW_FACTOR` times it."""
    started = time.monotonic()
    raw_limit = max_proof_bytes * (LRAT_RAW_FACTOR if form == "lrat" else 1)

    def too_large() -> bool:
        return proof.exists() and proof.stat().st_size > raw_limit

    try:
        source = None if formula is None else str(formula)
        events, finished = run_killable(refutation_events, (source, str(proof), extra, form), time_limit,
                                        should_stop=too_large)
        if finished and events[-1][1] == "unsat" and form == "lrat":
            _store_lrat(proof, events[0][1])
    except Exception as error:  # the child died or python-sat failed: no proof to keep
        proof.unlink(missing_ok=True)
        return ProofRun("failed", None, time.monotonic() - started, 0, str(error))
    except BaseException:  # interrupted here: the child is gone, and so must its proof be
        proof.unlink(missing_ok=True)
        raise
    size = proof.stat().st_size if proof.exists() else 0
    wall = time.monotonic() - started
    if not finished:
        run = ProofRun("too_large" if size > raw_limit else "timeout", None, wall, size)
    else:
        _, result, seconds = events[-1]
        run = ProofRun("too_large" if size > max_proof_bytes else result, seconds, wall, size)
    if run.status != "unsat":
        proof.unlink(missing_ok=True)
    return run


def _store_lrat(proof: Path, originals: int) -> None:
    """The solver's LRAT in ``proof`` replaced by what the certificate stores (here, not in
    the child: the pool's worker imports numba once, a child would for every proof)."""
    from chessdom.models.certificates.lrat import store

    proof.write_bytes(store(proof.read_bytes(), originals))


def refutation_events(formula_path: str | None, proof_path: str, extra: tuple = (), form: str = "drat"):
    """The child's side: ``("clauses", count)`` once they are read, then ``("result",
    "sat"|"unsat", solve_seconds)``. It imports python-sat alone."""
    from pysat.formula import CNF
    from pysat.solvers import Cadical195, pysolvers

    read = CNF(from_file=formula_path).clauses if formula_path is not None else []
    clauses = read + [list(clause) for clause in extra]
    yield ("clauses", len(clauses))
    solver = Cadical195()
    # Set before tracing starts, which fixes the format: text DRAT, or binary LRAT.
    solver.configure({"binary": 0} if form == "drat" else {"binary": 1, "lrat": 1})
    # "w+b": python-sat fdopen()s this descriptor with mode "w+", which fails on a
    # write-only one. python-sat's own with_proof=True would keep the proof in a temporary
    # file and return it as a list of strings: the whole proof in memory.
    with open(proof_path, "w+b") as proof:
        trace = pysolvers.cadical195_tracepr(solver.cadical, proof)
        for clause in clauses:
            solver.add_clause(clause)
        started = time.perf_counter()
        satisfiable = solver.solve()
        seconds = time.perf_counter() - started
        # Neither solve() nor delete() flushes CaDiCaL's FILE*; flush before closing.
        pysolvers.flushpr(trace)
        solver.delete()
        pysolvers.flushpr(trace)
    yield ("result", "sat" if satisfiable else "unsat", seconds)
