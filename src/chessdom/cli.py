"""chessdom: the service, the comparisons and single solves from a shell.

Every subcommand calls the library; --json prints exactly what the HTTP service
returns for the same problem. Bad arguments are one line on standard error and exit
status 2.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import importlib
import inspect
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from chessdom import library
from chessdom.chessboard import PLACEMENT_VARIANTS, Board, Piece, parse_square, render_text
from chessdom import models, native_search

USAGE_ERROR = 2
# Wider diagrams wrap in a terminal and say nothing; --json still has every square.
DIAGRAM_MAX_SIDE = 64

# The commands that hand their whole argument tail to another module's own parser.
DELEGATES = {
    "serve": ("chessdom.api.server", "run the HTTP service (options: chessdom serve --help)"),
    "compare": ("chessdom.scripts.compare", "models against searches over a sweep of sizes (chessdom compare --help)"),
}


class UsageError(Exception):
    """A bad argument found after parsing (a square off the board, a size out of range)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, not the usage block: the message names the argument, --help has the rest.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _integer(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def _board(text: str) -> Board:
    try:
        return library.parse_board(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("size: ")) from None


def _square(board: Board, text: str, argument: str) -> int:
    try:
        return parse_square(board, text)
    except ValueError as error:
        raise UsageError(f"argument {argument}: {error}") from None


def _comma_list(text: str) -> list[str]:
    return [item for item in text.replace(",", " ").split() if item]


def _enemy(text: str) -> tuple[str, str]:
    piece, _, square = text.partition("@")
    pieces = tuple(p.value for p in Piece)
    if not square or piece.lower() not in pieces:
        raise argparse.ArgumentTypeError(f"{text!r} is not PIECE@SQUARE with PIECE one of {', '.join(pieces)}")
    return piece.lower(), square


def _add_board(parser: argparse.ArgumentParser, help: str = "the board: N for N×N, or ROWSxCOLS like 6x9") -> None:
    parser.add_argument("size", metavar="SIZE", type=_board, help=help)


def _add_json(parser: argparse.ArgumentParser, endpoint: str) -> None:
    parser.add_argument("--json", action="store_true", help=f"print the JSON the service returns for {endpoint}")


def _add_trace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", action="store_true", help="with --json: include the search's step events")


def _first_paragraph(function) -> str:
    return inspect.getdoc(function).split("\n\n")[0]


def _print_json(data: dict) -> None:
    print(json.dumps(data))


def _diagram(board: Board, **drawn) -> str:
    if max(board.rows, board.cols) > DIAGRAM_MAX_SIDE:
        return f"(no diagram: the {board} is wider than {DIAGRAM_MAX_SIDE}; use --json for the squares)"
    return render_text(board, **drawn)


# ---- solve ----------------------------------------------------------------------------


def _solve(args: argparse.Namespace) -> int:
    if args.certify is not None and args.certify.exists() and any(args.certify.iterdir()):
        raise UsageError(f"argument --certify: {args.certify} is not empty")
    if args.representatives is not None and not args.count:
        raise UsageError("argument --representatives: needs --count")
    started = time.monotonic()
    with _cube_executor(args) as executor:
        result = library.solve_placement(
            args.piece,
            args.size,
            variant=args.variant,
            solver=args.solver,
            time_limit=args.time_limit,
            count=args.count,
            seed=args.seed,
            use_theorems=args.use_theorems,
            representatives=args.representatives is not None,
            executor=executor,
        )
    if args.representatives is not None and result.count is not None:
        with open(args.representatives, "w", encoding="utf-8") as out:
            out.writelines(" ".join(squares) + "\n" for squares in result.count.representatives)
    answer = result.to_dict()
    if args.certify is not None:
        remaining = None if args.time_limit is None else args.time_limit - (time.monotonic() - started)
        answer.update(_certificate(result, args.certify, remaining, args.max_proof_mb))
    if args.json:
        _print_json(answer)
    else:
        print(result)
        if args.certify is not None:
            certificate = answer["certificate"]
            if certificate is None:
                print(f"certificate unavailable: {answer['certificate_unavailable']}")
            else:
                check = certificate["checker"]
                status = f"checked by {check['name']} {check['version']} ({check['engine']}) in {check['seconds']:.2f} s" \
                    if certificate["checked"] else f"NOT checked: {check['verdict']}"
                print(f"certificate in {certificate['directory']}: {certificate['claim']}; {status}")
    # A script that asked for a certificate should not go on without one.
    certified = args.certify is None or (answer["certificate"] or {}).get("checked", False)
    return 0 if certified else 1


def _certificate(result, directory: Path, time_limit: float | None, max_proof_mb: int) -> dict:
    """Certify into ``directory``: written beside it and moved into place only when complete."""
    from chessdom.certify import CertificateUnavailable, certify

    if time_limit is not None and time_limit <= 0:
        return {"certificate": None, "certificate_unavailable": "the solve used the whole time limit"}
    directory.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        manifest = certify(result, staged, time_limit=time_limit, max_proof_bytes=max_proof_mb * 2**20)
    except CertificateUnavailable as reason:
        return {"certificate": None, "certificate_unavailable": str(reason)}
    finally:
        if not (staged / "manifest.json").exists():
            shutil.rmtree(staged, ignore_errors=True)
    if directory.exists():
        directory.rmdir()  # checked empty before the solve
    staged.rename(directory)
    check = dict(manifest["check"])
    return {
        "certificate": {"directory": str(directory), "claim": manifest["claim"], "checked": check.pop("checked"),
                        "checker": check},
        "certificate_unavailable": None,
    }


@contextlib.contextmanager
def _cube_executor(args: argparse.Namespace):
    """Where cube-and-conquer runs: a Dask cluster (--scheduler), a local process pool
    (--workers), or nowhere (one solver here)."""
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("argument --scheduler: needs dask.distributed: pip install 'chessdom[cluster]'") from None
        try:
            client = Client(args.scheduler, timeout=10)
        except (OSError, ValueError) as error:
            raise UsageError(f"argument --scheduler: cannot reach {args.scheduler}: {error}") from None
        with client:
            yield client.get_executor()
    elif args.workers is not None:
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            yield pool
    else:
        yield None


def _add_solve(commands) -> None:
    parser = commands.add_parser(
        "solve",
        help="a provably optimal placement: domination or independence",
        description=_first_paragraph(library.solve_placement),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("piece", metavar="PIECE", type=str.lower, choices=tuple(p.value for p in Piece),
                        help="one of " + ", ".join(p.value for p in Piece))
    _add_board(parser)
    parser.add_argument("--variant", choices=tuple(PLACEMENT_VARIANTS), default="plain",
                        help="plain (γ), independent (i) or total (γt) domination, or independence (β); default %(default)s")
    parser.add_argument("--solver", choices=models.SOLVERS, default="auto",
                        help="auto picks the backend measured strongest for the problem; default %(default)s")
    parser.add_argument("--time-limit", type=_positive_float, default=None, metavar="S",
                        help="seconds for the whole solve (default: none)")
    parser.add_argument("--count", action="store_true", help="also count the optimal placements, and up to symmetry")
    parser.add_argument("--seed", type=_integer(0), default=0, help="CP-SAT's random seed; default %(default)s")
    parser.add_argument("--use-theorems", action="store_true", help="allow a cited theorem to prove the bound")
    parser.add_argument("--certify", type=Path, metavar="DIR",
                        help="write a certificate of the bound into DIR (new or empty): formula.cnf, proof.drat and "
                             "manifest.json, checked by the independent checker; exit status 1 when none is made")
    parser.add_argument("--max-proof-mb", type=_integer(1), default=128, metavar="MB",
                        help="with --certify: give up on proofs larger than this; default %(default)s")
    parser.add_argument("--representatives", metavar="FILE",
                        help="with --count: write one placement per symmetry class to FILE, one per line")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="run the SAT queries as cube-and-conquer on this Dask cluster")
    parser.add_argument("--workers", type=_integer(1), metavar="N",
                        help="run the SAT queries as cube-and-conquer on N local processes")
    _add_json(parser, "POST /domination")
    parser.set_defaults(handler=_solve)


# ---- tour -----------------------------------------------------------------------------


def _tour(args: argparse.Namespace) -> int:
    board = args.size
    start = _square(board, args.start, "--start") if args.start is not None else None
    result = native_search.knight_tour(
        board,
        start,
        closed=args.closed,
        method=args.method,
        tie_break=args.tie_break,
        lookahead=args.lookahead,
        backtracking=args.backtracking,
        node_limit=args.node_limit,
        seed=args.seed,
        trace=args.trace and args.json,
    )
    if args.json:
        result.write_json(sys.stdout)  # names streamed: a 10000×10000 tour never sits in memory as strings
        print()
        return 0
    kind = "closed" if result.closed else "open"
    tie_break = f", tie-break {result.tie_break}" if result.tie_break else ""
    print(f"{kind} knight's tour of the {board}: {result.status} ({result.method}{tie_break})")
    if result.squares is not None:
        print(_diagram(board, path=result.squares))
    if result.reason:
        print(f"reason: {result.reason}")
    print(f"nodes: {result.nodes}  verified: {result.verified}  wall time: {result.wall_time:.3f} s")
    return 0


def _add_tour(commands) -> None:
    parser = commands.add_parser(
        "tour",
        help="a knight's tour (Warnsdorff, backtracking or block construction)",
        description=_first_paragraph(native_search.knight_tour),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board(parser)
    parser.add_argument("--start", metavar="SQUARE", help="the first square (default: a1)")
    parser.add_argument("--closed", action="store_true", help="a closed (re-entrant) tour")
    parser.add_argument("--method", choices=native_search.TOUR_METHODS, default="warnsdorff",
                        help="warnsdorff (Warnsdorff 1823), dfs (plain backtracking) or "
                             "divide_and_conquer (Parberry 1997); default %(default)s")
    parser.add_argument("--tie-break", choices=native_search.TIE_BREAKS, default="pohl",
                        help="how Warnsdorff's rule breaks ties; default %(default)s")
    parser.add_argument("--lookahead", type=int, choices=range(native_search.MAX_LOOKAHEAD + 1), default=0,
                        metavar="N", help=f"compare onward degrees N moves deep on ties (0…{native_search.MAX_LOOKAHEAD}); default %(default)s")
    parser.add_argument("--no-backtracking", dest="backtracking", action="store_false",
                        help="report dead_end when the greedy walk is stuck (default: backtrack)")
    parser.add_argument("--node-limit", type=_integer(1), default=1_500_000, help="squares placed before giving up; default %(default)s")
    parser.add_argument("--seed", type=_integer(0), default=0, help="seed of the random tie-break; default %(default)s")
    _add_trace(parser)
    _add_json(parser, "POST /tour")
    parser.set_defaults(handler=_tour)


# ---- path -----------------------------------------------------------------------------


def _path(args: argparse.Namespace) -> int:
    board = args.size
    start = _square(board, args.start, "START")
    goals = [_square(board, name, "GOAL") for name in args.goals]
    blocked = [_square(board, name, "--blocked") for name in args.blocked]
    enemies = [(piece, _square(board, square, "--enemy")) for piece, square in args.enemy]
    result = native_search.knight_path(
        board, start, goals, blocked=blocked, enemies=enemies,
        method=args.method, heuristic=args.heuristic, trace=args.trace and args.json,
    )
    if args.json:
        _print_json(result.to_dict())
        return 0
    heuristic = f", heuristic {result.heuristic}" if result.heuristic else ""
    if result.found:
        optimal = "shortest" if result.optimal else "not proved shortest"
        print(f"knight path on the {board}: {result.length} moves, {optimal} ({result.method}{heuristic})")
        print(_diagram(board, path=[parse_square(board, name) for name in result.path]))
        print(f"path: {' '.join(result.path)}")
    else:
        print(f"knight path on the {board}: unreachable ({result.method}{heuristic})")
    print(f"squares expanded: {result.nodes_expanded}  wall time: {result.wall_time:.3f} s")
    return 0


def _add_path(commands) -> None:
    parser = commands.add_parser(
        "path",
        help="a shortest knight path around blocked squares and enemy pieces",
        description=_first_paragraph(native_search.knight_path),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board(parser)
    parser.add_argument("start", metavar="START", help="the knight's square, like a1")
    parser.add_argument("goals", metavar="GOAL", nargs="+", help="squares to reach; the path ends at the nearest")
    parser.add_argument("--blocked", type=_comma_list, default=[], metavar="SQUARES",
                        help="squares the knight may not enter, comma-separated (default: none)")
    parser.add_argument("--enemy", type=_enemy, action="append", default=[], metavar="PIECE@SQUARE",
                        help="an enemy piece, like rook@d4; the knight avoids it and what it attacks (repeatable)")
    parser.add_argument("--method", choices=native_search.PATH_METHODS, default="astar",
                        help="astar (Hart, Nilsson & Raphael 1968), bfs, or dfs (first path found, not shortest); "
                             "default %(default)s")
    parser.add_argument("--heuristic", choices=tuple(native_search.HEURISTICS), default="knight",
                        help="A*'s estimate: " + ", ".join(
                            f"{name} ({'admissible' if admissible else 'overestimates'})"
                            for name, admissible in native_search.HEURISTICS.items()) + "; default %(default)s")
    _add_trace(parser)
    _add_json(parser, "POST /path")
    parser.set_defaults(handler=_path)


# ---- nqueens --------------------------------------------------------------------------


def _nqueens(args: argparse.Namespace) -> int:
    result = library.solve_nqueens(
        args.size, mode=args.mode, method=args.method, up_to_symmetry=args.up_to_symmetry, time_limit=args.time_limit
    )
    if args.json:
        answer = result.to_dict()
        if args.trace and args.method == "backtracking" and args.mode == "first":
            answer["trace"] = native_search.nqueens_trace(args.size)
        _print_json(answer)
    else:
        print(result)
    return 0


def _add_nqueens(commands) -> None:
    parser = commands.add_parser(
        "nqueens",
        help="the n-queens puzzle: a first solution or the number of solutions",
        description=_first_paragraph(library.solve_nqueens),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("size", metavar="N", type=_integer(1), help="queens, and the side of the board")
    parser.add_argument("--mode", choices=models.NQUEENS_MODES, default="first",
                        help="first: one solution, or count: every solution; default %(default)s")
    parser.add_argument("--method", choices=library.NQUEENS_METHODS, default="backtracking",
                        help=f"backtracking, or cpsat (N ≤ {models.NQUEENS_MAX_SIZE}); default %(default)s")
    parser.add_argument("--up-to-symmetry", action="store_true",
                        help="with --mode count: also count classes under the board's symmetries")
    parser.add_argument("--time-limit", type=_positive_float, default=None, metavar="S",
                        help="seconds, for cpsat (default: none)")
    _add_trace(parser)
    _add_json(parser, "POST /nqueens")
    parser.set_defaults(handler=_nqueens)


# ---- certificate ----------------------------------------------------------------------


def _add_certificate(commands) -> None:
    import chessdom.certificates
    from chessdom.certificates import command

    description = inspect.getdoc(chessdom.certificates)
    parser = commands.add_parser(
        "certificate", help="check a certificate: rebuild its formula, check hashes, witness and DRAT proof",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    check = actions.add_parser("check", help="check a certificate directory or URL; exit status 1 if rejected",
                               description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_arguments(check)
    check.set_defaults(handler=command.run)


# ---- the command ----------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    root = _Parser(prog="chessdom", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = root.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name, (_, help) in DELEGATES.items():
        commands.add_parser(name, help=help, add_help=False)
    _add_solve(commands)
    _add_tour(commands)
    _add_path(commands)
    _add_nqueens(commands)
    _add_certificate(commands)
    return root


def _delegate(command: str, argv: list[str]) -> int:
    """Hand ``argv`` to the command's module; its own parser gives ``--help`` and usage
    errors. Imported only when asked for, so ``chessdom solve`` never loads Flask."""
    module, _ = DELEGATES[command]
    return importlib.import_module(module).main(argv, prog=f"chessdom {command}") or 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in DELEGATES:
        return _delegate(argv[0], argv[1:])
    cli = parser()
    args = cli.parse_args(argv)
    try:
        return args.handler(args)
    except (UsageError, ValueError) as error:
        print(f"chessdom {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(f"chessdom {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`chessdom solve … | head`): not an error of ours. Point
        # stdout at /dev/null so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
