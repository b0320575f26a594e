"""Reading an atlas directory: :class:`Atlas` (the index, the class lists, the certificate
archives). ``Atlas.open()`` with no directory opens the atlas shipped as package data."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from chessdom.atlas.schema import CLASSES, FORMAT, INDEX_JSON, VERSION, AtlasClass, Entry
from chessdom.atlas.store import read_classes


def shipped_directory() -> Path:
    """Where the shipped atlas lies (package data)."""
    return Path(str(files("chessdom.atlas") / "data"))


class Atlas:
    """An atlas directory, read: its index (``atlas.json``) at once, an entry's class list
    (from ``classes.parquet``) when first asked for."""

    def __init__(self, directory: Path, document: dict):
        self.directory = directory
        self.document = document
        self._entries = tuple(Entry.from_dict(row) for row in document["entries"])
        self._class_lists: dict[tuple[str, str, int, int], list[AtlasClass]] = {}

    @classmethod
    def open(cls, directory: Path | None = None) -> Atlas:
        """The atlas in ``directory`` (None: the shipped one). Raises FileNotFoundError when
        it has no index, ValueError when the index is not a version this reader knows."""
        directory = shipped_directory() if directory is None else Path(directory)
        document = json.loads((directory / INDEX_JSON).read_text())
        if document.get("format") != FORMAT or document.get("version") != VERSION:
            raise ValueError(f"{directory / INDEX_JSON}: not a {FORMAT} index of version {VERSION}")
        return cls(directory, document)

    def entries(self, piece: str | None = None, parameter: str | None = None, n: int | None = None) -> list[Entry]:
        """The entries, in index order, of ``piece``, ``parameter`` and square side ``n``
        where given."""
        return [entry for entry in self._entries
                if (piece is None or entry.piece == piece) and (parameter is None or entry.parameter == parameter)
                and (n is None or entry.n == n)]

    def entry(self, piece: str, parameter: str, n: int) -> Entry | None:
        """The entry of the n×n board, or None when the atlas has none."""
        found = self.entries(piece, parameter, n)
        return found[0] if found else None

    def beside(self, piece: str, parameter: str, rows: int, cols: int, value: int | None
               ) -> tuple[Entry, bool | None] | None:
        """The entry set beside an answer of ``value`` on a ``rows``×``cols`` board, and
        whether the two agree (None when either has no value); None when the atlas has no
        entry for it (entries are addressed by n: square boards only)."""
        entry = self.entry(piece, parameter, rows) if rows == cols else None
        if entry is None:
            return None
        return entry, None if value is None or entry.value is None else value == entry.value

    def classes(self, entry: Entry) -> list[AtlasClass]:
        """The entry's classes of optimal placements, by index (empty when not counted)."""
        key = (entry.piece, entry.parameter, entry.rows, entry.cols)
        if key not in self._class_lists:  # one entry's rows, not the file's (see read_classes)
            self._class_lists[key] = read_classes(self.directory / CLASSES, key).get(key, [])
        return list(self._class_lists[key])

    def certificate_path(self, entry: Entry) -> Path | None:
        """The bound's certificate archive, or None when the entry has none here (none
        made, or not shipped: ``entry.rebuild_command`` remakes it)."""
        return self._present(entry.certificate)

    def count_certificate_path(self, entry: Entry) -> Path | None:
        """The count's enumeration certificate archive, or None when there is none here."""
        return self._present(entry.count_certificate)

    def _present(self, relative: str | None) -> Path | None:
        if relative is None:
            return None
        path = self.directory / relative
        return path if path.is_file() else None
