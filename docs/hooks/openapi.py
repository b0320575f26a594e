"""MkDocs hook: the HTTP reference, rendered from the service's own OpenAPI document.

At build time the app factory builds the service on a throw-away data directory (no job
runner, no recovery), the test client asks it for ``/openapi.json``, and this hook writes
that document into the site (``reference/openapi.json``) and renders its operations and
schemas as Markdown where the page ``reference/http-api.md`` says ``<!-- openapi -->``.
Nothing is written by hand and nothing comes from a CDN: the page is static and works
offline."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from mkdocs.structure.files import File

MARKER = "<!-- openapi -->"
PAGE = "reference/http-api.md"
DOCUMENT = "reference/openapi.json"

_document: dict | None = None


def openapi_document() -> dict:
    """The document ``GET /openapi.json`` serves, from an app built by the factory."""
    from chessdom.api import create_app

    with tempfile.TemporaryDirectory(prefix="chessdom-openapi-") as data_dir:
        app = create_app(data_dir=Path(data_dir), run_jobs=False, recover_jobs=False)
        try:
            response = app.test_client().get("/openapi.json")
            if response.status_code != 200:
                raise RuntimeError(f"GET /openapi.json answered {response.status_code}")
            return response.get_json()
        finally:
            app.extensions["chessdom"].shutdown()


def on_config(config):
    global _document
    _document = openapi_document()
    return config


def on_files(files, config):
    files.append(File.generated(config, DOCUMENT, content=json.dumps(_document, indent=2) + "\n"))
    return files


def on_page_markdown(markdown: str, page, config, files):
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"{PAGE} lost its {MARKER} marker")
    return markdown.replace(MARKER, render(_document))


# ---- rendering ------------------------------------------------------------------------

SCHEMA_PREFIX = "#/components/schemas/"


def schema_anchor(name: str) -> str:
    return "schema-" + name.lower()


def _operation_text(operation: dict) -> str:
    """The summary (the docstring's first sentence) and the description (the rest, in
    Markdown paragraphs), as the service's document gives them."""
    return "\n\n".join(filter(None, [operation.get("summary"), operation.get("description")]))


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _code(value) -> str:
    return f"`{json.dumps(value) if not isinstance(value, str) else value}`"


def type_of(schema: dict) -> str:
    """A schema as a short phrase: ``integer``, ``array of string``, a link to a named schema."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(SCHEMA_PREFIX)
        return f"[{name}](#{schema_anchor(name)})"
    for key in ("anyOf", "oneOf"):
        if key in schema and "properties" not in schema:
            return " or ".join(dict.fromkeys(type_of(choice) for choice in schema[key]))
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return type_of(schema["allOf"][0])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return f"array of {type_of(items)}" if items else "array"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {type_of(schema['additionalProperties'])}"
    if isinstance(kind, list):
        return " or ".join(kind)
    return kind or "any"


def constraints_of(schema: dict) -> list[str]:
    """Allowed values and limits, found in the schema or in the branches of its ``anyOf``."""
    found = []
    for part in [schema, *schema.get("anyOf", [])]:
        if "const" in part:
            found.append(f"always {_code(part['const'])}")
        if "enum" in part:
            found.append("one of " + " · ".join(_code(value) for value in part["enum"]))
        for key, words in (
            ("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<"),
            ("minItems", "items ≥"), ("maxItems", "items ≤"), ("minLength", "length ≥"), ("maxLength", "length ≤"),
        ):
            if key in part:
                value = part[key]
                found.append(f"{words} {int(value) if float(value).is_integer() else value}")
        if "pattern" in part:
            found.append(f"matches `{part['pattern']}`")
    return found


def _field_rows(schema: dict) -> list[str]:
    required = set(schema.get("required", []))
    rows = []
    for name, field in schema.get("properties", {}).items():
        notes = [field["description"]] if field.get("description") else []
        notes += constraints_of(field)
        default = "" if name in required or field.get("default") is None else _code(field["default"])
        rows.append(
            f"| `{name}` | {_cell(type_of(field))} | {'yes' if name in required else ''} | {_cell(default)} "
            f"| {_cell('; '.join(notes))} |"
        )
    return rows


def _alternatives(schema: dict) -> list[str]:
    """Each ``oneOf`` of required sets, such as ``size`` or ``rows`` and ``cols``, on the
    object or among its ``allOf``, as a sentence."""
    sentences = []
    for part in [schema, *schema.get("allOf", [])]:
        choices = part.get("oneOf", [])
        if not choices or not all("required" in choice for choice in choices):
            continue
        sets = [" and ".join(f"`{name}`" for name in choice["required"]) for choice in choices]
        if len(sets) == 2:
            sentences.append(f"Give either {sets[0]}, or {sets[1]}, not both.")
        else:
            sentences.append("Give exactly one of: " + "; ".join(sets[:-1]) + "; or " + sets[-1] + ".")
    return sentences


def _schema_body(schema: dict) -> list[str]:
    out = []
    alternatives = _alternatives(schema) if "properties" in schema else []
    if alternatives:
        out += [" ".join(alternatives), ""]
    out += ["| field | type | required | default | notes |", "|---|---|---|---|---|", *_field_rows(schema), ""]
    if schema.get("additionalProperties") is False:
        out += ["No other fields are accepted.", ""]
    return out


def render_schema(name: str, schema: dict) -> list[str]:
    out = [f"### {name} {{#{schema_anchor(name)}}}", ""]
    if schema.get("description"):
        out += [schema["description"], ""]
    if "properties" in schema:
        out += _schema_body(schema)
    elif "oneOf" in schema or "anyOf" in schema:
        out += [f"One of: {type_of(schema)}.", ""]
        discriminator = schema.get("discriminator")
        if discriminator:
            out += [f"Told apart by the field `{discriminator['propertyName']}`:", ""]
            for value, target in discriminator.get("mapping", {}).items():
                out.append(f"- `{value}`: {type_of({'$ref': target})}")
            out.append("")
    else:
        out += [f"Type: {type_of(schema)}.", ""]
    return out


def _parameters(operation: dict) -> list[str]:
    parameters = operation.get("parameters", [])
    if not parameters:
        return []
    out = ["**Parameters**", "", "| name | in | type | required | default | notes |", "|---|---|---|---|---|---|"]
    for parameter in parameters:
        schema = parameter.get("schema", {})
        notes = [parameter["description"]] if parameter.get("description") else []
        notes += constraints_of(schema)
        default = _code(schema["default"]) if "default" in schema and schema["default"] is not None else ""
        out.append(
            f"| `{parameter['name']}` | {parameter['in']} | {_cell(type_of(schema))} "
            f"| {'yes' if parameter.get('required') else ''} | {_cell(default)} | {_cell('; '.join(notes))} |"
        )
    return [*out, ""]


def _request_body(operation: dict, schemas: dict) -> list[str]:
    """The body's media type and schema, with the schema's fields inline: they are what a
    caller writes."""
    body = operation.get("requestBody")
    if not body:
        return []
    out = []
    for media_type, content in body.get("content", {}).items():
        schema = content.get("schema", {})
        needed = "required" if body.get("required") else "optional"
        out += [f"**Request body** ({needed}, `{media_type}`): {type_of(schema)}", ""]
        named = schemas.get(schema.get("$ref", "").removeprefix(SCHEMA_PREFIX), {})
        if "properties" in named:
            out += _schema_body(named)
        if "example" in content:
            out += ["Example:", "", "```json", json.dumps(content["example"], indent=2), "```", ""]
    return out


def _body(content: dict) -> str:
    return "; ".join(
        f"`{media_type}` {type_of(entry['schema'])}" if entry.get("schema") else f"`{media_type}`"
        for media_type, entry in content.items()
    )


def _responses(operation: dict) -> list[str]:
    """Each answer that is not an error in a row; the errors, which share one body (the
    problem details), on one line."""
    responses = sorted(operation.get("responses", {}).items())
    answers = [(status, response) for status, response in responses if int(status) < 400]
    errors = [(status, response) for status, response in responses if int(status) >= 400]
    out = []
    if answers:
        out += ["**Responses**", "", "| status | meaning | body |", "|---|---|---|"]
        for status, response in answers:
            out.append(
                f"| {status} | {_cell(response.get('description', ''))} | {_cell(_body(response.get('content', {})))} |"
            )
        out.append("")
    for body in dict.fromkeys(_body(response.get("content", {})) for _, response in errors):
        statuses = " · ".join(
            f"{status} {response.get('description', '')}".strip()
            for status, response in errors if _body(response.get("content", {})) == body
        )
        out += [f"**Errors** ({body or 'no body'}): {statuses}", ""]
    return out


def _security(operation: dict, document: dict) -> list[str]:
    requirements = operation.get("security", document.get("security"))
    if not requirements:
        return ["Authorization: none (public even when the service has tokens).", ""]
    if {} in requirements:
        return ["Authorization: `Bearer` token once the service has tokens; none without.", ""]
    return ["Authorization: `Bearer` token.", ""]


def render_operation(method: str, path: str, operation: dict, document: dict) -> list[str]:
    anchor = re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")
    out = [f"### `{method.upper()} {path}` {{#{anchor}}}", ""]
    text = _operation_text(operation)
    if text:
        out += [text, ""]
    out += _security(operation, document)
    out += _parameters(operation)
    out += _request_body(operation, document.get("components", {}).get("schemas", {}))
    out += _responses(operation)
    return out


def render(document: dict) -> str:
    """The document's operations, grouped by tag in the document's order, then its schemas."""
    info = document.get("info", {})
    out = [
        f"*{info.get('title', '')} {info.get('version', '')}, OpenAPI {document.get('openapi', '')}: "
        f"[the document as JSON]({Path(DOCUMENT).name}).*",
        "",
    ]
    tags = document.get("tags", [])
    operations = [
        (method, path, operation)
        for path, item in document.get("paths", {}).items()
        for method, operation in item.items()
    ]
    names = [tag["name"] for tag in tags]
    names += sorted({tag for *_, op in operations for tag in op.get("tags", [])} - set(names))
    descriptions = {tag["name"]: tag.get("description", "") for tag in tags}
    for name in names:
        tagged = [entry for entry in operations if name in entry[2].get("tags", [])]
        if not tagged:
            continue
        out += [f"## {name.capitalize()}", ""]
        if descriptions.get(name):
            out += [descriptions[name] + ".", ""]
        for method, path, operation in tagged:
            out += render_operation(method, path, operation, document)
    untagged = [entry for entry in operations if not entry[2].get("tags")]
    if untagged:
        out += ["## Other", ""]
        for method, path, operation in untagged:
            out += render_operation(method, path, operation, document)
    schemas = document.get("components", {}).get("schemas", {})
    if schemas:
        out += ["## Schemas", ""]
        for name in sorted(schemas):
            out += render_schema(name, schemas[name])
    return "\n".join(out)
