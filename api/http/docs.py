"""The API description: ``/openapi.json`` as generated from the request and response
models, and ``/docs``, Swagger UI from the flask-openapi3-swagger package, which ships its
assets (the service may run with no network, so nothing comes from a CDN)."""

from __future__ import annotations

import copy

from flask import Flask, jsonify, redirect
from flask_openapi3_swagger.plugins import RegisterPlugin as SwaggerUI

DOCS_PREFIX = "/docs"


def openapi_document(app) -> dict:
    """The generated OpenAPI document, with error responses declared as the
    ``application/problem+json`` the service sends (the generator says ``application/json``)."""
    spec = copy.deepcopy(app.api_doc)  # the generator caches its document; leave it intact
    for operations in spec["paths"].values():
        for operation in operations.values():
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
