"""``formula.cnf`` rebuilt from the contract's text (docs/explanation/certificate-contract.md),
deliberately not from the solver's encoder:

- variables ``1…R·C`` are the squares, row-major from a1: rank ``r``, file ``f`` (both
  0-based) is variable ``r·C + f + 1``;
- domination and independent domination: for every square, in variable order, one clause
  of its own variable and those of the squares that attack it; total domination: the
  same clause without its own variable; literals in increasing order;
- independent domination and independence: for every attacking pair ``u < v``, in order
  of ``u`` then ``v``, the clause ``−u −v``;
- the bound: python-sat's ``CardEnc.atmost(lits=L, bound=b, top_id=R·C, encoding=E)``
  (``CardEnc.atleast`` for independence), ``L`` the square variables in the named literal
  order (version 2: ``row-major`` or ``hilbert``; version 1: always row-major);
- for an enumeration, after those: one clause of negated square variables per blocked
  placement, the placements in increasing lexicographic order of their sorted variables;
- DIMACS text: ``p cnf N M`` with ``N = max(R·C, the encoding's top variable)``, then one
  clause a line, literals separated by one space, ending in `` 0``; nothing else.
"""

from __future__ import annotations

from chessdom.certificates.contract import ENCODINGS, ORDERS, ContractError, attacks, validate_problem


def hilbert_d2xy(side: int, d: int) -> tuple[int, int]:
    """The Wikipedia article "Hilbert curve", ``d2xy(n, d)``: the ``(x, y)`` cell of a
    ``side``×``side`` square (``side`` a power of two) at distance ``d`` along the curve."""
    x = y = 0
    t = d
    s = 1
    while s < side:
        rx = 1 & (t // 2)
        ry = 1 & (t ^ rx)
        x, y = _rot(s, x, y, rx, ry)
        x += s * rx
        y += s * ry
        t //= 4
        s *= 2
    return x, y


def _rot(n: int, x: int, y: int, rx: int, ry: int) -> tuple[int, int]:
    """The article's ``rot``: rotate and flip a quadrant."""
    if ry == 0:
        if rx == 1:
            x = n - 1 - x
            y = n - 1 - y
        x, y = y, x
    return x, y


def literal_order(rows: int, cols: int, order: str) -> list[int]:
    """The square variables in the order the contract hands them to ``CardEnc``."""
    if order == "row-major":
        return list(range(1, rows * cols + 1))
    if order != "hilbert":
        raise ContractError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    side = 1
    while side < max(rows, cols):
        side *= 2
    literals = []
    for d in range(side * side):
        file, rank = hilbert_d2xy(side, d)  # x is the file, y the rank, from a1
        if file < cols and rank < rows:
            literals.append(rank * cols + file + 1)
    return literals


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


def structure_formula(problem: dict) -> bytes:
    """Version 4's formula of a problem no placement meets: the structure clauses alone
    (coverage and conflicts, as above), header ``p cnf R·C M``, in the same DIMACS text (an
    empty clause is the line `` 0``: no literal, then the space and ``0``)."""
    rows, cols, piece, objective = validate_problem(problem)
    clauses = _structure(rows, cols, piece, objective)
    lines = [f"p cnf {rows * cols} {len(clauses)}"] + [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return ("\n".join(lines) + "\n").encode("ascii")


def rebuild_formula(problem: dict, bound: int, encoding: str, order: str = "row-major",
                    blocked: list[list[int]] | tuple = ()) -> bytes:
    """``formula.cnf`` as the contract defines it, for refuting ``bound`` with the
    cardinality literals in ``order``, and for an enumeration one clause forbidding each
    placement of ``blocked`` (lists of square variables)."""
    from pysat.card import CardEnc, EncType

    rows, cols, piece, objective = validate_problem(problem)
    if encoding not in ENCODINGS:
        raise ContractError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    squares = rows * cols
    if not isinstance(bound, int) or isinstance(bound, bool) or not 0 <= bound <= squares:
        raise ContractError(f"the refuted bound must be an integer in 0…{squares}, got {bound!r}")
    cardinality = CardEnc.atleast if objective == "independence" else CardEnc.atmost
    bound_clauses = cardinality(
        lits=literal_order(rows, cols, order), bound=bound, top_id=squares, encoding=getattr(EncType, encoding)
    ).clauses
    blocking = [[-variable for variable in sorted(placement)] for placement in sorted(sorted(p) for p in blocked)]
    clauses = _structure(rows, cols, piece, objective) + bound_clauses + blocking
    top = max([squares] + [abs(literal) for clause in bound_clauses for literal in clause])
    lines = [f"p cnf {top} {len(clauses)}"] + [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return ("\n".join(lines) + "\n").encode("ascii")
