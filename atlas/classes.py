"""Classes of optimal placements under the board's symmetries: made from a count's
representatives, and checked without trusting them (each representative its class's
lex-leader and a placement with the property, the classes distinct, their orbit sizes
true and adding up to the count)."""

from __future__ import annotations

from collections.abc import Sequence

from chessdom.atlas.schema import AtlasClass
from chessdom.chessboard import Board, Objective, Piece, canonical_form, check_placement, images, parse_squares, square_names


def classes_of(board: Board, representatives: Sequence[Sequence[str]]) -> list[AtlasClass]:
    """One :class:`AtlasClass` per representative, in the order of their square indices,
    each with its orbit's size."""
    leaders = sorted(canonical_form(board, parse_squares(board, names)) for names in representatives)
    return [AtlasClass(index, len(set(images(board, leader))), tuple(square_names(board, leader)))
            for index, leader in enumerate(leaders)]


def class_faults(board: Board, piece: Piece, objective: Objective, value: int,
                 classes: Sequence[AtlasClass]) -> list[str]:
    """What is wrong with ``classes`` as the classes of the optimal placements of ``value``
    pieces (empty when nothing is); the counts are compared by the caller."""
    faults, seen = [], set()
    for found in classes:
        try:
            squares = parse_squares(board, found.squares)
            check = check_placement(board, piece, squares)
        except ValueError as error:
            faults.append(f"class {found.index}: {error}")
            continue
        leader = canonical_form(board, squares)
        orbit = len(set(images(board, squares)))
        if len(squares) != value or not objective.satisfied_by(check):
            faults.append(f"class {found.index}: {' '.join(found.squares)} is not a placement of {value} with the property")
        if tuple(sorted(squares)) != leader:
            faults.append(f"class {found.index}: {' '.join(found.squares)} is not its class's lex-leader "
                          f"{' '.join(square_names(board, leader))} (not closed under the board's symmetries)")
        if found.orbit_size != orbit:
            faults.append(f"class {found.index}: orbit size {found.orbit_size}, but its orbit holds {orbit}")
        if leader in seen:
            faults.append(f"class {found.index}: the same class as an earlier one")
        seen.add(leader)
    return faults
