"""The application factory: everything the app holds lives on the app it builds."""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version

from flask import request
from flask_openapi3 import Info, OpenAPI
from werkzeug.exceptions import BadRequest

from chessdom.atlas import Atlas

from chessdom.api.http.access import register_access
from chessdom.api.http.atlas import atlas_routes, open_atlas
from chessdom.api.http.certificates import certificates
from chessdom.api.http.docs import register_docs
from chessdom.api.http.errors import problem, register_error_handlers, validation_problem
from chessdom.api.http.lab import lab
from chessdom.api.http.routes import api
from chessdom.api.http.schemas import ProblemDetail
from chessdom.api.kinds import job_call
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.config import Settings
from chessdom.api.runtime.executor import SolverPool
from chessdom.api.runtime.jobs import JobRunner
from chessdom.api.runtime.locks import RunnerLock
from chessdom.api.runtime.service import SolveService
from chessdom.api.runtime.slots import SolverSlots
from chessdom.api.runtime.store import Store


@dataclass
class Context:
    settings: Settings
    store: Store
    pool: SolverPool
    service: SolveService
    runner: JobRunner | None
    atlas: Atlas
    """Read-only, opened once: ``/atlas`` and the atlas link beside placement answers."""

    def shutdown(self, wait: float = 0.0) -> None:
        """Stop taking jobs and kill every running solver now; the jobs they ran go back
        to the queue for the next server (within ``wait`` seconds: 0 in a signal handler)."""
        if self.runner is not None:
            self.runner.stop()
        self.pool.shutdown()
        if self.runner is not None and wait > 0:
            self.runner.join(wait)
            self.runner.runner.release()


def create_app(settings: Settings | None = None, **overrides) -> OpenAPI:
    """Build the service. ``overrides`` replace single settings, e.g. ``data_dir=tmp``."""
    settings = Settings.from_env(**overrides) if settings is None else settings
    app = OpenAPI(
        __name__,
        info=Info(
            title="chessdom",
            version=version("chessdom"),
            description="Provably optimal chessboard domination, knight's tours, paths and N-Queens.",
        ),
        doc_ui=False,
        security_schemes={"bearer": {"type": "http", "scheme": "bearer"}},
        validation_error_status=422,
        validation_error_model=ProblemDetail,
        validation_error_callback=validation_problem,
    )
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    register_error_handlers(app)
    app.extensions["chessdom"] = _start_service(settings)
    register_access(app, settings)
    app.before_request(_require_json_object)
    app.register_api(api)
    app.register_api(certificates)
    app.register_api(atlas_routes)
    app.register_api(lab)
    register_docs(app)
    return app


def _start_service(settings: Settings) -> Context:
    """The store, the solver pool, the service and (unless ``run_jobs`` is off) the job
    runner, started."""
    store = Store(settings.data_dir)
    # Certificates expire with the jobs and runs they came from.
    certificate_store = CertificateStore(settings.data_dir)
    store.on_expire(lambda cutoff: certificate_store.expire(time.time() - cutoff))
    if settings.recover_jobs:
        # Another live process may share this store, so only expired leases are taken
        # back here; `chessdom serve` requeues every running job before any worker starts.
        store.requeue_running(older_than=settings.job_lease)
    pool = SolverPool(SolverSlots(settings.data_dir / "slots", settings.solver_slots), settings.data_dir,
                      settings.max_proof_bytes)
    service = SolveService(
        store, pool, settings.kill_grace, certificate_store, max_certificate_bytes=settings.max_certificate_bytes,
        max_stored_per_owner=settings.max_stored_bytes_per_token, max_slot_waiters=settings.max_slot_waiters,
    )
    runner = None
    if settings.run_jobs:
        # Jobs leave slot 0 to synchronous requests whenever there is more than one.
        runner = JobRunner(
            service, store, job_call, concurrency=max(1, settings.solver_slots - 1), lease=settings.job_lease,
            retention=settings.retention_days * 86400, runner=RunnerLock(settings.data_dir),
            scheduler=settings.scheduler,
        )
        runner.start()
    return Context(settings, store, pool, service, runner, open_atlas(settings.atlas_dir))


def _require_json_object():
    """A POST, PUT or PATCH body must be a JSON object (400 before validation otherwise)."""
    if request.method in ("POST", "PUT", "PATCH") and request.routing_exception is None:
        try:
            body = request.get_json(force=True)
        except (BadRequest, RecursionError):  # RecursionError: nesting too deep to parse
            return problem(400, "the request body is not valid JSON")
        if not isinstance(body, dict):
            return problem(400, "the request body must be a JSON object")
    return None
