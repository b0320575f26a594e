"""Friendly entry points: problems named by plain strings and numbers, answered by the
models and searches, with errors that name the argument at fault."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from chessdom.chessboard import PLACEMENT_VARIANTS, Board, BoardError, NQueensResult, Piece, PlacementProblem, PlacementResult
from chessdom import models, native_search
from chessdom.processes import run_killable

NQUEENS_METHODS = ("backtracking", "cpsat")

_ROWS_BY_COLS = re.compile(r"\s*(\d+)\s*[x×]\s*(\d+)\s*")

BoardSize = int | str | tuple[int, int] | Board


def _choice(argument: str, value, names) -> str:
    if value not in names:
        raise ValueError(f"{argument}: {value!r} is not one of {', '.join(names)}")
    return value


def parse_board(size: BoardSize, argument: str = "size") -> Board:
    """A board from ``8``, ``"8"``, ``(6, 9)`` or ``"6x9"`` (rows × cols), or a Board.

    Raises ValueError naming ``argument`` when the size is malformed or out of range.
    """
    if isinstance(size, Board):
        return size
    try:
        if isinstance(size, str):
            text = size.strip()
            match = _ROWS_BY_COLS.fullmatch(text)
            if match:
                return Board(int(match[1]), int(match[2]))
            if re.fullmatch(r"[+-]?\d+", text):
                return Board.square(int(text))
        elif isinstance(size, int) and not isinstance(size, bool):
            return Board.square(size)
        elif isinstance(size, tuple) and len(size) == 2:
            return Board(*size)
    except BoardError as error:
        raise ValueError(f"{argument}: {error}") from None
    raise ValueError(f"{argument}: {size!r} is not a board size (expected N, (ROWS, COLS) or 'ROWSxCOLS')")


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
) -> PlacementResult:
    """The fewest pieces that dominate a board (or the most that do not attack each
    other), with a placement, a proof of the bound and the published value beside it.

    Parameters
    ----------
    piece : ``queen``, ``rook``, ``bishop``, ``knight`` or ``king`` (any case).
    size : ``8`` or ``"8"`` for the 8×8 board; ``(6, 9)`` or ``"6x9"`` for 6 ranks × 9 files.
    variant : ``plain`` (domination γ), ``independent`` (independent domination i),
        ``total`` (total domination γt) or ``independence`` (the most non-attacking
        pieces, β).
    solver : ``auto`` (the backend measured strongest for the problem), ``cpsat``, ``sat`` or
        ``mip`` (SCIP's branch-and-cut).
    time_limit : seconds for the whole call; ``None`` for none.
    count : also count the optimal placements, and up to the board's symmetries.
    seed : CP-SAT's random seed.
    use_theorems : allow a cited theorem to prove the bound.
    representatives : with ``count``, also one placement per symmetry class.
    executor : a :class:`concurrent.futures.Executor` (a process pool, or a Dask client's
        ``get_executor()``) on which the SAT queries run as cube-and-conquer.
    on_progress : called with the bounds proved and the best verified placement each time
        one improves (a dict: ``lower_bound``, ``upper_bound``, ``value``, ``placement``,
        ``proof``, and the cubes or count parts done where they run).

    Returns
    -------
    PlacementResult — ``print`` it for a diagram and the numbers; Jupyter draws it as SVG;
    ``to_dict()`` is the JSON the service returns for ``POST /domination``.

    Raises
    ------
    ValueError naming the argument at fault: an unknown piece, variant or solver, a
    malformed size or a side outside 1…``models.MAX_SIDE``, a time limit not positive.

    Example
    -------
    >>> result = solve_placement("queen", 8)
    >>> result.value, result.optimal
    (5, True)
    """
    pieces = tuple(p.value for p in Piece)
    chosen = Piece(_choice("piece", str(piece).strip().lower(), pieces))
    objective = PLACEMENT_VARIANTS[_choice("variant", variant, tuple(PLACEMENT_VARIANTS))]
    _choice("solver", solver, models.SOLVERS)
    board = parse_board(size)
    if max(board.rows, board.cols) > models.MAX_SIDE:
        raise ValueError(f"size: the models take boards up to {models.MAX_SIDE} a side, got the {board}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit: must be positive, got {time_limit!r}")
    problem = PlacementProblem(board, chosen, objective)
    return models.solve(problem, solver=solver, time_limit=time_limit, count=count, seed=seed, use_theorems=use_theorems,
                        representatives=representatives, executor=executor, on_progress=on_progress)


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
    time_limit : seconds, for either method; ``None`` for none. CP-SAT stops itself;
        backtracking, which cannot be interrupted, runs in a child process killed at the
        limit. A search the limit stopped returns ``solution`` and ``count`` ``None``.

    Raises
    ------
    ValueError naming the argument at fault.
    """
    _choice("mode", mode, models.NQUEENS_MODES)
    _choice("method", method, NQUEENS_METHODS)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"size: must be a positive integer, got {size!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit: must be positive, got {time_limit!r}")
    if method == "cpsat":
        if size > models.NQUEENS_MAX_SIZE:
            raise ValueError(f"size: CP-SAT takes boards up to {models.NQUEENS_MAX_SIZE}, got {size}")
        return models.solve_nqueens(size, mode=mode, time_limit=time_limit)
    if time_limit is None:
        return next(_nqueens_backtracking(size, mode, up_to_symmetry))[0]
    began = time.perf_counter()
    events, finished = run_killable(_nqueens_backtracking, (size, mode, up_to_symmetry), time_limit)
    if finished:
        return events[0][0]
    return NQueensResult(size=size, method=method, solution=None, count=None, up_to_symmetry=None, nodes=None,
                         wall_time=time.perf_counter() - began, verified=False)


def _nqueens_backtracking(size: int, mode: str, up_to_symmetry: bool):
    """The backtracking answer as the one event of a generator, as ``run_killable`` takes it."""
    if mode == "count":
        yield (native_search.nqueens_count(size, up_to_symmetry=up_to_symmetry),)
    else:
        yield (native_search.nqueens_first(size),)
