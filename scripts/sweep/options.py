"""What a sweep asks for, parsed from the command line into one frozen object."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from chessdom.chessboard import Board, Piece, parse_piece

DEFAULT_SIZES = {"domination": "4-8", "tours": "5,6", "paths": "8", "nqueens": "4-10"}
"""Sizes that finish in about a minute on a laptop, so a first run is not a long wait."""

PARAMETERS = {
    "domination": ("pieces", "variants", "time_limit"),
    "tours": ("starts", "node_limit", "closed"),
    "paths": ("instances",),
    "nqueens": ("time_limit",),
}
"""The options each kind reads, besides the boards and the seed."""


@dataclass(frozen=True)
class SweepOptions:
    kind: str
    boards: tuple[Board, ...]
    pieces: tuple[Piece, ...] = (Piece.QUEEN,)
    variants: tuple[str, ...] = ("plain",)
    starts: tuple[str, ...] | None = None
    time_limit: float = 60.0
    node_limit: int = 1_500_000
    instances: int = 5
    closed: bool = False
    seed: int = 0

    def to_dict(self) -> dict:
        """The parameters this kind uses, as JSON values, for the provenance of every output."""
        data = asdict(self)
        data["boards"] = [f"{board.rows}x{board.cols}" for board in self.boards]
        data["pieces"] = [piece.value for piece in self.pieces]
        return {name: data[name] for name in ("kind", "boards", *PARAMETERS[self.kind], "seed")}


def parse_sizes(text: str) -> tuple[Board, ...]:
    """Boards from ``4-12``, ``4,6,8``, ``5x6`` or a mix like ``4-6,3x4``, in order,
    without repeats."""
    boards: list[Board] = []
    for token in filter(None, (part.strip().lower() for part in text.split(","))):
        if "x" in token:
            rows, cols = (int(side) for side in token.split("x", 1))
            found = [Board(rows, cols)]
        elif "-" in token:
            low, high = (int(side) for side in token.split("-", 1))
            if low > high:
                raise ValueError(f"size range {token!r} runs backwards")
            found = [Board.square(n) for n in range(low, high + 1)]
        else:
            found = [Board.square(int(token))]
        boards.extend(board for board in found if board not in boards)
    if not boards:
        raise ValueError(f"no board sizes in {text!r}")
    return tuple(boards)


def parse_pieces(text: str) -> tuple[Piece, ...]:
    return tuple(parse_piece(name) for name in split_list(text))


def split_list(text: str) -> tuple[str, ...]:
    """``"a, b,c"`` → ``("a", "b", "c")``."""
    return tuple(part.strip() for part in text.split(",") if part.strip())
