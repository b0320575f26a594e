"""Lex-leader symmetry breaking for the board's symmetry group.

Every placement problem here is invariant under the board's symmetries (8 for a square
board, 4 for a rectangle): a symmetric image of a solution is a solution. Read the
placement as the bit vector ``x`` over squares a1, b1, …; the *lex-leader* of a class is
its lexicographically greatest image. Requiring ``x ≥lex g(x)`` for every symmetry ``g``
of the group keeps exactly the lex-leaders (Crawford, Ginsberg, Luks & Roy, KR 1996):
each class survives exactly once, so a problem keeps its optimum, and enumeration under
these clauses yields one representative per class.

Each comparison ``x ≥lex y`` is a chain of equality flags ``e_i ↔ e_{i-1} ∧ (x_i = y_i)``
with ``e_{i-1} → x_i ≥ y_i`` (Aloul, Markov & Sakallah, 2003). The flags are defined, not
only implied, so that every placement has exactly one extension: enumeration by CP-SAT
counts assignments of all variables and would otherwise count one placement many times.

Every backend that offers it (``symmetry_breaking``) leaves it off by default when
solving: measured, it slowed γ(Q_12) from 3.0 to 5.7 s and γ(Q_13) from 16 to 22 s (SAT),
and γ(N_12) from 1.2 to 5.1 s (CP-SAT).
"""

from __future__ import annotations

from collections.abc import Callable

from chessdom.chessboard import Board
from chessdom.chessboard.symmetry import symmetry_permutations

Clause = list[int]


def _inverse(permutation: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(permutation)
    for square, image in enumerate(permutation):
        inverse[image] = square
    return tuple(inverse)


def compared_positions(source: tuple[int, ...]) -> list[int]:
    """The squares ``i`` at which ``x`` is compared with its image ``y_i = x[source[i]]``.
    Fixed squares compare a variable with itself; the second square of a swapped pair is
    equal to the first once the chain reaches it, so both are left out."""
    return [
        i for i, j in enumerate(source)
        if j != i and not (j < i and source[j] == i)
    ]


def lex_leader_clauses(
    board: Board, occupied: list[int], new_variable: Callable[[], int],
    permutations: list[tuple[int, ...]] | None = None,
) -> list[Clause]:
    """Clauses (DIMACS literals) that keep exactly the lex-leader of each symmetry class;
    ``occupied[s]`` is the variable of square ``s``, ``new_variable()`` allocates a flag.
    With ``permutations`` (a subgroup's, identity left out) only ``x ≥lex g(x)`` for those:
    the lex-leader of each class under that subgroup."""
    clauses: list[Clause] = []
    for permutation in symmetry_permutations(board)[1:] if permutations is None else permutations:
        # The image y = g(x) has y[g(s)] = x[s], so y[i] = x[g⁻¹(i)].
        source = _inverse(permutation)
        equal_so_far = None  # None: the empty prefix, always equal
        positions = compared_positions(source)
        for index, i in enumerate(positions):
            x, y = occupied[i], occupied[source[i]]
            guard = [] if equal_so_far is None else [-equal_so_far]
            # While the prefixes agree, x must not fall below its image here.
            clauses.append([*guard, x, -y])
            if index == len(positions) - 1:
                break
            equal = new_variable()
            # equal ↔ equal_so_far ∧ (x = y)
            clauses.append([*guard, -x, -y, equal])
            clauses.append([*guard, x, y, equal])
            clauses.append([-equal, x, -y])
            clauses.append([-equal, -x, y])
            if equal_so_far is not None:
                clauses.append([-equal, equal_so_far])
            equal_so_far = equal
    return clauses


def orbit_size(board: Board, squares: tuple[int, ...]) -> int:
    """How many distinct placements a symmetry maps ``squares`` onto (the group's order
    divided by the placement's stabiliser)."""
    return len({tuple(sorted(p[s] for s in squares)) for p in symmetry_permutations(board)})


def is_lex_leader(board: Board, squares: tuple[int, ...]) -> bool:
    """Whether ``squares`` is the lex-leader of its class: the independent definition the
    clauses are tested against."""
    def bits(placement) -> tuple[int, ...]:
        occupied = set(placement)
        return tuple(int(s in occupied) for s in board.squares())

    own = bits(squares)
    return all(own >= bits(p[s] for s in squares) for p in symmetry_permutations(board))
