"""What every subcommand shares: argument types whose errors name the argument, the
one-line usage errors, and how answers are printed."""

from __future__ import annotations

import argparse
import difflib
import json

from chessdom import library
from chessdom.chessboard import Board, Piece, parse_square, render_text
from chessdom.chessboard.board import MAX_SIDE as BOARD_MAX_SIDE

USAGE_ERROR = 2
# Wider diagrams wrap in a terminal and say nothing; --json still has every square.
DIAGRAM_MAX_SIDE = 64


class UsageError(Exception):
    """A bad argument found after parsing (a square off the board, a size out of range)."""


class Parser(argparse.ArgumentParser):
    """One-line usage errors; an unknown option is told the nearest known one (argparse
    before Python 3.14 suggests nothing, where the HTTP service does)."""

    def __init__(self, *args, **kwargs):
        self.option_names: list[str] = []  # before argparse adds --help
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        action = super().add_argument(*args, **kwargs)
        self.option_names += action.option_strings
        return action

    def parse_known_args(self, args=None, namespace=None):
        # A subcommand's parser is asked here too, and knows its own options: it tells
        # the suggestion itself rather than leaving the unknown ones to the root parser.
        namespace, extras = super().parse_known_args(args, namespace)
        unknown = [extra for extra in extras if extra.startswith("--")]
        if unknown:
            suggestions = [f"{extra.split('=')[0]} → did you mean {match[0]}?" for extra in unknown
                           if (match := difflib.get_close_matches(extra.split("=")[0], self.option_names, 1))]
            if suggestions:
                self.error(f"unrecognized arguments: {' '.join(extras)} ({'; '.join(suggestions)})")
        return namespace, extras

    def error(self, message: str):
        # One line, not the usage block: the message names the argument, --help has the rest.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def integer(minimum: int | None = None, maximum: int | None = None):
    """An int, at least ``minimum`` and at most ``maximum`` where they are given."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            bounds = f"at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    return parse


def time_limit(text: str) -> float:
    """Seconds, refused as the library refuses them (nan, infinity, past a year)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    try:
        return library.check_time_limit(seconds)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("time_limit: ")) from None


def board_size(max_side: int, limited_by: str | None):
    def parse(text: str) -> Board:
        try:
            return library.parse_board(text, max_side=max_side, limited_by=limited_by)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix("size: ")) from None

    return parse


def square(board: Board, text: str, argument: str) -> int:
    try:
        return parse_square(board, text)
    except ValueError as error:
        raise UsageError(f"argument {argument}: {error}") from None


def comma_list(text: str) -> list[str]:
    return [item for item in text.replace(",", " ").split() if item]


def enemy(text: str) -> tuple[str, str]:
    piece, _, square = text.partition("@")
    pieces = tuple(p.value for p in Piece)
    if not square or piece.lower() not in pieces:
        raise argparse.ArgumentTypeError(f"{text!r} is not PIECE@SQUARE with PIECE one of {', '.join(pieces)}")
    return piece.lower(), square


def add_board(parser: argparse.ArgumentParser, max_side: int = BOARD_MAX_SIDE, limited_by: str | None = None) -> None:
    parser.add_argument("size", metavar="SIZE", type=board_size(max_side, limited_by),
                        help=f"the board: N for N×N, or ROWSxCOLS like 6x9; sides from 1 to {max_side}")


def add_json(parser: argparse.ArgumentParser, endpoint: str) -> None:
    parser.add_argument("--json", action="store_true", help=f"print the JSON the service returns for {endpoint}")


def add_trace(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", action="store_true", help="with --json: include the search's step events")


def print_json(data: dict) -> None:
    print(json.dumps(data))


def diagram(board: Board, **drawn) -> str:
    if max(board.rows, board.cols) > DIAGRAM_MAX_SIDE:
        return f"(no diagram: the {board} is wider than {DIAGRAM_MAX_SIDE}; use --json for the squares)"
    return render_text(board, **drawn)
