"""What the service adds to a small solve, and how it holds under more clients than it has
solver slots; with ``--before PATH`` (another checkout of chessdom), the same figures for
that code, measured in the same run, turn by turn with this one.

    python -m chessdom.scripts.bench_api [--clients 50] [--seconds 60] [--before PATH]

- **overhead**: one client posts 6×6 queen domination (``cache: false``) again and again;
  what a request adds is its latency minus the solver's own ``wall_time``. Beside it, the
  wall time of a 1×1 SAT solve, which is almost all the start of the SAT child process
  (``run_killable``), to say what part of the solver's own time that start is.
- **load**: ``--clients`` keep-alive clients post that solve for ``--seconds``, each as
  soon as its last answer came, or as that answer's ``Retry-After`` says (a 503 beyond
  capacity; ``--ignore-retry-after``: at once, as a hostile client would), while one more
  client asks ``/health`` every 20 ms: throughput, every status seen, whether each 429/503
  carried ``Retry-After``, client timeouts (30 s), and the latency of the solves and of
  ``/health``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import select
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from tabulate import tabulate

from chessdom.scripts.live_server import ServerProcess

SMALL_SOLVE = {"size": 6, "piece": "queen", "cache": False}
CHILD_START_SOLVE = {"size": 1, "piece": "queen", "solver": "sat", "cache": False}
CLIENT_TIMEOUT = 30.0
HEALTH_INTERVAL = 0.02


def _post(connection: http.client.HTTPConnection, path: str, body: dict) -> tuple[int, dict, dict]:
    connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")


def overhead(port: int, requests: int) -> dict:
    """Sequential small solves: latency, the solver's wall time, and what is left."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)
    added, walls = [], []
    for _ in range(requests):
        started = time.perf_counter()
        status, _, answer = _post(connection, "/domination", SMALL_SOLVE)
        latency = time.perf_counter() - started
        if status == 200:
            added.append(latency - answer["wall_time"])
            walls.append(answer["wall_time"])
    child = [_post(connection, "/domination", CHILD_START_SOLVE)[2]["wall_time"] for _ in range(5)]
    connection.close()
    return {"added_p50_ms": 1000 * statistics.median(added), "added_p90_ms": 1000 * _quantile(added, 0.9),
            "solver_p50_ms": 1000 * statistics.median(walls), "child_start_ms": 1000 * statistics.median(child)}


def _client(port: int, stop_at: float, record: list, honour_retry_after: bool) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)
    while time.perf_counter() < stop_at:
        _reconnect_if_dropped(connection)
        started = time.perf_counter()
        try:
            status, headers, _ = _post(connection, "/domination", SMALL_SOLVE)
        except TimeoutError:
            record.append(("timeout", None, time.perf_counter() - started))
            connection.close()
            continue
        except (ConnectionError, http.client.HTTPException):
            record.append(("disconnected", None, time.perf_counter() - started))
            connection.close()
            continue
        record.append((status, headers.get("Retry-After"), time.perf_counter() - started))
        if honour_retry_after and headers.get("Retry-After"):
            time.sleep(min(float(headers["Retry-After"]), max(0.0, stop_at - time.perf_counter())))


def _reconnect_if_dropped(connection: http.client.HTTPConnection) -> None:
    """As urllib3 does before reusing a kept-alive connection: one the server closed while
    it was idle (past its keep-alive timeout) reads as ready, and is opened afresh."""
    if connection.sock is not None and select.select([connection.sock], [], [], 0)[0]:
        connection.close()


def _load_process(args) -> list:
    port, threads, stop_at, honour_retry_after = args
    record: list = []
    clients = [threading.Thread(target=_client, args=(port, stop_at, record, honour_retry_after))
               for _ in range(threads)]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    return record


def _health(port: int, stop_at: float, latencies: list) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)
    while time.perf_counter() < stop_at:
        started = time.perf_counter()
        connection.request("GET", "/health")
        connection.getresponse().read()
        latencies.append(time.perf_counter() - started)
        time.sleep(HEALTH_INTERVAL)


def load(port: int, clients: int, seconds: float, processes: int, honour_retry_after: bool = True) -> dict:
    """``clients`` keep-alive connections over ``processes`` processes (in one, the GIL
    would make the load generator the bottleneck), and the /health prober."""
    stop_at = time.perf_counter() + seconds  # CLOCK_MONOTONIC: one deadline for every process
    health: list[float] = []
    prober = threading.Thread(target=_health, args=(port, stop_at, health))
    prober.start()
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        parts = pool.map(_load_process, [(port, clients // processes + (i < clients % processes), stop_at,
                                          honour_retry_after) for i in range(processes)])
    prober.join()
    record = [entry for part in parts for entry in part]
    statuses = Counter(status for status, _, _ in record)
    refused = [retry for status, retry, _ in record if status in (429, 503)]
    answered = sorted(latency for status, _, latency in record if status == 200)
    health.sort()
    return {
        "requests_per_second": len(record) / seconds,
        "statuses": dict(sorted(statuses.items(), key=str)),
        "refused_without_retry_after": sum(retry is None for retry in refused),
        "solve_p50_ms": 1000 * _quantile(answered, 0.5), "solve_p99_ms": 1000 * _quantile(answered, 0.99),
        "health_p50_ms": 1000 * _quantile(health, 0.5), "health_p99_ms": 1000 * _quantile(health, 0.99),
        "health_max_ms": 1000 * max(health, default=float("nan")),
    }


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(source: Path | None, args) -> dict:
    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(Path(data) / "data", workers=args.workers, threads=args.threads, solver_slots=2,
                               source=source).start()
        try:
            server.post("/domination", json=SMALL_SOLVE)  # both solver workers up and warm
            return {"overhead": overhead(server.port, args.requests),
                    "load": load(server.port, args.clients, args.seconds, args.load_processes,
                                 not args.ignore_retry_after)}
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m chessdom.scripts.bench_api", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each load run")
    parser.add_argument("--requests", type=int, default=40, help="sequential solves for the overhead")
    parser.add_argument("--ignore-retry-after", action="store_true",
                        help="clients retry at once after a 429/503, as a hostile client would")
    parser.add_argument("--repeats", type=int, default=1, help="runs per code; medians are reported")
    parser.add_argument("--before", type=Path, default=None, metavar="PATH",
                        help="root of another checkout of chessdom (e.g. git archive of an older commit)")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--threads", type=int, default=8, help="request threads per server process")
    parser.add_argument("--load-processes", type=int, default=4, help="processes of the load generator")
    args = parser.parse_args(argv)

    codes = {"after (this checkout)": None, **({f"before ({args.before})": args.before} if args.before else {})}
    runs = {name: [] for name in codes}
    for _ in range(args.repeats):
        for name, source in reversed(codes.items()):  # turn by turn, so that the machine's load falls on both
            runs[name].append(measure(source, args))
    retrying = "at once" if args.ignore_retry_after else "after Retry-After"
    print(f"{args.clients} clients posting {json.dumps(SMALL_SOLVE)} for {args.seconds:g} s (retrying {retrying}), "
          f"{args.workers} server processes × {args.threads} threads, 2 solver slots; "
          f"median of {args.repeats} run(s); load generator on the same machine")
    print(_table(runs))
    for name, results in runs.items():
        print(f"{name}: statuses {[r['load']['statuses'] for r in results]}, "
              f"429/503 without Retry-After {[r['load']['refused_without_retry_after'] for r in results]}")


def _table(runs: dict) -> str:
    columns = [
        ("added p50 ms", "overhead", "added_p50_ms"), ("added p90 ms", "overhead", "added_p90_ms"),
        ("solver p50 ms", "overhead", "solver_p50_ms"), ("SAT child start ms", "overhead", "child_start_ms"),
        ("req/s", "load", "requests_per_second"), ("solve p50 ms", "load", "solve_p50_ms"),
        ("solve p99 ms", "load", "solve_p99_ms"), ("/health p50 ms", "load", "health_p50_ms"),
        ("/health p99 ms", "load", "health_p99_ms"), ("/health max ms", "load", "health_max_ms"),
    ]
    rows = [[name, *(f"{statistics.median(r[part][key] for r in results):.1f}" for _, part, key in columns)]
            for name, results in runs.items()]
    return tabulate(rows, headers=["code", *(title for title, _, _ in columns)], tablefmt="github")


if __name__ == "__main__":
    main()
