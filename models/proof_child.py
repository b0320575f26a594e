"""The proof-logging solve, run as its own program by :mod:`models.proof_logging`:

    python -P proof_child.py FORMULA.cnf PROOF.drat

CaDiCaL 1.9.5 (python-sat) writes a text DRAT proof straight to PROOF.drat as it solves;
the last line of standard output is JSON: ``{"result": "unsat"|"sat", "solve_seconds"}``.
A program of its own, not a ``multiprocessing`` child: it can be killed at a deadline or a
size limit from anywhere, daemonic processes included, and it imports python-sat alone.
"""

import ctypes
import json
import signal
import sys
import time

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    try:
        ctypes.CDLL("libc.so.6").prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the parent's deadline still kills this process


def main(formula_path: str, proof_path: str) -> None:
    _die_with_parent()
    from pysat.formula import CNF
    from pysat.solvers import Cadical195, pysolvers

    clauses = CNF(from_file=formula_path).clauses
    solver = Cadical195()
    # Text DRAT: "binary" must be set before tracing starts, which fixes the format.
    solver.configure({"binary": 0})
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
    print(json.dumps({"result": "sat" if satisfiable else "unsat", "solve_seconds": seconds}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
