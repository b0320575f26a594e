"""Region cubes, the refutations of certificate contract version 3: the placements of at
most ``B`` pieces are split by how many pieces each region of a partition holds, the
partition kept by every symmetry of the board (:mod:`chessdom.models.counting.regions`:
the quadrants, and on an odd side the middle rank and file). A symmetry maps the
placements of one tuple of counts onto those of its image, so one cube per orbit of the
tuples adding up to ``B`` — its leader — is refuted, each by a fresh CaDiCaL and a DRAT
proof of its own, and the checker itself checks that the leaders' orbits cover every tuple
(no cover proof). A cube whose run outgrows the proof limit or its time slice is split
into finer regions, each region cut into bands around the centre
(:func:`~chessdom.models.counting.regions.split_counts`: one child per orbit under the
symmetries keeping the parent's counts, which the cover accepts in the parent's place).

Measured (one core, fresh CaDiCaL 1.9.5 per cube, proof to file) against contract version
2's one proof or Hilbert-order totalizer cubes: γ(Q_12) ≤ 5 in 10 cubes, 0.7 s and 4.9 MB
(one proof: 2.7 s, 14 MB); γ(Q_13) ≤ 6 in 43 cubes, 18.1 s and 133 MB, the longest 5.0 s
(84 Hilbert cubes: 143 s); γ(Q_14) ≤ 7 in 20 cubes, 202 s and 1.3 GB, the longest 83 s:
there the finer levels are needed (the per-proof limit).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path

from pysat.card import CardEnc, EncType

from chessdom.certificates.contract import MAX_CUBES
from chessdom.chessboard import Board, square_names
from chessdom.models.certificates.cubes import CubesFailed, run_all
from chessdom.models.certificates.prover import ProofRun, log_proof
from chessdom.models.counting.regions import Region, RegionOrbits, counts_within, ring, split_counts

AT_MOST, EXACTLY = "at most", "exactly"
LEVEL_RINGS = (1, 2, 4)
"""The partitions a certificate may use, coarsest first: the regions, then each cut into 2
and into 4 bands around the centre (:func:`~chessdom.models.counting.regions.ring`: the
bands of 4 halve those of 2, so each level refines the one before, as the contract
requires)."""
CUBE_SECONDS = 30.0
"""A cube that can still be split gets this long before it is (the finest get the rest of
the time limit). Its run is lost, so the slice is long against a typical cube: measured on
γ(Q_13) ≤ 6 the longest of 43 cubes took 5.0 s; on γ(Q_14) ≤ 7 one took 83 s (and its
proof outgrew the per-proof limit long before)."""
MAX_REGION_CUBES = 2_000
"""Beyond this many first cubes (many pieces on a large board) the certificate keeps
contract version 2: each cube costs a fresh solver, and the checker enumerates every
tuple of the cover (up to 2,000,000)."""
MAX_TUPLES = 50_000
"""Tuples of counts enumerated at most before giving up on region cubes."""


@dataclass(frozen=True, order=True)
class Cube:
    """At most (or exactly) ``counts[i]`` pieces in region ``i`` of partition ``level``."""

    level: int
    counts: tuple[int, ...]


def partitions(board: Board) -> list[tuple[Region, ...]]:
    """The partitions of :data:`LEVEL_RINGS`: each region of
    :func:`~chessdom.models.counting.regions.regions` cut into that many bands, in the
    regions' order, the bands innermost first, each region's squares ascending."""
    coarse = RegionOrbits(board).parts
    levels = []
    for rings in LEVEL_RINGS:
        fine: list[Region] = []
        for region in coarse:
            bands: dict[int, list[int]] = {}
            for square in region:
                bands.setdefault(ring(board, square, rings), []).append(square)
            fine.extend(tuple(sorted(bands[band])) for band in sorted(bands))
        levels.append(tuple(fine))
    return levels


def partition_names(board: Board, partition: tuple[Region, ...]) -> list[list[str]]:
    """A partition as the manifest lists it: each region by its square names."""
    return [square_names(board, region) for region in partition]


def first_cubes(board: Board, bound: int, level: int = 0) -> list[Cube] | None:
    """The orbit leaders of the tuples of region counts adding up to ``bound``, split down
    to ``level``; None when there are too many (:data:`MAX_REGION_CUBES`)."""
    orbits = RegionOrbits(board)
    sizes = tuple(len(part) for part in orbits.parts)
    tuples = list(itertools.islice(counts_within(sizes, bound, exactly=True), MAX_TUPLES + 1))
    if len(tuples) > MAX_TUPLES:
        return None
    cubes = [Cube(0, counts) for counts in tuples if orbits.is_leader(counts)]
    levels = partitions(board)
    for _ in range(level):
        cubes = [child for cube in cubes for child in children(board, levels, cube)]
    return cubes if len(cubes) <= MAX_REGION_CUBES else None


def children(board: Board, levels: list[tuple[Region, ...]], cube: Cube) -> list[Cube]:
    """``cube`` split into the next level: one child per orbit of the ways to share each
    region's count among its bands, under the symmetries keeping ``cube``'s counts."""
    level = cube.level + 1
    split = split_counts(board, tuple(zip(levels[cube.level], cube.counts)), LEVEL_RINGS[level])
    cubes = []
    for shares, _ in split:
        if tuple(region for region, _ in shares) != levels[level]:
            raise AssertionError(f"split_counts cut the regions of level {cube.level} other than level {level}")
        cubes.append(Cube(level, tuple(count for _, count in shares)))
    return cubes


def cube_clauses(variables: int, partition: tuple[Region, ...], counts: tuple[int, ...], relation: str
                 ) -> tuple[tuple[int, ...], ...]:
    """What the cube adds to the formula, as the contract spells it: for each region in
    order, python-sat's totalizer of "at most" (or "exactly") its count over the region's
    square variables ascending, new variables numbered on from the formula's ``variables``."""
    encode = CardEnc.equals if relation == EXACTLY else CardEnc.atmost
    top = variables
    clauses: list[tuple[int, ...]] = []
    for region, count in zip(partition, counts, strict=True):
        encoded = encode(lits=sorted(square + 1 for square in region), bound=count, top_id=top,
                         encoding=EncType.totalizer).clauses
        clauses.extend(tuple(clause) for clause in encoded)
        top = max([top] + [abs(literal) for clause in encoded for literal in clause])
    return tuple(clauses)


@dataclass(frozen=True)
class Section:
    """One refutation split into region cubes: ``formula`` (its header's ``variables``),
    the relation its cubes state, the prefix of its proofs' names and its first cubes."""

    formula: Path
    variables: int
    relation: str
    prefix: str
    cubes: list[Cube]


@dataclass(frozen=True)
class RegionProofs:
    """What :func:`prove_regions` proved: per section, its cubes and runs in the order of
    its proof files (``{prefix}1.drat``, …)."""

    sections: list[list[tuple[Cube, ProofRun]]]
    splits: int
    """Cubes split into the next level because their run outgrew its slice or the limit."""
    seconds: float


@dataclass
class _Flight:
    """The cubes on the executor, and those proved."""

    board: Board
    levels: list[tuple[Region, ...]]
    sections: list[Section]
    directory: Path
    executor: Executor
    deadline: float | None
    max_proof_bytes: int
    cube_seconds: float
    futures: dict
    proved: list
    splits: int = 0

    def submit(self, section: int, cube: Cube) -> Future:
        path = self.directory / f".{self.sections[section].prefix}{len(self.futures)}.drat"
        limit = None if self.deadline is None else max(self.deadline - time.monotonic(), 0.01)
        if cube.level + 1 < len(self.levels):
            limit = self.cube_seconds if limit is None else min(limit, self.cube_seconds)
        clauses = cube_clauses(self.sections[section].variables, self.levels[cube.level], cube.counts,
                               self.sections[section].relation)
        future = self.executor.submit(log_proof, self.sections[section].formula, path, time_limit=limit,
                                      max_proof_bytes=self.max_proof_bytes, extra=clauses)
        self.futures[future] = (section, cube, path)
        return future

    def settle(self, future: Future) -> set[Future]:
        """Take in one finished run: the futures of the children it was split into."""
        section, cube, path = self.futures[future]
        run = future.result()
        if run.status == "unsat":
            self.proved.append((section, cube, path, run))
            return set()
        if run.status == "sat":
            raise RuntimeError(f"a region cube {cube.counts} of {self.sections[section].formula.name} is "
                               "satisfiable, so the optimum (or the count) is wrong; the solver that proved it is wrong")
        out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
        if run.status not in ("timeout", "too_large") or out_of_time or cube.level + 1 >= len(self.levels):
            raise CubesFailed(_why(run, cube, out_of_time, self.max_proof_bytes))
        self.splits += 1
        split = children(self.board, self.levels, cube)
        if len(self.futures) + len(split) > MAX_CUBES:  # each section's cubes are fewer than all runs
            raise CubesFailed(f"the region cubes were split past the contract's {MAX_CUBES} cubes")
        return {self.submit(section, child) for child in split}


def _why(run: ProofRun, cube: Cube, out_of_time: bool, max_proof_bytes: int) -> str:
    if out_of_time or run.status == "timeout":
        return "the region cubes did not finish within the time limit"
    if run.status == "too_large":
        return (f"a region cube of the finest level ({cube.counts}) still outgrew the proof limit "
                f"({max_proof_bytes} bytes)")
    return f"a region cube's proof-logging run ended with {run.status} {run.detail}".strip()


def prove_regions(board: Board, sections: list[Section], directory: Path, executor: Executor, *,
                  deadline: float | None, max_proof_bytes: int, cube_seconds: float = CUBE_SECONDS,
                  on_progress: Callable[[int, int], None] | None = None) -> RegionProofs:
    """Refute every section's cubes on ``executor`` (the formula files must be visible to
    its workers), splitting those that outgrow ``cube_seconds`` or ``max_proof_bytes``
    while a finer level is left; ``on_progress(done, total)`` is told after each round of
    finished runs. Raises CubesFailed at the deadline or when a cube of the finest level
    cannot be refuted (the caller deletes its partial proofs with the staging directory)."""
    started = time.monotonic()
    flight = _Flight(board, partitions(board), sections, directory, executor, deadline, max_proof_bytes,
                     cube_seconds, {}, [])
    run_all({flight.submit(index, cube) for index, section in enumerate(sections) for cube in section.cubes},
            flight.settle, lambda: len(flight.proved), deadline=deadline, what="region cubes", on_progress=on_progress)
    return RegionProofs(_renamed(flight), flight.splits, time.monotonic() - started)


def _renamed(flight: _Flight) -> list[list[tuple[Cube, ProofRun]]]:
    """Each section's proofs renamed ``{prefix}1.drat``, … in the order of their cubes."""
    sections = []
    for index, section in enumerate(flight.sections):
        mine = sorted((cube, path, run) for number, cube, path, run in flight.proved if number == index)
        for position, (_, path, _) in enumerate(mine, start=1):
            path.rename(flight.directory / f"{section.prefix}{position}.drat")
        sections.append([(cube, run) for cube, _, run in mine])
    return sections
