"""Regions of the board that every symmetry maps onto itself — the four quadrants, and on
an odd side the middle rank and file — and the orbits of per-region piece counts.

Every placement has exactly one tuple of counts, and a symmetry maps the placements with
one tuple one-to-one onto the placements with its image. So the placements of one tuple
per orbit stand for all of them: cube-and-conquer refutes one cube per orbit
(:mod:`chessdom.models.cubes.splitting`), and counting weighs what one cube lists by the
size of its tuple's orbit (:mod:`chessdom.models.counting.parts`).

The same holds for finer regions that every symmetry maps onto one another: the regions
cut by bands around the centre (:func:`ring`), into which a count splits a slow part
(:func:`split_counts`), one tuple per orbit under the symmetries that keep the part's, and
for any partition that every symmetry maps onto itself: a knight count's parts fix the
squares that guard the corners (:func:`corner_guards`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from chessdom.chessboard import Board, Piece, Square, attack_table
from chessdom.chessboard.symmetry import symmetry_permutations

Region = tuple[Square, ...]


def regions(board: Board) -> tuple[Region, ...]:
    """The four quadrants, and on an odd side the middle rank and file as a fifth region:
    a partition of the squares that every symmetry of the board maps onto itself."""
    middle_rank = board.rows // 2 if board.rows % 2 else None
    middle_file = board.cols // 2 if board.cols % 2 else None
    parts: dict[object, list[Square]] = {}
    for square in board.squares():
        rank, file = board.coordinates(square)
        if rank == middle_rank or file == middle_file:
            key = "middle"
        else:
            key = (rank >= board.rows / 2, file >= board.cols / 2)
        parts.setdefault(key, []).append(square)
    return tuple(tuple(parts[key]) for key in sorted(parts, key=str))


def corner_guards(board: Board) -> tuple[Region, ...]:
    """Each square from which a knight guards a corner (a knight's move from it, one
    region per square), and the rest of the board as the last region: a partition that
    every symmetry maps onto itself. Each corner is dominated from itself or from two of
    these squares, so fixing them splits a knight count into parts of comparable work."""
    knight = attack_table(board, Piece.KNIGHT)
    corners = {board.index(rank, file) for rank in (0, board.rows - 1) for file in (0, board.cols - 1)}
    guards = sorted({square for corner in corners for square in knight.lists[corner]})
    rest = tuple(square for square in board.squares() if square not in guards)
    return (*((square,) for square in guards), rest)


class RegionOrbits:
    """How the board's symmetries permute a partition into regions (by default its
    :func:`regions`), and so tuples of counts."""

    def __init__(self, board: Board, parts: tuple[Region, ...] | None = None):
        self.parts = regions(board) if parts is None else parts
        index_of = {square: i for i, part in enumerate(self.parts) for square in part}
        self.maps = [[index_of[permutation[part[0]]] for part in self.parts]
                     for permutation in symmetry_permutations(board)]

    def orbit(self, counts: tuple[int, ...]) -> set[tuple[int, ...]]:
        """Every image of a tuple of per-region counts."""
        return {_permuted(counts, mapping) for mapping in self.maps}

    def is_leader(self, counts: tuple[int, ...]) -> bool:
        """Whether ``counts`` is the greatest tuple of its orbit (the one a cube is made of)."""
        return counts == max(self.orbit(counts))


def counts_within(sizes: tuple[int, ...], budget: int, *, exactly: bool = False) -> Iterator[tuple[int, ...]]:
    """Every tuple of counts, each at most its region's size, adding up to at most (or
    ``exactly``) ``budget``."""
    if not sizes:
        if not exactly or budget == 0:
            yield ()
        return
    if exactly and len(sizes) == 1:  # the last region takes what is left
        if budget <= sizes[0]:
            yield (budget,)
        return
    for count in range(min(budget, sizes[0]) + 1):
        for rest in counts_within(sizes[1:], budget - count, exactly=exactly):
            yield (count, *rest)


def _permuted(counts: tuple[int, ...], mapping: list[int]) -> tuple[int, ...]:
    image = [0] * len(counts)
    for region, count in enumerate(counts):
        image[mapping[region]] = count
    return tuple(image)


def ring(board: Board, square: Square, rings: int) -> int:
    """Which of ``rings`` nested bands around the centre holds ``square`` (0 innermost),
    by its distance from the centre along the board's longer relative axis. Every symmetry
    keeps it, and the bands of ``2 * rings`` split those of ``rings`` in two."""
    rank, file = board.coordinates(square)
    distance = max(abs(rank - (board.rows - 1) / 2) / board.rows, abs(file - (board.cols - 1) / 2) / board.cols)
    return int(distance * 2 * rings)  # distance < 1/2


Counts = tuple[tuple[Region, int], ...]


def split_counts(board: Board, counts: Counts, rings: int) -> list[tuple[Counts, int]]:
    """Every way to share each region's count among its parts in ``rings`` bands
    (:func:`ring`), one per orbit under the symmetries that keep ``counts``, with the
    orbit's size. The placements of ``counts`` are those of these tuples and their images
    under those symmetries, so each placement a tuple has stands for its orbit's size."""
    fine: list[Region] = []
    choices = []
    for region, count in counts:
        by_band: dict[int, list[Square]] = {}
        for square in region:
            by_band.setdefault(ring(board, square, rings), []).append(square)
        bands = [tuple(by_band[band]) for band in sorted(by_band)]
        fine.extend(bands)
        choices.append([shares for shares in itertools.product(*(range(min(count, len(b)) + 1) for b in bands))
                        if sum(shares) == count])
    kept = keeping(board, counts)
    split = []
    for shares in itertools.product(*choices):
        tuple_ = tuple(zip(fine, itertools.chain.from_iterable(shares)))
        orbit = {tuple(image[region] for region in fine)
                 for image in (_moved(tuple_, p) for p in kept)}
        if tuple(count for _, count in tuple_) == max(orbit):
            split.append((tuple_, len(orbit)))
    return split


def sort_into(
    board: Board, counts: Counts, pieces: list[Counts], placements: list[tuple[Square, ...]]
) -> list[list[tuple[Square, ...]]]:
    """What each of ``pieces`` (:func:`split_counts` of ``counts``) already holds of
    ``placements`` (placements with ``counts``): each moved, by a symmetry that keeps
    ``counts``, onto the piece whose tuple it then has. Two that one symmetry maps onto the
    other land on one placement, held once."""
    fine = [region for region, _ in pieces[0]]
    where = {square: i for i, region in enumerate(fine) for square in region}
    index = {tuple(count for _, count in piece): i for i, piece in enumerate(pieces)}
    held: list[set[tuple[Square, ...]]] = [set() for _ in pieces]
    kept = keeping(board, counts)
    for placement in placements:
        for permutation in kept:
            image = tuple(sorted(permutation[s] for s in placement))
            shares = [0] * len(fine)
            for square in image:
                shares[where[square]] += 1
            if tuple(shares) in index:
                held[index[tuple(shares)]].add(image)
                break
        else:
            raise ValueError(f"{placement} does not have the counts it was split from")
    return [sorted(placements) for placements in held]


MAX_UNIONS = 256
"""At most this many unions of regions are bounded (:func:`line_budgets`): a count split
into bands has many regions, and every bound is only redundant."""


def line_budgets(
    lines: tuple[tuple[Square, ...], ...], families: tuple[tuple[int, ...], ...], counts: Counts
) -> list[tuple[tuple[int, ...], int]]:
    """What a tuple of region counts implies for the lines of a slider: for each family
    of disjoint lines (one direction) and each union of the regions its lines cross, at
    most as many of the lines lying inside the union hold a piece as the union holds
    pieces — each such line holds one of them, and no piece is on two lines of a family.
    Pairs of (line indices, budget), only where the budget is below the number of lines.

    The whole board's bound (no more lines of a direction hold pieces than there are
    pieces) is in every query; these are the same argument per region, which SAT does not
    find alone: measured on one core, one incremental solver, the cubes refuting 7 queens
    on 14×14 took 21.8 and 21.0 s without them, 7.1 and 6.9 s with them; 6 queens on
    13×13 4.5 and 5.2 s against 3.3 and 2.6 s."""
    where = {square: index for index, (region, _) in enumerate(counts) for square in region}
    budgets: dict[tuple[int, ...], int] = {}
    for family in families:
        crossing: dict[frozenset[int], list[int]] = {}
        for line in family:
            if all(square in where for square in lines[line]):
                crossing.setdefault(frozenset(where[square] for square in lines[line]), []).append(line)
        for union in _unions(list(crossing)):
            inside = tuple(sorted(line for key, members in crossing.items() if key <= union for line in members))
            budget = sum(counts[index][1] for index in union)
            if budget < len(inside):
                budgets[inside] = min(budget, budgets.get(inside, budget))
    return sorted(budgets.items())


def _unions(keys: list[frozenset[int]]) -> list[frozenset[int]]:
    """The unions of any of ``keys``, up to :data:`MAX_UNIONS` of them, smallest first."""
    unions, frontier = set(keys), set(keys)
    while frontier and len(unions) < MAX_UNIONS:
        frontier = {a | b for a in frontier for b in keys} - unions
        unions |= frontier
    return sorted(unions, key=lambda union: (len(union), sorted(union)))[:MAX_UNIONS]


def keeping(board: Board, counts: Counts) -> list[tuple[Square, ...]]:
    """The symmetries that keep each region's count."""
    return [p for p in symmetry_permutations(board) if _moved(counts, p) == dict(counts)]


def _moved(counts: Counts, permutation: tuple[Square, ...]) -> dict[Region, int]:
    return {tuple(sorted(permutation[s] for s in region)): count for region, count in counts}
