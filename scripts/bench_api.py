"""Throughput and latency of the service on loopback: cached ``/domination`` answers
under concurrent clients, against ``/health`` (the cheapest route, as the baseline) in
the same run, and ``/health`` latency while two hard solves occupy both cores.

    python -m chessdom.scripts.bench_api [--clients 16] [--seconds 10] [--repeats 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import tempfile
import threading
import time
from pathlib import Path

from tabulate import tabulate
from tqdm import tqdm

from chessdom.scripts.live_server import ServerProcess

CACHED_BODY = json.dumps({"size": 8, "piece": "queen"})


def _client_thread(port: int, method: str, path: str, body: str | None, stop_at: float, latencies: list) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"} if body else {}
    while time.perf_counter() < stop_at:
        started = time.perf_counter()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path} answered {response.status}")
        latencies.append(time.perf_counter() - started)
    connection.close()


def _load_process(args) -> list[float]:
    port, method, path, body, threads, stop_at = args
    latencies: list[float] = []
    workers = [
        threading.Thread(target=_client_thread, args=(port, method, path, body, stop_at, latencies))
        for _ in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return latencies


def load(port: int, method: str, path: str, body: str | None, clients: int, seconds: float, processes: int) -> dict:
    """``clients`` keep-alive connections spread over ``processes`` processes (in one, the
    GIL would make the load generator the bottleneck), hammering one route for ``seconds``."""
    stop_at = time.perf_counter() + seconds
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        # perf_counter is per-process on Linux but shares CLOCK_MONOTONIC, so one
        # deadline works for all clients.
        parts = pool.map(_load_process, [(port, method, path, body, clients // processes, stop_at)] * processes)
    latencies = sorted(latency for part in parts for latency in part)
    return {
        "requests_per_second": len(latencies) / seconds,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
    }


def health_under_solves(server: ServerProcess, seconds: float) -> dict:
    """``/health`` latency while both cores solve: one queued job and one synchronous
    request (jobs leave the last slot to synchronous requests)."""
    hard = {"size": 16, "piece": "knight", "time_limit": seconds + 5}
    job_id = server.post("/jobs", json={"kind": "domination", "params": hard}).json()["id"]
    synchronous = threading.Thread(target=server.post, args=("/domination",), kwargs={"json": hard})
    synchronous.start()
    deadline = time.monotonic() + 30
    while server.get("/health").json()["jobs_running"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the synchronous solve's worker is up by now
    latencies = []
    stop_at = time.monotonic() + seconds
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    while time.monotonic() < stop_at:
        started = time.perf_counter()
        connection.request("GET", "/health")
        connection.getresponse().read()
        latencies.append(time.perf_counter() - started)
        time.sleep(0.01)
    server.delete(f"/jobs/{job_id}")
    synchronous.join()
    latencies.sort()
    return {
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "max_ms": 1000 * latencies[-1],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m chessdom.scripts.bench_api", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=3, help="runs per route; medians are reported")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--threads", type=int, default=8, help="request threads per server process")
    parser.add_argument("--load-processes", type=int, default=4, help="processes of the load generator")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(Path(data), workers=args.workers, threads=args.threads, solver_slots=2).start()
        try:
            first = server.post("/domination", data=CACHED_BODY, headers={"Content-Type": "application/json"}).json()
            assert first["optimal"], "the warm-up solve must prove its optimum to be cached"
            routes = {
                "GET /health (baseline)": ("GET", "/health", None),
                "POST /domination (cached)": ("POST", "/domination", CACHED_BODY),
            }
            results = {name: [] for name in routes}
            with tqdm(total=len(routes) * args.repeats, desc="load") as progress:
                for _ in range(args.repeats):
                    for name, (method, path, body) in routes.items():
                        results[name].append(load(server.port, method, path, body, args.clients, args.seconds, args.load_processes))
                        progress.update()
            rows = []
            baseline = statistics.median(r["requests_per_second"] for r in results["GET /health (baseline)"])
            for name, runs in results.items():
                throughput = statistics.median(r["requests_per_second"] for r in runs)
                rows.append([
                    name, f"{throughput:.0f}", f"{statistics.median(r['p50_ms'] for r in runs):.1f}",
                    f"{statistics.median(r['p99_ms'] for r in runs):.1f}", f"{throughput / baseline:.2f}",
                ])
            print(f"{args.clients} concurrent clients, {args.seconds:g} s per run, median of {args.repeats} runs, "
                  f"{args.workers} server processes, load generator on the same machine")
            print(tabulate(rows, headers=["route", "req/s", "p50 ms", "p99 ms", "ratio to baseline"],
                           tablefmt="github"))
            health = health_under_solves(server, args.seconds)
            print(f"\n/health while two hard solves run: p50 {health['p50_ms']:.1f} ms, "
                  f"p99 {health['p99_ms']:.1f} ms, max {health['max_ms']:.1f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
