"""A human-readable page of the API, rendered from the generated OpenAPI document with
no script and no external assets (the service may run with no network)."""

from __future__ import annotations

import copy

from flask import render_template_string

TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ spec.info.title }} API</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
code, pre { background: #f4f4f4; padding: 0 .25rem; } table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
td, th { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
h2 { border-top: 1px solid #ccc; padding-top: 1rem; } .method { font-weight: bold; text-transform: uppercase; }
</style></head><body>
<h1>{{ spec.info.title }} {{ spec.info.version }}</h1>
<p>{{ spec.info.description }} Machine-readable: <a href="/openapi.json">/openapi.json</a>.
Errors are <code>application/problem+json</code> (RFC 9457) with the offending fields in <code>errors</code>.</p>
{% for path, operations in spec.paths.items() %}{% for method, op in operations.items() %}
<h2><span class="method">{{ method }}</span> <code>{{ path }}</code></h2>
<p>{{ op.summary }}</p>{% if op.description %}<p>{{ op.description }}</p>{% endif %}
{% set body = op.get("requestBody") %}{% if body %}
{% set schema = resolve(body.content["application/json"].schema) %}
<table><tr><th>field</th><th>type</th><th>limits and default</th></tr>
{% for name, field in schema.get("properties", {}).items() %}
<tr><td><code>{{ name }}</code>{% if name in schema.get("required", []) %} (required){% endif %}</td>
<td>{{ describe(field) }}</td><td>{{ limits(field) }}</td></tr>{% endfor %}</table>{% endif %}
<p>Responses: {% for code in op.responses %}<code>{{ code }}</code> {% endfor %}</p>
{% endfor %}{% endfor %}
</body></html>"""


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


def docs_page(spec: dict) -> str:
    schemas = spec.get("components", {}).get("schemas", {})

    def resolve(schema: dict) -> dict:
        if "$ref" in schema:
            return schemas[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def describe(field: dict) -> str:
        if "enum" in field:
            return " · ".join(map(str, field["enum"]))
        if "anyOf" in field:
            return " or ".join(describe(resolve(option)) for option in field["anyOf"])
        if field.get("type") == "array":
            return f"list of {describe(resolve(field.get('items', {})))}"
        return field.get("type", "object")

    def limits(field: dict) -> str:
        words = []
        for option in [field, *map(resolve, field.get("anyOf", []))]:
            for key, label in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("maxItems", "at most")):
                if key in option:
                    words.append(f"{label} {option[key]}")
        if "default" in field:
            words.append(f"default {field['default']!r}")
        if field.get("description"):
            words.append(field["description"])
        return "; ".join(words)

    return render_template_string(TEMPLATE, spec=spec, resolve=resolve, describe=describe, limits=limits)
