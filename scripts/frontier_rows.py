"""Frontier rows for ``bench_models --rows``: each row a ``POST /jobs`` on a default
server (``chessdom serve`` with its defaults on a temporary data directory), timed from the
post to the job's end, beside the previous default in the same run, with the load average."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import NoReturn

import requests
from tabulate import tabulate

from chessdom.chessboard import Board, PlacementProblem
from chessdom.models import count_placements, solve
from chessdom.scripts.live_server import default_server
from chessdom.scripts.model_families import COUNT_FAMILIES, PREVIOUS_SOLVER, ROW_FAMILIES


def job_params(family: str, n: int, cap: float, solver: str) -> dict:
    params = {"size": n, "piece": "knight" if family.startswith("knight") else "queen", "time_limit": cap,
              "solver": solver, "cache": False}
    if family.startswith("queen-independent"):
        params["variant"] = "independent"
    if family in COUNT_FAMILIES:
        params.update(count=True, representatives=True)
    return params


def run_job(url: str, params: dict) -> dict:
    """Post one job, wait for its end: seconds from the post, and what it answered."""
    started = time.perf_counter()
    posted = requests.post(url + "/jobs", json={"kind": "domination", "params": params}, timeout=30)
    if not posted.ok:  # say what the service refused, not a KeyError
        detail = posted.json().get("detail") if "json" in posted.headers.get("Content-Type", "") else None
        raise SystemExit(f"POST /jobs refused {params}: {detail or posted.text}")
    job = posted.json()
    while True:
        state = requests.get(f"{url}/jobs/{job['id']}", timeout=30).json()
        if state["status"] not in ("queued", "running"):
            break
        time.sleep(0.1 if time.perf_counter() - started < 5 else 1.0)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "status": state["status"], "result": state.get("result"), "error": state.get("error")}


def row_figures(outcome: dict, family: str) -> dict:
    """Seconds (None unless proved within the cap), the value and, for counts, the count."""
    result = outcome["result"] or {}
    done = outcome["status"] == "succeeded" and result.get("status") == "optimal"
    count = result.get("count") or {}
    if family in COUNT_FAMILIES:
        done = done and count.get("exact", False)
    params = (result.get("solver") or {}).get("params", {})
    effort = params.get("effort") or {}
    return {
        "seconds": outcome["seconds"] if done else None,
        "value": result.get("value"),
        "backend": params.get("backend"),
        "cube_cpu_seconds": effort.get("cube_cpu_seconds"),
        # Wall seconds of cubes stopped unfinished (split past their budget, canceled): lost work.
        "cube_abandoned_seconds": effort.get("cube_abandoned_seconds"),
        "solutions": count.get("solutions"), "classes": count.get("up_to_symmetry"),
    }


def previous_count(family: str, n: int, cap: float) -> float | None:
    """The previous default's enumeration: classes checked by plain re-enumeration."""
    piece, objective, _ = COUNT_FAMILIES[family]
    problem = PlacementProblem(Board.square(n), piece, objective)
    started = time.perf_counter()
    result = solve(problem, solver=PREVIOUS_SOLVER[family], time_limit=cap)
    if not result.optimal:
        return None
    remaining = cap - (time.perf_counter() - started)
    if remaining <= 0:
        return None
    counted = count_placements(problem, result.value, time_limit=remaining, representatives=True, check=True)
    return time.perf_counter() - started if counted.exact else None


def job_time_limit(url: str) -> float:
    """The longest time limit the service takes for a job, as its OpenAPI document states it."""
    schemas = requests.get(url + "/openapi.json", timeout=30).json()["components"]["schemas"]
    return schemas["DominationJob"]["properties"]["time_limit"]["maximum"]


def frontier(args: argparse.Namespace, refuse: Callable[[str], NoReturn]) -> None:
    """Each row through POST /jobs; ``refuse`` (before any row runs) a cap no job may have."""
    rows = [(family, n) for spec in args.rows for family, n in parse_rows(spec)]
    table = []
    with default_server() as url:
        if args.cap > (limit := job_time_limit(url)):
            refuse(f"argument --cap: --rows runs jobs, whose time limit is at most {limit:g} s")
        for family, n in rows:
            load = os.getloadavg()[0]
            new = [row_figures(run_job(url, job_params(family, n, args.cap, "auto")), family)
                   for _ in range(args.repeats)]
            line = {"row": f"{family}:{n}", "load": round(load, 2), **new[-1],
                    "seconds": _median_or_none([figure["seconds"] for figure in new])}
            if args.against == "previous":
                if family in COUNT_FAMILIES:
                    line["previous"] = previous_count(family, n, args.cap)
                else:
                    old = row_figures(run_job(url, job_params(family, n, args.cap, PREVIOUS_SOLVER[family])), family)
                    line["previous"] = old["seconds"]
            if family in COUNT_FAMILIES:
                line["literature"] = _published(COUNT_FAMILIES[family][2].get(n))
            line["load after"] = round(os.getloadavg()[0], 2)
            print(json.dumps(line), file=sys.stderr, flush=True)
            table.append(line)
    _print_rows(table, args.cap)


def _published(count: tuple[int, int | None] | None) -> str | None:
    if count is None:
        return None
    return str(count[0]) if count[1] is None else f"{count[0]} ({count[1]})"


def _median_or_none(values: list) -> float | None:
    return None if any(v is None for v in values) else statistics.median(values)


def _print_rows(table: list[dict], cap: float) -> None:
    def seconds(value):
        return f">{cap:g}" if value is None else f"{value:.1f}"

    headers = ["row", "value", "default s", "backend", "cube CPU s", "abandoned s", "previous s", "count", "classes",
               "OEIS (classes)", "load"]
    body = [[line["row"], line["value"], seconds(line["seconds"]), line["backend"], line["cube_cpu_seconds"],
             line["cube_abandoned_seconds"], seconds(line["previous"]) if "previous" in line else "",
             line["solutions"] or "", line["classes"] or "", line.get("literature") or "",
             f"{line['load']}–{line['load after']}"] for line in table]
    print(f"through POST /jobs on a default server, cap {cap:g} s per job")
    print(tabulate(body, headers=headers, tablefmt="github"))


def parse_rows(spec: str) -> list[tuple[str, int]]:
    family, _, sizes = spec.partition(":")
    if family not in ROW_FAMILIES or not sizes:
        raise argparse.ArgumentTypeError(f"{spec!r}: expected FAMILY:N or FAMILY:FROM-TO, FAMILY one of "
                                         f"{', '.join(ROW_FAMILIES)}")
    low, _, high = sizes.partition("-")
    return [(family, n) for n in range(int(low), int(high or low) + 1)]
