"""What every request model shares: :class:`StrictModel`, the base that rejects unknown
fields and enforces the rules across fields, each of which its schema also publishes —
:class:`ExactlyOne` (one of several forms of a field group) and :class:`Limit` (a limit
that holds only with other fields' values), whose 422s name the field at fault
(:func:`field_error`); :func:`Integer`, an integer field whose bounds the schema says; and
:func:`examples`, the request bodies /openapi.json shows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError


def _integral(value):
    """JSON Schema's "integer" includes 12.0; strict ints alone would reject it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def Integer(low: int, high: int, **field):  # noqa: N802 - used like a type
    """An integer in low…high. The bounds come before the validator, so that the JSON
    schema publishes them as ``minimum`` and ``maximum``."""
    return Annotated[int, Field(ge=low, le=high, **field), BeforeValidator(_integral)]


def field_error(model: type[BaseModel], field: str, value, code: str, message: str, params: dict | None = None
                ) -> ValidationError:
    """The error of a check across fields, located at ``field``: a model validator's own
    errors name no field, and a 422 names one. ``code`` and ``params`` say it without
    words, for clients that translate; ``message`` may name the params as ``{limit}``."""
    error = PydanticCustomError(code, message, params)
    return ValidationError.from_exception_data(model.__name__, [InitErrorDetails(type=error, loc=(field,), input=value)])


@dataclass(frozen=True)
class ExactlyOne:
    """Exactly one of ``forms`` (each a tuple of fields given together), and no field of
    another: the model's validator enforces it and its schema says it (``oneOf``)."""

    forms: tuple[tuple[str, ...], ...]

    def schema(self) -> dict:
        return {"oneOf": [
            {"required": list(form),
             "not": {"anyOf": [{"required": [name]} for other in self.forms if other != form for name in other]}}
            for form in self.forms
        ]}

    def check(self, model: BaseModel) -> None:
        given = [form for form in self.forms if any(getattr(model, name) is not None for name in form)]
        choices = ", or ".join(" and ".join(form) for form in self.forms)
        if len(given) > 1:
            name = given[1][0]
            raise field_error(type(model), name, getattr(model, name), "conflicting_fields",
                              f"give either {choices}, not both")
        missing = [name for name in (given or self.forms)[0] if getattr(model, name) is None]
        if missing:
            raise field_error(type(model), missing[0], None, "missing", f"give {choices}")


@dataclass(frozen=True)
class Limit:
    """A limit on ``field`` that holds only with other fields' values (``when``; a field
    left out has its default): the model's validator enforces it, its schema says it
    and so does the field's description."""

    field: str
    when: dict
    maximum: int
    code: str
    what: str
    advice: str = ""

    def schema(self, model: type[BaseModel]) -> dict:
        # "Not these values with a larger field" (flask-openapi3 keeps no if/then). A field
        # left out takes its default, so it must be present only to match another value.
        required = [name for name, value in self.when.items() if model.model_fields[name].default != value]
        properties = {name: {"const": value} for name, value in self.when.items()}
        return {"not": {"required": [*required, self.field],
                        "properties": {**properties, self.field: {"exclusiveMinimum": self.maximum}}}}

    def words(self) -> str:
        condition = " and ".join(
            f"{name} {wanted if isinstance(wanted, str) else json.dumps(wanted)}" for name, wanted in self.when.items()
        )
        return f"with {condition}: ≤ {self.maximum}"

    def check(self, model: BaseModel) -> None:
        value = getattr(model, self.field)
        if value > self.maximum and all(getattr(model, name) == wanted for name, wanted in self.when.items()):
            raise field_error(type(model), self.field, value, self.code,
                              f"{self.what} is limited to {self.field} ≤ {{limit}}{self.advice}", {"limit": self.maximum})


def _publish_rules(schema: dict, model: type[StrictModel]) -> None:
    """Say in the schema what the validator enforces, so clients, fuzzers and the docs know."""
    rules = [rule.schema() for rule in model.exactly_one] + [limit.schema(model) for limit in model.limits]
    if rules:
        schema["allOf"] = rules
    for name in {limit.field for limit in model.limits}:
        field = schema["properties"][name]
        words = "; ".join(limit.words() for limit in model.limits if limit.field == name)
        field["description"] = " ".join(filter(None, [field.get("description"), f"Limits with other fields (else 422 "
                                                      f"naming {name}): {words}"]))


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_publish_rules)
    exactly_one: ClassVar[tuple[ExactlyOne, ...]] = ()
    limits: ClassVar[tuple[Limit, ...]] = ()

    @model_validator(mode="after")
    def _rules(self):
        for rule in (*self.exactly_one, *self.limits):
            rule.check(self)
        return self


def examples(**named: tuple[str, dict]) -> ConfigDict:
    """Request bodies shown in /openapi.json (flask-openapi3 puts ``openapi_extra`` on the
    body's media type), each a valid request: Swagger UI's "Try it out" starts from the
    first. A test posts every one."""
    return ConfigDict(openapi_extra={"examples": {
        name: {"summary": summary, "value": value} for name, (summary, value) in named.items()
    }})
