"""``chessdom serve --host H --port P --data DIR`` (or ``python -m chessdom.api``): the
service under gunicorn.

One server per data directory: it takes the directory's lock before it touches
anything there (requeueing the jobs a crash left running, sweeping partial certificates)
and holds it through every process it forks; a second server on the same directory exits
at once (status 2) naming the first.

However a server process is asked to stop (SIGTERM, SIGINT, SIGQUIT, or gunicorn's own
timeout), it first kills every solver it runs, so nothing outlives it; their jobs go
back to the queue. (A SIGKILL runs no code: then the death signals of
:mod:`chessdom.processes.lifetime` do the same.)"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import os
import signal
import socket
import sys
import tempfile
from dataclasses import replace
from functools import partial
from importlib.metadata import version
from pathlib import Path

from gunicorn import util as gunicorn_util
from gunicorn.app.base import BaseApplication

from chessdom.atlas.schema import INDEX_JSON

from chessdom.api.http.app import create_app
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.config import LOOPBACK_NAMES, Settings
from chessdom.api.runtime.locks import DataDirectoryHeld, DataDirectoryLock
from chessdom.api.runtime.store import Store

class Server(BaseApplication):
    def __init__(self, settings: Settings, options: dict):
        self.settings = settings
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        sys.setswitchinterval(self.settings.switch_interval)
        return create_app(self.settings)


SHUTDOWN_WAIT_SECONDS = 2.0
DESCRIPTION = """\
Run the chessdom HTTP service under gunicorn: the JSON API, the jobs queue, the
Board lab at / and the API docs at /docs. However it is asked to stop, it first kills
every solver it runs, and the jobs they ran go back to the queue for the next start."""


def _stop_solvers(worker, wait: float = 0.0) -> None:
    # No context when the worker failed before its app was built.
    context = getattr(getattr(worker, "wsgi", None), "extensions", {}).get("chessdom")
    if context is not None:
        context.shutdown(wait)


def _worker_abort(worker) -> None:
    """gunicorn's timeout is about to kill the worker."""
    _stop_solvers(worker)


def _worker_exit(server, worker) -> None:
    """Runs in the worker as it exits: its solvers are dead, let the jobs be requeued; then
    the process ends at once, with the status gunicorn gave it."""
    _stop_solvers(worker, SHUTDOWN_WAIT_SECONDS)
    stopping = sys.exc_info()[1]  # gunicorn calls this while its worker's SystemExit is under way
    _exit_now(stopping.code if isinstance(stopping, SystemExit) else 0)


def _exit_now(code) -> None:
    """End the process without Python's finalization, having flushed what it wrote: with
    OR-Tools, numba and pandas loaded, finalization took 2 s of a server process's exit
    (measured: Ctrl-C stopped the server in 4.6 s, 1 s without it). Nothing else is
    pending then: every write to the store is committed as it is made."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


def _stop_solvers_then(worker, handler, signum, frame) -> None:
    # A terminal's Ctrl-C reaches a worker twice: SIGINT from the terminal, SIGQUIT from
    # the master. Handled inside the first, the second blocked on a lock the first held (the
    # job runner's, or gunicorn's own thread pool's) until the master's SIGKILL 5 s later:
    # 3 stops in 15, measured. Once a worker quits it ignores further signals; the solvers
    # are stopped once.
    if getattr(worker, "quitting", False):
        return
    worker.quitting = signum != signal.SIGTERM  # SIGTERM's handler returns: a graceful stop
    if not getattr(worker, "stopping_solvers", False):
        worker.stopping_solvers = True
        _stop_solvers(worker)
    handler(signum, frame)


def _prepare_worker(worker) -> None:
    """Wrap the worker's stop signals so that its solvers die at once, before gunicorn's
    graceful wait for requests in flight (which would wait for those very solves); and
    start its solver worker, so that the first solve finds the solvers imported."""
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        handler = signal.getsignal(number)
        if callable(handler):
            signal.signal(number, partial(_stop_solvers_then, worker, handler))
    context = getattr(getattr(worker, "wsgi", None), "extensions", {}).get("chessdom")
    if context is not None:
        context.pool.workers.warm()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host.strip("[]") in ("", "0.0.0.0", "::")


USAGE_ERROR = 2
MAX_PORT = 65535


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, not the usage block, as every chessdom command answers a bad argument.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to {MAX_PORT})") from None
    if not 1 <= port <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_PORT}, got {port}")
    return port


def _at_least_one(text: str) -> int:
    """A count of processes, threads or slots: 0 would start a server that never answers."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def _parser(prog: str, defaults: Settings) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"chessdom {version('chessdom')}")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s); beyond "
                        "loopback, tokens are required (CHESSDOM_TOKENS or CHESSDOM_TOKENS_FILE)")
    parser.add_argument("--port", type=_port, default=5000,
                        help=f"port to listen on, 1 to {MAX_PORT} (default %(default)s)")
    parser.add_argument("--data", type=Path, default=defaults.data_dir, metavar="DIR",
                        help="directory of the store, made if need be: jobs, run history, cached optima and "
                             "certificates (default %(default)s, or CHESSDOM_DATA)")
    parser.add_argument("--workers", type=_at_least_one, default=2, help="server processes (each runs jobs too)")
    parser.add_argument("--threads", type=_at_least_one, default=8, help="request threads per server process")
    parser.add_argument(
        "--solver-slots", type=_at_least_one, default=defaults.solver_slots,
        help="solves running at once in all (default: the number of cores)",
    )
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="Dask scheduler on which placement jobs run as cube-and-conquer")
    parser.add_argument("--atlas", type=Path, default=defaults.atlas_dir, metavar="DIR",
                        help="the atlas served at /atlas, a `chessdom atlas build` directory (default: the one "
                             "shipped with chessdom, or CHESSDOM_ATLAS)")
    return parser


def _cannot_keep_data(directory: Path) -> str | None:
    """Why ``directory`` cannot hold the store, or None once it exists and has taken a
    file (permissions alone do not tell: a read-only mount, a process running as root)."""
    if directory.exists() and not directory.is_dir():
        return f"{directory} is not a directory"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
    except OSError as error:
        return f"cannot use {directory} for the store: {error.strerror or error}"
    return None


def _bind_address(host: str, port: int) -> str:
    """gunicorn's bind string; an IPv6 address goes in brackets, or its last group would be
    read as the port."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def _cannot_listen(address: str) -> str | None:
    """Why gunicorn could not listen on ``address``, found by binding as it will (its
    address family, SO_REUSEADDR) before it starts: it would retry five times, a second
    apart, and then say only that it "can't connect"."""
    host, port = gunicorn_util.parse_address(address)
    family = socket.AF_INET6 if gunicorn_util.is_ipv6(host) else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:  # socket.gaierror too: a host name that does not resolve
        advice = "; another program listens there: give another --port" if error.errno == errno.EADDRINUSE else ""
        return f"cannot listen on {address}: {error.strerror or error}{advice}"
    return None


def main(argv: list[str] | None = None, prog: str = "chessdom serve") -> None:
    try:
        defaults = Settings.from_env()
    except ValueError as error:  # a CHESSDOM_* variable the settings refuse
        print(f"{prog}: error: {error}", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    parser = _parser(prog, defaults)
    args = parser.parse_args(argv)
    if not is_loopback(args.host) and not defaults.tokens:
        parser.exit(USAGE_ERROR, f"{prog}: refusing to listen on {args.host} without tokens: anyone who can reach "
                                 "it could read and cancel every job; set CHESSDOM_TOKENS or CHESSDOM_TOKENS_FILE\n")
    if unusable := _cannot_keep_data(args.data):
        parser.error(f"argument --data: {unusable}")
    if args.atlas is not None and not (args.atlas / INDEX_JSON).is_file():
        parser.error(f"argument --atlas: {args.atlas} holds no atlas (no {INDEX_JSON}; `chessdom atlas build` makes one)")
    lock = DataDirectoryLock(args.data)
    try:
        lock.acquire()  # held, through every forked process, for the server's life
    except DataDirectoryHeld as held:
        parser.exit(USAGE_ERROR, f"{prog}: {held}\n")
    # After the lock: a second server on the same directory is named as such, whatever its port.
    address = _bind_address(args.host, args.port)
    if unreachable := _cannot_listen(address):
        parser.error(unreachable)
    # No other server uses the directory: every job still marked running, and every partial
    # certificate, was left by a crash (a job whose solver still lives is left alone).
    requeued = Store(args.data).requeue_running()
    if requeued:
        print(f"requeued {requeued} job(s) left running by the last process")
    CertificateStore(args.data).sweep_partials()
    settings = replace(
        defaults,
        data_dir=args.data,
        solver_slots=args.solver_slots,
        recover_jobs=False,
        allowed_hosts=_allowed_hosts(args.host, defaults.allowed_hosts),
        scheduler=args.scheduler,
        atlas_dir=args.atlas,
    )
    options = {
        "bind": address,
        "workers": args.workers,
        "worker_class": "chessdom.api.serving.buffering_worker.BufferingThreadWorker",
        "threads": args.threads,
        "graceful_timeout": 5,
        "errorlog": "-",
        "control_socket_disable": True,
        "post_worker_init": _prepare_worker,
        "worker_abort": _worker_abort,
        "worker_exit": _worker_exit,
    }
    try:
        Server(settings, options).run()
    except SystemExit as stopped:  # gunicorn's master exits through SystemExit
        _exit_now(stopped.code)


def _allowed_hosts(host: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The names the server answers to: loopback's, the address it listens on, and those
    configured. Listening on every address with none configured, any name is taken: the
    tokens (required there) are what keep a rebinding page out."""
    if is_wildcard(host):
        return allowed if allowed != LOOPBACK_NAMES else ("*",)
    return (*allowed, host.strip("[]"))


if __name__ == "__main__":
    main()
