"""RFC 9457 problem details: every error the service sends is ``application/problem+json``."""

from __future__ import annotations

import difflib
import typing
from http import HTTPStatus

from flask import Flask, Response, current_app, json, request
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import HTTPException

from chessdom.api.kinds import KINDS
from chessdom.api.requests.fields import JOB_MAX_TIME_LIMIT
from chessdom.api.runtime.calls import FieldError
from chessdom.api.runtime.service import ClientGone, ServiceBusy, SolveTimedOut
from chessdom.api.runtime.store import QuotaExceeded
from chessdom.api.runtime.store.database import DiskFull, ReadOnly

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


def _request_models() -> dict[str, type[BaseModel]]:
    """The models this request's view validates with, by name: a validation error names
    its model only by its title."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    hints = typing.get_type_hints(view) if view is not None else {}
    return {hint.__name__: hint for hint in hints.values() if isinstance(hint, type) and issubclass(hint, BaseModel)}


def _field_names_at(model: type[BaseModel], location: tuple) -> list[str]:
    """The fields the object at ``location`` in ``model`` may have, read from its JSON
    schema through properties, list items and the tags of a tagged union."""
    schema = model.model_json_schema()
    definitions = schema.get("$defs", {})

    def resolved(node: dict) -> dict:
        return definitions.get(node.get("$ref", "").removeprefix("#/$defs/"), node)

    node = resolved(schema)
    for part in location:
        tags = node.get("discriminator", {}).get("mapping", {})
        if isinstance(part, int):
            node = node.get("items", {})
        elif part in tags:
            node = {"$ref": tags[part]}
        else:
            node = node.get("properties", {}).get(part, {})
        node = resolved(node)
    return list(node.get("properties", {}))


def _field_problem(item: dict, model: type[BaseModel] | None) -> dict:
    """One field's error; a misspelled field also says which it may have meant."""
    location = tuple(item["loc"])
    message, params = item["msg"], _plain_params(item.get("ctx"))
    if item["type"] == "extra_forbidden" and model is not None and location:
        # 0.7 rather than difflib's 0.6: "colour" is not a slip for "cols".
        meant = difflib.get_close_matches(str(location[-1]), _field_names_at(model, location[:-1]), n=1, cutoff=0.7)
        if meant:
            message, params = f"{message}; did you mean {meant[0]!r}?", {**params, "suggestion": meant[0]}
    if location and location[-1] == "time_limit" and item["type"] == "less_than_equal" and request.path != "/jobs":
        # The limit is the synchronous one: a longer solve is what jobs are for.
        message += f"; a longer solve goes to POST /jobs (time_limit up to {JOB_MAX_TIME_LIMIT:g} s)"
    return {"field": _field_name(location), "message": message, "code": item["type"], "params": params}


def validation_problem(error: ValidationError) -> Response:
    """422 naming each offending field (flask-openapi3's validation callback)."""
    model = _request_models().get(error.title)
    errors = [
        _field_problem(item, model)
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
        # A read-only data directory is met as a full disk is, but said as what it is.
        what, code = ("is read-only", "read_only") if isinstance(error, ReadOnly) else ("disk is full", "disk_full")
        return problem(507, f"the service's data directory {what}; nothing was stored. Retry later",
                       headers={"Retry-After": str(DISK_FULL_RETRY_SECONDS)}, code=code)

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
