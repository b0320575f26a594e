"""``chessdom solve``: a provably optimal placement, optionally counted, run as cubes, and
certified into a directory."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from tqdm import tqdm

from chessdom import library, models, native_search
from chessdom.chessboard import PLACEMENT_VARIANTS, Piece, PlacementProblem
from chessdom.models.certificates import MAX_PROOF_BYTES
from chessdom.processes.executors import open_executor

from chessdom.cli.arguments import UsageError, add_board, add_json, integer, print_json, time_limit

def _solve(args: argparse.Namespace) -> int:
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
    started = time.monotonic()
    certify = args.certify is not None
    problem = PlacementProblem(args.size, Piece(args.piece), PLACEMENT_VARIANTS[args.variant])
    with open_executor(args.scheduler, args.workers) as executor, _live_status(problem) as show:
        result = library.solve_placement(
            args.piece,
            args.size,
            variant=args.variant,
            solver=args.solver,
            time_limit=args.time_limit,
            count=args.count,
            seed=args.seed,
            use_theorems=args.use_theorems,
            representatives=args.representatives is not None or (certify and args.count),
            executor=executor,
            on_progress=show,
            state_dir=args.state,
        )
        answer = result.to_dict()
        if args.representatives is None and answer.get("count"):
            answer["count"]["representatives"] = None
        if certify:
            certificate = _Certification(args, executor, started)
            answer.update(certificate.make(result, args.certify))
            if answer.get("count") is not None:
                answer["count"].update(certificate.make(result, _count_directory(args.certify), enumeration=True))
    if args.representatives is not None and result.count is not None:
        with open(args.representatives, "w", encoding="utf-8") as out:
            out.writelines(" ".join(squares) + "\n" for squares in result.count.representatives)
    if args.json:
        print_json(answer)
    else:
        print(result)
        if certify:
            _print_certificate(answer, "certificate")
            if answer.get("count") is not None:
                _print_certificate(answer["count"], "count certificate")
    # A script that asked for a certificate should not go on without one.
    wanted = [answer] + ([answer["count"]] if certify and answer.get("count") is not None else [])
    certified = not certify or all((part["certificate"] or {}).get("checked", False) for part in wanted)
    return 0 if certified else 1


@contextlib.contextmanager
def _live_status(problem: PlacementProblem):
    """A status line on stderr while the solve runs — the bounds proved and found so far,
    the cubes or count parts done — shown on a terminal only (a long proof otherwise says
    nothing for an hour), and gone when the answer is printed."""
    with tqdm(file=sys.stderr, disable=None, leave=False, desc="solving",
              bar_format="{desc} [{elapsed}]{postfix}") as status:
        words = StatusWords(problem)
        stopped = threading.Event()
        ticking = threading.Thread(target=_tick, args=(status, stopped), daemon=True)
        ticking.start()
        if not status.disable:
            # Beside the solve, not before it: the baseline takes seconds on the largest boards.
            threading.Thread(target=_show_baseline, args=(status, words), daemon=True).start()
        try:
            yield lambda snapshot: status.set_postfix_str(words.update(snapshot))
        finally:
            stopped.set()
            ticking.join()


def _tick(status: tqdm, stopped: threading.Event) -> None:
    """Redraw each second, so the clock runs while no bound moves (for minutes, at the frontier)."""
    while not stopped.wait(1.0):
        status.refresh()


def _show_baseline(status: tqdm, words: StatusWords) -> None:
    status.set_postfix_str(words.found_baseline(native_search.greedy_placement(words.problem).value))


class StatusWords:
    """What the status line says. A solver's first placements can fill most of the board
    (the SAT descent starts from every square: γ(Q13) read 5…130), which bounds nothing; so
    no placement is shown before the greedy baseline's, found in milliseconds (seconds on
    the largest boards), and then the better of the two. A bound no tighter than the number
    of squares is never shown."""

    def __init__(self, problem: PlacementProblem):
        self.problem = problem
        self.snapshot: dict = {}
        self.baseline_known = False
        self.baseline: int | None = None

    def update(self, snapshot: dict) -> str:
        self.snapshot = snapshot
        return str(self)

    def found_baseline(self, value: int | None) -> str:
        """``value``: the greedy placement's size, or None when it found none."""
        self.baseline, self.baseline_known = value, True
        return str(self)

    def __str__(self) -> str:
        snapshot = self.snapshot
        lower, upper = snapshot.get("lower_bound"), snapshot.get("upper_bound")
        if self.problem.objective.maximize:
            lower = self._found(lower)
        else:
            upper = self._found(upper)
        if upper is not None and upper >= self.problem.board.num_squares:
            upper = None
        words = [f"bounds {'?' if lower is None else lower}…{'?' if upper is None else upper}"]
        if snapshot.get("cubes_total"):
            words.append(f"cubes {snapshot['cubes_done']}/{snapshot['cubes_total']}")
        if snapshot.get("count_parts_total"):
            words.append(f"count parts {snapshot['count_parts_done']}/{snapshot['count_parts_total']}")
        return ", ".join(words)

    def _found(self, solver_found: int | None) -> int | None:
        """The size of the best placement found, the solver's or the baseline's."""
        if not self.baseline_known:
            return None
        found = [size for size in (solver_found, self.baseline) if size is not None]
        if not found:
            return None
        return max(found) if self.problem.objective.maximize else min(found)


def _count_directory(directory: Path) -> Path:
    """Where ``--certify DIR`` puts the certificate of the count: ``DIR-count`` beside it."""
    return directory.with_name(f"{directory.name}-count")


def _print_certificate(part: dict, what: str) -> None:
    certificate = part["certificate"]
    if certificate is None:
        print(f"{what} unavailable: {part['certificate_unavailable']}")
        return
    check = certificate["checker"]
    status = f"checked by {check['name']} {check['version']} ({check['engine']}) in {check['seconds']:.2f} s" \
        if certificate["checked"] else f"NOT checked: {check['verdict']}"
    cubes = f" ({certificate['cubes']} cubes)" if certificate.get("cubes") else ""
    print(f"{what} in {certificate['directory']}{cubes}: {certificate['claim']}; {status}")


class _Certification:
    """Certificates into directories, sharing the solve's time limit and cube executor."""

    def __init__(self, args: argparse.Namespace, executor, started: float):
        self.args, self.executor, self.started = args, executor, started

    def make(self, result, directory: Path, *, enumeration: bool = False) -> dict:
        """Certify into ``directory``, which appears only when the certificate is complete."""
        from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate

        args = self.args
        remaining = None if args.time_limit is None else args.time_limit - (time.monotonic() - self.started)
        options = CertifyOptions(time_limit=remaining, max_proof_bytes=args.max_proof_mb * 2**20,
                                 workers=args.workers or 1)
        try:
            made = make_certificate(result, directory, options, executor=self.executor, enumeration=enumeration)
        except CertificateUnavailable as reason:
            return {"certificate": None, "certificate_unavailable": str(reason)}
        except OSError as error:
            raise UsageError(f"argument --certify: {error.strerror or error}: {error.filename or directory}") from None
        return {
            "certificate": {"directory": str(directory), "claim": made.claim, "cubes": made.cubes,
                            "checked": made.checked, "checker": made.checker},
            "certificate_unavailable": None,
        }


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
                    "shows the bounds proved and found so far while the solve runs.",
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
                        help="write a certificate of the bound into DIR (new or empty): formula.cnf, manifest.json and "
                             "proof.drat (or cubes.txt, cube proofs and a cover proof), checked by the independent "
                             "checker; with --count, also a certificate of the count and its classes into DIR-count; "
                             "exit status 1 when one is not made")
    parser.add_argument("--max-proof-mb", type=integer(1), default=MAX_PROOF_BYTES // 2**20, metavar="MB",
                        help="with --certify: split a refutation into cubes when one proof would grow past this, "
                             "each cube's proof under it; default %(default)s")
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
