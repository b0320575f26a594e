"""The plain formula of a certificate, as the contract fixes it (docs/explanation/
certificate-contract.md): squares are variables ``1…R·C`` row-major from a1; coverage clauses,
conflict clauses and python-sat's cardinality encoding of the refuted bound; nothing
else, so that a reader can rebuild it from the problem alone.

None of the solver's speed-ups (line variables, redundant bounds, symmetry breaking) is
in it: the proof-logging run refutes exactly this formula.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pysat.card import CardEnc, EncType

from chessdom.chessboard import Objective, PlacementProblem, attack_table

DEFAULT_ENCODING = "totalizer"
"""Measured on γ(Q_8…Q_11): totalizer proofs are 2.3–3.3× smaller and faster to check
than seqcounter's, and its solves as fast or faster (see the benchmarks page of the docs)."""


@dataclass(frozen=True)
class PlainFormula:
    variables: int
    clauses: list[list[int]]

    def write_dimacs(self, path: Path) -> None:
        with path.open("w", encoding="ascii") as file:
            file.write(f"p cnf {self.variables} {len(self.clauses)}\n")
            for clause in self.clauses:
                file.write(" ".join(map(str, clause)) + " 0\n")


def plain_formula(problem: PlacementProblem, bound: int, encoding: str = DEFAULT_ENCODING) -> PlainFormula:
    """"No placement of ``bound`` or fewer pieces" for the minimisations, "no independent
    set of ``bound`` or more pieces" for independence."""
    board, objective = problem.board, problem.objective
    attacked_by = attack_table(board, problem.piece).lists  # every piece's attack relation is symmetric
    squares = board.num_squares
    clauses: list[list[int]] = []
    if objective is not Objective.INDEPENDENCE:
        # Every square holds a piece (except for total domination) or is attacked by one.
        own = objective is not Objective.TOTAL_DOMINATION
        for square in board.squares():
            cover = sorted(attacked_by[square] + ((square,) if own else ()))
            clauses.append([s + 1 for s in cover])
    if objective in (Objective.INDEPENDENT_DOMINATION, Objective.INDEPENDENCE):
        # No two pieces attack each other.
        clauses.extend([-(u + 1), -(v + 1)] for u in board.squares() for v in attacked_by[u] if u < v)
    count = CardEnc.atleast if objective.maximize else CardEnc.atmost
    cardinality = count(lits=list(range(1, squares + 1)), bound=bound, top_id=squares,
                        encoding=getattr(EncType, encoding)).clauses
    top = max([squares] + [abs(literal) for clause in cardinality for literal in clause])
    return PlainFormula(top, clauses + cardinality)
