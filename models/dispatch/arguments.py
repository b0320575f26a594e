"""What a solve accepts, in small frozen parts — how to solve (:class:`SolveOptions`),
what to count beside the optimum (:class:`CountOptions`) and where cubes run
(:class:`CubeOptions`) — checked in one place: the board's sides, the solver's name, the
time limit, and a count's state directory. :func:`chessdom.models.dispatch.solve.solve`
checks its arguments here, and :func:`chessdom.solve_placement`, which parses plain
strings and numbers into them, leaves these checks to it; each error names the argument
at fault."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from chessdom.chessboard import PlacementProblem

MAX_SIDE = 64
"""The largest board side the models take."""

SOLVERS = ("auto", "cpsat", "sat", "mip", "bnb")


@dataclass(frozen=True, kw_only=True)
class SolveOptions:
    """How to solve: the backend (``auto`` picks by measurement), seconds for the whole
    call (``None``: no limit), CP-SAT's seed, whether a cited theorem may bound the
    optimum, and the backend's own options (fields of ``CpSatParams``, ``SatParams`` or
    ``MipParams``)."""

    solver: str = "auto"
    time_limit: float | None = None
    seed: int = 0
    use_theorems: bool = False
    backend: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class CountOptions:
    """What to count beside the optimum: its placements and classes, with one placement
    per class when ``representatives``; each finished part recorded in ``state_dir``,
    when given, so that a stopped count goes on from them."""

    representatives: bool = False
    state_dir: Path | None = None


@dataclass(frozen=True, kw_only=True)
class CubeOptions:
    """Where cubes run: on ``executor`` whatever ``auto`` would pick (the branch-and-bound
    there runs its parts on it), or, when ``auto`` picks cubes or the branch-and-bound in
    parts, on what ``workers()`` opens (default: a warm worker per core); a cube is split
    further after ``budget`` seconds."""

    executor: Executor | None = None
    budget: float | None = None
    workers: Callable[[], AbstractContextManager[Executor]] | None = None


def check_solve_arguments(problem: PlacementProblem, options: SolveOptions, count: CountOptions | None,
                          state_dir: Path | None = None) -> None:
    """Raise ValueError naming the argument at fault: a board side outside 1…:data:`MAX_SIDE`
    (``size``), a ``solver`` not in :data:`SOLVERS`, a ``time_limit`` not above 0, or a
    ``state_dir`` without a count."""
    board = problem.board
    if not (1 <= board.rows <= MAX_SIDE and 1 <= board.cols <= MAX_SIDE):
        raise ValueError(f"size: the models take boards of 1…{MAX_SIDE} squares a side, "
                         f"got {board.rows}×{board.cols}")
    if options.solver not in SOLVERS:
        raise ValueError(f"solver: {options.solver!r} is not one of {', '.join(SOLVERS)}")
    if options.time_limit is not None and not options.time_limit > 0:
        raise ValueError(f"time_limit: must be positive, got {options.time_limit}")
    if state_dir is not None and count is None:
        raise ValueError("state_dir: keeps a count's parts, and needs count=True")
