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
    form: Literal["tree", "lrat", "drat", "cliques"] = "drat"
    """``tree``: the branch-and-bound's own search tree, replayed by the checker (contract
    version 5); ``lrat``: the plain formula and its LRAT refutations, binary and
    gzip-compressed (version 6); ``drat``: the plain formula and its text DRAT refutations;
    ``cliques``: independence bounded by the board split into cliques, the manifest alone
    (version 8)."""
    manifest: str
    """The manifest; ``DELETE`` on it deletes the certificate."""
    formula: str | None
    """The plain formula in DIMACS; null for a search tree, which has none."""
    proof: str | None
    """The one proof (``proof.drat``, or ``proof.lrat.gz`` for ``lrat``); null for a cube bundle, whose proofs
    are in the archive, and for a search tree."""
    tree: str | None = None
    """The search tree (``tree.bin``, binary); null for a DRAT certificate."""
    archive: str
    """The whole certificate directory as a .tar.gz."""
    claim: str | None = None
    """What the certificate proves in words, as the manifest states it."""
    cubes: int | None = None
    """How many cubes the refutation was split into; null for one proof."""
    bytes: int | None = None
    """What it takes on disk, counted toward your token's storage."""
    checked: bool
    """True only after the independent checker accepted the certificate."""
    checker: dict[str, Any]
    seconds: float | None = None
    """What the certificate took after the solve: writing it (a tree's compression, or DRAT proof
    logging) and the independent check."""


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


class AtlasLink(BaseModel):
    """Beside a placement answer: the atlas's entry for the same n×n problem."""

    value: int | None
    """The atlas's proved value (null for an entry out of reach, or one with no placement)."""
    agrees: bool | None
    """Whether the answer's value is the atlas's; null when either has none to compare."""
    href: str
    """The entry, ``GET /atlas/{piece}/{parameter}/{n}``."""


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
    atlas: AtlasLink | None = None
    """The atlas's entry for this n×n problem, when it has one (null otherwise)."""


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


class AtlasCount(BaseModel):
    all: int | None
    """Optimal placements in all; null when the enumeration was out of reach (``note`` says why)."""
    classes: int | None
    """Their classes under the board's symmetries."""
    note: str | None = None


class AtlasSummary(BaseModel):
    """One row of the atlas's index."""

    piece: str
    parameter: str
    rows: int
    cols: int
    n: int | None
    """The side of a square board; null for a rectangle (which has no ``href``)."""
    status: Literal["proved", "out_of_reach", "none_exists"]
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    count: AtlasCount
    href: str | None


class AtlasIndex(BaseModel):
    entries: list[AtlasSummary]
    total: int
    """Entries matching the filters, over every page."""
    next_cursor: int | None
    """The ``cursor`` of the next page; null on the last page."""


class AtlasClass(BaseModel):
    index: int
    orbit_size: int
    """How many optimal placements the class holds."""
    squares: list[str]
    """Its representative, the lex-leader."""


class AtlasClassPage(BaseModel):
    classes: list[AtlasClass]
    total: int
    next_cursor: int | None


class AtlasDownload(BaseModel):
    """A certificate archive of an entry, as ``chessdom certificate check`` takes it."""

    href: str | None
    """Null when the archive is not shipped here (too large): ``rebuild_command`` remakes it."""
    sha256: str | None
    bytes: int | None
    shipped: bool


class AtlasEntry(AtlasSummary):
    witness: list[str]
    note: str | None
    """Why an entry is out of reach; null otherwise."""
    certificate: AtlasDownload | None
    """The bound's certificate; null when there is none (no placement exists, or out of reach)."""
    count_certificate: AtlasDownload | None
    rebuild_command: str
    checked_by: str | None
    checked_at: str | None
    seconds: float
    chessdom_version: str
    revision: str | None
    classes: AtlasClassPage
    """A page of its classes (``cursor``, ``limit``); ``classes_href`` pages them too."""
    classes_href: str
    classes_csv: str
    """Every class as CSV: class_index, orbit_size, squares (space-separated)."""


class PieceNames(BaseModel):
    """A piece's name in one language: one and many, and the forms the language needs
    beside them (Hungarian: ``instrumental``, ``accusative``, ``also``: other names)."""

    model_config = ConfigDict(extra="allow")
    one: str
    many: str


class PieceDeclaration(BaseModel):
    """One piece as the library declares it: how it slides and leaps (row, column steps)."""

    name: str
    letter: str
    glyph: str
    slides: list[list[int]]
    leaps: list[list[int]]
    names: dict[str, PieceNames]
    """By language: ``en``, ``hu``."""


class PieceList(BaseModel):
    pieces: list[PieceDeclaration]

