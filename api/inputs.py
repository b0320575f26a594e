"""From a validated request to the library's arguments. Square names are checked
against the board here, so a bad one is a 422 naming its field — in the request
handler, before any work is queued, and again in the worker that runs it."""

from __future__ import annotations

from chessdom.chessboard import VARIANT_OBJECTIVES, Board, Objective, Piece, PlacementProblem, SquareNameError, parse_square

from chessdom.api.errors import FieldError
from chessdom.api import schemas


def square(board: Board, name: str, field: str) -> int:
    try:
        return parse_square(board, name)
    except SquareNameError as error:
        raise FieldError(field, str(error)) from None


def squares(board: Board, names: list[str], field: str) -> list[int]:
    return [square(board, name, f"{field}.{index}") for index, name in enumerate(names)]


def placement_problem(request: schemas.IndependenceRequest) -> PlacementProblem:
    variant = getattr(request, "variant", None)
    objective = VARIANT_OBJECTIVES[variant] if variant else Objective.INDEPENDENCE
    return PlacementProblem(request.board, Piece(request.piece), objective)


def tour_arguments(request: schemas.TourRequest) -> dict:
    board = request.board
    return {
        "board": board,
        "start": square(board, request.start, "start") if request.start is not None else None,
        "closed": request.closed,
        "method": request.method,
        "tie_break": request.tie_break,
        "lookahead": request.lookahead,
        "backtracking": request.backtracking,
        "node_limit": request.node_limit,
        "seed": request.seed,
        "trace": request.trace,
    }


def path_arguments(request: schemas.PathRequest) -> dict:
    board = request.board
    return {
        "board": board,
        "start": square(board, request.start, "start"),
        "goals": squares(board, request.goals, "goals"),
        "blocked": squares(board, request.blocked, "blocked"),
        "enemies": [
            (Piece(enemy.piece), square(board, enemy.square, f"enemies.{index}.square"))
            for index, enemy in enumerate(request.enemies)
        ],
        "method": request.method,
        "heuristic": request.heuristic,
        "trace": request.trace,
    }


def check(kind: str, request) -> None:
    """Raise :class:`FieldError` for anything the schema cannot see (squares off the board)."""
    if kind == "tour":
        tour_arguments(request)
    elif kind == "path":
        path_arguments(request)
