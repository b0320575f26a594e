"""chessdom measured for ``bench_peers``, by its CLI and by its service. The CLI is
``python -m chessdom solve PIECE N --json`` (``--count`` for counts) as a subprocess with its
defaults, interpreter start included. The service is a running ``chessdom serve``, warmed up
first; each run is ``POST /domination`` with ``cache: false`` and ``time_limit`` = cap (a job,
``POST /jobs``, when the cap is beyond the synchronous limit its OpenAPI document states),
timed from the post to the answer."""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass

import requests

from chessdom.scripts.capped_runs import run_capped
from chessdom.scripts.peer_rows import Measure, Row

SERVICE_GRACE_SECONDS = 30.0
"""How long past the cap the service may take to answer before the run counts as capped."""
WARM_UP_SIZE, WARM_UP_STREAK, WARM_UP_MAX_POSTS = 5, 8, 60
WARM_SECONDS = 0.15
"""A warm worker solves 5×5 in at most this (measured: 0.01–0.02 s γ(Q5) and γ(N5), 0.06–0.12 s
the count of γ(Q5)); a worker's first solve takes longer: 0.2–0.4 s to start its SAT child,
0.3 s or more to import OR-Tools for its first CP-SAT solve."""


def cli_command(row: Row) -> list[str]:
    return [sys.executable, "-m", "chessdom", "solve", row.piece, str(row.size), "--json",
            *(["--count"] if row.count else [])]


def measure_cli(row: Row, cap: float) -> Measure:
    """The CLI with its defaults, as a subprocess: seconds from its start to its exit."""
    finished = run_capped(cli_command(row), cap)
    if finished is None:
        return Measure(None)
    if finished.returncode != 0:
        last = (finished.stderr.strip().splitlines() or [""])[-1]
        return Measure(None, note=f"CLI exit {finished.returncode}: {last[-120:]}")
    return answer_measure(json.loads(finished.stdout), finished.seconds, row)


def answer_measure(answer: dict, seconds: float, row: Row) -> Measure:
    """A Measure from chessdom's JSON answer (CLI or service): capped unless proved (and,
    for a count, counted exactly)."""
    counted = answer.get("count") or {}
    if answer.get("status") != "optimal":
        return Measure(None)  # its value is a bound, not γ
    if row.count and not counted.get("exact"):
        return Measure(None, answer["value"])
    if answer.get("cached"):
        return Measure(None, answer["value"], note="served from the cache")
    return Measure(seconds, answer["value"], counted.get("solutions") if row.count else None)


@dataclass(frozen=True)
class Service:
    """A running ``chessdom serve``: its URL and the largest ``time_limit`` ``POST /domination``
    takes (beyond it, a run is a job)."""

    url: str
    sync_time_limit: float

    @classmethod
    def at(cls, url: str) -> Service:
        """The service at ``url``, its synchronous limit as its OpenAPI document states it."""
        schemas = requests.get(url + "/openapi.json", timeout=30).json()["components"]["schemas"]
        return cls(url, schemas["DominationRequest"]["properties"]["time_limit"]["maximum"])


def service_body(row: Row, cap: float) -> dict:
    return {"size": row.size, "piece": row.piece, "count": row.count, "cache": False, "time_limit": cap}


def measure_service(service: Service, row: Row, cap: float) -> Measure:
    """One solve through the warm service, never from its result cache."""
    started = time.perf_counter()
    try:
        if cap <= service.sync_time_limit:
            response = requests.post(f"{service.url}/domination", json=service_body(row, cap),
                                     timeout=cap + SERVICE_GRACE_SECONDS)
            if response.status_code != 200:
                return Measure(None, note=f"service {response.status_code}: {response.text[:120]}")
            answer = response.json()
        else:
            answer = _job_answer(service.url, service_body(row, cap), started + cap + SERVICE_GRACE_SECONDS)
    except requests.Timeout:
        return Measure(None)
    if answer is None:
        return Measure(None)
    return answer_measure(answer, time.perf_counter() - started, row)


def _job_answer(url: str, params: dict, deadline: float) -> dict | None:
    """Post a domination job and poll it to its end: its result, or None past ``deadline``."""
    posted = requests.post(f"{url}/jobs", json={"kind": "domination", "params": params}, timeout=30)
    posted.raise_for_status()
    job = posted.json()["id"]
    while time.perf_counter() < deadline:
        state = requests.get(f"{url}/jobs/{job}", timeout=30).json()
        if state["status"] not in ("queued", "running"):
            return state.get("result") or {}
        time.sleep(0.05)
    requests.delete(f"{url}/jobs/{job}", timeout=30)
    return None


def warm_up(service: Service, rows: list[Row]) -> None:
    """Small solves of each kind of row until the service answers them warm: every worker
    process it runs has imported its solver and started its SAT child (each does so on its
    first solve, and which worker serves a request varies), as on a service that has been
    serving for a while."""
    limit = service.sync_time_limit
    for piece, count in sorted({(row.piece, row.count) for row in rows}):
        body = service_body(Row(piece, WARM_UP_SIZE, count), limit)
        streak = 0
        for _ in range(WARM_UP_MAX_POSTS):
            answer = requests.post(f"{service.url}/domination", json=body, timeout=2 * limit).json()
            streak = streak + 1 if answer.get("wall_time", math.inf) <= WARM_SECONDS else 0
            if streak == WARM_UP_STREAK:
                break
            time.sleep(0.2)  # the next connection may go to the other server process
