"""The API description: ``/openapi.json`` as generated from the request and response
models, and ``/docs``, Swagger UI from the flask-openapi3-swagger package, which ships its
assets (the service may run with no network, so nothing comes from a CDN)."""

from __future__ import annotations

import copy
import re

from flask import Flask, jsonify, redirect
from flask_openapi3_swagger.plugins import RegisterPlugin as SwaggerUI

DOCS_PREFIX = "/docs"
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")


def _paragraphs(text: str) -> list[str]:
    """A docstring's paragraphs, each on one line."""
    return [" ".join(block.split()) for block in re.split(r"\n\s*\n", text) if block.strip()]


def describe(operation: dict) -> None:
    """Make the summary the docstring's whole first sentence, in plain words (Swagger UI and
    other tools show it as text, so without Markdown's backticks), and the description the
    rest, in Markdown paragraphs. flask-openapi3 cuts the docstring after its first line,
    which can end mid-sentence, and joins the rest with ``<br/>``."""
    lines = [operation.get("summary", ""), *operation.get("description", "").split("<br/>")]
    paragraphs = _paragraphs("\n".join(lines))
    if not paragraphs:
        return
    first, *rest_of_first = SENTENCE_END.split(paragraphs[0], maxsplit=1)
    operation["summary"] = first.replace("`", "")
    rest = [*rest_of_first, *paragraphs[1:]]
    if rest:
        operation["description"] = "\n\n".join(rest)
    else:
        operation.pop("description", None)


def openapi_document(app) -> dict:
    """The generated OpenAPI document, with each operation's summary a whole sentence (see
    :func:`describe`) and error responses declared as the ``application/problem+json`` the
    service sends (the generator says ``application/json``)."""
    spec = copy.deepcopy(app.api_doc)  # the generator caches its document; leave it intact
    for operations in spec["paths"].values():
        for operation in operations.values():
            describe(operation)
            for status, response in operation.get("responses", {}).items():
                content = response.get("content", {})
                if int(status) >= 400 and "application/json" in content:
                    content["application/problem+json"] = content.pop("application/json")
    return spec


SWAGGER_CONFIG = {"layout": "BaseLayout"}
"""Swagger UI without its top bar: the bar's logo is an SVG with an inline style, which the
page's own Content-Security-Policy refused (a console error on every visit), and its box
for exploring other documents' URLs has nothing to offer here."""


def register_docs(app: Flask) -> None:
    app.config["SWAGGER_CONFIG"] = SWAGGER_CONFIG
    app.add_url_rule("/openapi.json", "openapi_json", lambda: jsonify(openapi_document(app)))
    # The UI page refers to its assets relative to itself: /docs/swagger → /docs/swagger/js/…
    app.register_blueprint(SwaggerUI.register(doc_url="/openapi.json"), url_prefix=DOCS_PREFIX)
    app.add_url_rule(DOCS_PREFIX, "docs", lambda: redirect(f"{DOCS_PREFIX}/{SwaggerUI.name}"))
