"""Peak memory of the server process answering ``GET /jobs?limit=1000`` over jobs with
huge results.

    python -m chessdom.scripts.bench_jobs_listing --jobs 30

Stores ``--jobs`` finished tour jobs, each holding a 1000×1000 tour's million square
names (as a real one does), starts a real server (one process), and reads that process's
peak resident memory (``VmHWM``) before and after four listings, and the response size.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from chessdom.chessboard import Board, square_names
from chessdom.scripts.live_server import ServerProcess
from chessdom.api.runtime.store import Store


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=30)
    args = parser.parse_args(argv)
    board = Board.square(1000)
    result = {"status": "found", "path": square_names(board, range(board.rows * board.cols))}
    with tempfile.TemporaryDirectory() as data:
        store = Store(Path(data))
        for _ in range(args.jobs):
            job = store.add_job("tour", {"size": 1000})
            store.finish_job(job["id"], store.claim_job()["attempt"], "succeeded", result=result)
        server = ServerProcess(Path(data), workers=1).start()
        try:
            worker = server_worker(server)
            before = peak_memory_mb(worker)
            sizes = [len(server.get("/jobs?limit=1000").content) for _ in range(4)]
            after = peak_memory_mb(worker)
            one = server.get(f"/jobs/{job['id']}")
        finally:
            server.stop()
    print(f"GET /jobs?limit=1000 over {args.jobs} jobs of 1000x1000 tours: response {sizes[0] / 1024:.1f} KiB; "
          f"server process peak memory {before:.0f} MiB before, {after:.0f} MiB after four listings; "
          f"GET /jobs/{{id}} of one: {len(one.content) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
