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


GIVEN = ("sizes", "pieces", "variants", "starts", "time_limit", "node_limit", "instances", "closed", "seed")
"""The options :func:`sweep_options` reads, as command-line text or Python values."""


def sweep_options(kind: str, **given) -> SweepOptions:
    """The options of a ``kind`` sweep from command-line text or Python values, each named
    in :data:`GIVEN` (``None`` means the default). Raises ``OptionError`` for a bad value,
    an unknown option, and an option the kind does not read (``tours`` with ``pieces``),
    which would otherwise be silently ignored."""
    if kind not in PARAMETERS:
        raise OptionError("kind", f"{kind!r} is not a comparison (expected one of {', '.join(PARAMETERS)})")
    given = {name: value for name, value in given.items() if value is not None}
    for name in given:
        if name not in GIVEN:
            raise OptionError(name, f"is not an option of a sweep (expected one of {', '.join(GIVEN)})")
        if name not in ("sizes", "seed") and name not in PARAMETERS[kind]:
            users = [other for other, names in PARAMETERS.items() if name in names]
            raise OptionError(name, f"does not apply to {kind} (only to {' and '.join(users)})")
    defaults = SweepOptions(kind, ())
    return SweepOptions(
        kind=kind,
        boards=parse_sizes(given.get("sizes", DEFAULT_SIZES[kind])),
        pieces=parse_pieces(given["pieces"]) if "pieces" in given else defaults.pieces,
        variants=parse_variants(given["variants"]) if "variants" in given else defaults.variants,
        starts=_nonempty("starts", split_list(given["starts"])) if "starts" in given else None,
        time_limit=seconds("time_limit", given["time_limit"]) if "time_limit" in given else defaults.time_limit,
        node_limit=_at_least("node_limit", given, 1, defaults.node_limit),
        instances=_at_least("instances", given, 1, defaults.instances),
        closed=bool(given.get("closed")),
        seed=bounded_integer("seed", given["seed"], 0, MAX_SEED) if "seed" in given else defaults.seed,
    )


def _at_least(name: str, given: dict, least: int, default: int) -> int:
    return bounded_integer(name, given[name], least) if name in given else default


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
