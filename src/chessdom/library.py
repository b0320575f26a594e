"""Friendly entry points: problems named by plain strings and numbers, answered by the
models and searches, with errors that name the argument at fault."""

from __future__ import annotations

import numbers
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from chessdom import models, native_search
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, NQueensResult, Piece, PlacementProblem, PlacementResult
from chessdom.chessboard.board import MAX_SIDE as BOARD_MAX_SIDE
from chessdom.native_search.nqueens import MAX_KERNEL_SIZE
from chessdom.processes import run_killable

NQUEENS_METHODS = ("backtracking", "cpsat")

MAX_TIME_LIMIT = 365 * 24 * 3600
"""The longest time limit taken, in seconds: a year. ``None`` means no limit at all; a
finite limit past about 10⁹ s overflows the timers that stop a solver (``setitimer``,
``threading.TIMEOUT_MAX``), so infinity and such numbers are refused rather than misread."""

MAX_SEED = 2**31 - 1
"""CP-SAT's ``random_seed`` is a 32-bit signed integer."""

_ROWS_BY_COLS = re.compile(r"\s*(\d+)\s*[x×]\s*(\d+)\s*")

BoardSize = int | str | tuple[int, int] | Board


def _choice(argument: str, value, names) -> str:
    if value not in names:
        raise ValueError(f"{argument}: {value!r} is not one of {', '.join(names)}")
    return value


def parse_board(size: BoardSize, argument: str = "size", *, max_side: int = BOARD_MAX_SIDE,
                limited_by: str | None = None) -> Board:
    """A board from ``8``, ``"8"``, ``(6, 9)`` or ``"6x9"`` (rows × cols), or a Board.

    Raises ValueError naming ``argument`` when the size is malformed or a side is outside
    1…``max_side``: the board's own limit, or a lower one set by ``limited_by`` (such as
    ``"the models"``), which a side too large is then told.
    """
    sides = _sides(size)
    if sides is None or any(isinstance(side, bool) or not isinstance(side, int) for side in sides):
        raise ValueError(f"{argument}: {size!r} is not a board size (expected N, (ROWS, COLS) or 'ROWSxCOLS')")
    rows, cols = sides
    for name, side in (("rows", rows), ("cols", cols)):
        if side > max_side and limited_by is not None:
            given = rows if rows == cols else f"{rows}×{cols}"
            raise ValueError(f"{argument}: {limited_by} take boards up to {max_side} a side, got size {given}")
        if not 1 <= side <= max_side:
            raise ValueError(f"{argument}: {name} must be between 1 and {max_side}, got {side}")
    return size if isinstance(size, Board) else Board(rows, cols)


def _sides(size: BoardSize) -> tuple | None:
    """(rows, cols) as given, not yet checked; None when ``size`` is no board size at all."""
    if isinstance(size, Board):
        return size.rows, size.cols
    if isinstance(size, str):
        text = size.strip()
        match = _ROWS_BY_COLS.fullmatch(text)
        if match:
            return int(match[1]), int(match[2])
        return (int(text),) * 2 if re.fullmatch(r"[+-]?\d+", text) else None
    if isinstance(size, int):
        return size, size
    if isinstance(size, tuple) and len(size) == 2:
        return size
    return None


def check_time_limit(time_limit, argument: str = "time_limit") -> float | None:
    """``time_limit`` in seconds, or ``None`` for no limit.

    Raises ValueError naming ``argument`` for anything but a number above 0 and at most
    :data:`MAX_TIME_LIMIT` (nan and infinity included).
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise ValueError(f"{argument}: {time_limit!r} is not a number of seconds")
    if not 0 < time_limit <= MAX_TIME_LIMIT:
        given = f"{time_limit:g}" if isinstance(time_limit, float) else repr(time_limit)
        raise ValueError(f"{argument}: must be a positive number of seconds, at most {MAX_TIME_LIMIT} (a year), "
                         f"got {given}")
    return float(time_limit)


def check_seed(seed, argument: str = "seed") -> int:
    """``seed`` as CP-SAT takes it; raises ValueError naming ``argument`` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{argument}: must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
    return int(seed)


def solve_placement(
    piece: str | Piece,
    size: BoardSize,
    *,
    variant: str = "plain",
    solver: str = "auto",
    time_limit: float | None = None,
    count: bool = False,
    seed: int = 0,
    use_theorems: bool = False,
    representatives: bool = False,
    executor=None,
    on_progress: Callable[[dict], None] | None = None,
    state_dir: str | os.PathLike | None = None,
) -> PlacementResult:
    """The fewest pieces that dominate a board (or the most that do not attack each other), with a
    placement, a proof of the bound and the published value beside it: plain strings and numbers
    parsed here (:func:`placement_problem`), the rest checked by :func:`chessdom.models.solve`.

    Parameters
    ----------
    piece : ``queen``, ``rook``, ``bishop``, ``knight`` or ``king`` (any case).
    size : ``8`` or ``"8"`` for the 8×8 board; ``(6, 9)`` or ``"6x9"`` for 6 ranks × 9 files.
    variant : ``plain`` (domination γ), ``independent`` (independent domination i),
        ``total`` (total domination γt) or ``independence`` (the most non-attacking pieces, β).
    solver : ``auto`` (the backend measured strongest for the problem), ``cpsat``, ``sat`` or ``mip`` (SCIP).
    time_limit : seconds for the whole call, at most :data:`MAX_TIME_LIMIT`; ``None`` for none.
    count : also count the optimal placements, and up to the board's symmetries.
    seed : CP-SAT's random seed, 0…:data:`MAX_SEED`.
    use_theorems : allow a cited theorem to prove the bound.
    representatives : with ``count``, also one placement per symmetry class.
    executor : a :class:`concurrent.futures.Executor` (a process pool, or a Dask client's
        ``get_executor()``) on which the SAT queries run as cube-and-conquer.
    on_progress : called with the bounds proved and the best verified placement each time one improves (a
        dict: ``lower_bound``, ``upper_bound``, ``value``, ``placement``, ``proof``, cubes or count parts done).
    state_dir : with ``count``, a directory (made if missing) where the count records each
        part it finishes: run again with it, a stopped count goes on without listing them
        again and a finished one answers at once. One recording another count is refused.

    Returns
    -------
    PlacementResult — ``print`` it for a diagram and the numbers; Jupyter draws it as SVG;
    ``to_dict()`` is the JSON the service returns for ``POST /domination``.

    Raises
    ------
    ValueError naming the argument at fault: an unknown piece, variant or solver, a malformed size or a
    side outside 1…``models.MAX_SIDE``, a time limit outside (0, :data:`MAX_TIME_LIMIT`], a seed outside
    0…:data:`MAX_SEED`, a ``state_dir`` without ``count`` or recording another count.

    Example
    -------
    >>> result = solve_placement("queen", 8)
    >>> result.value, result.optimal
    (5, True)
    """
    return models.solve(placement_problem(piece, size, variant), solver=solver, time_limit=check_time_limit(time_limit),
                        count=count, seed=check_seed(seed), use_theorems=use_theorems, representatives=representatives,
                        executor=executor, on_progress=on_progress,
                        state_dir=None if state_dir is None else Path(state_dir))


def placement_problem(piece: str | Piece, size: BoardSize, variant: str = "plain") -> PlacementProblem:
    """The problem :func:`solve_placement` names by plain strings and numbers; raises
    ValueError naming the argument at fault."""
    chosen = Piece(_choice("piece", str(piece).strip().lower(), tuple(p.value for p in Piece)))
    objective = PLACEMENT_VARIANTS[_choice("variant", variant, tuple(PLACEMENT_VARIANTS))]
    return PlacementProblem(parse_board(size, max_side=models.MAX_SIDE, limited_by="the models"), chosen, objective)


def solve_nqueens(
    size: int,
    *,
    mode: str = "first",
    method: str = "backtracking",
    up_to_symmetry: bool = False,
    time_limit: float | None = None,
) -> NQueensResult:
    """The first solution, or the number of solutions, of the n-queens puzzle.

    Parameters
    ----------
    size : n, the side of the board and the number of queens.
    mode : ``first`` or ``count``.
    method : ``backtracking`` (seed 002's search; bitmask backtracking for counts) or
        ``cpsat``, which also counts up to symmetry.
    up_to_symmetry : with backtracking and mode ``count``, also count classes under the
        board's eight symmetries.
    time_limit : seconds, for either method, at most :data:`MAX_TIME_LIMIT`; ``None`` for
        none. CP-SAT stops itself; backtracking, which cannot be interrupted, runs in a child
        process killed at the limit. A search the limit stopped returns ``solution`` and
        ``count`` ``None``.

    Raises
    ------
    ValueError naming the argument at fault (sizes: :func:`check_nqueens_size`).
    """
    _choice("mode", mode, models.NQUEENS_MODES)
    _choice("method", method, NQUEENS_METHODS)
    size = check_nqueens_size(size, mode, method)
    time_limit = check_time_limit(time_limit)
    if method == "cpsat":
        return models.solve_nqueens(size, mode=mode, time_limit=time_limit)
    if time_limit is None:
        return next(_nqueens_backtracking(size, mode, up_to_symmetry))[0]
    began = time.perf_counter()
    events, finished = run_killable(_nqueens_backtracking, (size, mode, up_to_symmetry), time_limit)
    if finished:
        return events[0][0]
    return NQueensResult(size=size, method=method, solution=None, count=None, up_to_symmetry=None, nodes=None,
                         wall_time=time.perf_counter() - began, verified=False)


def check_nqueens_size(size, mode: str, method: str, argument: str = "size") -> int:
    """Raises ValueError naming ``argument`` unless ``size`` is a whole number from 1 to
    the largest board the chosen way of solving takes."""
    if method == "cpsat":
        solver, largest = "CP-SAT", models.NQUEENS_MAX_SIZE
    elif mode == "count":
        solver, largest = "counting by backtracking", MAX_KERNEL_SIZE
    else:
        solver, largest = "backtracking", BOARD_MAX_SIDE
    if isinstance(size, bool) or not isinstance(size, numbers.Integral) or not 1 <= size <= largest:
        raise ValueError(f"{argument}: {solver} takes board sizes from 1 to {largest}, got {size!r}")
    return int(size)


def _nqueens_backtracking(size: int, mode: str, up_to_symmetry: bool):
    """The backtracking answer as the one event of a generator, as ``run_killable`` takes it."""
    if mode == "count":
        yield (native_search.nqueens_count(size, up_to_symmetry=up_to_symmetry),)
    else:
        yield (native_search.nqueens_first(size),)
