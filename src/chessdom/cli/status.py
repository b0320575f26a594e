"""The status line of ``chessdom solve`` on stderr, drawn on a terminal only: the bounds
proved and found so far, the cubes or count parts done, then each certificate's state; and
what a solve stopped by Ctrl-C had."""

from __future__ import annotations

import contextlib
import sys
import threading

from tqdm import tqdm

from chessdom.chessboard import PlacementProblem


class Status:
    """The status line (a tqdm bar on stderr, drawn on a terminal only) and its words."""

    def __init__(self, bar: tqdm, words: StatusWords):
        self.bar, self.words = bar, words

    def show(self, snapshot: dict) -> None:
        self.bar.set_postfix_str(self.words.update(snapshot))

    def certifying(self, what: str, state: dict) -> None:
        """A certificate's state (:data:`~chessdom.models.certificates.Progress`) in place of the bounds."""
        self.bar.set_description_str(f"certifying the {what}")
        self.bar.set_postfix_str(certificate_state(state))

    def write(self, text: str) -> None:
        """``text`` on stdout now, above the status line."""
        tqdm.write(text, file=sys.stdout)
        sys.stdout.flush()


def certificate_state(state: dict) -> str:
    """``{"state": "making", "done": 12, "total": 40}`` as the status line says it."""
    if state.get("total"):
        return f"{state['state']}: cube proofs {state['done']}/{state['total']}"
    return state["state"]


@contextlib.contextmanager
def live_status(problem: PlacementProblem):
    """A status line on stderr while the solve runs — the bounds proved and found so far,
    the cubes or count parts done, then each certificate's state — shown on a terminal
    only (a long proof otherwise says nothing for an hour), and gone when the answer is
    printed."""
    with tqdm(file=sys.stderr, disable=None, leave=False, desc="solving",
              bar_format="{desc} [{elapsed}]{postfix}") as bar:
        stopped = threading.Event()
        ticking = threading.Thread(target=_tick, args=(bar, stopped), daemon=True)
        ticking.start()
        try:
            yield Status(bar, StatusWords(problem))
        finally:
            stopped.set()
            ticking.join()


def _tick(status: tqdm, stopped: threading.Event) -> None:
    """Redraw each second, so the clock runs while no bound moves (for minutes, at the frontier)."""
    while not stopped.wait(1.0):
        status.refresh()


class StatusWords:
    """What the status line says: the bounds proved and the best placement found so far
    (the dispatcher's first is the greedy baseline's, so a solver's first placements,
    which can fill most of the board, are never shown), and the cubes or count parts
    done. A bound no tighter than the number of squares is never shown."""

    def __init__(self, problem: PlacementProblem):
        self.problem = problem
        self.snapshot: dict = {}

    def update(self, snapshot: dict) -> str:
        self.snapshot = snapshot
        return str(self)

    def bounds(self) -> tuple[int | None, int | None]:
        """The lower and upper bound known so far; None where there is none."""
        lower, upper = self.snapshot.get("lower_bound"), self.snapshot.get("upper_bound")
        if upper is not None and upper >= self.problem.board.num_squares:
            upper = None
        return lower, upper

    def interrupted(self) -> str:
        """What a solve stopped by Ctrl-C had: its bounds as numbers (one nothing proved is
        the trivial one, said so) and the best placement found, checked."""
        lower, upper = self.bounds()
        found = self.snapshot.get("placement")
        trivial = {"lower": 1, "upper": self.problem.board.num_squares}
        shown = {name: bound for name, bound in (("lower", lower), ("upper", upper)) if bound is not None}
        words = f"bounds {shown.get('lower', trivial['lower'])}…{shown.get('upper', trivial['upper'])}"
        unproved = [f"{name} bound trivial" for name in trivial if name not in shown]
        if unproved:
            words += f" ({', '.join(unproved)})"
        if found:
            words += f"; best placement found, {len(found)} checked: {' '.join(found)}"
        return words

    def __str__(self) -> str:
        lower, upper = self.bounds()
        words = [f"bounds {'?' if lower is None else lower}…{'?' if upper is None else upper}"]
        snapshot = self.snapshot
        if snapshot.get("cubes_total"):
            words.append(f"cubes {snapshot['cubes_done']}/{snapshot['cubes_total']}")
        if snapshot.get("search_parts_total"):
            words.append(f"search parts {snapshot['search_parts_done']}/{snapshot['search_parts_total']}")
        if snapshot.get("count_parts_total"):
            words.append(f"count parts {snapshot['count_parts_done']}/{snapshot['count_parts_total']}")
        return ", ".join(words)
