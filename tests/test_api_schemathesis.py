"""Property-based tests of the whole API from its own OpenAPI document: no input may
cause a 5xx, every response must match the schema the service publishes, and data that
breaks the schema must be rejected."""

from pathlib import Path
from tempfile import mkdtemp

import schemathesis
from hypothesis import HealthCheck, settings

from schemathesis.specs.openapi.checks import positive_data_acceptance

from chessdom.api import create_app

# Caps that keep every generated solve to a fraction of a second, so the suite stays
# fast; large boards and long limits are exercised by their own tests and benchmarks.
CAPS = {"time_limit": 0.5, "node_limit": 20_000, "rows": 12, "cols": 12}
SIZE_CAPS = {"/nqueens": 9, "default": 12}
# A certificate or a count is not bounded by time_limit: a certified tree for 12 rooks took
# 10 s here (measured), so the boards of those requests stay at 8×8.
PROOF_SIZE_CAP = 8


def capped(case):
    negative = case.meta is not None and case.meta.generation.mode.is_negative
    if isinstance(case.body, dict) and not negative:
        body = case.body.get("params") if case.path == "/jobs" else case.body
        if isinstance(body, dict):
            proof = body.get("certify") is True or body.get("count") is True
            for field, cap in CAPS.items():
                if field in ("rows", "cols") and proof:
                    cap = PROOF_SIZE_CAP
                if isinstance(body.get(field), (int, float)) and not isinstance(body[field], bool):
                    body[field] = min(body[field], cap)
            # JSON has no integers apart from numbers: 29.0 is a size too.
            if isinstance(body.get("size"), (int, float)) and not isinstance(body["size"], bool):
                cap = PROOF_SIZE_CAP if proof else SIZE_CAPS.get(case.path, SIZE_CAPS["default"])
                body["size"] = min(body["size"], cap)
    return case


# Built at import rather than from a fixture: schemathesis' fixture loader does not
# work with pytest 9 (AttributeError: 'Function' object has no attribute '_nodeid').
schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(data_dir=Path(mkdtemp()), run_jobs=False))


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_never_errors_and_keeps_its_schema(case):
    # A schema cannot say that a square name is off this particular board, so valid-looking
    # data may rightly get a 422: positive-data acceptance is the one check left out.
    capped(case).call_and_validate(excluded_checks=[positive_data_acceptance])
