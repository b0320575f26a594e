"""``chessdom solve``: a provably optimal placement, optionally counted, run as cubes, and
certified into a directory."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from chessdom import library, models
from chessdom.atlas import Atlas
from chessdom.chessboard import PLACEMENT_VARIANTS, Piece, PlacementProblem
from chessdom.models.certificates import MAX_LRAT_PROOF_BYTES, MAX_PROOF_BYTES, staging_directory
from chessdom.models.certificates.tree import FORMS as CERTIFICATE_FORMS
from chessdom.models.dispatch.native_backend import recording_trees
from chessdom.processes.executors import open_executor

from chessdom.cli.arguments import UsageError, add_board, add_json, integer, print_json, time_limit
from chessdom.cli.status import Status, live_status

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it."""


def megabytes(mb: int | None) -> int | None:
    """--max-proof-mb in bytes; None leaves each proof form its own limit."""
    return None if mb is None else mb * 2**20


def _solve(args: argparse.Namespace) -> int:
    _check_arguments(args)
    certify = args.certify is not None
    try:
        result, answer = _solve_and_certify(args)
        interrupted = False
    except _Interrupted as stop:
        if stop.answer is None:
            _tell(args, stop.words)
            return INTERRUPTED
        result, answer, interrupted = stop.result, stop.answer, True
    if args.representatives is not None and result.count is not None:
        with open(args.representatives, "w", encoding="utf-8") as out:
            out.writelines(" ".join(squares) + "\n" for squares in result.count.representatives)
    if args.json:
        print_json(answer)
    elif not certify:
        print(result)
    else:  # the answer was printed as soon as it was proved
        _print_certificate(answer, "certificate")
        if answer.get("count") is not None:
            _print_certificate(answer["count"], "count certificate")
    if interrupted:
        return INTERRUPTED
    # A script that asked for a certificate should not go on without one.
    wanted = [answer] + ([answer["count"]] if certify and answer.get("count") is not None else [])
    certified = not certify or all((part["certificate"] or {}).get("checked", False) for part in wanted)
    return 0 if certified else 1


class _Interrupted(Exception):
    """Ctrl-C, raised through the executor's block so that nobody waits for its calls (a
    pool left by an exception kills its workers): what to tell of a solve it stopped, or
    the result and answer proved before it stopped a certificate."""

    def __init__(self, words: str, result=None, answer: dict | None = None):
        super().__init__(words)
        self.words, self.result, self.answer = words, result, answer


def _solve_and_certify(args: argparse.Namespace) -> tuple:
    """The result and its answer, certified where asked; raises :class:`_Interrupted`."""
    started = time.monotonic()
    problem = PlacementProblem(args.size, Piece(args.piece), PLACEMENT_VARIANTS[args.variant])
    with open_executor(args.scheduler, args.workers) as executor, live_status(problem) as status:
        try:
            result = _solved(args, executor, status)
        except KeyboardInterrupt:
            raise _Interrupted(f"{problem}: interrupted, {status.words.interrupted()}") from None
        answer = result.to_dict()
        answer["cached"] = False  # as the service says of an answer it solved afresh
        answer["atlas"] = _atlas_beside(problem, result.value)
        if args.representatives is None and answer.get("count"):
            answer["count"]["representatives"] = None
        if args.certify is not None and not _Certification(args, executor, started, status).add_to(answer, result):
            raise _Interrupted("certificate interrupted", result, answer)
    return result, answer


def _atlas_beside(problem: PlacementProblem, value: int | None) -> dict | None:
    """The shipped atlas's entry beside the answer, as the service sets it; a command has
    no URL to link it by (``chessdom atlas`` and ``GET /atlas`` serve the entry)."""
    board = problem.board
    found = Atlas.open().beside(problem.piece.value, problem.objective.value, board.rows, board.cols, value)
    if found is None:
        return None
    entry, agrees = found
    return {"value": entry.value, "agrees": agrees, "href": None}


def _solved(args: argparse.Namespace, executor, status: Status):
    """The library's answer; raises KeyboardInterrupt at Ctrl-C (:func:`_in_a_thread`). A
    certified solve keeps the branch-and-bound's search tree, if that answers, for its
    certificate (contract version 5), as the service's does."""
    recording = args.certify is not None and args.certificate_form in ("auto", "tree")
    with recording_trees() if recording else contextlib.nullcontext():
        return _in_a_thread(lambda: library.solve_placement(
            args.piece, args.size, variant=args.variant, solver=args.solver, time_limit=args.time_limit,
            count=args.count, seed=args.seed, use_theorems=args.use_theorems,
            representatives=args.representatives is not None or (args.certify is not None and args.count),
            executor=executor, on_progress=status.show, state_dir=args.state,
        ))


def _in_a_thread(work: Callable[[], object]):
    """``work()``, run in a daemon thread while this one waits: Ctrl-C then reaches this
    thread at once, as KeyboardInterrupt, and never a solver's own handler — pysat's
    CaDiCaL, solving in the main thread, takes SIGINT itself and jumps out of the handler
    (once, seen here, out of a malloc, which then deadlocked the process for good). Work
    left running ends with the process."""
    done: Future = Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as error:  # handed to the waiting thread, whatever it is
            done.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return done.result()


def _check_arguments(args: argparse.Namespace) -> None:
    """What argparse cannot see alone, refused before the solve (it may take hours)."""
    if args.certify is not None:
        _check_empty_directory(args.certify, "--certify")
        if args.count:
            _check_empty_directory(_count_directory(args.certify), "--certify (its count's directory)")
    if args.representatives is not None and not args.count:
        raise UsageError("argument --representatives: needs --count")
    if args.state is not None and not args.count:
        raise UsageError("argument --state: needs --count")
    if args.state is not None and args.state.exists() and not args.state.is_dir():
        raise UsageError(f"argument --state: {args.state} is not a directory")


def _tell(args: argparse.Namespace, line: str) -> None:
    """A line for the reader: on stdout beside the text answer, on stderr beside JSON
    (whose stdout a script reads as one JSON document)."""
    print(line, file=sys.stderr if args.json else sys.stdout, flush=True)


def _count_directory(directory: Path) -> Path:
    """Where ``--certify DIR`` puts the certificate of the count: ``DIR-count`` beside it."""
    return directory.with_name(f"{directory.name}-count")


def _print_certificate(part: dict, what: str) -> None:
    certificate = part["certificate"]
    if certificate is None:
        reason = part["certificate_unavailable"]
        print(f"{what}: {reason}" if reason == INTERRUPTED_CERTIFICATE else f"{what} unavailable: {reason}")
        return
    check = certificate["checker"]
    checker = check.get("refutation") or f"{check['name']} {check['version']} ({check['engine']})"
    status = f"checked by {checker} in {check['seconds']:.2f} s" if certificate["checked"] \
        else f"NOT checked: {check['verdict']}"
    cubes = f" ({certificate['cubes']} cubes)" if certificate.get("cubes") else ""
    print(f"{what} in {certificate['directory']}{cubes}: {certificate['claim']}; {status}")


class _Certification:
    """Certificates into directories, sharing the solve's time limit and cube executor;
    the proved answer is printed before them (a certificate can take minutes: γ(Q_13)'s
    112 s after a 1.7 s proof), their states shown on the status line, and Ctrl-C keeps
    the answer."""

    def __init__(self, args: argparse.Namespace, executor, started: float, status: Status):
        self.args, self.executor, self.started, self.status = args, executor, started, status

    def add_to(self, answer: dict, result) -> bool:
        """Certify ``result`` into ``answer`` (the bound's certificate, then the count's);
        False when Ctrl-C stopped it, nothing then written."""
        args = self.args
        if not args.json:
            self.status.write(str(result))
        parts = [(answer, args.certify, False, "bound")]
        if answer.get("count") is not None:
            parts.append((answer["count"], _count_directory(args.certify), True, "count"))
        for part, *_ in parts:  # what stands where Ctrl-C stops them
            part.update({"certificate": None, "certificate_unavailable": INTERRUPTED_CERTIFICATE})
        for part, directory, enumeration, what in parts:
            try:
                part.update(_in_a_thread(functools.partial(self.make, result, directory, enumeration=enumeration, what=what)))
            except KeyboardInterrupt:
                # The maker stages the certificate beside the directory, and its thread is
                # left to end with the process: its staging is cleared now and, as it may
                # have been making it still, again as the process ends.
                shutil.rmtree(staging_directory(directory), ignore_errors=True)
                atexit.register(shutil.rmtree, staging_directory(directory), ignore_errors=True)
                return False
        return True

    def make(self, result, directory: Path, *, enumeration: bool, what: str) -> dict:
        """Certify into ``directory``, which appears only when the certificate is complete."""
        from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate

        args = self.args
        remaining = None if args.time_limit is None else args.time_limit - (time.monotonic() - self.started)
        options = CertifyOptions(time_limit=remaining, max_proof_bytes=megabytes(args.max_proof_mb),
                                 workers=args.workers or 1, form=args.certificate_form)
        began = time.monotonic()
        self.status.certifying(what, {"state": "making"})
        try:
            made = make_certificate(result, directory, options, executor=self.executor, enumeration=enumeration,
                                    on_progress=lambda state: self.status.certifying(what, state))
        except CertificateUnavailable as reason:
            return {"certificate": None, "certificate_unavailable": str(reason)}
        except OSError as error:
            raise UsageError(f"argument --certify: {error.strerror or error}: {error.filename or directory}") from None
        return {
            "certificate": {"directory": str(directory), "claim": made.claim, "cubes": made.cubes,
                            "checked": made.checked, "checker": made.checker,
                            # as the service's: what it took after the solve, proof logging and the check
                            "seconds": round(time.monotonic() - began, 3)},
            "certificate_unavailable": None,
        }


INTERRUPTED_CERTIFICATE = "interrupted (Ctrl-C): nothing written"


def _check_empty_directory(path: Path, argument: str) -> None:
    """Before the solve: ``path`` is an empty directory, or one that can be made (a
    folder is made and removed to find out, as permissions alone do not tell, e.g. in /proc)."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"argument {argument}: {path} is not a directory")
    if path.is_dir():
        if any(path.iterdir()):
            raise UsageError(f"argument {argument}: {path} is not empty")
        return
    parent = next(folder for folder in path.absolute().parents if folder.exists())
    if not parent.is_dir():
        raise UsageError(f"argument {argument}: cannot create {path}: {parent} is not a directory")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=f".{path.name}.", dir=parent))
    except OSError as error:
        raise UsageError(f"argument {argument}: cannot create {path}: {error.strerror}") from None


def add_solve(commands) -> None:
    parser = commands.add_parser(
        "solve",
        help="a provably optimal placement: domination or independence",
        description="The fewest pieces that dominate a board (or, with --variant independence, the most "
                    "that do not attack each other), with a placement the independent checker verified, how the "
                    "bound was proved, and the published value beside it. On a terminal, a status line on stderr "
                    "shows the bounds proved and found so far while the solve runs, then each certificate's state. "
                    "A solve stopped by its time limit answers with the best placement found, at worst the greedy "
                    "baseline's; Ctrl-C prints the bounds so far and the best placement (exit status 130). The "
                    "first solve after installing compiles the native search first, reported apart from the "
                    "solve's wall time.",
    )
    parser.add_argument("piece", metavar="PIECE", type=str.lower, choices=tuple(p.value for p in Piece),
                        help="one of " + ", ".join(p.value for p in Piece))
    add_board(parser, max_side=models.MAX_SIDE, limited_by="the models")
    parser.add_argument("--variant", choices=tuple(PLACEMENT_VARIANTS), default="plain",
                        help="plain (γ), independent (i) or total (γt) domination, or independence (β); default %(default)s")
    parser.add_argument("--solver", choices=models.SOLVERS, default="auto",
                        help="auto picks the backend measured strongest for the problem; default %(default)s")
    parser.add_argument("--time-limit", type=time_limit, default=None, metavar="S",
                        help=f"seconds for the whole solve, at most {library.MAX_TIME_LIMIT} (a year); "
                             "default: none")
    parser.add_argument("--count", action="store_true", help="also count the optimal placements, and up to symmetry")
    parser.add_argument("--seed", type=integer(0, library.MAX_SEED), default=0,
                        help=f"CP-SAT's random seed, 0 to {library.MAX_SEED}; default %(default)s")
    parser.add_argument("--use-theorems", action="store_true", help="allow a cited theorem to prove the bound")
    parser.add_argument("--certify", type=Path, metavar="DIR",
                        help="write a certificate of the bound into DIR (new or empty): the branch-and-bound's "
                             "search tree where it answered (tree.bin, manifest.json), else formula.cnf and its "
                             "refutation (proof.lrat.gz, or cubes.txt and cube proofs), checked by the independent "
                             "checker; with --count, also a certificate of the count and its classes into DIR-count; "
                             "the answer is printed as soon as it is proved, before its certificate; exit status 1 "
                             "when one is not made, 130 when Ctrl-C stops it (the answer kept, nothing written)")
    parser.add_argument("--certificate-form", choices=CERTIFICATE_FORMS, default="auto",
                        help="with --certify: tree (the branch-and-bound's search, run again if another engine "
                             "answered), lrat or drat (proofs of the plain formula, for lrat-trim, cake_lpr or "
                             "drat-trim), auto the tree where the solve kept one, for independence a clique cover where one "
                             "meets the value (contract version 8), else lrat; default %(default)s")
    parser.add_argument("--max-proof-mb", type=integer(1), default=None, metavar="MB",
                        help="with --certify: split a refutation into cubes when one proof would grow past this, "
                             f"each cube's proof under it; default {MAX_PROOF_BYTES // 2**20} for drat, "
                             f"{MAX_LRAT_PROOF_BYTES // 2**20} for lrat")
    parser.add_argument("--representatives", metavar="FILE",
                        help="with --count: write one placement per symmetry class to FILE, one per line")
    parser.add_argument("--state", type=Path, metavar="DIR",
                        help="with --count: record each finished part of the count in DIR (made if missing), so that "
                             "a run stopped part-way and started again with the same DIR goes on without listing them "
                             "again; a finished count's DIR answers at once (remove it to count afresh)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the SAT queries as cube-and-conquer on this Dask cluster")
    parser.add_argument("--workers", type=integer(1), metavar="N",
                        help="run the SAT queries as cube-and-conquer on N local processes")
    add_json(parser, "POST /domination")
    parser.set_defaults(handler=_solve)
