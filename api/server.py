"""``chessdom serve --host H --port P --data DIR`` (or ``python -m chessdom.api``): the
service under gunicorn."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from gunicorn.app.base import BaseApplication

from chessdom.store import Store

from chessdom.api.http.app import create_app
from chessdom.api.runtime.config import Settings

SWITCH_INTERVAL = float(os.environ.get("CHESSDOM_SWITCH_INTERVAL", "0.001"))


class Server(BaseApplication):
    def __init__(self, settings: Settings, options: dict):
        self.settings = settings
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        # Request threads hand the GIL over every 5 ms by default, which puts a waiting
        # request behind several such slices under load; 1 ms cut the p99 latency of
        # scripts.bench_api (see the README's figures).
        sys.setswitchinterval(SWITCH_INTERVAL)
        return create_app(self.settings)


def main(argv: list[str] | None = None, prog: str = "chessdom serve") -> None:
    defaults = Settings.from_env()
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--data", type=Path, default=defaults.data_dir, help="directory of the SQLite store")
    parser.add_argument("--workers", type=int, default=2, help="server processes (each runs jobs too)")
    parser.add_argument("--threads", type=int, default=8, help="request threads per server process")
    parser.add_argument(
        "--solver-slots", type=int, default=defaults.solver_slots,
        help="solves running at once in all (default: the number of cores)",
    )
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="Dask scheduler on which placement jobs run as cube-and-conquer")
    args = parser.parse_args(argv)

    # No server process runs yet, so every job marked running was orphaned by a crash.
    requeued = Store(args.data).requeue_running()
    if requeued:
        print(f"requeued {requeued} job(s) left running by the last process")
    settings = replace(
        defaults,
        data_dir=args.data,
        solver_slots=args.solver_slots,
        recover_jobs=False,
        scheduler=args.scheduler,
    )
    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "worker_class": "gthread",
        "threads": args.threads,
        "graceful_timeout": 5,
        "errorlog": "-",
        "control_socket_disable": True,
    }
    Server(settings, options).run()


if __name__ == "__main__":
    main()
