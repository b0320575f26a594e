"""``/health`` latency while slow clients trickle their requests in, a byte at a time.

    python -m chessdom.scripts.bench_slow_clients --clients 16 --seconds 10

Starts a real server (two processes of eight request threads, as ``chessdom serve``
runs by default), opens ``--clients`` connections that each send a POST one byte every
``--interval`` seconds, and meanwhile asks ``/health`` over and over; prints the median,
p99 and worst latency and how many ``/health`` requests got no answer in 5 s.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from chessdom.scripts.live_server import ServerProcess

SLOW_REQUEST = (
    b"POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n"
    + b'{"size": 8, "piece": "queen", "squares": ["a1"]}' + b" " * 12
)


def trickle(port: int, interval: float, stop: threading.Event) -> None:
    """Send the request one byte per ``interval``, over and over, until stopped."""
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                for byte in SLOW_REQUEST:
                    if stop.wait(interval):
                        return
                    connection.sendall(bytes([byte]))
                connection.recv(1024)
        except OSError:
            stop.wait(interval)  # the server closed it: open another


def measure(port: int, seconds: float) -> tuple[list[float], int]:
    # A fresh connection each time, as separate clients would open: a kept-alive one
    # would stay with whichever server process answered first.
    latencies, unanswered = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            requests.get(f"http://127.0.0.1:{port}/health", timeout=5).raise_for_status()
            latencies.append(time.perf_counter() - start)
        except requests.RequestException:
            unanswered += 1
        time.sleep(0.02)
    return latencies, unanswered


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a slow client's bytes")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(Path(data), workers=2, threads=8).start()
        stop = threading.Event()
        clients = [
            threading.Thread(target=trickle, args=(server.port, args.interval, stop)) for _ in range(args.clients)
        ]
        try:
            for client in clients:
                client.start()
            time.sleep(2 * args.interval)  # every slow client has begun its request
            latencies, unanswered = measure(server.port, args.seconds)
        finally:
            stop.set()
            for client in clients:
                client.join()
            server.stop()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else float("nan")
    median = statistics.median(latencies) if latencies else float("nan")
    worst = max(latencies, default=float("nan"))
    print(f"{args.clients} slow clients: /health answered {len(latencies)}, unanswered {unanswered}; "
          f"median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, worst {worst * 1000:.1f} ms")


if __name__ == "__main__":
    main()
