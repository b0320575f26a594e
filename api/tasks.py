"""What a worker process runs: a job kind and its JSON parameters in, a JSON result out."""

from __future__ import annotations

from chessdom import models
from chessdom import native_search
from chessdom.models.nqueens import solve_nqueens

from chessdom.api import inputs, schemas


def domination(request: schemas.IndependenceRequest) -> dict:
    result = models.solve(
        inputs.placement_problem(request),
        solver=request.solver,
        time_limit=request.time_limit,
        count=request.count,
        seed=request.seed,
        use_theorems=request.use_theorems,
    )
    return result.to_dict()


def nqueens(request: schemas.NQueensRequest) -> dict:
    if request.method == "cpsat":
        result = solve_nqueens(request.size, mode=request.mode, time_limit=request.time_limit)
    elif request.mode == "count":
        result = native_search.nqueens_count(request.size, up_to_symmetry=request.up_to_symmetry)
    else:
        result = native_search.nqueens_first(request.size)
    answer = result.to_dict()
    if request.trace and request.method == "backtracking" and request.mode == "first":
        answer["trace"] = native_search.nqueens_trace(request.size)
    return answer


def tour(request: schemas.TourRequest) -> dict:
    return native_search.knight_tour(**inputs.tour_arguments(request)).to_dict()


def path(request: schemas.PathRequest) -> dict:
    return native_search.knight_path(**inputs.path_arguments(request)).to_dict()


TASKS = {"domination": domination, "independence": domination, "nqueens": nqueens, "tour": tour, "path": path}


def run_task(kind: str, params: dict) -> dict:
    request = schemas.JOB_PARAMS[kind].model_validate(params)
    return TASKS[kind](request)
