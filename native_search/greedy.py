"""Greedy and constructive placement baselines (seed 002 and its obvious peers).

Each returns a placement verified by :func:`chessboard.check_placement` and the
objective's own test, and none claims optimality: ``status`` is ``feasible`` with no
proven bound, or ``infeasible`` with a proof when no total dominating set exists.
Attack sets are Python-int bitsets from :func:`chessboard.attack_table`, so "how many
new squares does this piece cover" is one ``&`` and one ``bit_count``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from chessdom.chessboard import (
    Board,
    Objective,
    Piece,
    PlacementProblem,
    PlacementResult,
    SolverInfo,
    Square,
    Status,
    attack_table,
    check_placement,
    square_name,
    square_names,
)
from chessdom.native_search.trace import DEFAULT_TRACE_LIMIT, Trace

VERSION = "1"


def greedy_domination(board: Board, piece: Piece, *, independent: bool = False) -> list[Square]:
    """Repeatedly place the piece that dominates the most squares not yet dominated (the
    thesis's greedy queen domination, seed 002), lowest square on ties. With
    ``independent`` only undominated squares are candidates — for every piece here
    attack is symmetric, so such a square neither attacks nor is attacked by a placed
    piece — and the result is an independent dominating set."""
    return _complete(board, piece, [], independent=independent)


def greedy_total_domination(board: Board, piece: Piece) -> list[Square] | None:
    """Repeatedly place the piece that attacks the most squares not yet attacked (a
    piece does not attack its own square), in the order placed, or ``None`` when some
    square is attacked from nowhere, so that no total dominating set exists."""
    attacks = attack_table(board, piece).bitsets
    everything = (1 << board.num_squares) - 1
    reachable = 0
    for mask in attacks:
        reachable |= mask
    if reachable != everything:
        return None
    placed: list[Square] = []
    attacked = 0
    while attacked != everything:
        best = max(board.squares(), key=lambda s: (attacks[s] & ~attacked).bit_count())
        placed.append(best)
        attacked |= attacks[best]
    return placed


def greedy_independent_set(board: Board, piece: Piece) -> list[Square]:
    """A maximal non-attacking set: repeatedly take the allowed square that rules out the
    fewest allowed squares (minimum-degree greedy), lowest square on ties."""
    attacks = attack_table(board, piece).bitsets
    allowed = (1 << board.num_squares) - 1
    placed: list[Square] = []
    while allowed:
        candidates = _squares_of(allowed)
        best = min(candidates, key=lambda s: (attacks[s] & allowed).bit_count())
        placed.append(best)
        allowed &= ~(attacks[best] | (1 << best))
    return placed


def rooks_on_diagonal(board: Board) -> list[Square]:
    """One rook on each rank (or file, whichever is fewer), on the main diagonal: every
    line of the shorter side holds a rook, so every square is dominated, and no two
    rooks share a line."""
    return [board.index(i, i) for i in range(min(board.rows, board.cols))]


def bishops_on_central_file(board: Board) -> list[Square]:
    """Bishops on every square of the central file: on an n×n board each square's two
    diagonals meet that file within the board. Bishops on one file never attack each
    other. Completed greedily (independently) on boards where the file falls short."""
    middle = board.cols // 2
    return _complete(board, Piece.BISHOP, [board.index(r, middle) for r in range(board.rows)], independent=True)


def kings_on_block_centres(board: Board) -> list[Square]:
    """A king at the centre of every 3×3 block (the last block clipped to the board):
    ⌈m/3⌉·⌈n/3⌉ kings, each dominating its block, no two adjacent."""
    ranks = sorted({min(3 * i + 1, board.rows - 1) for i in range((board.rows + 2) // 3)})
    files = sorted({min(3 * j + 1, board.cols - 1) for j in range((board.cols + 2) // 3)})
    return [board.index(r, f) for r in ranks for f in files]


def greedy_placement(problem: PlacementProblem) -> PlacementResult:
    """The baseline placement for any (piece, objective), checked before it is reported.

    Domination: rooks on the diagonal, bishops on the central file, kings on 3×3 block
    centres, queens and knights by the most-newly-dominated greedy (independent
    domination: the same constructions, which are independent, or the independent
    greedy). Total domination: the most-newly-attacked greedy. Independence: the
    minimum-degree greedy maximal independent set.

    Returns PlacementResult with status ``feasible`` (no bound proved; for independence
    the value found is reported as ``lower_bound``, per the maximisation convention)
    or ``infeasible`` for total domination when a square is attacked from nowhere.
    Raises RuntimeError if a placement fails its check (a bug, never a result).
    """
    began = time.perf_counter()
    board, piece, objective = problem.board, problem.piece, problem.objective
    rule, placement = _baseline(board, piece, objective)
    solver = SolverInfo(name=f"greedy-{piece.value}", version=VERSION, params={"rule": rule})
    if placement is None:
        unattacked = _unattackable(board, piece)
        return PlacementResult(
            problem=problem,
            status=Status.INFEASIBLE,
            value=None,
            lower_bound=None,
            upper_bound=None,
            placement=(),
            verified=False,
            proof=f"no {piece.value} attacks {square_name(board, unattacked)} from any square, so no total dominating set exists",
            solver=solver,
            wall_time=time.perf_counter() - began,
        )
    check = check_placement(board, piece, placement)
    if not objective.satisfied_by(check):
        raise RuntimeError(f"{rule} produced a placement that fails {objective.value} on the {board}")
    value = len(placement)
    return PlacementResult(
        problem=problem,
        status=Status.FEASIBLE,
        value=value,
        lower_bound=value if objective.maximize else None,
        upper_bound=None if objective.maximize else value,
        placement=tuple(square_names(board, sorted(placement))),
        verified=True,
        proof=None,
        solver=solver,
        wall_time=time.perf_counter() - began,
    )


_GREEDY_RULES = {"most_newly_dominated", "most_newly_dominated_independent", "most_newly_attacked",
                 "minimum_degree_independent_set"}


def greedy_steps(problem: PlacementProblem, *, trace_limit: int = DEFAULT_TRACE_LIMIT) -> list[dict]:
    """The baseline of :func:`greedy_placement` step by step, as seed 002's step mode
    shows greedy queen domination: one ``place`` event a piece, in the order the rule
    placed it, ``why`` naming the rule, with

    * ``gain``: the squares the piece newly dominates (newly attacks, for total
      domination; rules out, for independence, where the rule takes the fewest);
    * ``covered``: the squares dominated (attacked; ruled out) so far, of ``squares``;
    * for a greedy rule, ``best``: the gain the best square offered, and ``tied``: how
      many squares offered it (the lowest of them is taken).

    The gains are recounted here from the attack table, and a greedy pick that was not
    a best one is a bug (RuntimeError). No events for an infeasible total domination.
    """
    board, piece, objective = problem.board, problem.piece, problem.objective
    rule, placement = _baseline(board, piece, objective)
    recorder = Trace(board, trace_limit)
    if placement is None:
        return recorder.finish()
    attacks = attack_table(board, piece).bitsets
    reach = attacks if objective is Objective.TOTAL_DOMINATION else [m | (1 << s) for s, m in enumerate(attacks)]
    everything = (1 << board.num_squares) - 1
    covered = 0
    ruling_out = objective is Objective.INDEPENDENCE

    def gain(square: Square) -> int:
        return (reach[square] & (covered if ruling_out else ~covered)).bit_count()

    if ruling_out:
        covered = everything  # the squares still allowed; a piece rules out its share
    for square in placement:
        values = {"gain": gain(square)}
        if rule in _GREEDY_RULES:
            if rule == "minimum_degree_independent_set":
                candidates = _squares_of(covered)
            elif rule == "most_newly_dominated_independent":
                candidates = _squares_of(everything & ~covered)
            else:
                candidates = board.squares()
            offers = [gain(c) for c in candidates]
            best = min(offers) if ruling_out else max(offers)
            if values["gain"] != best:
                raise RuntimeError(f"{rule} placed {square} with gain {values['gain']}, but {best} was offered")
            values.update(best=best, tied=offers.count(best))
        covered = covered & ~reach[square] if ruling_out else covered | reach[square]
        values.update(covered=(everything & ~covered if ruling_out else covered).bit_count(), squares=board.num_squares)
        recorder.record("place", rule, values, square=square)
    return recorder.finish()


def _baseline(board: Board, piece: Piece, objective: Objective) -> tuple[str, list[Square] | None]:
    if objective is Objective.INDEPENDENCE:
        return "minimum_degree_independent_set", greedy_independent_set(board, piece)
    if objective is Objective.TOTAL_DOMINATION:
        return "most_newly_attacked", greedy_total_domination(board, piece)
    independent = objective is Objective.INDEPENDENT_DOMINATION
    if piece is Piece.ROOK:
        return "rooks_on_diagonal", rooks_on_diagonal(board)
    if piece is Piece.BISHOP:
        return "bishops_on_central_file", bishops_on_central_file(board)
    if piece is Piece.KING:
        return "kings_on_block_centres", kings_on_block_centres(board)
    rule = "most_newly_dominated_independent" if independent else "most_newly_dominated"
    return rule, greedy_domination(board, piece, independent=independent)


def _complete(board: Board, piece: Piece, placed: Iterable[Square], *, independent: bool) -> list[Square]:
    """``placed`` plus greedy picks (most newly dominated) until every square is
    dominated; with ``independent`` only undominated squares are picked."""
    attacks = attack_table(board, piece).bitsets
    everything = (1 << board.num_squares) - 1
    closed = [mask | (1 << s) for s, mask in enumerate(attacks)]
    chosen = list(placed)
    dominated = 0
    for square in chosen:
        dominated |= closed[square]
    while dominated != everything:
        candidates = _squares_of(everything & ~dominated) if independent else board.squares()
        best = max(candidates, key=lambda s: (closed[s] & ~dominated).bit_count())
        chosen.append(best)
        dominated |= closed[best]
    return chosen


def _unattackable(board: Board, piece: Piece) -> Square:
    attacked = 0
    for mask in attack_table(board, piece).bitsets:
        attacked |= mask
    return next(s for s in board.squares() if not attacked >> s & 1)


def _squares_of(mask: int) -> list[Square]:
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares
