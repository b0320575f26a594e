"""What a worker process runs: library calls whose answers are JSON dicts. The arguments
were converted from the request at the edge (see :mod:`chessdom.api.kinds`)."""

from __future__ import annotations

from chessdom import models, native_search
from chessdom.chessboard import Board, Piece, PlacementProblem, check_placement, square_names

from chessdom.api.requests import MAX_LISTED_PAIRS, FieldError


def placement(problem: PlacementProblem, **options) -> dict:
    return models.solve(problem, **options).to_dict()


def nqueens(size: int, mode: str, method: str, up_to_symmetry: bool, time_limit: float, trace: bool) -> dict:
    if method == "cpsat":
        result = models.solve_nqueens(size, mode=mode, time_limit=time_limit)
    elif mode == "count":
        result = native_search.nqueens_count(size, up_to_symmetry=up_to_symmetry)
    else:
        result = native_search.nqueens_first(size)
    answer = result.to_dict()
    if trace and method == "backtracking" and mode == "first":
        answer["trace"] = native_search.nqueens_trace(size)
    return answer


def tour(**arguments) -> dict:
    return native_search.knight_tour(**arguments).to_dict()


def path(**arguments) -> dict:
    return native_search.knight_path(**arguments).to_dict()


def verify(board: Board, piece: str, names: list[str]) -> dict:
    """The independent checker's verdict on a placement; a million squares take seconds
    and hundreds of megabytes, so this runs in a worker like any solve."""
    from chessdom.api.kinds import squares  # kinds imports this module

    placed = squares(board, names, "squares")
    seen = set()
    for index, name in enumerate(names):
        if name.lower() in seen:
            raise FieldError(f"squares.{index}", f"{name!r} is given more than once")
        seen.add(name.lower())
    check = check_placement(board, Piece(piece), placed)
    return {
        "pieces": len(placed),
        "dominating": check.dominating,
        "independent": check.independent,
        "total": check.total,
        "undominated": square_names(board, check.undominated),
        "attacking_pairs": [square_names(board, pair) for pair in check.attacking_pairs_up_to(MAX_LISTED_PAIRS)],
        "attacking_pair_count": check.attacking_pair_count,
    }
