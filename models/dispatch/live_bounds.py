"""Live bounds: what a running solve has verified and proved so far, reported only when
it improves, so a watcher sees the best placement and the best bound only ever tighten."""

from __future__ import annotations

from collections.abc import Callable

from chessdom.chessboard import PlacementProblem, check_placement, square_names


class LiveBounds:
    """Turns a backend's events into snapshots for ``report``: ``value`` and ``placement``
    (checked by the independent checker first), ``lower_bound`` and ``upper_bound`` with
    the ``proof`` of the proven one, ``cubes_done``/``cubes_total`` when split,
    ``search_parts_done``/``search_parts_total`` while the branch-and-bound's search runs
    in parts on workers, and
    ``count_parts_done``/``count_parts_total`` while a count lists its parts on workers
    (which can take far longer than the solve: more than 20 minutes for γ(Q_14)). Without
    ``report`` it only keeps them: :meth:`proved` is the best bound proved so far."""

    def __init__(self, problem: PlacementProblem, report: Callable[[dict], None] | None = None):
        self.problem = problem
        self.report = report
        self.snapshot: dict = {"value": None, "placement": None, "proven_bound": None, "proof": None}

    def __call__(self, event: tuple) -> None:
        maximize = self.problem.objective.maximize
        changed = False
        if event[0] == "solution":
            placement = tuple(event[1])
            value = self.snapshot["value"]
            check = check_placement(self.problem.board, self.problem.piece, placement)
            better = value is None or (len(placement) > value if maximize else len(placement) < value)
            if better and self.problem.objective.satisfied_by(check):
                self.snapshot.update(value=len(placement), placement=square_names(self.problem.board, placement))
                changed = True
        elif event[0] == "bound" and event[2] is not None:
            bound = self.snapshot["proven_bound"]
            tighter = bound is None or (event[1] < bound if maximize else event[1] > bound)
            # The same bound, proved another way: a search that reported its bound as it went
            # ends on it with its final word ("completed", where it said "not finished").
            if tighter or (event[1] == bound and event[2] != self.snapshot["proof"]):
                self.snapshot.update(proven_bound=event[1], proof=event[2])
                changed = True
        elif event[0] == "cubes":
            self.snapshot.update(cubes_done=event[1], cubes_total=event[2])
            changed = True
        elif event[0] == "search parts":
            self.snapshot.update(search_parts_done=event[1], search_parts_total=event[2])
            changed = True
        elif event[0] == "count parts":
            self.snapshot.update(count_parts_done=event[1], count_parts_total=event[2])
            changed = True
        if changed and self.report is not None:
            self.report(self.view())

    def proved(self) -> tuple[int, str] | None:
        """The best bound proved so far and its proof, or None when none is."""
        bound = self.snapshot["proven_bound"]
        return None if bound is None else (bound, self.snapshot["proof"])

    def view(self) -> dict:
        """The snapshot with the bounds named as in a result."""
        snapshot = dict(self.snapshot)
        bound = snapshot.pop("proven_bound")
        if self.problem.objective.maximize:
            snapshot.update(lower_bound=snapshot["value"], upper_bound=bound)
        else:
            snapshot.update(lower_bound=bound, upper_bound=snapshot["value"])
        return snapshot
