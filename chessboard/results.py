"""Result types shared by models and native searches, one per problem family, so that a
comparison of engines is a loop and not a translation layer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum

from chessdom.chessboard.board import Board
from chessdom.chessboard.pieces import Piece
from chessdom.chessboard.problems import PlacementProblem
from chessdom.chessboard.render import render_svg, render_text
from chessdom.chessboard.squares import parse_squares

COMPILE_TIME_SHOWN = 1.0
"""Seconds of ``solver.params.compile_time`` from which the text says them: loading the
native search's compiled kernels from numba's cache takes about 0.3 s, compiling them
on the first run after installing about 10 s."""


class Status(str, Enum):
    OPTIMAL = "optimal"  # value proved optimal
    FEASIBLE = "feasible"  # a verified placement, optimality not proved
    INFEASIBLE = "infeasible"  # proved: no placement meets the constraints
    UNKNOWN = "unknown"  # nothing found and nothing proved within the limits


@dataclass(frozen=True)
class SolverInfo:
    name: str
    version: str
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LiteratureComparison:
    """A published value reported beside a computed answer, never used as it."""

    value: int
    source: str
    agrees: bool | None  # None when nothing was computed to compare


@dataclass(frozen=True)
class PublishedCount:
    """A published number of optimal placements (all, and up to the board's symmetries when
    the source gives it), reported beside a computed count, never used as it."""

    solutions: int
    up_to_symmetry: int | None
    source: str
    agrees: bool | None  # None when no exact count was computed to compare


@dataclass(frozen=True)
class SolutionCount:
    solutions: int
    up_to_symmetry: int
    exact: bool  # False: enumeration stopped by a limit, the numbers are lower bounds
    representatives: tuple[tuple[str, ...], ...] | None = None
    """One placement per symmetry class (its lex-leader), when asked for."""
    literature: PublishedCount | None = None


@dataclass(frozen=True)
class PlacementResult:
    """The answer to a placement problem from any engine, model or heuristic.

    For a minimisation ``lower_bound`` is the proven bound and ``upper_bound`` the best
    value found; for independence (a maximisation) it is the other way round. ``proof``
    says how the proven bound was obtained; it is ``None`` when nothing was proved.
    """

    problem: PlacementProblem
    status: Status
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    placement: tuple[str, ...]
    verified: bool
    proof: str | None
    solver: SolverInfo
    wall_time: float
    literature: LiteratureComparison | None = None
    count: SolutionCount | None = None

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    def to_dict(self) -> dict:
        data = asdict(self)
        data["problem"] = self.problem.to_dict()
        data["status"] = self.status.value
        data["placement"] = list(self.placement)
        data["optimal"] = self.optimal
        return data

    @classmethod
    def from_dict(cls, data: dict) -> PlacementResult:
        """The result :meth:`to_dict` gave (read back from JSON: lists for tuples)."""
        problem = PlacementProblem.from_dict(data["problem"])
        count = data.get("count")
        if count is not None:
            representatives = count.get("representatives")
            published = count.get("literature")
            count = SolutionCount(
                count["solutions"], count["up_to_symmetry"], count["exact"],
                None if representatives is None else tuple(tuple(placement) for placement in representatives),
                None if published is None else PublishedCount(**published))
        literature = data.get("literature")
        return cls(problem, Status(data["status"]), data["value"], data["lower_bound"], data["upper_bound"],
                   tuple(data["placement"]), data["verified"], data["proof"], SolverInfo(**data["solver"]),
                   data["wall_time"], None if literature is None else LiteratureComparison(**literature), count)

    def summary(self) -> str:
        """One line: the problem, the value and how far it is proved."""
        if self.value is None:
            return f"{self.problem}: {self.status.value}, no placement found"
        if self.optimal:
            return f"{self.problem} = {self.value} (optimal)"
        lower, upper = self._bounds_shown()
        maximize = self.problem.objective.maximize
        unproved = self.upper_bound if maximize else self.lower_bound
        trivial = "" if unproved is not None else f"; nothing proved beyond the trivial {upper if maximize else lower}"
        return f"{self.problem} = {self.value} ({self.status.value}, bounds {lower}…{upper}{trivial})"

    def _bounds_shown(self) -> tuple[int, int]:
        """The bounds as numbers: one nothing proved is the trivial one (at least one piece;
        at most one on every square), as ``None`` means nothing to a reader."""
        lower = 1 if self.lower_bound is None else self.lower_bound
        upper = self.problem.board.num_squares if self.upper_bound is None else self.upper_bound
        return lower, upper

    def _squares(self) -> list[int]:
        return parse_squares(self.problem.board, self.placement)

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.placement:
            lines += [render_text(self.problem.board, self.problem.piece, self._squares()), ""]
            lines.append(f"placement: {' '.join(self.placement)}")
        lower, upper = (shown if bound is not None else f"{shown} (trivial: nothing proved)"
                        for bound, shown in zip((self.lower_bound, self.upper_bound), self._bounds_shown()))
        lines.append(f"lower bound: {lower}  upper bound: {upper}  verified: {self.verified}")
        lines.append(f"proof: {self.proof or 'none'}")
        lines.append(f"solver: {self.solver.name} {self.solver.version}  wall time: {self.wall_time:.3f} s")
        # The first solve after installing compiles the native search first: apart, and
        # said only when it is more than loading the compiled code (about 0.3 s).
        if (compile_time := self.solver.params.get("compile_time") or 0) >= COMPILE_TIME_SHOWN:
            lines[-1] += f" (and {compile_time:.1f} s compiling the native search before it)"
        if self.literature is not None:
            agrees = {True: "agrees", False: "DISAGREES", None: "nothing to compare"}[self.literature.agrees]
            lines.append(f"literature: {self.literature.value} ({self.literature.source}; {agrees})")
        if self.count is not None:
            exact = "" if self.count.exact else " (at least: stopped by the time limit)"
            lines.append(
                f"optimal placements: {self.count.solutions}, up to symmetry: {self.count.up_to_symmetry}{exact}"
            )
            if (published := self.count.literature) is not None:
                classes = "" if published.up_to_symmetry is None else f", up to symmetry {published.up_to_symmetry}"
                agrees = {True: "agrees", False: "DISAGREES", None: "nothing exact to compare"}[published.agrees]
                lines.append(f"published count: {published.solutions}{classes} ({published.source}; {agrees})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        # A dataclass's field-by-field repr is a screenful of nested types; the board says more.
        diagram = render_text(self.problem.board, self.problem.piece, self._squares())
        return f"<PlacementResult {self.summary()}>\n{diagram}"

    def _repr_svg_(self) -> str:
        """Jupyter shows the placement as a board."""
        return render_svg(self.problem.board, self.problem.piece, self._squares())


@dataclass(frozen=True)
class NQueensResult:
    """First solution or count of the n-queens puzzle, from backtracking or a model."""

    size: int
    method: str
    solution: tuple[str, ...] | None
    count: int | None
    up_to_symmetry: int | None
    nodes: int | None
    wall_time: float
    verified: bool | None
    """True when the solution passed the independent checker; None when there is no single
    placement to check (a count by backtracking keeps none of its solutions)."""

    def to_dict(self) -> dict:
        data = asdict(self)
        data["solution"] = list(self.solution) if self.solution is not None else None
        return data

    def summary(self) -> str:
        """One line: the size, the method and what was found or counted."""
        parts = [f"{self.size} queens by {self.method}"]
        if self.solution is not None:
            parts.append(f"solution {' '.join(self.solution)}")
        elif self.count is None:
            parts.append("no solution")
        if self.count is not None:
            parts.append(f"{self.count} solutions")
        if self.up_to_symmetry is not None:
            parts.append(f"{self.up_to_symmetry} up to symmetry")
        return ", ".join(parts)

    def _board_and_squares(self) -> tuple[Board, list[int]]:
        board = Board.square(self.size)
        return board, parse_squares(board, self.solution or ())

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.solution is not None:
            board, squares = self._board_and_squares()
            lines.append(render_text(board, Piece.QUEEN, squares))
        nodes = f"nodes: {self.nodes}  " if self.nodes is not None else ""
        lines.append(f"{nodes}verified: {self.verified}  wall time: {self.wall_time:.3f} s")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<NQueensResult {self.summary()}>"

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a solution as a board; a bare count has none to show."""
        if self.solution is None:
            return None
        board, squares = self._board_and_squares()
        return render_svg(board, Piece.QUEEN, squares)
