"""Peak memory of the server process answering ``GET /jobs?limit=1000`` over jobs with
huge results.

    python -m chessdom.scripts.bench_jobs_listing --jobs 30

Runs ``--jobs`` tour jobs of 1000×1000 through a real server (each result holds a million
square names), then starts a fresh server (one process) on the same data directory, so that
running the jobs does not count, and reads that process's peak resident memory (``VmHWM``)
before and after four listings, and the response size.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from chessdom.scripts.live_server import ServerProcess

TOUR_JOB = {"kind": "tour", "params": {"size": 1000}}


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def server_worker(server: ServerProcess) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == server.process.pid:
                    return int(entry.name)
            except OSError:
                pass
    raise RuntimeError("no server worker")


def run_tour_jobs(data: Path, jobs: int) -> str:
    """Run ``jobs`` tour jobs to the end through a server on ``data``; the last one's id."""
    server = ServerProcess(data, workers=1).start()
    try:
        ids = []
        for _ in range(jobs):
            response = server.post("/jobs", json=TOUR_JOB)
            response.raise_for_status()
            ids.append(response.json()["id"])
        for job_id in ids:
            while (status := server.get(f"/jobs/{job_id}").json()["status"]) in ("queued", "running"):
                time.sleep(0.5)
            if status != "succeeded":
                raise RuntimeError(f"tour job {job_id} ended {status}")
    finally:
        server.stop()
    return ids[-1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        job_id = run_tour_jobs(Path(data), args.jobs)
        server = ServerProcess(Path(data), workers=1).start()
        try:
            worker = server_worker(server)
            before = peak_memory_mb(worker)
            sizes = [len(server.get("/jobs?limit=1000").content) for _ in range(4)]
            after = peak_memory_mb(worker)
            one = server.get(f"/jobs/{job_id}")
        finally:
            server.stop()
    print(f"GET /jobs?limit=1000 over {args.jobs} jobs of 1000x1000 tours: response {sizes[0] / 1024:.1f} KiB; "
          f"server process peak memory {before:.0f} MiB before, {after:.0f} MiB after four listings; "
          f"GET /jobs/{{id}} of one: {len(one.content) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
