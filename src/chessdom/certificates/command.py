"""The checker's command line, shared by ``python -m chessdom.certificates`` and
``chessdom certificate check``: a directory, a ``.tar.gz`` archive or the service's URL,
its DRAT checks run on ``--workers N`` local processes.

Where the checks run is opened by the caller (:data:`ExecutorOpener`), as this package
imports nothing else of chessdom: standing alone it has local processes only;
``chessdom certificate check`` hands it chessdom's own opener, which adds ``--scheduler``
(a Dask cluster)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path

from chessdom.certificates.check import ENGINES, CheckerUnavailable, check_certificate
from chessdom.certificates.files import Unreadable
from chessdom.certificates.sources import Download, certificate_directory

USAGE_ERROR = 2
REJECTED = 1

ExecutorOpener = Callable[[str | None, int | None], AbstractContextManager[Executor | None]]
"""``open(scheduler, workers)``: for a block, the cluster at ``scheduler``, ``workers``
local processes, or None (checks run here) when both are None."""
DOWNLOAD_MB = 1024
"""A compressed archive this large holds far more than any certificate made so far (γ(Q_13)'s
bundle of 85 proofs is 273 MB unpacked); ``--max-download-mb`` raises it, up to the
contract's limit on what a certificate's files may take together."""


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def add_arguments(parser: argparse.ArgumentParser, *, cluster: bool) -> None:
    """The checker's arguments; ``--scheduler`` only with ``cluster`` (an opener that reaches one)."""
    parser.add_argument("target", metavar="DIR-or-ARCHIVE-or-URL",
                        help="a certificate directory, its .tar.gz archive, or its URL /certificates/{id}")
    parser.add_argument("--engine", choices=ENGINES, default="native",
                        help="dratify's engine: native (Rust, from cdclkit[native]) or python (10–20× slower); "
                             "default %(default)s")
    parser.add_argument("--workers", type=_positive, default=1, metavar="N",
                        help="check a cube bundle's proofs on N local processes; default %(default)s (here)")
    if cluster:
        parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                            help="check a cube bundle's proofs on this Dask cluster (its workers must see the files: "
                                 "this machine or a shared filesystem)")
    else:
        parser.set_defaults(scheduler=None)
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument("--write-cnf", type=Path, metavar="DIR",
                        help="also write each proof (inflated) and the formula it refutes, with the clauses the "
                             "checker adds to it, into DIR (made if absent) as NAME.cnf and NAME.lrat or NAME.drat, "
                             "for lrat-trim, cake_lpr or drat-trim")
    parser.add_argument("--token", default=os.environ.get("CHESSDOM_TOKEN"), metavar="TOKEN",
                        help="bearer token for a URL on a service with tokens; default $CHESSDOM_TOKEN")
    parser.add_argument("--max-download-mb", type=_positive, default=DOWNLOAD_MB, metavar="MB",
                        help="stop downloading a URL's archive past this size; default %(default)s")


@contextlib.contextmanager
def local_processes(scheduler: str | None, workers: int | None) -> Iterator[Executor | None]:
    """The standalone checker's :data:`ExecutorOpener`: ``workers`` local processes, or here."""
    if scheduler is not None:
        raise ValueError("argument --scheduler: this command checks on local processes only")
    if workers is None:
        yield None
        return
    with ProcessPoolExecutor(workers) as pool:
        yield pool


class Terminated(SystemExit):
    """SIGTERM or SIGHUP, raised where the check stands so that every ``with`` unwinds
    (the scratch directory of an archive or a download is removed, the pool shut down)."""


@contextlib.contextmanager
def signals_unwind() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` for the block (main thread only:
    elsewhere Python cannot set handlers, and whoever owns the thread owns the signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(number, frame):
        raise Terminated(128 + number)

    previous = {number: signal.signal(number, terminate) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run(args: argparse.Namespace, open_executor: ExecutorOpener = local_processes) -> int:
    """Check and print the verdict: exit status 0 verified, 1 rejected. The checks of a
    cube bundle run on ``open_executor(args.scheduler, workers)``, or here for one worker.
    Raises ValueError for a target that cannot be read (not a certificate directory,
    archive or fetchable URL, or a certificate outside the contract's shape and limits:
    "cannot read"), an unreachable scheduler, or a missing engine."""
    workers = args.workers if args.workers > 1 else None
    download = Download(token=args.token, max_bytes=args.max_download_mb * 2**20)
    if args.write_cnf is not None:
        try:
            args.write_cnf.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"argument --write-cnf: cannot make {args.write_cnf}: {error.strerror}") from None
    try:
        with signals_unwind(), certificate_directory(args.target, download) as directory, \
                open_executor(args.scheduler, workers) as executor:
            verdict = check_certificate(directory, engine=args.engine, executor=executor, write_cnf=args.write_cnf)
    except Unreadable as error:
        raise ValueError(f"cannot read {args.target}: {error}") from None
    except BrokenExecutor as error:  # a worker killed (out of memory, say): nothing was decided
        raise ValueError(f"could not check {args.target}: a checking process died ({type(error).__name__})") from None
    except CheckerUnavailable as error:
        raise ValueError(str(error)) from None
    if args.json:
        print(json.dumps(verdict.to_dict()))
    else:
        for step, outcome in verdict.steps.items():
            print(f"{step}: {'ok' if outcome is True else outcome}")
        if verdict.claim:
            print(f"claim: {verdict.claim}")
        checker = verdict.checker
        named = checker.get("refutation") or f"{checker['name']} {checker['version']} ({checker['engine']})"
        print(f"checker: {named}, {verdict.seconds:.2f} s")
        print("s VERIFIED" if verdict.ok else "s NOT VERIFIED")
    return 0 if verdict.ok else REJECTED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m chessdom.certificates",
        description="Check a chessdom certificate (a directory, its .tar.gz archive, or the URL the service gave): "
                    "rebuild its formula, check hashes, placements and the DRAT refutations. Exit status 0 "
                    "verified, 1 rejected, 2 usage or cannot read.")
    add_arguments(parser, cluster=False)
    try:
        return run(parser.parse_args(argv))
    except ValueError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
