"""The certificate contract's vocabulary, written out once more from its text (docs/
explanation/certificate-contract.md) and deliberately not from the solver's: the files,
the problems, the attack rule, the refuted bound and the claim in words, square names and
the witness. The formula itself is :mod:`.formula`.

Attacks here come from coordinate differences (a queen attacks what shares its rank,
file or a diagonal), not from walking rays as the solver's attack tables do: two
formulations that must agree.
"""

from __future__ import annotations

import re

CONTRACT_V1 = "chessdom-certificate/1"
CONTRACT = "chessdom-certificate/2"
CONTRACT_V3 = "chessdom-certificate/3"
CONTRACT_V4 = "chessdom-certificate/4"
CONTRACT_V5 = "chessdom-certificate/5"
CONTRACT_V6 = "chessdom-certificate/6"
CONTRACT_V7 = "chessdom-certificate/7"
CONTRACT_V8 = "chessdom-certificate/8"
CONTRACT_V9 = "chessdom-certificate/9"
CONTRACT_V10 = "chessdom-certificate/10"
CONTRACTS = (CONTRACT_V1, CONTRACT, CONTRACT_V3, CONTRACT_V4, CONTRACT_V5, CONTRACT_V6, CONTRACT_V7, CONTRACT_V8,
             CONTRACT_V9, CONTRACT_V10)
"""Version 2 adds the literal order, cube bundles and enumerations; version 1
certificates (always row-major, one proof, one bound) still check. Version 3 splits the
refutation into region cubes, one proof per symmetry class of region counts, and the
checker itself checks that the classes cover every count (:mod:`.regions`). Version 4
adds the compound pieces (:data:`PIECES`) and the claim that no placement of any size
meets the objective (:data:`NO_SOLUTION`); its files are version 2's or version 3's.
Version 5 refutes a bound by the branch-and-bound's own search tree (:data:`TREE`), which
the checker replays (:mod:`.tree`); it has no formula. Version 6 is versions 2 to 4 (one
proof, a cube bundle, region cubes with lemmas; every piece) with every proof in binary
LRAT, gzip-compressed (:mod:`.lrat`), named as :data:`LRAT_SUFFIX` says. Version 7 is
version 5 whose tree may also hold packing leaves (the contract page, "Version 7"): its
manifest is version 5's in every other field. Version 8 bounds independence by a
partition of the board into cliques of the attack graph (:mod:`.cliques`): no formula, no
proof. Version 9 is version 7 whose tree may also hold LP leaves, weighted packings (the
contract page, "Version 9"): its manifest is version 7's. Version 10 is version 9 whose
tree may also hold binary nodes, a branch on one square placed or excluded (the contract
page, "Version 10"): its manifest is version 9's."""
MANIFEST = "manifest.json"
FORMULA = "formula.cnf"
PROOF = "proof.drat"
CUBES = "cubes.txt"
COVER = "cover.drat"
FEWER_FORMULA = "fewer.cnf"
"""Version 3: the formula of one piece fewer, without blocked placements (see "fewer")."""
REGION_PROOF = "cube-{}.drat"
FEWER_PROOF = "fewer-cube-{}.drat"
"""Version 3's proof files, numbered from 1 in the order of the manifest's cubes."""
LEMMA_PROOF = "lemma-{}.drat"
FEWER_LEMMA_PROOF = "fewer-lemma-{}.drat"
"""Version 3's lemma proofs, numbered from 1 in the order of a section's ``lemmas``."""
FILES = (MANIFEST, FORMULA, PROOF)
"""A single-proof certificate holds these files and nothing else; a cube bundle holds
``cubes.txt``, ``cover.drat`` and one ``cube-N.drat`` per cube instead of ``proof.drat``."""
TREE = "tree.bin"
"""Version 5's search tree: :data:`TREE_MAGIC`, the node count (8 bytes, little-endian),
then the zlib-compressed preorder array of little-endian int32 (:mod:`.tree`)."""
TREE_MAGIC = b"CDTREE01"
MAX_TREE_NODES = 1 << 29
"""Version 5: nodes a tree may hold (2 GiB of int32 once inflated; γ(Q_13) ≤ 6 takes 505,674).
Raised from 2²⁸ for the listing trees of counts: γ(Q_14)'s 4,632 placements and i(Q_15)'s
10,188 were each listed in parts whose subtrees held more than 2²⁸ entries; within 2²⁹ their
trees took 44 MB and 115.7 MB compressed and were checked in 209 s and 135 s (atlas builds
on 2 cores, docs/benchmarks/atlas.md)."""
MAX_TREE_WORK = 1 << 39
"""Version 5: nodes × squares × 64-bit words of a row, at most — each node of the replay is
a pass over the board's rows, so this bounds its work before it starts (γ(Q_13) ≤ 6 takes
about 2.6 × 10⁸, 0.7 s). Raised from 2³⁶ for γ(Q_16) ≤ 8: 212,784,295 nodes, 2.2 × 10¹¹,
replayed in 120 s on 2 threads; then from 2³⁸ with :data:`MAX_TREE_NODES`, so that a tree
on any board to 16×16 may hold 2²⁹ nodes (16×16: 2²⁹ × 256 × 4 = 2³⁹), 2.5 times the
nodes of γ(Q_16)'s tree. With :data:`MAX_TREE_NODES` it bounds the replay by the tree's size either way."""
ORDERS = ("row-major", "hilbert")
PIECES_V1 = ("queen", "rook", "bishop", "knight", "king")
"""The pieces of versions 1 to 3."""
COMPOUND_PIECES = ("amazon", "chancellor", "archbishop")
"""Added by version 4: a queen, a rook and a bishop that also leap as a knight does."""
PIECES = PIECES_V1 + COMPOUND_PIECES
"""The pieces of version 4, the version that lists them all."""
NO_SOLUTION = "any size"
"""Version 4's ``refuted.relation`` of a problem no placement meets (its ``value`` null)."""
OBJECTIVES = ("domination", "independent_domination", "total_domination", "independence")
ENCODINGS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")
MAX_SIDE = 64
MAX_SQUARES = 1024
"""The largest board the contract covers (the maker certifies none larger): rebuilding its
formula costs at most about a second and 200 MB (measured, the totalizer on 32×32 boards),
where a 64×64 manifest cost 26 s and 2.8 GB before the check could say no."""
MAX_MANIFEST_BYTES = 16 * 2**20
"""A manifest lists at most this much: the 25,872 classes of γ(Q_15) take about 1.3 MB."""
MAX_FORMULA_BYTES = 32 * 2**20
"""Larger than any formula of a board within MAX_SQUARES, blocked placements included."""
LRAT_FORMAT = "LRAT, binary, gzip"
"""Version 6's ``proof.format`` and ``cubes.format``."""
LRAT_SUFFIX = ".lrat.gz"
"""Version 6's proof files: the names above with this in place of ``.drat``
(``proof.lrat.gz``, ``cube-1.lrat.gz``, …); the checker reads the names the manifest lists."""
LRAT_PROOF = PROOF.removesuffix(".drat") + LRAT_SUFFIX
"""Version 6's one proof, where it is not split into cubes."""
MAX_PROOF_BYTES = 64 * 2**20
"""One proof file, at most: dratify holds a proof in memory at 11–21× its size, so a check
stays under about 1.4 GB. The maker keeps each proof under 32 MiB and splits past it."""
MAX_TREE_BYTES = 256 * 2**20
"""Version 5's ``tree.bin``, at most: held in memory whole while it inflates (at most
:data:`MAX_TREE_NODES` int32), so this bounds reading it beside the inflated array. Trees
compress well — γ(Q_16)'s 212,784,295 nodes into 17.8 MB, the listing tree of count
γ(Q_14) into 44 MB — but the listing tree of count i(Q_15) took 115.7 MB, past the 64 MiB
of a proof file (:data:`MAX_PROOF_BYTES`, whose reason, dratify's memory, a tree does not
have) that bounded it before."""
MAX_CERTIFICATE_BYTES = 4 * 2**30
"""Every file the manifest lists, together: what unpacking or downloading may write."""
MAX_CUBES = 100_000
MAX_ENUMERATED = 10_000_000
MAX_PARTITIONS = 8
MAX_REGIONS = 1024
"""Version 3: partitions a manifest may list, and regions in each."""
MAX_GROUPS = 1024
"""Version 3: groups one lemma may count (a section lists at most MAX_CUBES lemmas)."""
MAX_CUBE_LEMMAS = 1024
"""Version 3: lemmas one cube may list. Each adds its clauses to the cube's formula, so
without a cap a hostile manifest could ask for 100,000 lemmas of 1024 groups in one cube
(chessdom's cubes list at most about 30)."""
MAX_ADDED_COST = 2**22
"""Version 3: the clauses one proof's formula may add to the section formula (a cube's
totalizers and its lemmas', or a lemma's formula), bounded from sizes before any is built
(:func:`~.added.added_cost`): 4,194,304 allows one "exactly" region of 1024 squares (about
1.07 million clauses) with room to spare; chessdom's largest cube adds about 30,000."""
MAX_VECTORS = 2_000_000
"""Version 3: count vectors the checker enumerates to check a cover, at most (γ(Q_13) ≤ 6
enumerates 210 at the coarsest level: five regions, six pieces)."""
MAX_SLACK_WORK = 100_000_000
"""Version 3: counts compared, at most, between the vectors of a cover and its "at most"
cubes that add up to more than the bound (each such cube's images against each vector:
about 10 s; chessdom writes none)."""
MINIMISATIONS = ("domination", "independent_domination", "total_domination")
MONOTONE = ("domination", "total_domination")
"""Objectives whose structure clauses are all positive: adding a piece to a placement that
meets them gives one that meets them too."""
"""Solutions or classes an enumeration may claim (γ(Q_15) has 205,832 placements)."""

_PLURALS = {piece: piece + "s" for piece in PIECES}
_SLIDER_OF = {"amazon": "queen", "chancellor": "rook", "archbishop": "bishop"}


class ContractError(ValueError):
    """A manifest whose problem or bound the contract does not define."""


def attacks(piece: str, dr: int, df: int) -> bool:
    """Whether ``piece`` attacks a square ``dr`` ranks and ``df`` files away (pieces do
    not block one another, as in every domination problem)."""
    dr, df = abs(dr), abs(df)
    if dr == df == 0:
        return False
    if piece == "queen":
        return dr == 0 or df == 0 or dr == df
    if piece == "rook":
        return dr == 0 or df == 0
    if piece == "bishop":
        return dr == df
    if piece == "knight":
        return {dr, df} == {1, 2}
    if piece == "king":
        return max(dr, df) == 1
    if piece in COMPOUND_PIECES:  # a slider's rule, or a knight's leap
        return attacks(_SLIDER_OF[piece], dr, df) or attacks("knight", dr, df)
    raise ContractError(f"unknown piece {piece!r}")


def validate_problem(problem: dict, pieces: tuple[str, ...] = PIECES) -> tuple[int, int, str, str]:
    """``(rows, cols, piece, objective)`` of a problem the contract defines, with one of
    ``pieces`` (a version's list: :data:`PIECES_V1` before version 4); else ContractError."""
    try:
        rows, cols, piece, objective = problem["rows"], problem["cols"], problem["piece"], problem["objective"]
    except (KeyError, TypeError):
        raise ContractError("the manifest's problem needs rows, cols, piece and objective") from None
    for name, side in (("rows", rows), ("cols", cols)):
        if not isinstance(side, int) or isinstance(side, bool) or not 1 <= side <= MAX_SIDE:
            raise ContractError(f"problem.{name} must be an integer in 1…{MAX_SIDE}, got {side!r}")
    if piece not in pieces:
        later = f" (the compound pieces need {CONTRACT_V4})" if piece in PIECES else ""
        raise ContractError(f"problem.piece must be one of {', '.join(pieces)}, got {str(piece)[:40]!r}{later}")
    if objective not in OBJECTIVES:
        raise ContractError(f"problem.objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    return rows, cols, piece, objective


def refuted_bound(objective: str, value: int) -> int:
    """The bound a certificate of the optimum ``value`` refutes: at most ``value − 1``
    pieces for the minimisations, at least ``value + 1`` for independence."""
    return value + 1 if objective == "independence" else value - 1


def claim(problem: dict, bound: int) -> str:
    """The refuted bound in words: "no 4 or fewer queens dominate the 8×8 board"."""
    rows, cols, piece, objective = validate_problem(problem)
    board = f"the {rows}×{cols} board"
    pieces = _PLURALS[piece] if bound != 1 else piece
    if objective == "independence":
        return f"no {bound} or more {_PLURALS[piece]} on {board} are mutually non-attacking"
    verb = "dominates" if bound == 1 else "dominate"
    what = {
        "domination": f"{pieces} {verb} {board}",
        "independent_domination": f"mutually non-attacking {pieces} {verb} {board}",
        "total_domination": f"{pieces} totally {verb} {board} (every square attacked by one)",
    }[objective]
    return f"no {bound} or fewer {what}"


def no_solution_claim(problem: dict) -> str:
    """Version 4's claim of a problem no placement meets: "no placement of knights, of any
    size, totally dominates the 3×3 board (every square attacked by one)"."""
    rows, cols, piece, objective = validate_problem(problem)
    board = f"the {rows}×{cols} board"
    what = {
        "domination": f"dominates {board}",
        "independent_domination": f"is mutually non-attacking and dominates {board}",
        "total_domination": f"totally dominates {board} (every square attacked by one)",
        "independence": f"stands on {board} mutually non-attacking",
    }[objective]
    return f"no placement of {_PLURALS[piece]}, of any size, {what}"


def enumeration_claim(problem: dict, value: int, solutions: int, classes: int, symmetries: int) -> str:
    """An enumeration in words: "exactly 4860 placements of 5 queens dominate the 8×8
    board (638 up to its 8 symmetries), and no 4 or fewer queens dominate the 8×8 board"."""
    rows, cols, piece, objective = validate_problem(problem)
    board = f"the {rows}×{cols} board"
    pieces = f"{value} {_PLURALS[piece] if value != 1 else piece}"
    verb = "dominates" if solutions == 1 else "dominate"
    what = {
        "domination": f"{pieces} {verb} {board}",
        "independent_domination": f"{value} mutually non-attacking {pieces.split(' ', 1)[1]} {verb} {board}",
        "total_domination": f"{pieces} totally {verb} {board}",
        "independence": f"{value} mutually non-attacking {pieces.split(' ', 1)[1]} stand on {board}",
    }[objective]
    placements = "placement" if solutions == 1 else "placements"
    return (f"exactly {solutions} {placements} of {what} ({classes} up to its {symmetries} symmetries), "
            f"and {claim(problem, refuted_bound(objective, value))}")


_SQUARE = re.compile(r"([a-z]+)([1-9][0-9]*)")


def parse_squares(rows: int, cols: int, names: list[str]) -> tuple[set[tuple[int, int]] | None, str | None]:
    """The ``(rank, file)`` squares named (from a1, 0-based), or None and why not."""
    placed = set()
    for name in names:
        match = _SQUARE.fullmatch(str(name))
        if match is None:
            return None, f"{name!r} is not a square name"
        file = 0
        for letter in match[1]:
            file = file * 26 + ord(letter) - ord("a") + 1
        rank, file = int(match[2]) - 1, file - 1
        if not (0 <= rank < rows and 0 <= file < cols):
            return None, f"{name} is off the board"
        if (rank, file) in placed:
            return None, f"{name} is given twice"
        placed.add((rank, file))
    return placed, None


def placement_problem(problem: dict, placed: set[tuple[int, int]]) -> str | None:
    """Why the pieces on ``placed`` do not meet the objective, or None when they do."""
    rows, cols, piece, objective = validate_problem(problem)
    if objective in ("independent_domination", "independence"):
        for r, f in placed:
            for rr, ff in placed:
                if attacks(piece, rr - r, ff - f):
                    return f"two {_PLURALS[piece]} attack each other"
    if objective != "independence":
        for r in range(rows):
            for f in range(cols):
                own = (r, f) in placed and objective != "total_domination"
                if not own and not any(attacks(piece, r - pr, f - pf) for pr, pf in placed):
                    return f"it leaves {square_name(r, f)} undominated"
    return None


def square_name(rank: int, file: int) -> str:
    """``h5`` for rank 4, file 7 (both from 0): the inverse of the names read above."""
    letters = ""
    file += 1
    while file:
        file, letter = divmod(file - 1, 26)
        letters = chr(ord("a") + letter) + letters
    return f"{letters}{rank + 1}"


def witness_problem(problem: dict, squares: list[str]) -> str | None:
    """Why the witness placement does not meet the objective, or None when it does."""
    rows, cols, _, _ = validate_problem(problem)
    placed, reason = parse_squares(rows, cols, squares)
    if placed is None:
        return reason
    reason = placement_problem(problem, placed)
    return None if reason is None else f"the witness: {reason}"
