"""A real ``python -m chessdom.api`` process on 127.0.0.1, for end-to-end tests and
benchmarks; optionally of another checkout of chessdom (``source``), so that a benchmark
can measure the code before a change beside the code after it, in one run."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PR_SET_PDEATHSIG = 1


class ServerProcess:
    def __init__(
        self, data_dir: Path, *, workers: int | None = 1, threads: int | None = 8, solver_slots: int | None = 2,
        log: Path | None = None, env: dict[str, str] | None = None, source: Path | None = None,
    ):
        """``workers``, ``threads``, ``solver_slots``: None leaves the server's own default.
        ``source``: the root of another checkout of chessdom to run instead of this one
        (made importable as ``chessdom`` beside ``data_dir``; the same interpreter and
        dependencies serve it)."""
        self.data_dir = data_dir
        self.source = source
        self.workers = workers
        self.threads = threads
        self.solver_slots = solver_slots
        self.log_path = log or data_dir / "server.log"
        self.env = {**os.environ, **(env or {})}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> ServerProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.source is not None:
            imports = importable_checkout(self.source, self.data_dir.parent / f"{self.data_dir.name}-imports")
            self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(imports), self.env.get("PYTHONPATH")]))
        log = open(self.log_path, "ab")
        command = [sys.executable, "-m", "chessdom.api", "--host", "127.0.0.1", "--port", str(self.port),
                   "--data", str(self.data_dir)]
        for flag, value in (("--workers", self.workers), ("--threads", self.threads),
                            ("--solver-slots", self.solver_slots)):
            if value is not None:
                command += [flag, str(value)]
        # A session of its own, so that kill() takes the master, its workers and the
        # fork server down together, as a crash of the machine's process would.
        self.process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=self.env,
            preexec_fn=_stop_with_parent,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.log_path}")
            try:
                if requests.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except (requests.ConnectionError, requests.Timeout):  # not listening yet, or still loading the app
                pass
            time.sleep(0.1)
        raise TimeoutError(f"server did not answer /health within {timeout} s")

    def kill(self) -> None:
        """SIGKILL the whole server: no shutdown code runs."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def signal(self, number: int, *, group: bool = False) -> None:
        """Send ``number`` to the master, or to its whole process group as a terminal's
        Ctrl-C does, and wait for the server to exit."""
        if group:
            os.killpg(self.process.pid, number)
        else:
            self.process.send_signal(number)
        self.process.wait(timeout=30)

    def get(self, path: str, **kwargs):
        return requests.get(self.url + path, timeout=30, **kwargs)

    def post(self, path: str, **kwargs):
        return requests.post(self.url + path, timeout=120, **kwargs)

    def delete(self, path: str, **kwargs):
        return requests.delete(self.url + path, timeout=30, **kwargs)


@contextmanager
def default_server() -> Iterator[str]:
    """``chessdom serve`` with every default but the data directory (a temporary one) and
    the port (a free one), for a benchmark to measure what a user gets; its URL, and the
    server stopped, with its solvers, on the way out."""
    data = Path(tempfile.mkdtemp(prefix="chessdom-bench-"))
    server = ServerProcess(data, workers=None, threads=None, solver_slots=None)
    try:
        server.start(timeout=120)
        yield server.url
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def importable_checkout(source: Path, into: Path) -> Path:
    """A directory that, put first on ``PYTHONPATH``, makes the checkout ``source``
    importable as ``chessdom``: the package-dir mapping of its pyproject.toml, as symbolic
    links (an editable install's finder comes after ``PYTHONPATH``)."""
    mapping = tomllib.loads((source / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    package = into / "chessdom"
    package.mkdir(parents=True, exist_ok=True)
    for entry in (source / mapping["chessdom"]).iterdir():
        if entry.name != "__pycache__" and not (package / entry.name).exists():
            (package / entry.name).symlink_to(entry.resolve())
    for name, folder in mapping.items():
        if name != "chessdom" and not (package / name.split(".", 1)[1]).exists():
            (package / name.split(".", 1)[1]).symlink_to((source / folder).resolve())
    return into


def _stop_with_parent() -> None:
    """In the server's process, before it runs: SIGTERM it (a graceful stop, which takes its
    workers and solvers along) when the process that started it dies. Without this a test
    run killed mid-way left its server running (seen once: a server alive an hour later)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass  # not Linux: stop() or kill() remain the only ways
