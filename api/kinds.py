"""One declaration per problem kind. Routes, job schemas, worker tasks, cache keys and
error field names all derive from :data:`KINDS`: adding a kind is one :class:`Kind`.

A request becomes the runtime's :class:`~chessdom.api.runtime.calls.Call` once, at the
edge, its arguments typed (the problem, how to solve it, what to count, whether to
certify): the route runs it, or queues it with the job. Square
names are checked against the board there, so a bad one is a 422 naming its field before
any work is queued. The runtime knows nothing of this registry: it is handed calls."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal, Union

from pydantic import ConfigDict, Field, RootModel, create_model

from chessdom.chessboard import PLACEMENT_VARIANTS, NQueensResult, Piece, PlacementProblem, PlacementResult
from chessdom.models import CountOptions, SolveOptions
from chessdom.native_search import PathResult, TourResult

from chessdom.api import requests, responses
from chessdom.api.requests.rules import StrictModel
from chessdom.api.runtime import tasks
from chessdom.api.runtime.calls import (
    Call, Certify, NQueensArguments, PathArguments, PlacementArguments, TourArguments, VerifyArguments, square, squares,
)


@dataclass(frozen=True, kw_only=True)
class Kind:
    name: str
    summary: str
    tag: str
    """The OpenAPI tag its route is listed under."""
    request: type[StrictModel]
    job_request: type[StrictModel]
    response: type
    to_call: Callable[[StrictModel], Call]


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
    arguments = PlacementArguments(
        problem=problem,
        solve=SolveOptions(solver=request.solver, time_limit=request.time_limit, seed=request.seed,
                           use_theorems=request.use_theorems),
        count=CountOptions(representatives=request.representatives) if request.count else None,
        # Its form is the request's; its terms are the service's (CertificateRoom.grant).
        certify=Certify(form=request.certificate_form or "auto") if request.certify else None,
        trace=request.trace,
    )
    return Call(
        kind=kind, task=tasks.placement, arguments=arguments, time_limit=request.time_limit,
        cache_key=None if request.certify else key, read_cache=request.cache, record=problem.to_dict(),
        summarize=_placement_run,
    )


def domination_call(request: requests.DominationRequest) -> Call:
    return _placement_call("domination", request.variant, request)


def independence_call(request: requests.IndependenceRequest) -> Call:
    return _placement_call("independence", "independence", request)


def nqueens_call(request: requests.NQueensRequest) -> Call:
    arguments = NQueensArguments(size=request.size, mode=request.mode, method=request.method,
                                 up_to_symmetry=request.up_to_symmetry, time_limit=request.time_limit,
                                 trace=request.trace, trace_offset=request.trace_offset)
    time_limit = request.time_limit if request.method == "cpsat" else None
    return Call(kind="nqueens", task=tasks.nqueens, arguments=arguments, time_limit=time_limit,
                record=_request_record(request), summarize=_nqueens_run)


def tour_call(request: requests.TourRequest) -> Call:
    board = request.board
    arguments = TourArguments(
        board=board, start=square(board, request.start, "start") if request.start is not None else None,
        closed=request.closed, method=request.method, tie_break=request.tie_break, lookahead=request.lookahead,
        backtracking=request.backtracking, node_limit=request.node_limit, seed=request.seed, trace=request.trace,
        trace_offset=request.trace_offset,
    )
    return Call(kind="tour", task=tasks.tour, arguments=arguments, record=_request_record(request),
                summarize=_tour_run)


def path_call(request: requests.PathRequest) -> Call:
    board = request.board
    arguments = PathArguments(
        board=board,
        start=square(board, request.start, "start"),
        goals=squares(board, request.goals, "goals"),
        blocked=squares(board, request.blocked, "blocked"),
        enemies=[
            (Piece(enemy.piece), square(board, enemy.square, f"enemies.{index}.square"))
            for index, enemy in enumerate(request.enemies)
        ],
        method=request.method,
        heuristic=request.heuristic,
        trace=request.trace,
    )
    return Call(kind="path", task=tasks.path, arguments=arguments, record=_request_record(request),
                summarize=_path_run)


def verify_call(request: requests.VerifyRequest) -> Call:
    """A check, not a solve: it is not recorded in the run history."""
    return Call(kind="verify", task=tasks.verify,
                arguments=VerifyArguments(board=request.board, piece=request.piece, names=request.names))


# ---- the declarations ---------------------------------------------------------------------


def _placement_run(arguments: PlacementArguments, result: PlacementResult):
    return result.solver.name, result.status.value, result.value


def _nqueens_run(arguments: NQueensArguments, result: NQueensResult):
    counted = arguments.mode == "count"
    return result.method, "counted" if counted else "found", result.count


def _tour_run(arguments: TourArguments, result: TourResult):
    return result.method, result.status, len(result.squares) if result.squares is not None else 0


def _path_run(arguments: PathArguments, result: PathResult):
    return arguments.method, result.status, result.length


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            name="domination", tag="placement", to_call=domination_call,
            summary="Minimum domination number with a verified placement and the proof of its bound.",
            request=requests.DominationRequest, job_request=requests.DominationJob, response=responses.PlacementResponse,
        ),
        Kind(
            name="independence", tag="placement", to_call=independence_call,
            summary="Largest set of pieces no two of which attack each other (β), proved.",
            request=requests.IndependenceRequest, job_request=requests.IndependenceJob,
            response=responses.PlacementResponse,
        ),
        Kind(
            name="nqueens", tag="search", to_call=nqueens_call,
            summary="First solution or the number of solutions of the n-queens puzzle.",
            request=requests.NQueensRequest, job_request=requests.NQueensJob, response=responses.NQueensResponse,
        ),
        Kind(
            name="tour", tag="search", to_call=tour_call,
            summary="A knight's tour, open or closed, by Warnsdorff's rule or plain DFS.",
            request=requests.TourRequest, job_request=requests.TourJob, response=responses.TourResponse,
        ),
        Kind(
            name="path", tag="search", to_call=path_call,
            summary="Shortest knight path to any goal around blocked squares and enemy attacks.",
            request=requests.PathRequest, job_request=requests.PathRequest, response=responses.PathResponse,
        ),
    )
}


def job_call(kind_name: str, params: dict) -> Call:
    """The call of a job queued with its parameters alone (by a server that did not keep
    calls with their jobs): its parameters validated as the endpoint validates them."""
    kind = KINDS[kind_name]
    return kind.to_call(kind.job_request.model_validate(params))


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
