"""What a sweep asks for, checked once and frozen: the command line and the notebook
function pass the same values through ``sweep_options``, so both reject the same mistakes
with a message naming the option."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from chessdom.chessboard import PLACEMENT_VARIANTS, Board, BoardError, Piece, parse_piece
from chessdom.library import MAX_SEED, check_time_limit

DEFAULT_SIZES = {"domination": "4-8", "tours": "5,6", "paths": "8", "nqueens": "4-10"}
"""Sizes that finish in about a minute on a laptop, so a first run is not a long wait."""

PARAMETERS = {
    "domination": ("pieces", "variants", "time_limit"),
    "tours": ("starts", "node_limit", "closed"),
    "paths": ("instances",),
    "nqueens": ("time_limit",),
}
"""The options each kind reads, besides the boards and the seed."""

_SIZE = re.compile(r"(\d+)|(\d+)\s*-\s*(\d+)|(\d+)\s*[x×]\s*(\d+)")


class OptionError(ValueError):
    """A bad option value. ``option`` is its Python name (``time_limit``); the command
    line shows it as ``--time-limit``."""

    def __init__(self, option: str, message: str):
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


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
        data["variants"] = list(self.variants)
        data["starts"] = list(self.starts) if self.starts is not None else None
        return {name: data[name] for name in ("kind", "boards", *PARAMETERS[self.kind], "seed")}


def sweep_options(kind: str, *, sizes=None, pieces=None, variants=None, starts=None, time_limit=None,
                  node_limit=None, instances=None, closed=None, seed=None) -> SweepOptions:
    """The options of a ``kind`` sweep from command-line text or Python values (``None``
    means the default). Raises ``OptionError`` for a bad value and for an option the kind
    does not read (``tours`` with ``pieces``), which would otherwise be silently ignored."""
    if kind not in PARAMETERS:
        raise OptionError("kind", f"{kind!r} is not a comparison (expected one of {', '.join(PARAMETERS)})")
    given = {"pieces": pieces, "variants": variants, "starts": starts, "time_limit": time_limit,
             "node_limit": node_limit, "instances": instances, "closed": closed}
    for name, value in given.items():
        if value is not None and name not in PARAMETERS[kind]:
            users = [other for other, names in PARAMETERS.items() if name in names]
            raise OptionError(name, f"does not apply to {kind} (only to {' and '.join(users)})")
    defaults = SweepOptions(kind, ())
    return SweepOptions(
        kind=kind,
        boards=parse_sizes(DEFAULT_SIZES[kind] if sizes is None else sizes),
        pieces=defaults.pieces if pieces is None else parse_pieces(pieces),
        variants=defaults.variants if variants is None else parse_variants(variants),
        starts=None if starts is None else _nonempty("starts", split_list(starts)),
        time_limit=defaults.time_limit if time_limit is None else seconds("time_limit", time_limit),
        node_limit=defaults.node_limit if node_limit is None else bounded_integer("node_limit", node_limit, 1),
        instances=defaults.instances if instances is None else bounded_integer("instances", instances, 1),
        closed=bool(closed),
        seed=defaults.seed if seed is None else bounded_integer("seed", seed, 0, MAX_SEED),
    )


def parse_sizes(sizes) -> tuple[Board, ...]:
    """Boards from ``4-12``, ``4,6,8``, ``5x6`` or a mix like ``4-6,3x4`` (or a list of
    ints, ``"RxC"`` strings and ``(rows, cols)`` pairs), in order, without repeats."""
    boards: list[Board] = []
    for item in split_list(sizes):
        try:
            found = _boards_of(item)
        except BoardError as error:  # a side out of range
            raise OptionError("sizes", str(error)) from None
        boards.extend(board for board in found if board not in boards)
    if not boards:
        raise OptionError("sizes", f"no board sizes in {sizes!r}")
    return tuple(boards)


def _boards_of(item) -> list[Board]:
    if isinstance(item, Board):
        return [item]
    if isinstance(item, tuple) and len(item) == 2:
        return [Board(*item)]
    if isinstance(item, int) and not isinstance(item, bool):
        return [Board.square(item)]
    match = _SIZE.fullmatch(str(item).strip().lower())
    if match is None:
        raise OptionError("sizes", f"{item!r} is not a size (expected N, N-M or ROWSxCOLS, such as 8, 4-12 or 5x6)")
    side, low, high, rows, cols = match.groups()
    if side:
        return [Board.square(int(side))]
    if rows:
        return [Board(int(rows), int(cols))]
    if int(low) > int(high):
        raise OptionError("sizes", f"the range {item!r} runs backwards")
    return [Board.square(n) for n in range(int(low), int(high) + 1)]


def parse_pieces(pieces) -> tuple[Piece, ...]:
    try:
        return _nonempty("pieces", tuple(dict.fromkeys(parse_piece(name) for name in split_list(pieces))))
    except ValueError as error:
        raise OptionError("pieces", str(error)) from None


def parse_variants(variants) -> tuple[str, ...]:
    chosen = _nonempty("variants", tuple(dict.fromkeys(split_list(variants))))
    for variant in chosen:
        if variant not in PLACEMENT_VARIANTS:
            raise OptionError("variants",
                              f"{variant!r} is not a variant (expected some of {', '.join(PLACEMENT_VARIANTS)})")
    return chosen


def seconds(option: str, value) -> float:
    """A time limit in seconds from text or a number, refused as ``solve_placement`` refuses
    it: a sweep must not find out cell by cell that its limit is nan, infinite or past a year."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise OptionError(option, f"{value!r} is not a number") from None
    try:
        return check_time_limit(number, option)
    except ValueError as error:
        raise OptionError(option, str(error).removeprefix(f"{option}: ")) from None


def bounded_integer(option: str, value, minimum: int, maximum: int | None = None) -> int:
    try:
        number = int(value) if not isinstance(value, (bool, float)) else None
    except (TypeError, ValueError):
        number = None
    if number is None:
        raise OptionError(option, f"{value!r} is not a whole number")
    if number < minimum or (maximum is not None and number > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"between {minimum} and {maximum}"
        raise OptionError(option, f"must be {bounds}, got {number}")
    return number


def split_list(value) -> tuple:
    """``"a, b,c"`` → ``("a", "b", "c")``; a list or tuple is taken as it is."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, Iterable):
        return tuple(value)
    return (value,)


def _nonempty(option: str, values: tuple) -> tuple:
    if not values:
        raise OptionError(option, "is empty")
    return values
