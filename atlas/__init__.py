"""The atlas: every value of every piece and parameter the build reached, proved, counted
up to symmetry, certified, and re-checkable — a dataset on disk (:mod:`.schema`), read by
:class:`Atlas` (:mod:`.reader`), made by ``chessdom atlas build`` (:mod:`.builder`),
re-checked by ``chessdom atlas check`` (:mod:`.recheck`), and set beside the OEIS by
``chessdom atlas compare`` and ``export`` (:mod:`.exports`). The build shipped with
chessdom is package data (``Atlas.open()``)."""

if __name__ != "chessdom.atlas":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.atlas")

from chessdom.atlas.reader import Atlas
from chessdom.atlas.schema import AtlasClass, Entry

__all__ = ["Atlas", "AtlasClass", "Entry"]
