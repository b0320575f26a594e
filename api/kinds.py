"""One declaration per problem kind. Routes, job schemas, worker tasks, cache keys and
error field names all derive from :data:`KINDS`: adding a kind is one :class:`Kind`.

A request becomes a :class:`Call` once, at the edge (the route, or the job runner reading
the queue). Square names are checked against the board there, so a bad one is a 422
naming its field before any work is queued."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal, Union

from pydantic import ConfigDict, Field, RootModel, create_model

from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, PlacementProblem, SquareNameError, parse_square

from chessdom.api import requests, responses
from chessdom.api.requests import FieldError, StrictModel
from chessdom.api.runtime import tasks


@dataclass(frozen=True)
class Call:
    """One solve: a library task and its arguments (picklable, run in a worker process)."""

    kind: str
    task: Callable[..., dict]
    arguments: dict
    time_limit: float | None
    """The limit the solver honours itself; None for searches bounded by size or nodes."""
    cache_key: str | None
    """Set for answers worth keeping: proven optima, keyed by all that shapes them."""
    problem: dict
    """What was asked, for the run history."""
    read_cache: bool = True
    """False when the caller asked for a fresh solve (its optimum is still cached)."""


@dataclass(frozen=True)
class Kind:
    name: str
    summary: str
    tag: str
    request: type[StrictModel]
    job_request: type[StrictModel]
    response: type
    to_call: Callable[[StrictModel], Call]
    describe_run: Callable[[Call, dict], tuple[str | None, str | None, int | None]]
    """(method, status, value) of a finished run, for the history."""


# ---- from requests to calls -------------------------------------------------------------


def square(board: Board, name: str, field: str) -> int:
    try:
        return parse_square(board, name)
    except SquareNameError as error:
        raise FieldError(field, str(error), "bad_square", {"square": name}) from None


def squares(board: Board, names: list[str], field: str) -> list[int]:
    return [square(board, name, f"{field}.{index}") for index, name in enumerate(names)]


def _request_record(request: StrictModel) -> dict:
    return request.model_dump(mode="json", exclude={"trace", "trace_offset"}, exclude_none=True)


def _placement_call(kind: str, variant: str, request: requests.PlacementRequest) -> Call:
    problem = PlacementProblem(request.board, Piece(request.piece), PLACEMENT_VARIANTS[variant])
    options = {"solver": request.solver, "count": request.count, "seed": request.seed,
               "use_theorems": request.use_theorems, "representatives": request.representatives,
               "trace": request.trace}
    # Everything that shapes the answer or its provenance is in the key; the time limit is
    # not: a proven optimum is the same whatever limit it was proved within. A certified
    # answer is never cached: its certificate expires with the retention.
    key = "placement:" + json.dumps({**problem.to_dict(), **options}, sort_keys=True, separators=(",", ":"))
    arguments = {"problem": problem, "time_limit": request.time_limit, "certify": request.certify, **options}
    return Call(
        kind, tasks.placement, arguments, request.time_limit, None if request.certify else key, problem.to_dict(),
        read_cache=request.cache,
    )


def domination_call(request: requests.DominationRequest) -> Call:
    return _placement_call("domination", request.variant, request)


def independence_call(request: requests.IndependenceRequest) -> Call:
    return _placement_call("independence", "independence", request)


def nqueens_call(request: requests.NQueensRequest) -> Call:
    arguments = request.model_dump(exclude_none=True)
    time_limit = request.time_limit if request.method == "cpsat" else None
    return Call("nqueens", tasks.nqueens, arguments, time_limit, None, _request_record(request))


def tour_call(request: requests.TourRequest) -> Call:
    board = request.board
    arguments = {
        "board": board,
        "start": square(board, request.start, "start") if request.start is not None else None,
        **request.model_dump(include={"closed", "method", "tie_break", "lookahead", "backtracking", "node_limit",
                                      "seed", "trace", "trace_offset"}),
    }
    return Call("tour", tasks.tour, arguments, None, None, _request_record(request))


def path_call(request: requests.PathRequest) -> Call:
    board = request.board
    arguments = {
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
    return Call("path", tasks.path, arguments, None, None, _request_record(request))


# ---- the declarations ---------------------------------------------------------------------


def _placement_run(call: Call, result: dict):
    return result["solver"]["name"], result["status"], result["value"]


def _nqueens_run(call: Call, result: dict):
    counted = call.arguments["mode"] == "count"
    return result["method"], "counted" if counted else "found", result.get("count")


def _tour_run(call: Call, result: dict):
    return result["method"], result["status"], len(result["path"] or ())


def _path_run(call: Call, result: dict):
    return call.arguments["method"], result["status"], result.get("length")


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "domination", "Minimum domination number with a verified placement and the proof of its bound.",
            "placement", requests.DominationRequest, requests.DominationJob, responses.PlacementResponse,
            domination_call, _placement_run,
        ),
        Kind(
            "independence", "Largest set of pieces no two of which attack each other (β), proved.",
            "placement", requests.IndependenceRequest, requests.IndependenceJob, responses.PlacementResponse,
            independence_call, _placement_run,
        ),
        Kind(
            "nqueens", "First solution or the number of solutions of the n-queens puzzle.",
            "search", requests.NQueensRequest, requests.NQueensJob, responses.NQueensResponse,
            nqueens_call, _nqueens_run,
        ),
        Kind(
            "tour", "A knight's tour, open or closed, by Warnsdorff's rule or plain DFS.",
            "search", requests.TourRequest, requests.TourJob, responses.TourResponse, tour_call, _tour_run,
        ),
        Kind(
            "path", "Shortest knight path to any goal around blocked squares and enemy attacks.",
            "search", requests.PathRequest, requests.PathRequest, responses.PathResponse, path_call, _path_run,
        ),
    )
}


def _job_request(kind: Kind) -> type[StrictModel]:
    return create_model(
        f"{kind.name.capitalize()}JobRequest",
        __base__=StrictModel,
        kind=(Literal[kind.name], ...),
        params=(kind.job_request, Field(description=f"the body POST /{kind.name} takes, with longer limits")),
    )


JOB_EXAMPLE = {"kind": "domination", "params": {"size": 12, "piece": "queen", "time_limit": 600}}


class JobRequest(RootModel):
    """A job: the kind of solve and its parameters, validated like the endpoint's body."""

    # openapi_extra: flask-openapi3 puts the example on the request body's media type.
    model_config = ConfigDict(openapi_extra={"example": JOB_EXAMPLE})

    root: Annotated[Union[tuple(_job_request(kind) for kind in KINDS.values())], Field(discriminator="kind")]
