"""The atlas's on-disk form, in one place: the index row (:class:`Entry`, its fields in
:data:`FIELDS`, read from and written to the JSON and CSV indexes), the class row
(:class:`AtlasClass`), and the names of the files.

A directory holds ``atlas.json`` and ``atlas.csv`` (the index, one row per entry),
``classes.parquet`` (every class of every counted entry: the class lists' one home),
``entries/<stem>.json`` (one finished entry's row each, the build's unit of resume; the
indexes are made from them),
``certificates/<stem>.tar.gz`` (the bound's certificate) and
``certificates/<stem>-count.tar.gz`` (the count's), ``datapackage.json``, ``LICENSE`` and
``CITATION.cff``. A stem is ``<piece>-<parameter>-<rows>x<cols>``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

FORMAT = "chessdom-atlas"
VERSION = 2
INDEX_JSON = "atlas.json"
INDEX_CSV = "atlas.csv"
CLASSES = "classes.parquet"
ENTRIES = "entries"
CERTIFICATES = "certificates"
PACKAGE = "datapackage.json"
WORK = ".work"
"""Where unfinished state lies: an entry's certificates being made and its count's parts
(``.work/<stem>/``), and finished entries' class lists not yet in ``classes.parquet``."""

PROVED = "proved"
OUT_OF_REACH = "out_of_reach"
NONE_EXISTS = "none_exists"
STATUSES = (PROVED, OUT_OF_REACH, NONE_EXISTS)
"""``proved``: the value is proved optimal and certified. ``out_of_reach``: the budget ran
out first; the bounds are what was proved, ``note`` says why it stopped. ``none_exists``:
no placement has the property at all (total domination of a 1×1 board: a piece never
attacks its own square); no value, no certificate."""


def stem(piece: str, parameter: str, rows: int, cols: int) -> str:
    """The name an entry's files share: ``queen-domination-8x8``."""
    return f"{piece}-{parameter}-{rows}x{cols}"


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One row of the index: a piece, a parameter and a board, what is proved of it,
    its count and certificates, who checked them and what it cost."""

    piece: str
    parameter: str
    rows: int
    cols: int
    status: str
    value: int | None
    lower_bound: int | None
    upper_bound: int | None
    witness: tuple[str, ...]
    count_all: int | None
    count_classes: int | None
    count_note: str | None
    """Why the counts are empty, or — counts without a ``count_certificate`` — why they
    are not certified (None when they are both there and certified)."""
    certificate: str | None
    """The bound's certificate archive, relative to the atlas directory."""
    certificate_sha256: str | None
    certificate_bytes: int | None
    certificate_form: str | None
    """``tree`` (the branch-and-bound's search tree, contract version 5 or 7), ``lrat``
    (LRAT refutations of the contract formula, version 6), ``drat`` (DRAT refutations,
    versions 1 to 4), one proof or cubes, or ``cliques`` (independence bounded by a clique
    cover, version 8)."""
    certificate_shipped: bool
    """False when the archive was too large to commit: ``rebuild_command`` remakes it."""
    count_certificate: str | None
    """The count's enumeration certificate archive, relative to the atlas directory."""
    count_certificate_sha256: str | None
    count_certificate_bytes: int | None
    count_certificate_form: str | None
    count_certificate_shipped: bool
    rebuild_command: str
    checked_by: str | None
    checked_at: str | None
    seconds: float
    seconds_prove: float
    seconds_count: float
    seconds_certify: float
    seconds_check: float
    note: str | None
    """Why an entry is out of reach (what stopped it), else None."""
    chessdom_version: str
    revision: str | None

    @property
    def n(self) -> int | None:
        """The side of a square board, None for a rectangle."""
        return self.rows if self.rows == self.cols else None

    @property
    def stem(self) -> str:
        return stem(self.piece, self.parameter, self.rows, self.cols)

    def to_dict(self) -> dict:
        """The row as the JSON index has it (the witness a list), with ``n``."""
        row = asdict(self)
        row["witness"] = list(self.witness)
        row["n"] = self.n
        return row

    @classmethod
    def from_dict(cls, row: dict) -> Entry:
        """The row of the JSON index (or an entry file); unknown keys are ignored, so that
        a later version's extra columns still read."""
        known = {name: row[name] for name in FIELDS if name in row}
        missing = [name for name in FIELDS if name not in row]
        if missing:
            raise ValueError(f"atlas entry {row.get('piece')}-{row.get('parameter')}: missing {', '.join(missing)}")
        if row["status"] not in STATUSES:
            raise ValueError(f"atlas entry {row['piece']}-{row['parameter']}: status {row['status']!r} is not one of "
                             f"{', '.join(STATUSES)}")
        known["witness"] = tuple(row["witness"] or ())
        return cls(**known)

    def to_csv(self) -> dict:
        """The row as the CSV index has it: the witness space-separated, empty for None,
        booleans ``true``/``false``."""
        row = {}
        for name in FIELDS:
            value = getattr(self, name)
            if name == "witness":
                value = " ".join(value)
            elif isinstance(value, bool):
                value = "true" if value else "false"
            row[name] = "" if value is None else value
        return row


FIELDS = tuple(field.name for field in fields(Entry))
"""The index's columns, in order."""


@dataclass(frozen=True)
class AtlasClass:
    """One class of optimal placements under the board's symmetries: its number within
    the entry (from 0), how many placements it holds, and its representative, the
    lex-leader (the least sorted image by square index), as square names."""

    index: int
    orbit_size: int
    squares: tuple[str, ...]
