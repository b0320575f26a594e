"""``chessdom compare KIND``: models against searches over a sweep of sizes, as a
table (JSON, Markdown, CSV or LaTeX) and a plot for a paper.

KIND is ``domination`` (greedy baselines, CP-SAT and SAT), ``tours`` (DFS against
Warnsdorff's tie-breaks), ``paths`` (DFS, BFS and A* with each heuristic) or ``nqueens``
(backtracking against CP-SAT counts). Finished cells are kept in the SQLite store under
``--data`` and skipped on a rerun; ``--scheduler`` runs the cells on a Dask cluster.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from chessdom.store import data_dir_from_env

from chessdom.scripts.sweep.executors import DaskExecutor, LocalExecutor
from chessdom.scripts.sweep.kinds import KINDS
from chessdom.scripts.sweep.options import DEFAULT_SIZES, SweepOptions, parse_pieces, parse_sizes, split_list
from chessdom.scripts.sweep.plots import draw
from chessdom.scripts.sweep.provenance import provenance, versions
from chessdom.scripts.sweep.sweep import run_sweep
from chessdom.scripts.sweep.storage import SweepStore, cell_key
from chessdom.scripts.sweep.tables import FORMATS, render


def parser(prog: str = "chessdom compare") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("kind", choices=tuple(KINDS), metavar="KIND", help="domination, tours, paths or nqueens")
    parser.add_argument("--sizes", help="boards: 4-12, 4,6,8, 5x6 or a mix (default: "
                        + ", ".join(f"{kind} {sizes}" for kind, sizes in DEFAULT_SIZES.items()) + ")")
    parser.add_argument("--pieces", default="queen", help="domination: comma list of pieces (default queen)")
    parser.add_argument("--variants", default="plain",
                        help="domination: comma list of plain, independent, total, independence (default plain)")
    parser.add_argument("--starts", help="tours: comma list of start squares (default a1 and four seeded random ones)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per model solve (default 60)")
    parser.add_argument("--node-limit", type=int, default=1_500_000, help="tours: nodes per search (default 1500000)")
    parser.add_argument("--instances", type=int, default=5, help="paths: random boards per size (default 5)")
    parser.add_argument("--closed", action="store_true", help="tours: closed tours only")
    parser.add_argument("--seed", type=int, default=0, help="solver seeds, random starts and boards (default 0)")
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("--out", type=Path, help="write the table here instead of standard output")
    parser.add_argument("--plot", type=Path, help="draw the figure into FILE.png or FILE.pdf (needs matplotlib)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="local worker processes (default 1: parallel solves distort each other's times)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the cells on this Dask scheduler")
    parser.add_argument("--data", type=Path, default=data_dir_from_env(),
                        help="directory of the SQLite store shared with the service (default ./var)")
    parser.add_argument("--fresh", action="store_true", help="recompute cells the store already holds")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def options_from(args: argparse.Namespace) -> SweepOptions:
    unknown = set(split_list(args.variants)) - set(KINDS["domination"].OBJECTIVES)
    if unknown:
        raise ValueError(f"unknown variant(s): {', '.join(sorted(unknown))}")
    return SweepOptions(
        kind=args.kind,
        boards=parse_sizes(args.sizes or DEFAULT_SIZES[args.kind]),
        pieces=parse_pieces(args.pieces),
        variants=split_list(args.variants),
        starts=split_list(args.starts) if args.starts else None,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        instances=args.instances,
        closed=args.closed,
        seed=args.seed,
    )


def main(argv: list[str] | None = None, prog: str = "chessdom compare") -> int:
    argv = sys.argv[1:] if argv is None else argv
    cli = parser(prog)
    args = cli.parse_args(argv)
    if args.plot is not None and args.plot.suffix.lower() not in (".png", ".pdf"):
        cli.error("--plot FILE must end in .png or .pdf")
    kind = KINDS[args.kind]
    try:
        options = options_from(args)
        # Keyed like the store, so that --starts a1,a1 runs a1 once.
        specs = list({cell_key(spec): spec for spec in kind.cells(options)}.values())
    except ValueError as error:
        cli.error(str(error))

    store = SweepStore(args.data, versions())
    executor = DaskExecutor(args.scheduler) if args.scheduler else LocalExecutor(args.jobs)
    try:
        outcome = run_sweep(specs, store, executor, fresh=args.fresh, progress=not args.quiet)
        meta = provenance(
            f"{prog} " + shlex.join(argv), options.to_dict(), executor.describe(),
            cells=len(specs), reused=outcome.reused,
        )
    except KeyboardInterrupt as interrupt:
        print(f"interrupted: {interrupt or 'the finished cells are stored'}", file=sys.stderr)
        return 130
    finally:
        executor.close()
        store.close()

    text = render(outcome.records, kind.LAYOUT, args.format, meta)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    if args.plot is not None:
        draw(outcome.records, kind.PANEL, meta, args.plot)
    if outcome.failures:
        print(f"{len(outcome.failures)} of {len(specs)} cells failed and were not stored; a rerun retries them",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
