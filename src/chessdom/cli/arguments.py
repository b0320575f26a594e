"""What every subcommand shares: argument types whose errors name the argument, the
one-line usage errors, and how answers are printed."""

from __future__ import annotations

import argparse
import json

from chessdom import library
from chessdom.chessboard import Board, Piece, parse_square, render_text

USAGE_ERROR = 2
# Wider diagrams wrap in a terminal and say nothing; --json still has every square.
DIAGRAM_MAX_SIDE = 64


class UsageError(Exception):
    """A bad argument found after parsing (a square off the board, a size out of range)."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, not the usage block: the message names the argument, --help has the rest.
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def integer(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def board_size(text: str) -> Board:
    try:
        return library.parse_board(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("size: ")) from None


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


def add_board(parser: argparse.ArgumentParser, help: str = "the board: N for N×N, or ROWSxCOLS like 6x9") -> None:
    parser.add_argument("size", metavar="SIZE", type=board_size, help=help)


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
