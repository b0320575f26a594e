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

Where the piece has slider lines, each cube also carries its line budgets as lemmas
(:mod:`.lemmas`): each distinct lemma of a section is proved once, from its own small
formula, on the same executor as the cubes, and the cubes that use it get its clauses.
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
from chessdom.models.certificates.lemmas import (
    Lemma, Lines, applied_clauses, cube_lemmas, largest_variable, lemma_formula,
)
from chessdom.models.certificates.prover import ProofRun, log_proof
from chessdom.models.counting.regions import Region, RegionOrbits, counts_within, ring, split_counts

AT_MOST, EXACTLY = "at most", "exactly"
LEVEL_RINGS = (1, 2, 4)
"""The partitions a certificate may use, coarsest first: the regions, then each cut into 2
and into 4 bands around the centre (:func:`~chessdom.models.counting.regions.ring`: the
bands of 4 halve those of 2, so each level refines the one before, as the contract
requires)."""
LEMMA_LEVELS = (0,)
"""The levels whose cubes carry their line budgets as lemmas (:mod:`.lemmas`). Measured on
γ(Q_13) ≤ 6 (2 workers, load 3.5–5): at level 0 they cut the cubes' CaDiCaL from 32.7 to
19.9 s and their proofs from 101.5 to 53 MB, for 328 lemmas of 14.7 s and 42 MB; at level 1
the 18 cubes split off took 1,944 lemmas and grew slower (3.7 to 15.7 s, 14 to 39 MB)."""
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


class LemmasFailed(CubesFailed):
    """A lemma's run outgrew its slice or the proof limit before the deadline: the cubes
    can still be refuted without lemmas."""


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
        top = largest_variable(top, encoded)
    return tuple(clauses)


def prove_region_cube(formula: Path, proof: Path, section: tuple[int, str],
                      cube: tuple[tuple[Region, ...], tuple[int, ...], tuple[Lemma, ...]], *,
                      time_limit: float | None, max_proof_bytes: int, form: str) -> ProofRun:
    """One cube's refutation, where the executor's worker runs it: ``section`` is the
    formula's variables and the cubes' relation, ``cube`` the partition, its counts and
    the lemmas it carries. The cube's clauses (its totalizers and its lemmas') are built
    here, in the worker: built by the caller for every cube at submission, γ(N_16)'s count
    (3,000 cubes of about 19,000 clauses, 1.5 MB and 0.23 s each) held them all at once and
    its process was killed for memory at 19 GB, its workers idle while it built them."""
    variables, relation = section
    partition, counts, lemmas = cube
    clauses = cube_clauses(variables, partition, counts, relation)
    clauses += applied_clauses(largest_variable(variables, clauses), lemmas)
    return log_proof(formula, proof, time_limit=time_limit, max_proof_bytes=max_proof_bytes, extra=clauses, form=form)


@dataclass(frozen=True)
class Section:
    """One refutation split into region cubes: ``formula`` (its header's ``variables``),
    the relation its cubes state, the prefix of its proofs' names, its first cubes and
    the lines its lemmas are made of (None: no lemmas)."""

    formula: Path
    variables: int
    relation: str
    prefix: str
    cubes: list[Cube]
    lemmas: Lines | None = None


@dataclass(frozen=True)
class ProvedCube:
    """A refuted cube, its run and its lemmas (1-based, into its section's lemmas)."""

    cube: Cube
    run: ProofRun
    lemmas: tuple[int, ...] = ()


@dataclass(frozen=True)
class RegionProofs:
    """What :func:`prove_regions` proved: per section, its cubes in the order of its proof
    files (``{prefix}1.drat``, …) and the lemmas they use in the order of theirs."""

    sections: list[list[ProvedCube]]
    splits: int
    """Cubes split into the next level because their run outgrew its slice or the limit."""
    seconds: float
    lemmas: list[list[tuple[Lemma, ProofRun]]]


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
    lemmas: dict
    """(section, lemma) → [its proof's path, its run once refuted]."""
    splits: int = 0
    form: str = "drat"
    scratch: Path | None = None
    """Where the runs write their proofs before they are renamed into ``directory``."""

    def limit(self, sliced: bool) -> float | None:
        limit = None if self.deadline is None else max(self.deadline - time.monotonic(), 0.01)
        if sliced:
            limit = self.cube_seconds if limit is None else min(limit, self.cube_seconds)
        return limit

    def submit(self, section: int, cube: Cube) -> set[Future]:
        """The cube's run, and those of its lemmas not yet submitted."""
        own = self.sections[section]
        path = self.scratch / f".{own.prefix}{len(self.futures)}.drat"
        partition = self.levels[cube.level]
        lemmas = () if own.lemmas is None or cube.level not in LEMMA_LEVELS else cube_lemmas(
            own.lemmas, cube.level, partition, cube.counts)
        sliced = cube.level + 1 < len(self.levels)  # a cube that can still be split gets its slice
        future = self.executor.submit(prove_region_cube, own.formula, path, (own.variables, own.relation),
                                      (partition, cube.counts, lemmas), time_limit=self.limit(sliced),
                                      max_proof_bytes=self.max_proof_bytes, form=self.form)
        self.futures[future] = (section, cube, path, lemmas)
        return {future} | {self.submit_lemma(section, lemma) for lemma in lemmas if (section, lemma) not in self.lemmas}

    def submit_lemma(self, section: int, lemma: Lemma) -> Future:
        """A lemma's run: its own formula, without the section's (a cube is refuted by it,
        so every lemma would follow from it, and the solver would refute the cube again)."""
        own = self.sections[section]
        path = self.scratch / f".{own.lemmas.prefix}{len(self.futures)}.drat"
        caps = cube_clauses(own.variables, self.levels[lemma.level], lemma.counts, AT_MOST)
        future = self.executor.submit(log_proof, None, path, time_limit=self.limit(True),
                                      max_proof_bytes=self.max_proof_bytes,
                                      extra=lemma_formula(caps, own.variables, lemma), form=self.form)
        self.futures[future] = (section, lemma, path)
        self.lemmas[(section, lemma)] = [path, None]
        return future

    def unproved_lemmas(self) -> int:
        return sum(run is None for _, run in self.lemmas.values())

    def settle(self, future: Future) -> set[Future]:
        """Take in one finished run: the futures of the children it was split into."""
        if isinstance(self.futures[future][1], Lemma):
            self.settle_lemma(future)
            return set()
        section, cube, path, lemmas = self.futures[future]
        run = future.result()
        if run.status == "unsat":
            self.proved.append((section, cube, path, run, lemmas))
            return set()
        if run.status == "sat":
            raise RuntimeError(f"a region cube {cube.counts} of {self.sections[section].formula.name} is "
                               "satisfiable, so the optimum (or the count) is wrong; the solver that proved it is wrong")
        out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
        if run.status not in ("timeout", "too_large") or out_of_time or cube.level + 1 >= len(self.levels):
            raise CubesFailed(_why(run, cube, out_of_time, self.max_proof_bytes))
        self.splits += 1
        split = children(self.board, self.levels, cube)
        if len(self.futures) - len(self.lemmas) + len(split) > MAX_CUBES:  # each section's are fewer than all cubes
            raise CubesFailed(f"the region cubes were split past the contract's {MAX_CUBES} cubes")
        return {future for child in split for future in self.submit(section, child)}

    def settle_lemma(self, future: Future) -> None:
        section, lemma, _ = self.futures[future]
        run = future.result()
        if run.status == "sat":
            raise RuntimeError(f"a line budget lemma of {self.sections[section].formula.name} is satisfiable, "
                               f"so line_budgets is wrong: {lemma}")
        if run.status != "unsat":
            out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
            raise (CubesFailed if out_of_time else LemmasFailed)(_why(run, None, out_of_time, self.max_proof_bytes))
        self.lemmas[(section, lemma)][1] = run


def _why(run: ProofRun, cube: Cube | None, out_of_time: bool, max_proof_bytes: int) -> str:
    """Why a run (a cube's, or a lemma's: ``cube`` None) ends the certificate."""
    if out_of_time or run.status == "timeout":
        return "the region cubes did not finish within the time limit"
    if cube is None:
        return f"a line budget lemma's proof-logging run ended with {run.status} {run.detail}".strip()
    if run.status == "too_large":
        return (f"a region cube of the finest level ({cube.counts}) still outgrew the proof limit "
                f"({max_proof_bytes} bytes)")
    return f"a region cube's proof-logging run ended with {run.status} {run.detail}".strip()


@dataclass(frozen=True)
class RegionLimits:
    """What bounds the region cubes' runs: the deadline (``time.monotonic()``, None for
    none), each proof's size, and the slice after which a cube that can still be split is."""

    deadline: float | None
    max_proof_bytes: int
    cube_seconds: float = CUBE_SECONDS
    form: str = "drat"
    """What the runs write (:data:`~.prover.FORMS`)."""


def prove_regions(board: Board, sections: list[Section], directory: Path, executor: Executor, limits: RegionLimits,
                  *, on_progress: Callable[[int, int], None] | None = None, scratch: str = "") -> RegionProofs:
    """Refute every section's cubes on ``executor`` (the formula files must be visible to
    its workers), splitting those that outgrow ``limits.cube_seconds`` or the proof size
    limit while a finer level is left; ``on_progress(done, total)`` is told after each round of
    finished runs (cubes only: lemmas are not counted). Raises CubesFailed at the deadline
    or when a cube of the finest level cannot be refuted, LemmasFailed when a lemma cannot
    within the slice or the limit (the caller deletes the partial proofs with the staging
    directory, or with ``directory / scratch``, where the runs write, when one is named)."""
    started = time.monotonic()
    (directory / scratch).mkdir(exist_ok=True)
    deadline = limits.deadline
    flight = _Flight(board, partitions(board), sections, directory, executor, deadline, limits.max_proof_bytes,
                     limits.cube_seconds, {}, [], {}, form=limits.form, scratch=directory / scratch)
    progress = None if on_progress is None else (
        lambda done, total: on_progress(done, total - flight.unproved_lemmas()))
    run_all({future for index, section in enumerate(sections) for cube in section.cubes
             for future in flight.submit(index, cube)},
            flight.settle, lambda: len(flight.proved), deadline=deadline, what="region cubes", on_progress=progress)
    sections, lemmas = zip(*(_renamed(flight, index) for index in range(len(sections))), strict=True)
    if scratch:
        flight.scratch.rmdir()  # every proof was renamed out of it
    return RegionProofs(list(sections), flight.splits, time.monotonic() - started, list(lemmas))


def _renamed(flight: _Flight, index: int) -> tuple[list[ProvedCube], list[tuple[Lemma, ProofRun]]]:
    """Section ``index``'s proofs renamed ``{prefix}1.drat``, … in the order of their
    cubes, and the lemmas they use ``{lemma prefix}1.drat``, … in sorted order (so each
    cube's lemmas, sorted, get increasing numbers); the lemmas no final cube uses (a split
    cube's) are deleted."""
    section = flight.sections[index]
    mine = sorted((cube, path, run, lemmas) for number, cube, path, run, lemmas in flight.proved if number == index)
    used = sorted({lemma for *_, lemmas in mine for lemma in lemmas})
    if len(used) > MAX_CUBES:
        raise CubesFailed(f"the region cubes use more than the contract's {MAX_CUBES} lemmas")
    numbers = {lemma: position for position, lemma in enumerate(used, start=1)}
    for (number, lemma), (path, _) in flight.lemmas.items():
        if number == index and lemma not in numbers:
            path.unlink(missing_ok=True)
    for lemma, position in numbers.items():
        flight.lemmas[(index, lemma)][0].rename(flight.directory / f"{section.lemmas.prefix}{position}.drat")
    for position, (_, path, _, _) in enumerate(mine, start=1):
        path.rename(flight.directory / f"{section.prefix}{position}.drat")
    return ([ProvedCube(cube, run, tuple(numbers[lemma] for lemma in lemmas)) for cube, _, run, lemmas in mine],
            [(lemma, flight.lemmas[(index, lemma)][1]) for lemma in used])
