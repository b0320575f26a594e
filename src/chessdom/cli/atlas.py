"""``chessdom atlas``: build, re-check, export and compare the atlas of proved values
(:mod:`chessdom.atlas`). Without DIR, ``check``, ``export`` and ``compare`` read the atlas
shipped with chessdom."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chessdom.cli.arguments import Parser, comma_list, integer, time_limit

BUILD_DESCRIPTION = """\
Compute the atlas into DIR: for each piece × parameter × board, the value proved optimal
and certified (the independent checker accepts the archive as stored), a witness, and
where the enumeration finishes within --count-limit the number of optimal placements, all
and up to symmetry, with one representative per class, certified complete. Each entry is
written when it is finished; the same command resumes a killed build, recomputing nothing
finished. An entry not proved within --time-limit is recorded as out of reach with the
bounds proved so far, never as a value."""
CHECK_DESCRIPTION = """\
Re-check an atlas without trusting it: every witness by the placement checker, every
certificate archive by its SHA-256 and the independent checker, every class list as the
classes of the optimal placements (lex-leaders, distinct, true orbit sizes adding up to
the count, the same as the count certificate lists), and the index against the entry
files. One line per fault; exit status 1 if any."""

MERGE_DESCRIPTION = """\
Take the finished entries of the atlas SOURCE (a frontier run built into a directory of
its own) into the atlas DIR as they are — each row, its archives and its class list, none
computed again — and write DIR's indexes again. An entry DIR has finished already stays as
it is unless --replace. Re-check the result with chessdom atlas check DIR."""


def add_atlas(commands) -> None:
    parser = commands.add_parser("atlas", help="build, re-check, export and compare the atlas of proved values",
                                 description=__doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    _add_build(actions)
    check = actions.add_parser("check", help="re-check an atlas; exit status 1 if anything fails",
                               description=CHECK_DESCRIPTION)
    check.add_argument("directory", type=Path, nargs="?", metavar="DIR", help="the atlas (default: the shipped one)")
    _add_where(check, default_jobs=1)
    check.set_defaults(handler=_check)
    export = actions.add_parser("export", help="write OEIS-style b-files of the atlas's sequences")
    export.add_argument("directory", type=Path, nargs="?", metavar="DIR", help="the atlas (default: the shipped one)")
    export.add_argument("--bfiles", type=Path, required=True, metavar="OUT", help="the directory to write them into")
    export.set_defaults(handler=_export)
    compare = actions.add_parser("compare", help="each entry beside its published OEIS term: agree, disagree, new")
    compare.add_argument("directory", type=Path, nargs="?", metavar="DIR", help="the atlas (default: the shipped one)")
    compare.add_argument("--format", choices=("markdown", "csv", "latex"), default="markdown")
    compare.add_argument("--only", type=comma_list, metavar="VERDICT,…",
                         help="only the rows of these verdicts: agree, disagree, new")
    compare.add_argument("--reference", type=Path, metavar="FILE",
                         help="the published terms (default: the reference shipped with chessdom)")
    compare.set_defaults(handler=_compare)
    merge = actions.add_parser("merge", help="take the entries of one atlas into another",
                               description=MERGE_DESCRIPTION)
    merge.add_argument("source", type=Path, metavar="SOURCE", help="the atlas whose entries are taken")
    merge.add_argument("--into", type=Path, required=True, metavar="DIR", help="the atlas that takes them")
    merge.add_argument("--replace", action="store_true",
                       help="also take the entries DIR has finished already, in their place")
    merge.set_defaults(handler=_merge)


def _add_build(actions) -> None:
    from chessdom.atlas.compute import TREE_FIRST
    from chessdom.atlas.grid import PARAMETERS, PIECES

    build = actions.add_parser("build", help="compute (or resume) an atlas into a directory",
                               description=BUILD_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    build.add_argument("directory", type=Path, metavar="DIR")
    build.add_argument("--pieces", type=comma_list, default=list(PIECES), metavar="P,…",
                       help="default: " + ",".join(PIECES))
    build.add_argument("--parameters", type=comma_list, default=list(PARAMETERS), metavar="X,…",
                       help="default: " + ",".join(PARAMETERS))
    build.add_argument("--min-n", type=integer(1), default=1, metavar="N", help="smallest n×n board; default 1")
    build.add_argument("--max-n", type=integer(1), default=6, metavar="N", help="largest n×n board; default 6")
    build.add_argument("--boards", type=comma_list, metavar="RxC,…", help="these boards instead of --min-n…--max-n")
    build.add_argument("--grid", type=Path, metavar="FILE",
                       help="the entries of a CSV file (columns piece,parameter,rows,cols) instead of the options above")
    build.add_argument("--time-limit", type=time_limit, default=300.0, metavar="S",
                       help="seconds to prove an entry's value, and again to certify it; default %(default)g")
    build.add_argument("--count-limit", type=float, default=120.0, metavar="S",
                       help="seconds to enumerate an entry's optimal placements, and again to certify the count "
                            "(0: no counts); default %(default)g")
    build.add_argument("--tree-first", type=time_limit, default=TREE_FIRST, metavar="S",
                       help="seconds the branch-and-bound is given first for γ, i and γt, whose search tree then "
                            "certifies the value and count; past them the dispatcher's choice; default %(default)g")
    build.add_argument("--entry-workers", type=integer(1), default=1, metavar="N",
                       help="processes of each entry's own for its cubes, its count's parts (each kept as it "
                            "finishes, so a killed build resumes the count) and its certificates' searches; "
                            "default %(default)s: all in the entry's own process")
    build.add_argument("--certify-count-limit", type=float, metavar="S",
                       help="seconds to certify a count (0: keep counts uncertified, as proved lower bounds, "
                            "where certifying them is out of reach); default: --count-limit")
    build.add_argument("--ship-limit-mb", type=float, metavar="MB",
                       help="keep no certificate archive larger than this (recorded with its sha256 and the command "
                            "that rebuilds it); default: keep every one")
    build.add_argument("--retry", type=comma_list, default=[], metavar="WHICH,…",
                       help="also compute again the finished entries that are out_of_reach, uncounted (proved "
                            "without counts) or uncertified (counted, the count without a certificate): with a larger "
                            "--time-limit or --count-limit they may reach further")
    _add_where(build, default_jobs=1)
    build.set_defaults(handler=_build)


def _add_where(parser: argparse.ArgumentParser, default_jobs: int) -> None:
    parser.add_argument("--jobs", type=integer(0), default=default_jobs, metavar="N",
                        help="entries at once on N local worker processes (0: in this process); default %(default)s")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the entries on this Dask cluster instead (its workers must see DIR)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _cells(args: argparse.Namespace) -> list:
    from chessdom.atlas.grid import cells, parse_board, read_grid

    if args.grid is not None:
        return read_grid(args.grid)
    if args.boards:
        boards = [parse_board(text) for text in args.boards]
    else:
        if args.min_n > args.max_n:
            raise ValueError(f"argument --min-n: {args.min_n} is above --max-n {args.max_n}")
        boards = [(n, n) for n in range(args.min_n, args.max_n + 1)]
    return cells(args.pieces, args.parameters, boards)


def _build(args: argparse.Namespace) -> int:
    from chessdom.atlas.builder import RETRIES, Cluster, Here, Local, build
    from chessdom.atlas.grid import specs

    for option, seconds in (("--count-limit", args.count_limit), ("--certify-count-limit", args.certify_count_limit)):
        if seconds is not None and not seconds >= 0:
            raise ValueError(f"argument {option}: must be at least 0, got {seconds:g}")
    if unknown := set(args.retry) - set(RETRIES):
        raise ValueError(f"argument --retry: {', '.join(sorted(unknown))} is not one of {', '.join(RETRIES)}")
    ship = None if args.ship_limit_mb is None else int(args.ship_limit_mb * 2**20)
    found = specs(args.directory, _cells(args), time_limit=args.time_limit, count_limit=args.count_limit,
                  ship_bytes=ship, tree_first=args.tree_first, workers=args.entry_workers,
                  certify_count_limit=args.certify_count_limit)
    executor = Cluster(args.scheduler) if args.scheduler else Local(args.jobs) if args.jobs else Here()
    try:
        outcome = build(args.directory, found, executor, progress=not args.no_progress, retry=args.retry)
    finally:
        executor.close()
    print(f"{args.directory}: {outcome.computed} entries computed, {outcome.reused} already finished, "
          f"{len(outcome.failures)} failed")
    for stem, error in outcome.failures:
        print(f"{stem}: failed: {error}")
    return 1 if outcome.failures else 0


def _check(args: argparse.Namespace) -> int:
    from chessdom.atlas.recheck import recheck
    from chessdom.processes.executors import open_executor

    directory = _open(args.directory).directory
    with open_executor(args.scheduler, args.jobs or None) as executor:
        faults, unshipped = recheck(directory, executor, progress=not args.no_progress)
    for line in unshipped:
        print(f"hash only: {line}")
    for line in faults:
        print(f"FAILED {line}")
    print(f"{directory}: {'no faults' if not faults else f'{len(faults)} faults'}")
    return 1 if faults else 0


def _open(directory: Path | None, argument: str = "DIR"):
    """The atlas in ``directory`` (None: the shipped one); ValueError naming ``argument``
    when there is none."""
    from chessdom.atlas.reader import Atlas

    try:
        return Atlas.open(directory)
    except OSError as error:
        raise ValueError(f"argument {argument}: no atlas in {directory or 'the shipped data'}: {error.strerror}") from None


def _export(args: argparse.Namespace) -> int:
    from chessdom.atlas.exports import bfiles, load_reference

    atlas = _open(args.directory)
    try:
        written = bfiles(atlas, args.bfiles, load_reference())
    except OSError as error:
        raise ValueError(f"argument --bfiles: cannot write into {args.bfiles}: {error.strerror}") from None
    for path in written:
        print(path)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from chessdom.atlas.exports import compare, render

    rows = compare(_open(args.directory), _reference(args.reference))
    if args.only:
        if unknown := set(args.only) - {"agree", "disagree", "new"}:
            raise ValueError(f"argument --only: {', '.join(sorted(unknown))} is not agree, disagree or new")
        rows = [row for row in rows if row.verdict in args.only]
    sys.stdout.write(render(rows, args.format))
    return 0


def _reference(path: Path | None) -> list[dict]:
    """The reference file ``--reference`` names (None: the shipped one); ValueError naming
    the option for one that cannot be read as a reference."""
    from chessdom.atlas.exports import load_reference

    try:
        return load_reference(path)
    except OSError as error:
        raise ValueError(f"argument --reference: cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise ValueError(f"argument --reference: {error}") from None


def _merge(args: argparse.Namespace) -> int:
    from chessdom.atlas.merge import merge

    _open(args.source, "SOURCE")
    merged = merge(args.source, args.into, replace=args.replace)
    print(f"{args.into}: {len(merged.taken)} entries taken from {args.source}, {len(merged.kept)} already there kept")
    return 0
