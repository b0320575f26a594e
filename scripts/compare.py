"""``chessdom compare KIND``: models against searches over a sweep of sizes, as a
table (JSON, Markdown, CSV or LaTeX) and a figure for a paper.

KIND is ``domination`` (greedy baselines against ``auto``, the engine a solve uses by
default, CP-SAT and SAT; the branch-and-bound and SCIP by ``--methods``), ``tours`` (DFS against
Warnsdorff's tie-breaks), ``paths`` (DFS, BFS and A* with each heuristic) or ``nqueens``
(backtracking against CP-SAT counts). Finished cells are kept in the SQLite store under
``--data`` and skipped on a rerun; ``--scheduler`` runs the cells on a Dask cluster.
In a notebook, ``chessdom.scripts.sweep.sweep_frame`` returns the same records as a
pandas DataFrame.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from pathlib import Path

from chessdom.scripts.sweep.executors import DaskExecutor, LocalExecutor
from chessdom.scripts.sweep.kinds import KINDS, sweep_cells, sweep_methods
from chessdom.scripts.sweep.options import (
    DEFAULT_SIZES, PARAMETERS, OptionError, bounded_integer, split_list, sweep_options,
)
from chessdom.scripts.sweep.plots import SUFFIXES, check_style, draw
from chessdom.scripts.sweep.provenance import provenance, versions
from chessdom.scripts.sweep.storage import SweepStore, default_directory
from chessdom.scripts.sweep.sweep import run_sweep
from chessdom.scripts.sweep.tables import FORMATS, parse_columns, render

USAGE_ERROR = 2

SWEEP_OPTIONS = ("sizes", *dict.fromkeys(name for names in PARAMETERS.values() for name in names), "seed")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, not the usage block: the message names the option, --help has the rest.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


DESCRIPTION = """\
Models against searches over a sweep of sizes, as a table (JSON, Markdown, CSV or
LaTeX) and a figure for a paper. KIND is domination (greedy baselines against auto, the
engine a solve uses by default, CP-SAT and SAT; bnb and mip by --methods),
tours (DFS against Warnsdorff's tie-breaks), paths (DFS, BFS and A* with each heuristic)
or nqueens (backtracking against CP-SAT counts). Finished cells are kept and skipped on a
rerun; --scheduler runs the cells on a Dask cluster."""


def parser(prog: str = "chessdom compare") -> argparse.ArgumentParser:
    # Sweep options are read as text and checked by sweep_options, as the notebook's are;
    # those a kind does not read default to None, so that giving one is an error.
    parser = _Parser(prog=prog, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=tuple(KINDS), metavar="KIND", help="domination, tours, paths or nqueens")
    parser.add_argument("--sizes", help="boards: 4-12, 4,6,8, 5x6 or a mix (default: "
                        + ", ".join(f"{kind} {sizes}" for kind, sizes in DEFAULT_SIZES.items()) + ")")
    parser.add_argument("--pieces", help="domination: comma list of pieces (default queen)")
    parser.add_argument("--variants",
                        help="domination: comma list of plain, independent, total, independence (default plain)")
    parser.add_argument("--starts", help="tours: comma list of start squares (default a1 and four seeded random ones)")
    parser.add_argument("--time-limit", metavar="SECONDS", help="domination, nqueens: seconds per model solve "
                        "(default 60)")
    parser.add_argument("--node-limit", help="tours: nodes per search (default 1500000)")
    parser.add_argument("--instances", help="paths: random boards per size (default 5)")
    parser.add_argument("--closed", action="store_true", default=None, help="tours: closed tours only")
    parser.add_argument("--seed", help="solver seeds, random starts and boards (default 0)")
    parser.add_argument("--methods", help="domination: comma list of the methods to run, of "
                        + ", ".join(KINDS["domination"].METHODS) + " (default "
                        + ",".join(KINDS["domination"].DEFAULT_METHODS) + ")")
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("--columns", help="methods and measures to show, in order: e.g. cpsat,sat,value,seconds "
                        "(default: every method, the kind's usual measures)")
    parser.add_argument("--caption",
                        help="latex: the table's caption, as LaTeX (puts the table in a table environment)")
    parser.add_argument("--label", help="latex: the table's \\label")
    parser.add_argument("--out", type=Path, help="write the table here instead of standard output")
    parser.add_argument("--plot", type=Path, metavar="FILE", help="draw the figure into FILE.png (300 dpi), "
                        "FILE.pdf or FILE.svg (needs matplotlib)")
    parser.add_argument("--style", help="with --plot: comma list of matplotlib styles or style files, "
                        "applied over chessdom's (e.g. seaborn-v0_8-paper)")
    parser.add_argument("--jobs", default="1",
                        help="local worker processes (default 1: parallel solves distort each other's times)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the cells on this Dask scheduler")
    parser.add_argument("--data", type=Path, default=None, metavar="DIR",
                        help=f"where finished cells are kept (default: {default_directory()}, or CHESSDOM_COMPARE_DATA)")
    parser.add_argument("--fresh", action="store_true", help="recompute cells the store already holds")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def checked(args: argparse.Namespace) -> tuple:
    """The sweep's options, its methods and cells, the table's columns, the styles and the job count
    from ``args``; raises ``OptionError`` for the first option that is wrong or does not apply."""
    kind = KINDS[args.kind]
    options = sweep_options(args.kind, **{name: getattr(args, name) for name in SWEEP_OPTIONS})
    if args.columns is not None and args.format == "json":
        raise OptionError("columns", "picks table columns; --format json has every field")
    for name in ("caption", "label"):
        if getattr(args, name) is not None and args.format != "latex":
            raise OptionError(name, "applies to --format latex only")
    methods = sweep_methods(args.kind, args.methods)
    columns = parse_columns(args.columns, args.kind, methods, kind.LAYOUT, kind.METHODS)
    if args.plot is not None and args.plot.suffix.lower() not in SUFFIXES:
        raise OptionError("plot", f"FILE must end in {', '.join(SUFFIXES)}, not {args.plot.name!r}")
    _check_extras(args)
    styles = split_list(args.style) if args.style is not None else ()
    if styles and args.plot is None:
        raise OptionError("style", "applies to --plot only")
    if styles:
        check_style(styles)
    jobs = bounded_integer("jobs", args.jobs, 1)
    # Last, as it is the one check that changes something: a sweep must not end in a
    # traceback because the table or figure has nowhere to go.
    for name in ("out", "plot"):
        path = getattr(args, name)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise OptionError(name, f"cannot create the folder {str(path.parent)!r}: {error.strerror}") from None
    # Checked before anything runs: a start off the board, a non-square N-Queens board.
    return options, methods, sweep_cells(options, methods), columns, styles, jobs


def _check_extras(args: argparse.Namespace) -> None:
    """Import what the table and the figure need before the sweep, not after it: a sweep
    can take hours, and a missing package would then only be named at its end."""
    needed = []
    if args.format != "json":
        needed.append(("format", "pandas", f"{args.format} tables need pandas (--format json does not)"))
    if args.format == "latex":
        needed.append(("format", "jinja2", "latex tables need jinja2 (pandas' Styler writes LaTeX through it)"))
    if args.plot is not None:
        needed.append(("plot", "matplotlib", "needs matplotlib"))
    for option, module, why in needed:
        try:
            importlib.import_module(module)
        except ImportError:
            raise OptionError(option, f"{why}: pip install 'chessdom[compare]'") from None


def main(argv: list[str] | None = None, prog: str = "chessdom compare") -> int:
    argv = sys.argv[1:] if argv is None else argv
    cli = parser(prog)
    args = cli.parse_args(argv)
    try:
        options, methods, specs, columns, styles, jobs = checked(args)
    except OptionError as error:
        cli.error(f"argument --{error.option.replace('_', '-')}: {error.message}")
    kind = KINDS[args.kind]

    try:
        executor = DaskExecutor(args.scheduler) if args.scheduler else LocalExecutor(jobs)
    except ValueError as unreachable:  # no dask.distributed, or no scheduler there
        cli.error(str(unreachable))
    store = SweepStore(args.data, versions())
    try:
        outcome = run_sweep(specs, store, executor, fresh=args.fresh, progress=not args.quiet)
        where = executor.describe()
    except KeyboardInterrupt as interrupt:
        print(f"interrupted: {interrupt or 'the finished cells are stored'}", file=sys.stderr)
        return 130
    finally:
        executor.close()
        store.close()
    meta = provenance(f"{prog} " + shlex.join(argv), {**options.to_dict(), "methods": list(methods)}, where,
                      outcome.records, cells=len(specs), reused=outcome.reused)

    text = render(outcome.records, kind.LAYOUT, columns, args.format, meta, caption=args.caption, label=args.label)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    if args.plot is not None:
        draw(outcome.records, kind.PANEL, meta, args.plot, styles)
    if outcome.failures:
        print(f"{len(outcome.failures)} of {len(specs)} cells failed and were not stored; a rerun retries them",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
