"""RFC 9457 problem details: every error the service sends is ``application/problem+json``."""

from __future__ import annotations

from http import HTTPStatus

from flask import Flask, Response, json
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

from chessdom.api.kinds import KINDS
from chessdom.api.runtime.calls import FieldError
from chessdom.api.runtime.service import ClientGone, ServiceBusy, SolveTimedOut
from chessdom.api.runtime.store import DiskFull, QuotaExceeded

PROBLEM_TYPE = "about:blank"

# A stable ``code`` beside the English ``detail`` (and on each field error, with its
# ``params``), so that a client such as the Board lab can say it in its own language.
STATUS_CODES = {
    400: "malformed_body", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
    422: "invalid_field", 429: "busy", 500: "internal_error", 503: "busy", 507: "insufficient_storage",
}
DISK_FULL_RETRY_SECONDS = 60


def _plain_params(context: dict | None) -> dict:
    """The numbers and words of a validation error's context (never its exception)."""
    return {key: value for key, value in (context or {}).items() if isinstance(value, (int, float, str))}


def problem(
    status: int, detail: str, errors: list[dict] | None = None, headers: dict | None = None, code: str | None = None
) -> Response:
    body = {"type": PROBLEM_TYPE, "title": HTTPStatus(status).phrase, "status": status, "detail": detail,
            "code": code or STATUS_CODES.get(status, "error")}
    if errors is not None:
        body["errors"] = errors
    response = Response(json.dumps(body), status=status, mimetype="application/problem+json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _field_name(location: tuple) -> str:
    # A tagged union (the job kinds) puts its tag first in the location; the client
    # never wrote that name, so drop it: "domination.params.size" → "params.size".
    if len(location) > 1 and location[0] in KINDS:
        location = location[1:]
    return ".".join(str(part) for part in location) or "body"


def validation_problem(error: ValidationError) -> Response:
    """422 naming each offending field (flask-openapi3's validation callback)."""
    errors = [
        {"field": _field_name(tuple(item["loc"])), "message": item["msg"], "code": item["type"],
         "params": _plain_params(item.get("ctx"))}
        for item in error.errors(include_url=False, include_context=True, include_input=False)
    ]
    fields = ", ".join(sorted({e["field"] for e in errors}))
    return problem(422, f"invalid value for {fields}", errors)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(FieldError)
    def field_error(error: FieldError):
        errors = [{"field": error.field, "message": error.message, "code": error.code, "params": error.params}]
        return problem(422, error.message, errors)

    @app.errorhandler(ServiceBusy)
    def busy(error: ServiceBusy):
        return problem(error.status, error.detail, headers={"Retry-After": str(error.retry_after)})

    @app.errorhandler(DiskFull)
    def disk_full(error: DiskFull):
        return problem(507, "the service's disk is full; nothing was stored. Retry later",
                       headers={"Retry-After": str(DISK_FULL_RETRY_SECONDS)}, code="disk_full")

    @app.errorhandler(QuotaExceeded)
    def quota_exceeded(error: QuotaExceeded):
        return problem(507, str(error), code="quota_exceeded")

    @app.errorhandler(SolveTimedOut)
    def timed_out(error: SolveTimedOut):
        return problem(503, f"{error}; submit long solves to /jobs", headers={"Retry-After": "5"}, code="timed_out")

    @app.errorhandler(ClientGone)
    def client_gone(error: ClientGone):
        # Nobody reads this answer; it is for the access log.
        return problem(503, str(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.response is not None:  # already a problem response (validation errors)
            return error.response
        if error.code == 413:
            limit = app.config["MAX_CONTENT_LENGTH"]
            return problem(413, f"request body is larger than the limit of {limit} bytes")
        headers = {"Allow": ", ".join(error.valid_methods)} if getattr(error, "valid_methods", None) else None
        return problem(error.code or 500, error.description or "", headers=headers)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        # A 5xx is always a bug: log it with its traceback, answer without one.
        app.logger.exception("unhandled error")
        return problem(500, "internal error; this is a bug, please report it")
