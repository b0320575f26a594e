"""What an enumeration certificate lists, expanded and checked here: the board's symmetry
group (named in the manifest, rebuilt here from the board's shape), the orbit of every
representative under it, and every placement of every orbit, each checked against the
objective with exactly ``value`` pieces. Those placements are the formula's blocked ones.

The refutation then proves that no placement within the bound escapes the list. For
independence one more thing is needed: blocked placements of ``value`` pieces would also
block every larger independent set containing one, so each listed placement is checked
to admit no further piece (were there a larger set, its subsets of ``value`` pieces would
all be listed, and each could be extended).
"""

from __future__ import annotations

from functools import lru_cache

from chessdom.certificates.contract import attacks, parse_squares, validate_problem

Square = tuple[int, int]

RECTANGLE_SYMMETRIES = {
    "identity": lambda r, f, rows, cols: (r, f),
    "mirror_files": lambda r, f, rows, cols: (r, cols - 1 - f),
    "mirror_ranks": lambda r, f, rows, cols: (rows - 1 - r, f),
    "half_turn": lambda r, f, rows, cols: (rows - 1 - r, cols - 1 - f),
}
SQUARE_SYMMETRIES = {
    **RECTANGLE_SYMMETRIES,
    "transpose": lambda r, f, rows, cols: (f, r),
    "anti_transpose": lambda r, f, rows, cols: (cols - 1 - f, rows - 1 - r),
    "quarter_turn": lambda r, f, rows, cols: (f, rows - 1 - r),
    "three_quarter_turn": lambda r, f, rows, cols: (cols - 1 - f, r),
}


def symmetry_group(rows: int, cols: int) -> dict:
    """The board's symmetries by name: the 8 of the square, or the 4 of a rectangle."""
    return SQUARE_SYMMETRIES if rows == cols else RECTANGLE_SYMMETRIES


class EnumerationError(ValueError):
    """An enumeration the checker does not accept, with the reason."""


def expand(problem: dict, value: int, enumeration: dict) -> list[list[int]]:
    """Every placement the enumeration stands for, as sorted lists of square variables
    (``r·C + f + 1``), after checking the group, the classes, the counts and each placement.
    Raises EnumerationError."""
    rows, cols, _, objective = validate_problem(problem)
    group = symmetry_group(rows, cols)
    try:
        listed_group, representatives = enumeration["symmetries"], enumeration["representatives"]
        solutions, classes = enumeration["solutions"], enumeration["classes"]
    except (KeyError, TypeError):
        raise EnumerationError("the enumeration needs symmetries, representatives, solutions and classes") from None
    if sorted(listed_group) != sorted(group):
        raise EnumerationError(f"symmetries must be the board's {len(group)}: {', '.join(group)}")
    seen: set[frozenset[Square]] = set()
    for index, names in enumerate(representatives):
        placed, reason = parse_squares(rows, cols, names)
        if placed is None:
            raise EnumerationError(f"representative {index + 1}: {reason}")
        orbit = {frozenset(transform(r, f, rows, cols) for r, f in placed) for transform in group.values()}
        if orbit & seen:
            raise EnumerationError(f"representative {index + 1} is in the class of an earlier one")
        for placement in orbit:
            _check_placement(problem, value, placement, objective)
        seen |= orbit
        if len(seen) > solutions:  # stop at once: the work is bounded by what the manifest claims
            raise EnumerationError(f"the representatives make more than the {solutions} placements the manifest "
                                   f"says")
    if len(representatives) != classes or len(seen) != solutions:
        raise EnumerationError(f"the representatives make {len(representatives)} classes of {len(seen)} placements; "
                               f"the manifest says {classes} classes of {solutions}")
    return [sorted(r * cols + f + 1 for r, f in placement) for placement in seen]


@lru_cache(maxsize=8)
def _attacked(rows: int, cols: int, piece: str) -> dict[Square, frozenset[Square]]:
    """The squares each square's piece attacks, by :func:`~.contract.attacks` (computed once
    per board: a count lists thousands of placements)."""
    squares = [(r, f) for r in range(rows) for f in range(cols)]
    return {(r, f): frozenset((rr, ff) for rr, ff in squares if attacks(piece, rr - r, ff - f)) for r, f in squares}


def _check_placement(problem: dict, value: int, placement: frozenset[Square], objective: str) -> None:
    rows, cols, piece, _ = validate_problem(problem)
    name = " ".join(sorted(f"{_file_name(f)}{r + 1}" for r, f in placement))
    if len(placement) != value:
        raise EnumerationError(f"{name} has {len(placement)} pieces, not {value}")
    attacked = _attacked(rows, cols, piece)
    covered = frozenset().union(*(attacked[square] for square in placement))
    if objective in ("independent_domination", "independence") and covered & placement:
        raise EnumerationError(f"{name}: two pieces attack each other")
    if objective != "independence":
        own = placement if objective != "total_domination" else frozenset()
        for square in attacked:
            if square not in own and square not in covered:
                raise EnumerationError(f"{name}: the square {_file_name(square[1])}{square[0] + 1} is left "
                                       f"undominated")
    else:
        for square in attacked:
            if square not in placement and square not in covered:
                raise EnumerationError(f"{name} is not maximal: a piece on {_file_name(square[1])}{square[0] + 1} "
                                       f"attacks none of it")


def _file_name(file: int) -> str:
    name = ""
    file += 1
    while file:
        file, letter = divmod(file - 1, 26)
        name = chr(ord("a") + letter) + name
    return name
