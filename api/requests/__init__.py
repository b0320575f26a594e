"""Request models: they validate every request (unknown fields rejected) and generate the
OpenAPI document; limits are part of the schema, so the docs say them, and so are limits
across fields, whose 422s name the field at fault. In rooms by idea:

- :mod:`.rules` — the base every request shares and its rules across fields
  (:class:`~.rules.ExactlyOne`, :class:`~.rules.Limit`), integer fields, examples;
- :mod:`.fields` — the fields several kinds share (the board, pieces, squares, seeds, time
  limits) and the service's own limits;
- :mod:`.placements` — domination, independence and verify;
- :mod:`.searches` — N-Queens, tours and paths.

This package's names are the request models of each kind and their job forms, which the
registry of kinds (:mod:`chessdom.api.kinds`) declares."""

from chessdom.api.requests.placements import (
    DominationJob,
    DominationRequest,
    IndependenceJob,
    IndependenceRequest,
    PlacementRequest,
    VerifyRequest,
)
from chessdom.api.requests.searches import NQueensJob, NQueensRequest, PathRequest, TourJob, TourRequest

__all__ = [
    "DominationJob",
    "DominationRequest",
    "IndependenceJob",
    "IndependenceRequest",
    "NQueensJob",
    "NQueensRequest",
    "PathRequest",
    "PlacementRequest",
    "TourJob",
    "TourRequest",
    "VerifyRequest",
]
