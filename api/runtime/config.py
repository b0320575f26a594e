"""Service settings: one object, read once by the app factory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from chessdom.certificates.contract import MAX_PROOF_BYTES as CONTRACT_MAX_PROOF_BYTES
from chessdom.processes import available_cores


def _default_slots() -> int:
    """One slot per core for jobs, and slot 0, which jobs never take, for synchronous
    requests: a lone job's cubes then have every core (measured, γ(Q_14) as a default job
    on 2 cores took 103 s with one slot for jobs), and a synchronous request still never
    waits for a job; while both run the cores are shared for the request's few seconds."""
    return available_cores() + 1


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
DEFAULT_DATA_DIR = Path("var")


def data_dir_from_env() -> Path:
    """``CHESSDOM_DATA``, or ``./var``."""
    return Path(os.environ.get("CHESSDOM_DATA", DEFAULT_DATA_DIR))


def env_name(setting: str) -> str:
    """The environment variable that sets the :class:`Settings` field ``setting``."""
    return f"CHESSDOM_{setting.upper()}"


QUOTA_SETTING = "max_stored_bytes_per_token"
"""The :class:`Settings` field bounding what one token stores, named where its 507 says how
to raise it."""


def tokens_from_env(env) -> frozenset[str]:
    """``CHESSDOM_TOKENS`` (separated by commas or spaces) and the lines of the file
    ``CHESSDOM_TOKENS_FILE`` (``#`` starts a comment)."""
    tokens = set(env.get("CHESSDOM_TOKENS", "").replace(",", " ").split())
    if env.get("CHESSDOM_TOKENS_FILE"):
        for line in Path(env["CHESSDOM_TOKENS_FILE"]).read_text(encoding="utf-8").splitlines():
            tokens.update(line.split("#", 1)[0].split())
    return frozenset(tokens)


@dataclass(frozen=True)
class Settings:
    data_dir: Path = DEFAULT_DATA_DIR
    solver_slots: int = field(default_factory=_default_slots)
    """Solves that may run at once over every server process sharing ``data_dir``: by
    default one per core for jobs and one more that only synchronous requests take."""
    max_queued_jobs: int = 1000
    """Beyond this many queued jobs ``POST /jobs`` answers 429."""
    max_queued_jobs_per_token: int = 100
    """Beyond this many queued jobs of one token, ``POST /jobs`` answers it 429."""
    max_stored_bytes_per_token: int = 1 << 30
    """A token storing this much (its jobs' parameters and results, its certificates) gets
    507 for new jobs, and no certificate, until some expire."""
    max_certificate_bytes: int = 4 << 30
    """Certificates kept in all; beyond it new answers say why they have none."""
    slot_wait: float = 2.0
    """Seconds a synchronous request waits for a free solver slot before answering 503."""
    max_slot_waiters: int = 4
    """Synchronous requests of one server process that may wait for a slot at once; more
    are answered 503 at once, so that waiting never takes every request thread."""
    max_body_bytes: int = 16 * 1024 * 1024
    """Larger bodies are refused (413) as soon as their size is announced or exceeded."""
    request_read_seconds: float = 30.0
    """A client has this long to send a request, head and body; then it is disconnected."""
    write_stall_seconds: float = 10.0
    """A client that reads nothing of its answer for this long is disconnected."""
    switch_interval: float = 0.001
    """Seconds between GIL hand-overs of a server process's threads (``sys.setswitchinterval``):
    Python's 5 ms put a waiting request behind several such slices under load; 1 ms cut the
    p99 latency of ``chessdom.scripts.bench_api`` (see the benchmarks page of the docs)."""
    run_jobs: bool = True
    """Start the background job runner (off in tests that inspect queued jobs)."""
    recover_jobs: bool = True
    """Requeue, when the app starts, running jobs whose lease has expired."""
    job_lease: float = 30.0
    """A running job whose heartbeat is older than this many seconds is requeued."""
    kill_grace: float = 10.0
    """Seconds past a solve's own time limit before its worker process is killed."""
    retention_days: float = 30.0
    """Finished jobs and recorded runs are deleted this many days after they end."""
    tokens: frozenset[str] = frozenset()
    """Bearer tokens; when there are any, every request but the public pages needs one."""
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    """Host names the service answers to (``*``: any); others get 400 (DNS rebinding)."""
    scheduler: str | None = None
    """A Dask scheduler address (tcp://HOST:PORT): placement jobs run their SAT queries as
    cube-and-conquer on that cluster (issue 13)."""
    atlas_dir: Path | None = None
    """The atlas served read-only at ``/atlas`` (an ``atlas build`` directory); None: the
    atlas shipped with chessdom."""
    max_proof_bytes: int | None = None
    """The largest proof a certificate keeps in one file; past it the refutation is split
    into cubes, each under it. None: the proof form's own limit, 32 MiB for DRAT, whose
    check costs more than linearly in a proof's size and holds it in memory at 11–15× its
    size, and the contract's limit on one proof (64 MiB) for LRAT, checked in linear time.
    At most the contract's limit, or the checker could not read what the service makes."""

    def __post_init__(self) -> None:
        if self.max_proof_bytes is not None and not 0 < self.max_proof_bytes <= CONTRACT_MAX_PROOF_BYTES:
            raise ValueError(f"max_proof_bytes (CHESSDOM_MAX_PROOF_BYTES) must be in 1…{CONTRACT_MAX_PROOF_BYTES}, "
                             f"the certificate contract's limit on one proof; got {self.max_proof_bytes}")

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        """Defaults, then ``CHESSDOM_*`` environment variables, then ``overrides``."""
        env = os.environ
        settings = cls()
        values = {}
        values["data_dir"] = data_dir_from_env()
        for name, kind in (
            ("solver_slots", int), ("max_queued_jobs", int), ("max_queued_jobs_per_token", int),
            ("max_stored_bytes_per_token", int), ("max_certificate_bytes", int), ("max_slot_waiters", int),
            ("max_body_bytes", int), ("request_read_seconds", float), ("write_stall_seconds", float),
            ("switch_interval", float),
            ("retention_days", float), ("max_proof_bytes", int),
        ):
            key = env_name(name)
            if key in env:
                values[name] = kind(env[key])
        values["tokens"] = tokens_from_env(env)
        if env.get("CHESSDOM_ATLAS"):
            values["atlas_dir"] = Path(env["CHESSDOM_ATLAS"])
        if env.get("CHESSDOM_ALLOWED_HOSTS"):
            values["allowed_hosts"] = LOOPBACK_NAMES + tuple(env["CHESSDOM_ALLOWED_HOSTS"].replace(",", " ").split())
        values.update(overrides)
        return replace(settings, **values)
