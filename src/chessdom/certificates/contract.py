"""The certificate contract, written out once more from its text (docs/explanation/
certificate-contract.md) and deliberately not from the solver's encoder:

- variables ``1…R·C`` are the squares, row-major from a1: rank ``r``, file ``f`` (both
  0-based) is variable ``r·C + f + 1``;
- domination and independent domination: for every square, in variable order, one clause
  of its own variable and those of the squares that attack it; total domination: the
  same clause without its own variable; literals in increasing order;
- independent domination and independence: for every attacking pair ``u < v``, in order
  of ``u`` then ``v``, the clause ``−u −v``;
- the refuted bound: python-sat's ``CardEnc.atmost(lits=[1…R·C], bound=v − 1,
  top_id=R·C, encoding=E)`` (``CardEnc.atleast(…, bound=v + 1, …)`` for independence);
- DIMACS text: ``p cnf N M`` with ``N = max(R·C, the encoding's top variable)``, then one
  clause a line, literals separated by one space, ending in `` 0``; nothing else.

Attacks here come from coordinate differences (a queen attacks what shares its rank,
file or a diagonal), not from walking rays as the solver's attack tables do: two
formulations that must agree.
"""

from __future__ import annotations

import re

CONTRACT = "chessdom-certificate/1"
MANIFEST = "manifest.json"
FORMULA = "formula.cnf"
PROOF = "proof.drat"
FILES = (MANIFEST, FORMULA, PROOF)
"""A certificate directory holds these files and nothing else."""
PIECES = ("queen", "rook", "bishop", "knight", "king")
OBJECTIVES = ("domination", "independent_domination", "total_domination", "independence")
ENCODINGS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")
MAX_SIDE = 64

_PLURALS = {piece: piece + "s" for piece in PIECES}


class ContractError(ValueError):
    """A manifest whose problem or bound the contract does not define."""


def attacks(piece: str, dr: int, df: int) -> bool:
    """Whether ``piece`` attacks a square ``dr`` ranks and ``df`` files away (pieces do
    not block one another, as in every domination problem)."""
    dr, df = abs(dr), abs(df)
    if dr == df == 0:
        return False
    if piece == "queen":
        return dr == 0 or df == 0 or dr == df
    if piece == "rook":
        return dr == 0 or df == 0
    if piece == "bishop":
        return dr == df
    if piece == "knight":
        return {dr, df} == {1, 2}
    if piece == "king":
        return max(dr, df) == 1
    raise ContractError(f"unknown piece {piece!r}")


def validate_problem(problem: dict) -> tuple[int, int, str, str]:
    try:
        rows, cols, piece, objective = problem["rows"], problem["cols"], problem["piece"], problem["objective"]
    except (KeyError, TypeError):
        raise ContractError("the manifest's problem needs rows, cols, piece and objective") from None
    for name, side in (("rows", rows), ("cols", cols)):
        if not isinstance(side, int) or isinstance(side, bool) or not 1 <= side <= MAX_SIDE:
            raise ContractError(f"problem.{name} must be an integer in 1…{MAX_SIDE}, got {side!r}")
    if piece not in PIECES:
        raise ContractError(f"problem.piece must be one of {', '.join(PIECES)}, got {piece!r}")
    if objective not in OBJECTIVES:
        raise ContractError(f"problem.objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    return rows, cols, piece, objective


def refuted_bound(objective: str, value: int) -> int:
    """The bound a certificate of the optimum ``value`` refutes: at most ``value − 1``
    pieces for the minimisations, at least ``value + 1`` for independence."""
    return value + 1 if objective == "independence" else value - 1


def claim(problem: dict, bound: int) -> str:
    """The refuted bound in words: "no 4 or fewer queens dominate the 8×8 board"."""
    rows, cols, piece, objective = validate_problem(problem)
    board = f"the {rows}×{cols} board"
    pieces = _PLURALS[piece] if bound != 1 else piece
    if objective == "independence":
        return f"no {bound} or more {_PLURALS[piece]} on {board} are mutually non-attacking"
    verb = "dominates" if bound == 1 else "dominate"
    what = {
        "domination": f"{pieces} {verb} {board}",
        "independent_domination": f"mutually non-attacking {pieces} {verb} {board}",
        "total_domination": f"{pieces} totally {verb} {board} (every square attacked by one)",
    }[objective]
    return f"no {bound} or fewer {what}"


def _structure(rows: int, cols: int, piece: str, objective: str) -> list[list[int]]:
    squares = [(r, f) for r in range(rows) for f in range(cols)]
    variable = {square: index + 1 for index, square in enumerate(squares)}
    clauses = []
    if objective != "independence":
        for r, f in squares:
            clause = [
                variable[(rr, ff)] for rr, ff in squares
                if attacks(piece, rr - r, ff - f) or ((rr, ff) == (r, f) and objective != "total_domination")
            ]
            clauses.append(clause)
    if objective in ("independent_domination", "independence"):
        for u, (r, f) in enumerate(squares, start=1):
            for v in range(u + 1, len(squares) + 1):
                rr, ff = squares[v - 1]
                if attacks(piece, rr - r, ff - f):
                    clauses.append([-u, -v])
    return clauses


def rebuild_formula(problem: dict, bound: int, encoding: str) -> bytes:
    """``formula.cnf`` as the contract defines it, for refuting ``bound``."""
    from pysat.card import CardEnc, EncType

    rows, cols, piece, objective = validate_problem(problem)
    if encoding not in ENCODINGS:
        raise ContractError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    squares = rows * cols
    if not isinstance(bound, int) or isinstance(bound, bool) or not 0 <= bound <= squares:
        raise ContractError(f"the refuted bound must be an integer in 0…{squares}, got {bound!r}")
    cardinality = CardEnc.atleast if objective == "independence" else CardEnc.atmost
    bound_clauses = cardinality(
        lits=list(range(1, squares + 1)), bound=bound, top_id=squares, encoding=getattr(EncType, encoding)
    ).clauses
    clauses = _structure(rows, cols, piece, objective) + bound_clauses
    top = max([squares] + [abs(literal) for clause in bound_clauses for literal in clause])
    lines = [f"p cnf {top} {len(clauses)}"] + [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return ("\n".join(lines) + "\n").encode("ascii")


_SQUARE = re.compile(r"([a-z]+)([1-9][0-9]*)")


def witness_problem(problem: dict, squares: list[str]) -> str | None:
    """Why the witness placement does not meet the objective, or None when it does."""
    rows, cols, piece, objective = validate_problem(problem)
    placed = set()
    for name in squares:
        match = _SQUARE.fullmatch(str(name))
        if match is None:
            return f"{name!r} is not a square name"
        file = 0
        for letter in match[1]:
            file = file * 26 + ord(letter) - ord("a") + 1
        rank, file = int(match[2]) - 1, file - 1
        if not (0 <= rank < rows and 0 <= file < cols):
            return f"{name} is off the board"
        if (rank, file) in placed:
            return f"{name} is given twice"
        placed.add((rank, file))
    if objective in ("independent_domination", "independence"):
        for r, f in placed:
            for rr, ff in placed:
                if attacks(piece, rr - r, ff - f):
                    return f"the witness has two {_PLURALS[piece]} attacking each other"
    if objective != "independence":
        for r in range(rows):
            for f in range(cols):
                own = (r, f) in placed and objective != "total_domination"
                if not own and not any(attacks(piece, r - pr, f - pf) for pr, pf in placed):
                    return f"the witness leaves {_square_name(r, f)} undominated"
    return None


def _square_name(rank: int, file: int) -> str:
    """``h5`` for rank 4, file 7 (both from 0): the inverse of the names read above."""
    letters = ""
    file += 1
    while file:
        file, letter = divmod(file - 1, 26)
        letters = chr(ord("a") + letter) + letters
    return f"{letters}{rank + 1}"
