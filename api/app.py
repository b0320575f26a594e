"""The application factory: everything the app holds lives on the app it builds."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import version

from flask import jsonify, request
from flask_openapi3 import Info, OpenAPI
from werkzeug.exceptions import BadRequest

from chessdom.api.config import Settings
from chessdom.api.docs import docs_page, openapi_document
from chessdom.api.errors import problem, register_error_handlers, validation_problem
from chessdom.api.executor import SolverPool
from chessdom.api.jobs import JobRunner
from chessdom.api.lab import lab
from chessdom.api.routes import api
from chessdom.api.schemas import ProblemDetail
from chessdom.api.service import SolveService, SolveTimedOut
from chessdom.api.slots import SolverSlots
from chessdom.api.store import Store


@dataclass
class Context:
    settings: Settings
    store: Store
    pool: SolverPool
    service: SolveService
    runner: JobRunner | None


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
        security_schemes={},
        validation_error_status=422,
        validation_error_model=ProblemDetail,
        validation_error_callback=validation_problem,
    )
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    register_error_handlers(app)
    app.register_error_handler(
        SolveTimedOut,
        lambda error: problem(503, f"{error}; submit long solves to /jobs", headers={"Retry-After": "5"}),
    )

    store = Store(settings.data_dir)
    if settings.recover_jobs:
        # Another live process may share this store, so only expired leases are taken
        # back here; `python -m chessdom.api` requeues every running job before any worker starts.
        store.requeue_running(older_than=settings.job_lease)
    pool = SolverPool(SolverSlots(settings.data_dir / "slots", settings.solver_slots))
    service = SolveService(store, pool, settings.kill_grace)
    runner = None
    if settings.run_jobs:
        # Jobs leave slot 0 to synchronous requests whenever there is more than one.
        runner = JobRunner(service, store, max(1, settings.solver_slots - 1), settings.job_lease)
        runner.start()
    app.extensions["chessdom"] = Context(settings, store, pool, service, runner)

    @app.before_request
    def require_json_object():
        if request.method in ("POST", "PUT", "PATCH") and request.routing_exception is None:
            try:
                body = request.get_json(force=True)
            except (BadRequest, RecursionError):  # RecursionError: nesting too deep to parse
                return problem(400, "the request body is not valid JSON")
            if not isinstance(body, dict):
                return problem(400, "the request body must be a JSON object")
        return None

    app.register_api(api)
    app.register_blueprint(lab)
    app.add_url_rule("/openapi.json", "openapi_json", lambda: jsonify(openapi_document(app)))
    app.add_url_rule("/docs", "docs", lambda: docs_page(openapi_document(app)))
    return app
