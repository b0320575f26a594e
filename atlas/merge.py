"""Taking one atlas's finished entries into another (``chessdom atlas merge``): a frontier
run is built into a directory of its own, with its own limits, and its entries then join
the shipped atlas as they are — each row, its archives and its class list — and the
indexes are made again. Nothing is computed: a row keeps the revision, limits
(``rebuild_command``) and seconds of the build that made it, and ``atlas check`` re-checks
the result as any other atlas."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from chessdom.atlas.dataset import write_dataset_files
from chessdom.atlas.provenance import provenance
from chessdom.atlas.reader import Atlas
from chessdom.atlas.schema import CERTIFICATES, Entry
from chessdom.atlas.store import finished, remove_empty_work, write_entry, write_indexes, writing_alone


@dataclass
class Merged:
    """The stems taken, and those left as the destination had them."""

    taken: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def merge(source: Path, destination: Path, *, replace: bool = False) -> Merged:
    """Take every entry of the atlas in ``source`` into the atlas in ``destination`` — but
    those ``destination`` has finished already, unless ``replace`` — then write its indexes
    and dataset files. Raises as :meth:`Atlas.open` does for a ``source`` with no index, and
    :class:`~chessdom.atlas.store.AtlasBusy` while a build or another merge writes ``destination``."""
    atlas = Atlas.open(source)
    if Path(source).resolve() == Path(destination).resolve():
        raise ValueError("argument --into: the atlas to merge into is the source itself")
    with writing_alone(Path(destination)):
        present, merged = finished(destination), Merged()
        for entry in atlas.entries():
            if entry.stem in present and not replace:
                merged.kept.append(entry.stem)
                continue
            _take(atlas, entry, destination)
            merged.taken.append(entry.stem)
        if merged.taken:
            write_indexes(destination, provenance())
            write_dataset_files(destination)
            remove_empty_work(destination)
    return merged


def _take(atlas: Atlas, entry: Entry, destination: Path) -> None:
    """The entry's archives (those its atlas ships), then its class list and row: the row
    written last, as a build writes it, says the entry is finished. The destination's own
    archives of that entry go first, so none is left that the row does not name."""
    for suffix in ("", "-count"):
        (destination / CERTIFICATES / f"{entry.stem}{suffix}.tar.gz").unlink(missing_ok=True)
    for relative, shipped in ((entry.certificate, entry.certificate_shipped),
                              (entry.count_certificate, entry.count_certificate_shipped)):
        if relative is not None and shipped:
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            shutil.copyfile(atlas.directory / relative, partial)
            partial.replace(target)
    write_entry(destination, entry, atlas.classes(entry))
