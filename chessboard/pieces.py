"""The pieces of domination problems, each declared once: how it moves (the directions it
slides to the board's edge, the offsets it leaps), its letter, its glyph and its names.

Everything else — attack tables, the placement checker, the formulations, renderings,
benchmark labels and the Board lab's tables (``GET /lab/pieces.json``) — derives from these
declarations, so a new piece is one more :class:`Piece` member (see the docs' "Adding a
piece"). The independent certificate checker keeps its own rule on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from math import gcd

Step = tuple[int, int]
"""A ``(rank, file)`` step."""

ORTHOGONAL: tuple[Step, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL: tuple[Step, ...] = ((1, 1), (-1, -1), (1, -1), (-1, 1))
KNIGHT_STEPS: tuple[Step, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@dataclass(frozen=True)
class Words:
    """A piece's name in one language as the Board lab's sentences use it: ``one`` after
    "a" or 1, ``many`` after a larger number (Hungarian keeps the singular there), and
    Hungarian's instrumental ("with five queens") and accusative; English needs neither.
    ``also``: other words a reader may type for it (the lab reads enemies like "vezér d5")."""

    one: str
    many: str
    instrumental: str = ""
    accusative: str = ""
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declaration:
    """What a piece is. ``slides``: directions it attacks along to the edge (pieces never
    block one another here); ``leaps``: offsets it attacks one step away. A compound piece
    has both."""

    name: str
    letter: str
    glyph: str
    english: Words
    hungarian: Words
    slides: tuple[Step, ...] = ()
    leaps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        for steps in (self.slides, self.leaps):
            # Counting up to symmetry maps placements by the board's symmetries, and total
            # domination reads "t's attackers" as "the squares t attacks": both need moves
            # that every symmetry of the square (and so its reversal) maps onto themselves.
            if set(steps) != {image for step in steps for image in _symmetric_images(step)}:
                raise ValueError(f"{self.name}: its moves {steps} are not the same under every board symmetry")
        if any(gcd(*step) != 1 for step in self.slides):
            # A line's squares are then every square of one geometric line, which the
            # checker's line keys and the formulations' line variables assume.
            raise ValueError(f"{self.name}: a slide direction must be a smallest step")
        if (0, 0) in self.leaps:
            raise ValueError(f"{self.name}: a piece never attacks its own square")
        if any(_on_line(leap, slide) for leap in self.leaps for slide in self.slides):
            raise ValueError(f"{self.name}: a leap along a slide direction repeats that slide")


def _symmetric_images(step: Step) -> set[Step]:
    dr, dc = step
    return {(a * x, b * y) for x, y in ((dr, dc), (dc, dr)) for a in (1, -1) for b in (1, -1)}


def _on_line(leap: Step, slide: Step) -> bool:
    return leap[0] * slide[1] == leap[1] * slide[0]


# Compound pieces have no letter of the chess world's own. The chancellor's C is Capablanca
# chess's (the name comes from there too), the amazon's A is Superchess's; Capablanca's A
# for the archbishop is then taken, so it gets H, the letter of the Hawk, Seirawan chess's
# bishop + knight. Glyphs: Unicode's KNIGHT-QUEEN, -ROOK and -BISHOP symbols (U+1FA51…53)
# and circled letters (Ⓐ) are in few fonts — neither is in DejaVu, the lab's last fallback,
# where the lab drew an empty box — so the glyph is the letter, which the lab draws in a disc.
class Piece(str, Enum):
    """A piece, by its name (``Piece("queen")`` is ``Piece.QUEEN``); its movement, letter,
    glyph and names are its :class:`Declaration`."""

    QUEEN = Declaration(
        "queen", "Q", "♛", Words("queen", "queens"),
        Words("királynő", "királynő", "királynővel", "királynőt", also=("vezér",)), slides=ORTHOGONAL + DIAGONAL)
    ROOK = Declaration(
        "rook", "R", "♜", Words("rook", "rooks"), Words("bástya", "bástya", "bástyával", "bástyát"), slides=ORTHOGONAL)
    BISHOP = Declaration(
        "bishop", "B", "♝", Words("bishop", "bishops"), Words("futó", "futó", "futóval", "futót"), slides=DIAGONAL)
    KNIGHT = Declaration(
        "knight", "N", "♞", Words("knight", "knights"), Words("huszár", "huszár", "huszárral", "huszárt"),
        leaps=KNIGHT_STEPS)
    KING = Declaration(
        "king", "K", "♚", Words("king", "kings"), Words("király", "király", "királlyal", "királyt"),
        leaps=ORTHOGONAL + DIAGONAL)
    AMAZON = Declaration(
        "amazon", "A", "A", Words("amazon", "amazons"), Words("amazon", "amazon", "amazonnal", "amazont"),
        slides=ORTHOGONAL + DIAGONAL, leaps=KNIGHT_STEPS)
    CHANCELLOR = Declaration(
        "chancellor", "C", "C", Words("chancellor", "chancellors"),
        Words("kancellár", "kancellár", "kancellárral", "kancellárt"), slides=ORTHOGONAL, leaps=KNIGHT_STEPS)
    ARCHBISHOP = Declaration(
        "archbishop", "H", "H", Words("archbishop", "archbishops"), Words("érsek", "érsek", "érsekkel", "érseket"),
        slides=DIAGONAL, leaps=KNIGHT_STEPS)

    declaration: Declaration

    def __new__(cls, declaration: Declaration) -> Piece:
        piece = str.__new__(cls, declaration.name)
        piece._value_ = declaration.name
        piece.declaration = declaration
        return piece

    @property
    def slides(self) -> tuple[Step, ...]:
        return self.declaration.slides

    @property
    def leaps(self) -> tuple[Step, ...]:
        return self.declaration.leaps

    @property
    def axes(self) -> tuple[Step, ...]:
        """One direction per line the piece slides along (for the queen: ranks, files,
        diagonals, anti-diagonals), each pointing to higher squares, in declared order."""
        forward = [step if step > (0, 0) else (-step[0], -step[1]) for step in self.slides]
        return tuple(dict.fromkeys(forward))

    @property
    def letter(self) -> str:
        return self.declaration.letter

    @property
    def glyph(self) -> str:
        return self.declaration.glyph

    def to_dict(self) -> dict:
        """The declaration as JSON (the Board lab's piece table)."""
        words = {"en": self.declaration.english, "hu": self.declaration.hungarian}
        return {
            "name": self.value, "letter": self.letter, "glyph": self.glyph,
            "slides": [list(step) for step in self.slides], "leaps": [list(step) for step in self.leaps],
            "names": {language: {key: value for key, value in vars(word).items() if value}
                      for language, word in words.items()},
        }


if len({piece.letter for piece in Piece}) != len(Piece):
    raise ValueError("two pieces share a letter: diagrams and benchmark labels could not tell them apart")


def parse_piece(text: str) -> Piece:
    try:
        return Piece(str(text).strip().lower())
    except ValueError:
        names = ", ".join(piece.value for piece in Piece)
        raise ValueError(f"{text!r} is not a piece (expected one of {names})") from None
