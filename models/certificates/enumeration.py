"""What an enumeration certificate lists: the representatives of a count (one placement
per symmetry class), the board's symmetry group by the contract's names, and every
placement of every orbit, which the formula blocks one clause each. The checker expands
the orbits again with symmetries of its own."""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.chessboard import PlacementResult, parse_squares, symmetry_permutations

RECTANGLE_GROUP = ("identity", "mirror_files", "mirror_ranks", "half_turn")
SQUARE_GROUP = (*RECTANGLE_GROUP, "transpose", "anti_transpose", "quarter_turn", "three_quarter_turn")
"""The contract's names of the board's symmetries: the 8 of a square, the 4 of a rectangle."""


class NotEnumerated(ValueError):
    """The result has no complete count with representatives to certify."""


@dataclass(frozen=True)
class Enumeration:
    value: int
    representatives: tuple[tuple[str, ...], ...]
    symmetries: tuple[str, ...]
    placements: frozenset[frozenset[int]]
    """Every placement of every orbit, as sets of square indices."""

    def to_manifest(self) -> dict:
        return {"solutions": len(self.placements), "classes": len(self.representatives),
                "symmetries": list(self.symmetries), "representatives": [list(r) for r in self.representatives]}


def enumeration_of(result: PlacementResult) -> Enumeration:
    """The placements ``result``'s count stands for. Raises NotEnumerated when it has no
    exact count with representatives, or when its orbits do not add up to its count."""
    count = result.count
    if count is None or count.representatives is None:
        raise NotEnumerated("the count has no representatives (solve with count and representatives)")
    if not count.exact:
        raise NotEnumerated("the count was cut short by the time limit; only complete counts are certified")
    board = result.problem.board
    permutations = symmetry_permutations(board)
    placements: set[frozenset[int]] = set()
    for names in count.representatives:
        squares = parse_squares(board, names)
        placements |= {frozenset(permutation[s] for s in squares) for permutation in permutations}
    if len(placements) != count.solutions or len(count.representatives) != count.up_to_symmetry:
        raise NotEnumerated(f"the representatives' orbits hold {len(placements)} placements in "
                            f"{len(count.representatives)} classes; the count says {count.solutions} in "
                            f"{count.up_to_symmetry}")
    symmetries = SQUARE_GROUP if board.is_square else RECTANGLE_GROUP
    return Enumeration(result.value, count.representatives, symmetries, frozenset(placements))
