"""The plain formula of a certificate, as the contract fixes it (docs/explanation/
certificate-contract.md): squares are variables ``1…R·C`` row-major from a1; coverage clauses,
conflict clauses and python-sat's cardinality encoding of the refuted bound over the
squares in a named literal order (:mod:`.orders`); for an enumeration, one blocking clause
per listed placement; nothing else, so that a reader can rebuild it from the problem alone.

None of the solver's speed-ups (line variables, redundant bounds, symmetry breaking) is
in it: the proof-logging run refutes exactly this formula.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pysat.card import CardEnc, EncType

from chessdom.chessboard import Objective, PlacementProblem, attack_table
from chessdom.models.certificates.orders import cardinality_literals

DEFAULT_ENCODING = "totalizer"
"""Measured on γ(Q_8…Q_11): totalizer proofs are 2.3–3.3× smaller and faster to check
than seqcounter's, and its solves as fast or faster (see the benchmarks page of the docs)."""


@dataclass(frozen=True)
class PlainFormula:
    variables: int
    clauses: list[list[int]]
    cardinality_literals: tuple[int, ...] = ()
    """The literals handed to ``CardEnc``, in order (for an ``atleast``, the squares
    themselves; its totalizer counts their negations)."""
    cardinality: tuple[int, int] = (0, 0)
    """Where the cardinality clauses are in ``clauses``: ``clauses[start:end]``."""

    def with_blocked(self, placements) -> PlainFormula:
        """This formula with one clause forbidding each placement (iterables of square
        indices, 0-based), in the contract's order: placements by their sorted variables,
        lexicographically; each clause's literals by variable."""
        blocked = sorted(sorted(square + 1 for square in placement) for placement in placements)
        return PlainFormula(self.variables, self.clauses + [[-v for v in variables] for variables in blocked],
                            self.cardinality_literals, self.cardinality)

    def write_dimacs(self, path: Path) -> None:
        with path.open("w", encoding="ascii") as file:
            file.write(f"p cnf {self.variables} {len(self.clauses)}\n")
            for clause in self.clauses:
                file.write(" ".join(map(str, clause)) + " 0\n")


def plain_formula(problem: PlacementProblem, bound: int, encoding: str = DEFAULT_ENCODING,
                  order: str = "row-major") -> PlainFormula:
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
    literals = cardinality_literals(board, order)
    cardinality = count(lits=literals, bound=bound, top_id=squares, encoding=getattr(EncType, encoding)).clauses
    top = max([squares] + [abs(literal) for clause in cardinality for literal in clause])
    return PlainFormula(top, clauses + cardinality, tuple(literals), (len(clauses), len(clauses) + len(cardinality)))
