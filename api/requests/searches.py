"""The requests of the search kinds, answered by the native searches: N-Queens, the
knight's tour and the knight's path, with the job forms of the first two (longer time or
node limits). Their limits across fields say which engine takes which board; a tour by
construction is refused, naming ``method``, on a board Parberry's blocks cannot tile."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from chessdom.library import NQUEENS_METHODS
from chessdom.models import NQUEENS_MAX_SIZE as CPSAT_NQUEENS_MAX_SIZE
from chessdom.models import NQUEENS_MODES
from chessdom.native_search import (
    HEURISTICS,
    MAX_LOOKAHEAD,
    NQUEENS_MAX_CLASSES,
    NQUEENS_MAX_COUNT,
    NQUEENS_MAX_FIRST,
    PATH_METHODS,
    TIE_BREAKS,
    TOUR_METHODS,
)
from chessdom.native_search.tour_blocks import (
    MIN_EVEN_SIDE,
    MIN_ODD_SIDE,
    MIN_OTHER_SIDE,
    can_construct,
    can_construct_open,
)

from chessdom.api.requests.fields import (
    JOB_MAX_NODES,
    ON_THE_BOARD,
    SEARCH_MAX_SIDE,
    SYNC_MAX_NODES,
    JobTimeLimit,
    PieceName,
    SearchBoard,
    Seed,
    SquareName,
    TimeLimit,
    TraceOffset,
)
from chessdom.api.requests.rules import Integer, Limit, StrictModel, examples, field_error


class NQueensRequest(StrictModel):
    model_config = examples(
        count=("the 92 solutions of eight queens, 12 up to symmetry", {"size": 8, "mode": "count",
                                                                        "up_to_symmetry": True}),
        first=("a first solution by backtracking, with its steps", {"size": 6, "trace": True}),
        cpsat=("a first solution for 40 queens by CP-SAT", {"size": 40, "method": "cpsat"}),
    )

    limits = (
        Limit("size", {"mode": "count"}, NQUEENS_MAX_COUNT, "count_size_limit", "counting"),
        Limit("size", {"mode": "first", "method": "backtracking"}, NQUEENS_MAX_FIRST, "backtracking_size_limit",
              "plain backtracking", "; use method cpsat"),
        Limit("size", {"method": "cpsat"}, CPSAT_NQUEENS_MAX_SIZE, "cpsat_size_limit", "the CP-SAT model"),
        Limit("size", {"up_to_symmetry": True}, NQUEENS_MAX_CLASSES, "classes_size_limit", "counting up to symmetry"),
    )
    size: Integer(1, max(CPSAT_NQUEENS_MAX_SIZE, NQUEENS_MAX_FIRST))
    mode: Literal[NQUEENS_MODES] = "first"
    method: Literal[NQUEENS_METHODS] = "backtracking"
    up_to_symmetry: bool = Field(False, description="with mode count: also count classes")
    time_limit: TimeLimit = 10.0
    trace: bool = Field(False, description="with backtracking and mode first: the search's steps")
    trace_offset: TraceOffset = 0


class TourRequest(SearchBoard):
    model_config = examples(
        warnsdorff=("Warnsdorff's rule from a1 on the 8×8 board", {"size": 8, "start": "a1"}),
        closed=("a closed tour of 6×6", {"size": 6, "closed": True}),
        dfs=("plain backtracking on 5×5 from c3, as seed 003 runs it", {"size": 5, "start": "c3", "method": "dfs"}),
    )

    start: SquareName = Field(None, description="default a1; " + ON_THE_BOARD)
    closed: bool = False
    method: Literal[TOUR_METHODS] = Field("warnsdorff", description=(
        f"divide_and_conquer needs one side even and ≥ {MIN_EVEN_SIDE} and the other ≥ {MIN_OTHER_SIDE}, or for an "
        f"open tour both sides odd and ≥ {MIN_ODD_SIDE} (else 422 naming method)"))
    tie_break: Literal[TIE_BREAKS] = "pohl"
    lookahead: Integer(0, MAX_LOOKAHEAD) = 0
    backtracking: bool = True
    node_limit: Integer(1, SYNC_MAX_NODES) = 1_500_000
    seed: Seed = 0
    trace: bool = False
    trace_offset: TraceOffset = 0

    @model_validator(mode="after")
    def _constructible(self):
        # Parberry's construction needs blocks of 6–12 ranks by 5–10 files; say so before
        # a worker is asked, naming the field that chose it.
        rows, cols = self.board.rows, self.board.cols
        if self.method == "divide_and_conquer" and not (
            can_construct(rows, cols) or (not self.closed and can_construct_open(rows, cols))
        ):
            open_too = "" if self.closed else ", or both sides odd and ≥ {odd}"
            message = "divide_and_conquer needs one side even and ≥ {even} and the other ≥ {other}" + open_too
            raise field_error(type(self), "method", self.method, "construction_board_limit",
                              f"{message}, not the {self.board}",
                              {"even": MIN_EVEN_SIDE, "other": MIN_OTHER_SIDE, "odd": MIN_ODD_SIDE})
        return self


class Enemy(StrictModel):
    piece: PieceName
    square: SquareName = Field(description=ON_THE_BOARD)


class PathRequest(SearchBoard):
    model_config = examples(
        around_a_rook=("from a1 to h8 around two blocked squares and a rook", {
            "size": 8, "start": "a1", "goals": ["h8"], "blocked": ["d4", "e5"],
            "enemies": [{"piece": "rook", "square": "c6"}]}),
        bfs=("corner to corner by breadth-first search", {"size": 8, "start": "a1", "goals": ["h8"], "method": "bfs"}),
    )

    start: SquareName = Field(description=ON_THE_BOARD)
    goals: list[SquareName] = Field(min_length=1, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE,
                                    description="each " + ON_THE_BOARD)
    blocked: list[SquareName] = Field(default_factory=list, max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE,
                                      description="each " + ON_THE_BOARD)
    enemies: list[Enemy] = Field(default_factory=list, max_length=10_000)
    method: Literal[PATH_METHODS] = "astar"
    heuristic: Literal[tuple(HEURISTICS)] = "knight"
    trace: bool = False


# Jobs take the same parameters with longer limits.
class NQueensJob(NQueensRequest):
    time_limit: JobTimeLimit = 60.0


class TourJob(TourRequest):
    node_limit: Integer(1, JOB_MAX_NODES) = 1_500_000
