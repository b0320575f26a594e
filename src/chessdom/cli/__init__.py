"""chessdom: the service, the comparisons and single solves from a shell.

Every subcommand calls the library; --json prints exactly what the HTTP service
returns for the same problem. Bad arguments are one line on standard error and exit
status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from importlib.metadata import version

from chessdom.cli.arguments import USAGE_ERROR, Parser, UsageError
from chessdom.cli.atlas import add_atlas
from chessdom.cli.searches import add_nqueens, add_path, add_tour
from chessdom.cli.solve import add_solve

# The commands that hand their whole argument tail to another module's own parser.
DELEGATES = {
    "serve": ("chessdom.api.serving.server", "run the HTTP service (options: chessdom serve --help)"),
    "compare": ("chessdom.scripts.compare", "models against searches over a sweep of sizes (chessdom compare --help)"),
}


CERTIFICATE_DESCRIPTION = """\
Check a certificate as a sceptical reader would. The checker shares no code with the
solver: it rebuilds formula.cnf from the problem named in the manifest with its own
attack rule, literal order and symmetries and compares it byte for byte, checks every
file's SHA-256, the witness or listed placements and the words of the claim, and has
dratify check the DRAT refutations (a cube bundle's in parallel with --workers N or
--scheduler tcp://HOST:PORT).
Exit status 0: verified; 1: rejected (the first failed step is printed); 2: usage, or a
certificate that cannot be read (malformed, or beyond the contract's limits)."""


def _add_certificate(commands) -> None:
    from chessdom.certificates import command

    description = CERTIFICATE_DESCRIPTION
    parser = commands.add_parser(
        "certificate", help="check a certificate: rebuild its formula, check hashes, witness and DRAT proof",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    check = actions.add_parser("check", help="check a certificate directory or URL; exit status 1 if rejected",
                               description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_arguments(check, cluster=True)
    check.set_defaults(handler=_check_certificate)


def _check_certificate(args: argparse.Namespace) -> int:
    """The checker's own command, its checks on chessdom's executors: ``--workers`` warm
    worker processes, ``--scheduler`` a Dask cluster."""
    from chessdom.certificates import command
    from chessdom.processes.executors import open_executor

    return command.run(args, open_executor=open_executor)


def parser() -> argparse.ArgumentParser:
    root = Parser(prog="chessdom", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root.add_argument("--version", action="version", version=f"chessdom {version('chessdom')}")
    commands = root.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=Parser)
    for name, (_, help) in DELEGATES.items():
        commands.add_parser(name, help=help, add_help=False)
    add_solve(commands)
    add_tour(commands)
    add_path(commands)
    add_nqueens(commands)
    _add_certificate(commands)
    add_atlas(commands)
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
