"""One entry of the atlas, computed where a worker runs it: prove the value
(:func:`chessdom.models.solve_with`), count its optimal placements and classes where the
enumeration finishes within the count budget, certify the bound and the count
(:func:`~chessdom.models.certificates.make_certificate`, each archived as the
``chessdom certificate check`` command reads it) and check each archive again, as
stored, with the independent checker.

The entry is computed within :func:`~chessdom.models.dispatch.native_backend.recording_trees`:
where the branch-and-bound answers γ, i or γt, its own search tree is the bound's
certificate (contract version 5), and the count is listed by the same search, whose
listing tree certifies it. Measured (the shared 2 cores, load 1–4): γt(Q_10)
certified in 5.1 s and 3 KB, its count's 216 placements in 1.1 s and 140 KB, where the
DRAT certificates of the n ≤ 10 trial build took 175 s for the entry; elsewhere (β, and
what another solver answered: the branch-and-bound did not prove γ(K_10) in 120 s) the
DRAT refutations and cubes as before. Nothing is written but the entry's archives and,
last, its entry file: until then the entry is not finished, and a resumed build makes it
again but for what its working folder ``.work/<stem>/`` keeps: the proved value with its
bound's checked archive (:mod:`chessdom.atlas.proved`) and the count's finished parts —
kept there too after a count stopped by its limit, for ``--retry uncounted`` to go on from."""

from __future__ import annotations

import contextlib
import shutil
import time
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from chessdom.atlas.archives import Archived, archive_certificate, check_archive
from chessdom.atlas.classes import classes_of
from chessdom.atlas.proved import PROVED as PROVED_FILE
from chessdom.atlas.proved import keep_proved, proved_before
from chessdom.atlas.provenance import chessdom_version, revision
from chessdom.atlas.schema import (
    CERTIFICATES, FIELDS, NONE_EXISTS, OUT_OF_REACH, PROVED, WORK, AtlasClass, Entry, stem,
)
from chessdom.atlas.store import write_entry
from chessdom.chessboard import Board, Objective, PlacementProblem, PlacementResult, Status, parse_piece
from chessdom.models import CubeOptions, SolveOptions, count_placements, solve_with
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.certificates.tree import TREE_OBJECTIVES, TREE_SOLVER
from chessdom.models.counting.state import StateMismatch
from chessdom.models.counting.nqueens import count_nqueens, counts_as_nqueens
from chessdom.models.cubes import count_by_cubes, local_pool
from chessdom.models.dispatch.native_backend import count_by_branch_and_bound, recording_trees
from chessdom.processes import report_event

COUNT_STATE = "count-state"
"""The folder of an entry's working files where its count's finished parts are kept."""
TREE_FIRST = 30.0
"""Seconds the branch-and-bound is given first for γ, i and γt by default
(``--tree-first``): its tree then certifies the value and its listing the count; past
them the dispatcher's own choice answers and DRAT certifies. Measured on the shared 2
cores (γ(B_9): proved in 0.8 s, the tree 2.7 s and 16 KB, the 71,136 placements listed in
9.5 s and certified in 15.7 s, where the trial build's SAT count and DRAT certificates
took 216 s; γ(N_10) 0.8 s; γt(K_9) 5.2 s), while γ(K_10) was not proved within 120 s.
In the first n ≤ 10 build with trees a tree certificate cost about 2 s even on a 2×2 board
(a checker started afresh each time; DRAT: 0.3–0.6 s); with the warm checker the 20 entries
of each n from 2 to 5 took 0.9–3 s in all (docs/benchmarks/atlas.md). γt(K_9) took 107 s by
tree where DRAT had taken 12.5 s."""


@dataclass(frozen=True)
class EntrySpec:
    """What to compute, where, within what: ``time_limit`` seconds for the value and its
    certificate, ``count_limit`` for the enumeration and its certificate (0: no count);
    an archive over ``ship_bytes`` is recorded but not kept (None: every one is kept);
    ``tree_first`` seconds for the branch-and-bound first (γ, i, γt: :data:`TREE_FIRST`);
    ``workers`` processes of the entry's own for its cubes, its count's parts and its
    certificates' searches (1: the count in one search, in the entry's process);
    ``certify_count_limit`` seconds to certify the count (None: ``count_limit``; 0: the
    count is kept uncertified, as proved lower bounds)."""

    directory: Path
    piece: str
    parameter: str
    rows: int
    cols: int
    time_limit: float
    count_limit: float
    ship_bytes: int | None = None
    tree_first: float = TREE_FIRST
    workers: int = 1
    certify_count_limit: float | None = None

    @property
    def count_certificate_seconds(self) -> float:
        return self.count_limit if self.certify_count_limit is None else self.certify_count_limit

    @property
    def stem(self) -> str:
        return stem(self.piece, self.parameter, self.rows, self.cols)

    @property
    def problem(self) -> PlacementProblem:
        return PlacementProblem(Board(self.rows, self.cols), parse_piece(self.piece), Objective(self.parameter))


@dataclass
class Stages:
    """Seconds spent in each stage, and what the checker said."""

    prove: float = 0.0
    count: float = 0.0
    certify: float = 0.0
    check: float = 0.0
    checked_by: str | None = None
    resumed: float = 0.0
    """Seconds of the stages an earlier run of the entry spent, taken over from it."""

    def seconds(self) -> dict:
        """The stages so far, as :mod:`chessdom.atlas.proved` keeps them."""
        return {"prove": self.prove, "certify": self.certify, "check": self.check, "checked_by": self.checked_by}

    def take_over(self, seconds: dict) -> None:
        """Go on from an earlier run's kept stages (:meth:`seconds`)."""
        self.prove, self.certify, self.check = seconds["prove"], seconds["certify"], seconds["check"]
        self.checked_by = seconds["checked_by"]
        self.resumed = self.prove + self.certify + self.check


def compute_entry(spec: EntrySpec) -> dict:
    """Compute, certify and write the entry ``spec`` names; its row as a dict."""
    with recording_trees(), entry_pool(spec.workers) as pool:
        return _compute(spec, pool)


def entry_pool(workers: int) -> contextlib.AbstractContextManager[Executor | None]:
    """The entry's own worker processes (none for one worker). Counted in parts on 2 of them,
    γt(Q_13)'s 1,830 placements took 177 s, where its count in one search was stopped at its
    300 s limit (docs/benchmarks/atlas.md, the frontier runs); a part finished is kept, so a
    killed build resumes a long count where it stopped."""
    return contextlib.nullcontext() if workers <= 1 else local_pool(workers)


def _compute(spec: EntrySpec, pool: Executor | None) -> dict:
    started, stages = time.perf_counter(), Stages()
    work = spec.directory / WORK / spec.stem
    result, fields, bound = _bound(spec, work, stages, pool)
    counted, classes = None, []
    if fields["status"] == PROVED:
        counted, classes = _count(spec, result, work, stages, fields, pool)
    seconds = time.perf_counter() - started + stages.resumed
    entry = _entry(spec, result, fields, (bound, counted), stages, seconds)
    write_entry(spec.directory, entry, classes)
    _clear_work(work, keep_count=entry.status == PROVED and entry.count_all is None)
    return entry.to_dict()


def _bound(spec: EntrySpec, work: Path, stages: Stages, pool: Executor | None
           ) -> tuple[PlacementResult, dict, Archived | None]:
    """The value proved and its bound certified — or taken as an earlier run of this entry
    kept them (:mod:`chessdom.atlas.proved`); with the entry's fields so far."""
    if (kept := proved_before(work, spec.problem, spec.directory)) is not None:
        result, bound, seconds = kept
        stages.take_over(seconds)
        (spec.directory / CERTIFICATES / f"{spec.stem}-count.tar.gz").unlink(missing_ok=True)
        return result, {"status": PROVED, "value": result.value, "note": None}, bound
    for name in (spec.stem, f"{spec.stem}-count"):  # an earlier run's, were it retried
        (spec.directory / CERTIFICATES / f"{name}.tar.gz").unlink(missing_ok=True)
    result = _prove(spec, stages, pool)
    fields: dict = {"status": OUT_OF_REACH, "value": None, "note": None}
    bound = None
    if result.status is Status.INFEASIBLE:
        fields.update(status=NONE_EXISTS, note="no placement has the property on this board")
    elif not result.optimal:
        fields["note"] = f"not proved optimal within the time limit of {spec.time_limit:g} s (--time-limit)"
    else:
        bound, why = (None, None) if fills_the_board(spec.parameter, spec.rows, spec.cols, result.value) else \
            _certified(spec, result, work / "bound", stages, pool, enumeration=False)
        if why is not None:
            fields["note"] = f"{result.value} proved by {result.solver.name}, but not certified: {why}"
        else:
            fields.update(status=PROVED, value=result.value)
            keep_proved(work, result, bound, stages.seconds())
    return result, fields, bound


def _clear_work(work: Path, keep_count: bool) -> None:
    """The entry's working files removed — but for a count stopped by its limit, whose
    finished parts and proved bound stay for ``--retry uncounted`` to go on from (γ(Q_16)'s
    count took more than the hour it was given)."""
    if not keep_count:
        shutil.rmtree(work, ignore_errors=True)
        return
    for path in work.glob("*"):
        if path.name in (COUNT_STATE, PROVED_FILE):
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def fills_the_board(parameter: str, rows: int, cols: int, value: int | None) -> bool:
    """Independence with a piece on every square: optimal with nothing to prove (no more
    pieces than squares), so no bound certificate is made — or needed."""
    return Objective(parameter).maximize and value == rows * cols


def _prove(spec: EntrySpec, stages: Stages, pool: Executor | None) -> PlacementResult:
    began = time.perf_counter()
    cubes = None if pool is None else CubeOptions(workers=lambda: contextlib.nullcontext(pool))

    def live(snapshot: dict) -> None:
        report_event({"stem": spec.stem, "value": snapshot.get("value"), "bound": snapshot.get("proven_bound")})

    result = None
    if spec.problem.objective in TREE_OBJECTIVES:
        result = solve_with(spec.problem, SolveOptions(solver="bnb", time_limit=min(spec.time_limit, spec.tree_first)),
                            on_progress=live)
    if result is None or not result.optimal:
        result = solve_with(spec.problem, SolveOptions(time_limit=spec.time_limit), cubes=cubes, on_progress=live)
    stages.prove = time.perf_counter() - began
    return result


def _certified(spec: EntrySpec, result: PlacementResult, work: Path, stages: Stages, pool: Executor | None, *,
               enumeration: bool) -> tuple[Archived | None, str | None]:
    """The certificate made (on ``pool`` where it runs cubes or searches in parts),
    archived and checked again as stored; or None and why not."""
    budget = spec.count_certificate_seconds if enumeration else spec.time_limit
    if budget <= 0:
        return None, "the build's --certify-count-limit is 0"
    name = f"{spec.stem}-count" if enumeration else spec.stem
    began = time.perf_counter()
    shutil.rmtree(work, ignore_errors=True)
    report_event({"stem": spec.stem, "stage": "certifying the count" if enumeration else "certifying"})
    try:
        made = make_certificate(result, work, CertifyOptions(time_limit=budget, form=_form(result, enumeration)),
                                enumeration=enumeration, executor=pool)
    except CertificateUnavailable as error:
        stages.certify += time.perf_counter() - began
        return None, str(error)
    archived = archive_certificate(work, spec.directory, name, made.form)
    stages.certify += time.perf_counter() - began
    began = time.perf_counter()
    try:
        verdict = check_archive(spec.directory / archived.relative)
        if not verdict.ok:
            raise RuntimeError(f"{name}: the independent checker rejected the archive just made: {verdict.reason}")
    except BaseException:  # no archive is left that no entry names
        (spec.directory / archived.relative).unlink(missing_ok=True)
        raise
    stages.check += time.perf_counter() - began
    stages.checked_by = _checker_words(verdict.checker)
    return archived.kept_within(spec.directory, spec.ship_bytes), None


def by_tree(result: PlacementResult) -> bool:
    """Whether the branch-and-bound answered a parameter its tree certifies: then its count
    is listed by the same search and both certificates are its trees."""
    return result.problem.objective in TREE_OBJECTIVES and result.solver.name == TREE_SOLVER


def _form(result: PlacementResult, enumeration: bool) -> str:
    """``tree`` for a count the branch-and-bound listed (its listing tree, kept); else
    ``auto``: the bound's tree where the answering solve kept one, the DRAT refutations
    where it did not."""
    return "tree" if enumeration and by_tree(result) else "auto"


def _checker_words(checker: dict) -> str:
    native = f", {checker['native']}" if "native" in checker else ""
    return f"chessdom.certificates ({checker['name']} {checker['version']}, {checker['engine']} engine{native})"


def _count(spec: EntrySpec, result: PlacementResult, work: Path, stages: Stages, fields: dict,
           pool: Executor | None) -> tuple[Archived | None, list[AtlasClass]]:
    """The count's certificate and classes, its numbers into ``fields``; or none, and
    why into ``fields["count_note"]`` — a count made whose certificate was not is kept,
    its classes too, with the note :func:`uncertified_note`."""
    if spec.count_limit <= 0:
        fields["count_note"] = "not counted: the build's --count-limit is 0"
        return None, []
    began = time.perf_counter()
    report_event({"stem": spec.stem, "stage": "counting"})
    try:
        count = _enumerated(spec, result, work / COUNT_STATE, pool)
    except StateMismatch:  # an earlier run's parts, kept by another lister (SAT, or the branch-and-bound)
        shutil.rmtree(work / COUNT_STATE, ignore_errors=True)
        count = _enumerated(spec, result, work / COUNT_STATE, pool)
    stages.count = time.perf_counter() - began
    if not count.exact:
        fields["count_note"] = _uncounted(spec, count, by_tree(result) and stages.count < spec.count_limit)
        return None, []
    counted, why = _certified(spec, replace(result, count=count), work / "count", stages, pool, enumeration=True)
    fields.update(count_all=count.solutions, count_classes=count.up_to_symmetry, count_note=None)
    if counted is None:
        fields["count_note"] = uncertified_note(count.solutions, count.up_to_symmetry, why)
    return counted, classes_of(spec.problem.board, count.representatives)


def _enumerated(spec: EntrySpec, result: PlacementResult, state_dir: Path, pool: Executor | None):
    """The count: listed by the branch-and-bound where it answered (in one search, whose
    listing tree is kept whole, or in parts on ``pool``, whose subtrees are stitched into
    that same tree), else by SAT parts (on ``pool`` when given); parts finished are kept
    in ``state_dir`` for a resumed build."""
    limit = spec.count_limit
    if counts_as_nqueens(spec.problem, result.value):
        return count_nqueens(spec.problem, representatives=True, time_limit=limit, executor=pool)
    if by_tree(result):
        return count_by_branch_and_bound(spec.problem, result.value, time_limit=limit, representatives=True,
                                         executor=pool, state_dir=None if pool is None else state_dir)
    if pool is not None:
        return count_by_cubes(spec.problem, result.value, pool, time_limit=limit, representatives=True,
                              state_dir=state_dir)
    return count_placements(spec.problem, result.value, time_limit=limit, representatives=True, state_dir=state_dir)


def uncertified_note(placements: int, classes: int, why: str) -> str:
    """The note of a count kept without its certificate. Its class list is still evidence
    a reader re-checks (``atlas check``: every class optimal, closed under the symmetries,
    orbits adding up), so the numbers are proved lower bounds; that no placement is
    missing is the enumeration's word alone."""
    return (f"not certified: {why}. The {classes} classes ({placements} placements) are checked by atlas check, "
            f"so both numbers are proved lower bounds; that none is missing is the enumeration's word")


def _uncounted(spec: EntrySpec, count, listed_within_limit: bool) -> str:
    """Why an inexact count gives no counts: the time limit, or — the branch-and-bound's
    listing ended within it — its cap on the placements it lists (their number exact,
    their classes not all known)."""
    from chessdom.native_search.branch_and_bound import MAX_LISTED  # numba: not for who reads an atlas

    if listed_within_limit and count.solutions > MAX_LISTED:
        return (f"{count.solutions} placements, more than the {MAX_LISTED} the branch-and-bound lists: their "
                f"classes are not all known, so neither count is certified")
    return (f"the enumeration did not finish within the count limit of {spec.count_limit:g} s (--count-limit): "
            f"at least {count.solutions} placements in {count.up_to_symmetry} classes")


def _entry(spec: EntrySpec, result: PlacementResult, fields: dict, archives: tuple[Archived | None, Archived | None],
           stages: Stages, seconds: float) -> Entry:
    bound, counted = archives
    if fields["status"] != PROVED:
        fields["count_note"] = "no proved value to count"
    return entry_of(spec, **fields, lower_bound=result.lower_bound, upper_bound=result.upper_bound,
                    witness=tuple(result.placement), **Archived.columns(bound, "certificate"),
                    **Archived.columns(counted, "count_certificate"), checked_by=stages.checked_by,
                    checked_at=datetime.now(UTC).isoformat(timespec="seconds") if stages.checked_by else None,
                    seconds=round(seconds, 3), seconds_prove=round(stages.prove, 3),
                    seconds_count=round(stages.count, 3), seconds_certify=round(stages.certify, 3),
                    seconds_check=round(stages.check, 3))


def entry_of(spec: EntrySpec, **fields) -> Entry:
    """The entry of ``spec`` with ``fields``; every column not given empty (no counts, no
    certificates, no seconds), its provenance this chessdom's."""
    blank = {name: None for name in FIELDS} | {
        "piece": spec.piece, "parameter": spec.parameter, "rows": spec.rows, "cols": spec.cols, "witness": (),
        "certificate_shipped": False, "count_certificate_shipped": False, "rebuild_command": rebuild_command(spec),
        "seconds": 0.0, "seconds_prove": 0.0, "seconds_count": 0.0, "seconds_certify": 0.0, "seconds_check": 0.0,
        "chessdom_version": chessdom_version(), "revision": revision()}
    return Entry(**(blank | fields))


def rebuild_command(spec: EntrySpec) -> str:
    """The command that builds this entry again, every certificate kept, into a new directory."""
    board = f"--min-n {spec.rows} --max-n {spec.rows}" if spec.rows == spec.cols else f"--boards {spec.rows}x{spec.cols}"
    first = "" if spec.tree_first == TREE_FIRST else f" --tree-first {spec.tree_first:g}"
    workers = "" if spec.workers <= 1 else f" --entry-workers {spec.workers}"
    certify = "" if spec.certify_count_limit is None else f" --certify-count-limit {spec.certify_count_limit:g}"
    return (f"chessdom atlas build ATLAS-DIR --pieces {spec.piece} --parameters {spec.parameter} {board} "
            f"--time-limit {spec.time_limit:g} --count-limit {spec.count_limit:g}{first}{workers}{certify}")
