"""How ``solver="auto"`` picks a backend — ``bnb``, ``sat``, ``cpsat``, ``mip`` or ``cubes`` — for a
problem, by piece, objective and size: rules chosen by measurement, each naming the
figures that chose it."""

from __future__ import annotations

from dataclasses import dataclass

from chessdom.chessboard import Objective, Piece, PlacementProblem

MEASURED_IN = "docs/benchmarks/changelog.md, on 2 cores"
"""Where the measurements of :data:`AUTO_RULES` come from."""


@dataclass(frozen=True)
class AutoRule:
    """``backend`` for problems of ``pieces`` and ``objectives`` with at least
    ``from_squares`` squares (an n×n board has n² of them) and fewer than ``below_squares``,
    and with ``certified`` only where a certificate is asked for too; ``in_parts``: the
    branch-and-bound searches in parts on the workers
    (:mod:`~chessdom.native_search.optimum_in_parts`), not in one search here. ``name``
    names the rule, and ``measured`` is the measurement that chose it."""

    name: str
    backend: str
    measured: str
    pieces: tuple[Piece, ...] = tuple(Piece)
    objectives: tuple[Objective, ...] = tuple(Objective)
    from_squares: int = 0
    below_squares: int | None = None
    certified: bool = False
    in_parts: bool = False

    def applies(self, problem: PlacementProblem, certified: bool = False) -> bool:
        squares = problem.board.num_squares
        return (problem.piece in self.pieces and problem.objective in self.objectives and squares >= self.from_squares
                and (self.below_squares is None or squares < self.below_squares) and certified >= self.certified)

    def reason(self) -> dict:
        """What an answer's ``solver.params.auto`` says: the rule, the figures that chose
        it and where they were measured."""
        return {"rule": self.name, "measured": self.measured, "source": MEASURED_IN}


SLIDERS = tuple(piece for piece in Piece if piece.slides)
"""The pieces with line variables (compound pieces too: their leaps are only more clauses)."""
SLIDER_DOMINATION = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION)
KNIGHT_DOMINATION = (Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION, Objective.TOTAL_DOMINATION)
AUTO_RULES = (
    AutoRule(
        "branch-and-bound-in-parts-for-certified-queen-domination", "bnb",
        "queen domination and independent domination from 14×14 to 18×18 with a certificate asked: the "
        "branch-and-bound in parts on 2 workers, writing the tree that is its certificate, proves γ(Q_14) = 8 in "
        "10.2 s (17.9 s in one search), γ(Q_15) = 9 in 285.8 s, γ(Q_16) = 9 in 146.1 s and i(Q_16) = 9 in 20.1 s "
        "(quiet machine), where cubes answer γ(Q_14) in 9.3 s, γ(Q_16) in 84 s and i(Q_16) in 12.9 s, and the "
        "certificate then runs that search again; through jobs it certifies γ(Q_17) in 87.4 s and i(Q_17) in "
        "19.1 s; on 18×18 it proves i(Q_18) = 10 in 212.0 s and certifies it in "
        "101.6 s more (45 MB), γ(Q_18) = 9 in 695.5 s and 35.3 s more (3.4 MB), where cubes answer in 96.1 s and "
        "32.6 s but their LRAT region cubes had refuted 198 of γ(Q_18)'s 2,502 in the 600 s asked, and staged "
        "1.28 GB with 197 of i(Q_17)'s 1,164",
        pieces=(Piece.QUEEN,), objectives=SLIDER_DOMINATION, from_squares=14 * 14, below_squares=19 * 19,
        certified=True, in_parts=True,
    ),
    AutoRule(
        "branch-and-bound-in-parts-for-queen-domination-on-17x17", "bnb",
        "queen domination and independent domination on 17×17: the branch-and-bound in parts on 2 workers proves "
        "γ(Q_17) = 9 in 60.5 s and i(Q_17) = 9 in 13.7 s, where cubes take 104.1 s and 22.8 s (quiet machine); "
        "with a certificate asked, γ(Q_17)'s tree (60.2 M nodes, 3.9 MB) was checked in 51.5 s. On 18×18 cubes "
        "win i again, 96.1 s against 239.6 s",
        pieces=(Piece.QUEEN,), objectives=SLIDER_DOMINATION, from_squares=17 * 17, below_squares=18 * 18,
        in_parts=True,
    ),
    AutoRule(
        "branch-and-bound-in-parts-for-independent-queen-domination", "bnb",
        "independent queen domination on 14×14 and 15×15: the branch-and-bound in parts on 2 workers proves "
        "i(Q_14) = 8 in 2.2 s and i(Q_15) = 9 in 18.1 s (in one search 2.9 s and 41.3 s), where cubes take 6.6 s "
        "and 33.9 s (quiet machine); on 16×16 cubes win, 12.9 s against 20.1 s",
        pieces=(Piece.QUEEN,), objectives=(Objective.INDEPENDENT_DOMINATION,), from_squares=14 * 14,
        below_squares=16 * 16, in_parts=True,
    ),
    AutoRule(
        "branch-and-bound-for-queen-domination", "bnb",
        "queen domination and independent domination below 14×14: the native branch-and-bound proves "
        "γ(Q_12) = 6 in 0.04 s, γ(Q_13) = 7 in 0.6 s and i(Q_13) = 7 in 0.2 s of one core, where SAT takes "
        "1.1 s and 6.1 s for γ (and unidom 0.14 s and 1.6 s); at 14×14 cubes win (γ(Q_14): 17 s against 12 s)",
        pieces=(Piece.QUEEN,), objectives=(Objective.DOMINATION, Objective.INDEPENDENT_DOMINATION),
        below_squares=14 * 14,
    ),
    AutoRule(
        "branch-and-bound-for-queen-total-domination", "bnb",
        "queen total domination below 14×14: the native branch-and-bound proves γt(Q_11) = 7 in 0.7 s, "
        "γt(Q_12) = 7 in 1.8 s and γt(Q_13) = 8 in 27 s (command line, load 5–6), where CP-SAT took 44.5 s and "
        "33.4 s through default jobs (load 3.5–4.3) and had not proved γt(Q_13) in 240 s (bounds 5…8)",
        pieces=(Piece.QUEEN,), objectives=(Objective.TOTAL_DOMINATION,), below_squares=14 * 14,
    ),
    AutoRule(
        "cubes-for-queen-domination", "cubes",
        "queen domination from 14×14: cube-and-conquer on one worker proves γ(Q_14) = 8 in 104 s of CPU "
        "where one SAT process takes 265 s (and below 14×14 SAT wins: γ(Q_13) 8.7 s against 24.5 s)",
        pieces=(Piece.QUEEN,), objectives=(Objective.DOMINATION,), from_squares=14 * 14,
    ),
    AutoRule(
        "cubes-for-independent-queen-domination", "cubes",
        "independent queen domination from 12×12: cube-and-conquer on one worker proves i(Q_12) = 7 in 11.1 s "
        "of CPU and i(Q_13) = 7 in 13.9 s, where one SAT process takes 18.3 s and 19.1 s",
        pieces=(Piece.QUEEN,), objectives=(Objective.INDEPENDENT_DOMINATION,), from_squares=12 * 12,
    ),
    AutoRule(
        "branch-and-bound-for-amazon-domination", "bnb",
        "amazon domination and independent domination below 13×13: the native branch-and-bound proves "
        "γ(A_12) = 6 in 0.30 s and i(A_12) = 6 in 0.06 s, where SAT takes 32.3 s and 2.1 s and CP-SAT "
        "does not prove γ in 60 s",
        pieces=(Piece.AMAZON,), objectives=SLIDER_DOMINATION, below_squares=13 * 13,
    ),
    AutoRule(
        "branch-and-bound-for-archbishop-domination", "bnb",
        "archbishop domination below 13×13: the native branch-and-bound proves γ(H_10) = 8 in 0.14 s and "
        "γ(H_12) = 10 in 7.2 s, where SAT takes 5.4 s and 45.5 s (CP-SAT 1.7 s and 7.5 s); for i SAT "
        "stays ahead (i(H_12) = 10 in 0.25 s against 0.55 s)",
        pieces=(Piece.ARCHBISHOP,), objectives=(Objective.DOMINATION,), below_squares=13 * 13,
    ),
    AutoRule(
        "sat-for-slider-domination", "sat",
        "slider domination: SAT with line variables proves γ(Q_13) = 7 in 9 s and i(Q_11) = 5 in 0.7 s, "
        "where CP-SAT needs minutes",
        pieces=SLIDERS, objectives=SLIDER_DOMINATION,
    ),
    # The native branch-and-bound with the packing bound was measured against this rule and
    # does not reach it (docs/benchmarks/knights.md): stopped at 60 s from 12×12, 5 knights
    # short of γ(N_14) and 7 of γ(N_16), where SCIP proves them in 23 s and 99 s (load 5–8).
    AutoRule(
        "mip-for-knight-domination", "mip",
        "knight domination from 14×14: through a default job SCIP's branch-and-cut on one core proves "
        "γ(N_15) = 36 in 15 s, γ(N_16) = 40 in 35 s and γ(N_17) = 46 in 103 s, where CP-SAT on two workers takes "
        "34 s, 92 s and more than 900 s (i and γt of knights alike; at 13×13 CP-SAT is ahead: 1.9 s against 2.9 s)",
        pieces=(Piece.KNIGHT,), objectives=KNIGHT_DOMINATION, from_squares=14 * 14,
    ),
    AutoRule(
        "cpsat-for-leapers", "cpsat",
        "leaper domination and independence: CP-SAT's LP bound proves γ(N_12) = 24 in 1.2 s "
        "(reduced_costs and max_lp_sym subsolvers), where SAT cubes need more than a minute for γ(N_13)",
    ),
)
"""The rules in order: the first that applies picks (:func:`auto_rule`), and the last
applies to every problem."""


def auto_rule(problem: PlacementProblem, certified: bool = False) -> AutoRule:
    """The rule by which ``auto`` picks a backend for ``problem`` (with a certificate asked
    for too, where ``certified``): the first of :data:`AUTO_RULES` that applies."""
    for rule in AUTO_RULES:
        if rule.applies(problem, certified):
            return rule
    raise AssertionError("the last rule applies to every problem")


def choose_backend(problem: PlacementProblem, certified: bool = False) -> str:
    """The backend ``auto`` picks for ``problem`` (see :func:`auto_rule`)."""
    return auto_rule(problem, certified).backend
