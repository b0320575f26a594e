"""The answers of the problem kinds, as documented in the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from chessdom.chessboard import Status
from chessdom.native_search import PATH_STATUSES, TOUR_STATUSES


class SolverInfo(BaseModel):
    name: str
    version: str
    params: dict[str, Any]


class Literature(BaseModel):
    value: int
    source: str
    agrees: bool | None


class Certificate(BaseModel):
    """A certificate of the bound, or of a count (the docs: "The certificate contract")."""

    id: str
    manifest: str
    formula: str
    proof: str | None
    """The one DRAT proof; null for a cube bundle, whose proofs are in the archive."""
    archive: str
    """The whole certificate directory as a .tar.gz."""
    claim: str | None = None
    """What the certificate proves in words, as the manifest states it."""
    cubes: int | None = None
    """How many cubes the refutation was split into; null for one proof."""
    checked: bool
    """True only after the independent checker accepted the certificate."""
    checker: dict[str, Any]
    seconds: float | None = None
    """What the certificate took after the solve: proof logging and the independent check."""


class PublishedCount(BaseModel):
    """The published number of optimal placements, beside the computed count, never used as it."""

    solutions: int
    up_to_symmetry: int | None
    """Null where the source gives no count up to symmetry."""
    source: str
    agrees: bool | None
    """Whether the exact computed count matches every number the source gives; null when
    the count is not exact."""


class Count(BaseModel):
    solutions: int
    up_to_symmetry: int
    exact: bool
    literature: PublishedCount | None = None
    """The published count (n×n boards in the project's table of OEIS terms), or null."""
    representatives: list[list[str]] | None = None
    """One placement per symmetry class (its lex-leader), when asked; a job pages them at
    ``GET /jobs/{id}/representatives``."""
    certificate: Certificate | None = None
    """With ``certify``: a certificate of the count and its classes (the formula with every
    listed placement blocked, refuted), or null with ``certificate_unavailable`` saying why."""
    certificate_unavailable: str | None = None


class PlacementResponse(BaseModel):
    problem: dict[str, Any]
    status: Literal[tuple(status.value for status in Status)]
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    optimal: bool
    placement: list[str]
    verified: bool
    proof: str | None
    solver: SolverInfo
    wall_time: float
    literature: Literature | None
    count: Count | None
    cached: bool = False
    certificate: Certificate | None = None
    """With ``certify``: the certificate, or null with ``certificate_unavailable`` saying why."""
    certificate_unavailable: str | None = None
    trace: list[dict[str, Any]] | None = None


class NQueensResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    size: int
    method: str
    solution: list[str] | None
    count: int | None
    up_to_symmetry: int | None
    nodes: int | None
    wall_time: float
    verified: bool | None = Field(description="whether the independent checker accepted the solution; null for "
                                              "a count by backtracking, which keeps no solution to check")
    trace: list[dict[str, Any]] | None = None


class TourResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal[TOUR_STATUSES]
    path: list[str] | None
    nodes: int
    wall_time: float
    reason: str | None = None
    trace: list[dict[str, Any]] | None = None


class PathResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: Literal[PATH_STATUSES]
    path: list[str] | None
    length: int | None
    nodes_expanded: int
    optimal: bool
    trace: list[dict[str, Any]] | None = None
