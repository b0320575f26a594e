"""The typed answer of a solve: what a worker's task returns, the service records and the
store keeps. It holds the library's own result (a :class:`PlacementResult`, an
:class:`NQueensResult`, a :class:`TourResult`, a :class:`PathResult`, or the checker's
:class:`PlacementVerdict` for ``/verify``), the certificates made of it or why there are
none, the steps traced beside it and whether the cache served it. It crosses the worker
boundary pickled, and the store keeps it as JSON text (:func:`encode_answer`,
:func:`decode_answer`); the client's JSON is made of it at the HTTP edge, which alone
turns ids into URLs."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

import numpy as np

from chessdom.chessboard import (
    Board,
    LiteratureComparison,
    NQueensResult,
    Objective,
    Piece,
    PlacementProblem,
    PlacementResult,
    PublishedCount,
    SolutionCount,
    SolverInfo,
    Status,
)
from chessdom.native_search import PathResult, TourResult
from chessdom.native_search.tour_arrays import square_dtype


@dataclass(frozen=True)
class Certificate:
    """A certificate kept in the data directory under ``id``, as its maker and the
    independent checker left it."""

    id: str
    claim: str
    cubes: int | None
    """How many cubes the refutation was split into; None for one proof."""
    checked: bool
    checker: dict
    seconds: float | None = None
    """What it took after the solve: proof logging and the independent check."""
    size: int = 0
    """The bytes it takes on disk, measured once as it was committed."""
    form: str = "drat"
    """``tree``: the branch-and-bound's own search tree (contract version 5); ``drat``: a
    formula and its refutations (what every certificate was before version 5)."""
    files: tuple[str, ...] | None = None
    """The names of the files at the top of its directory (None: kept before they were
    listed, when a formula was always there and a proof unless split into cubes)."""


@dataclass(frozen=True)
class Certification:
    """What ``certify`` brought: a certificate, or why there is none."""

    certificate: Certificate | None
    unavailable: str | None = None


@dataclass(frozen=True)
class PlacementVerdict:
    """The independent checker's verdict on a placement given to ``/verify``."""

    pieces: int
    dominating: bool
    independent: bool
    total: bool
    undominated: list[str]
    attacking_pairs: list[list[str]]
    """At most the first :data:`~chessdom.api.runtime.tasks.MAX_LISTED_PAIRS`."""
    attacking_pair_count: int


@dataclass(frozen=True)
class EarlierResult:
    """A job's result as a server before typed answers stored it: its JSON, shown as kept."""

    stored: dict


Result = PlacementResult | NQueensResult | TourResult | PathResult | PlacementVerdict | EarlierResult


@dataclass(frozen=True)
class Answer:
    """What a task returns for one call: the library's result, and what was made beside it."""

    result: Result
    certification: Certification | None = None
    """With ``certify``: the certificate of the bound, or why there is none."""
    count_certification: Certification | None = None
    """With ``certify`` and ``count``: the certificate of the count and its classes."""
    trace: list[dict] | None = None
    """Steps asked for beside a placement or an N-Queens answer (a tour's and a path's
    steps are their result's own)."""
    cached: bool | None = None
    """Whether the cache of proven optima served it; None for an answer it never keeps."""

    @property
    def certificates(self) -> tuple[Certificate, ...]:
        """The certificates it carries: the bound's, and the count's."""
        asked = (self.certification, self.count_certification)
        return tuple(made.certificate for made in asked if made is not None and made.certificate is not None)

    def without_certificates(self, reason: str) -> Answer:
        """This answer with each certificate it carries replaced by ``reason``."""
        unkept = Certification(None, reason)
        counted = self.count_certification
        return replace(self, certification=unkept,
                       count_certification=unkept if counted is not None and counted.certificate else counted)


def encode_answer(answer: Answer) -> str:
    """``answer`` as the store keeps it: JSON text naming the result's type, which
    :func:`decode_answer` reads back. A tour keeps its squares as numbers, not names."""
    kept = asdict(answer)
    kept["type"] = type(answer.result).__name__
    return json.dumps(kept, default=_plain)


def decode_answer(text: str) -> Answer:
    """The answer :func:`encode_answer` wrote as ``text``; a result stored before answers
    were typed names no type, and is an :class:`EarlierResult`."""
    kept = json.loads(text)
    if "type" not in kept:
        return Answer(EarlierResult(kept))
    certification, counted = kept["certification"], kept["count_certification"]
    return Answer(
        result=_RESULTS[kept["type"]](kept["result"]),
        certification=_certification(certification) if certification is not None else None,
        count_certification=_certification(counted) if counted is not None else None,
        trace=kept["trace"], cached=kept["cached"],
    )


def _plain(value):
    """What :mod:`json` cannot write itself: a tour's squares, and numpy's numbers."""
    return value.tolist()


def _certification(kept: dict) -> Certification:
    certificate = kept["certificate"]
    if certificate is not None and certificate.get("files") is not None:
        certificate = {**certificate, "files": tuple(certificate["files"])}
    return Certification(Certificate(**certificate) if certificate is not None else None, kept["unavailable"])


def _placement_result(kept: dict) -> PlacementResult:
    problem, literature, count = kept["problem"], kept["literature"], kept["count"]
    if count is not None and count["representatives"] is not None:
        count = {**count, "representatives": tuple(tuple(listed) for listed in count["representatives"])}
    if count is not None and count.get("literature") is not None:
        count = {**count, "literature": PublishedCount(**count["literature"])}
    return PlacementResult(**{
        **kept,
        "problem": PlacementProblem(Board(**problem["board"]), Piece(problem["piece"]),
                                    Objective(problem["objective"])),
        "status": Status(kept["status"]),
        "placement": tuple(kept["placement"]),
        "solver": SolverInfo(**kept["solver"]),
        "literature": LiteratureComparison(**literature) if literature is not None else None,
        "count": SolutionCount(**count) if count is not None else None,
    })


def _nqueens_result(kept: dict) -> NQueensResult:
    solution = kept["solution"]
    return NQueensResult(**{**kept, "solution": tuple(solution) if solution is not None else None})


def _tour_result(kept: dict) -> TourResult:
    board, squares = Board(**kept["board"]), kept["squares"]
    found = np.asarray(squares, dtype=square_dtype(board.num_squares)) if squares is not None else None
    return TourResult(**{**kept, "board": board, "squares": found})


def _path_result(kept: dict) -> PathResult:
    path = kept["path"]
    return PathResult(**{**kept, "path": tuple(path) if path is not None else None})


_RESULTS = {
    PlacementResult.__name__: _placement_result,
    NQueensResult.__name__: _nqueens_result,
    TourResult.__name__: _tour_result,
    PathResult.__name__: _path_result,
    PlacementVerdict.__name__: lambda kept: PlacementVerdict(**kept),
}
