"""Independence certified by cliques (contract version 8): the board split into groups of
squares that attack one another pairwise holds at most one independent piece per group,
so a split into ``β`` such groups proves that ``β + 1`` pieces cannot be independent —
in the time it takes to check every pair, where the refutation by resolution of the same
pigeonhole grows exponentially (β(Q_13): LRAT proofs of 137 MB, 695 s to certify;
docs/benchmarks/atlas.md).

The covers tried are the ones that meet β on the boards it is known for: the ranks or
files (queens, rooks: β = n), the diagonals of each colour (bishops: β = 2n − 2, with the
two one-square corner diagonals of an odd side joined, :func:`_absorbed`), the 2×2 blocks (kings: β = ⌈m/2⌉⌈n/2⌉) and, for a piece whose moves always
change colour, a maximum matching of its attack graph (knights: β = ⌈mn/2⌉ from 3×3, by a
near-perfect matching). Each group is kept only if it is a clique by the solver's attack
table; the independent checker checks them again by its own attack rule
(:mod:`chessdom.certificates.cliques`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from ortools.graph.python import max_flow

from chessdom.certificates import CONTRACT_V8, claim
from chessdom.chessboard import Board, Objective, PlacementResult, Square, attack_table, square_names
from chessdom.models.certificates.manifest import write_manifest

Cover = list[tuple[Square, ...]]


def clique_cover(result: PlacementResult) -> Cover | None:
    """The smallest cover of ``result``'s board by cliques of its piece's attack graph
    among those tried, if it refutes one piece more than ``result``'s independence
    number; else None (and None where every square holds a piece: nothing to refute)."""
    problem = result.problem
    if problem.objective is not Objective.INDEPENDENCE or result.value is None \
            or result.value >= problem.board.num_squares:
        return None
    board = problem.board
    attacked = [frozenset(squares) for squares in attack_table(board, problem.piece).lists]
    covers = [_grouped(board, key) for key in _KEYS]
    if _changes_colour(board, attacked):
        covers.append(_matched(board, attacked))
    cliques = [_absorbed(cover, attacked) for cover in covers if all(_is_clique(group, attacked) for group in cover)]
    best = min(cliques, key=len, default=None)
    return best if best is not None and len(best) <= result.value else None


def write_clique_certificate(result: PlacementResult, cover: Cover, staged: Path, check: Callable[[Path], dict],
                             report: Callable[[dict], None]) -> dict:
    """The certificate of ``result``'s independence number by ``cover``, written into
    ``staged`` and checked by ``check`` (the independent checker's verdict on a
    directory), each state told to ``report``: its manifest."""
    report({"state": "making", "form": "cliques"})
    problem, board = result.problem.to_dict(), result.problem.board
    bound = result.value + 1
    manifest = {"contract": CONTRACT_V8, "problem": problem, "value": result.value, "claim": claim(problem, bound),
                "refuted": {"bound": bound, "relation": "at least"}, "witness": list(result.placement),
                "evidence": {"form": "cliques", "cliques": [square_names(board, group) for group in cover]},
                "optimum": {"solver": result.solver.name, "proof": result.proof},
                "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    write_manifest(staged, manifest)
    report({"state": "checking"})
    manifest["check"] = check(staged)
    write_manifest(staged, manifest)
    return manifest


_KEYS: tuple[Callable[[int, int], tuple], ...] = (
    lambda r, f: (r,),  # ranks
    lambda r, f: (f,),  # files
    lambda r, f: (r - f,),  # diagonals
    lambda r, f: (r + f,),  # anti-diagonals
    lambda r, f: ((r + f) % 2, r - f if (r + f) % 2 else r + f),  # each colour by one direction
    lambda r, f: ((r + f) % 2, r + f if (r + f) % 2 else r - f),  # and by the other
    lambda r, f: (r // 2, f // 2),  # 2×2 blocks
)
"""The covers tried, each a grouping of squares by a key of their rank and file."""


def _grouped(board: Board, key: Callable[[int, int], tuple]) -> Cover:
    groups: dict[tuple, list[Square]] = {}
    for square in board.squares():
        groups.setdefault(key(*board.coordinates(square)), []).append(square)
    return [tuple(group) for group in groups.values()]


def _is_clique(group: tuple[Square, ...], attacked: list[frozenset[Square]]) -> bool:
    return all(b in attacked[a] for i, a in enumerate(group) for b in group[i + 1:])


def _absorbed(cover: Cover, attacked: list[frozenset[Square]]) -> Cover:
    """``cover`` with each square alone moved into the first group it attacks whole: the
    two corners that are one-square diagonals of a bishop on an odd side share the long
    anti-diagonal, which makes 2n − 2 of the 2n − 1 diagonals."""
    groups = [list(group) for group in cover]
    for alone in [group for group in groups if len(group) == 1]:
        square = alone[0]
        home = next((group for group in groups if group is not alone and group
                     and all(other in attacked[square] for other in group)), None)
        if home is not None:
            home.append(square)
            alone.clear()
    return [tuple(sorted(group)) for group in groups if group]


def _changes_colour(board: Board, attacked: list[frozenset[Square]]) -> bool:
    """Whether every move goes to a square of the other colour: then the attack graph is
    bipartite, and a maximum matching is a maximum flow."""
    colour = [sum(board.coordinates(square)) % 2 for square in board.squares()]
    return all(colour[a] != colour[b] for a in board.squares() for b in attacked[a])


def _matched(board: Board, attacked: list[frozenset[Square]]) -> Cover:
    """A maximum matching of the bipartite attack graph (OR-Tools' max flow, light squares
    to dark), its pairs and the squares left alone."""
    flow = max_flow.SimpleMaxFlow()
    source, sink = board.num_squares, board.num_squares + 1
    light = [s for s in board.squares() if sum(board.coordinates(s)) % 2 == 0]
    arcs = {}
    for a in light:
        flow.add_arc_with_capacity(source, a, 1)
        for b in sorted(attacked[a]):
            arcs[flow.add_arc_with_capacity(a, b, 1)] = (a, b)
    for b in board.squares():
        if sum(board.coordinates(b)) % 2 == 1:
            flow.add_arc_with_capacity(b, sink, 1)
    if flow.solve(source, sink) != flow.OPTIMAL:
        raise RuntimeError("OR-Tools' max flow did not finish a bipartite matching")
    pairs = [pair for arc, pair in arcs.items() if flow.flow(arc) == 1]
    paired = {square for pair in pairs for square in pair}
    return pairs + [(square,) for square in board.squares() if square not in paired]
