"""The atlas beside the literature: OEIS-style b-files of its sequences (``chessdom atlas
export --bfiles``), and each entry set beside the published term of the sequences it covers
(``chessdom atlas compare``): agree, disagree (with the evidence: our number and the
certificate that proves it) or new (no published term). The published terms are facts
copied into ``reference/oeis.json``; nothing here uses them to produce a value."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from tabulate import tabulate

from chessdom.atlas.reader import Atlas
from chessdom.atlas.schema import NONE_EXISTS, PROVED, Entry

WHAT = ("value", "count_all", "count_classes")
FORMATS = ("markdown", "csv", "latex")


def reference_path() -> Path:
    return Path(str(files("chessdom.atlas") / "reference" / "oeis.json"))


SEQUENCE_KEYS = ("a_number", "piece", "parameter", "what", "offset", "terms", "source")


def load_reference(path: Path | None = None) -> list[dict]:
    """The reference's sequences: a_number, piece, parameter, what, offset, terms, source
    (and only_when where the sequence counts the same thing only for some entries).
    OSError for a file that cannot be read; ValueError for one that is not a reference."""
    path = path or reference_path()
    try:
        sequences = json.loads(path.read_text())["sequences"]
    except (ValueError, KeyError, TypeError):
        sequences = None
    if not isinstance(sequences, list) or not all(
            isinstance(sequence, dict) and set(SEQUENCE_KEYS) <= sequence.keys()
            and isinstance(sequence["terms"], list) for sequence in sequences):
        raise ValueError(f"{path} is not a reference file: JSON whose 'sequences' each have "
                         f"{', '.join(sorted(SEQUENCE_KEYS))} (terms a list)")
    return sequences


def number(entry: Entry, what: str) -> int | None:
    """The entry's proved number ``what`` (value, count_all, count_classes), or None. A
    board where no placement has the property has 0 placements in 0 classes, and no value."""
    if entry.status == NONE_EXISTS:
        return None if what == "value" else 0
    if entry.status != PROVED:
        return None
    return getattr(entry, what)


def _applies(sequence: dict, entry: Entry) -> bool:
    return sequence.get("only_when") != "value == n" or entry.value == entry.n


@dataclass(frozen=True)
class Row:
    sequence: str
    piece: str
    parameter: str
    what: str
    n: int
    atlas: int
    published: int | None
    verdict: str
    evidence: str


def compare(atlas: Atlas, reference: list[dict]) -> list[Row]:
    """One row per proved number of a square entry: beside the term of each sequence that
    covers it (agree, disagree, or new past the published terms), then those no sequence
    of the reference covers (new, without a sequence)."""
    rows = _covered(atlas, reference)
    seen = {(row.piece, row.parameter, row.what, row.n) for row in rows}
    for entry in atlas.entries():
        for what in WHAT:
            ours = number(entry, what)
            if entry.n is not None and ours is not None and (entry.piece, entry.parameter, what, entry.n) not in seen:
                rows.append(Row("", entry.piece, entry.parameter, what, entry.n, ours, None, "new",
                                _evidence(entry, what)))
    return rows


def _covered(atlas: Atlas, reference: list[dict]) -> list[Row]:
    rows = []
    for sequence in reference:
        for entry in atlas.entries(sequence["piece"], sequence["parameter"]):
            ours = number(entry, sequence["what"])
            if entry.n is None or ours is None or not _applies(sequence, entry):
                continue
            at = entry.n - sequence["offset"]
            published = sequence["terms"][at] if 0 <= at < len(sequence["terms"]) else None
            verdict = "new" if published is None else "agree" if published == ours else "disagree"
            rows.append(Row(sequence["a_number"], entry.piece, entry.parameter, sequence["what"], entry.n, ours,
                            published, verdict,
                            "" if verdict == "agree" else _evidence(entry, sequence["what"], published)))
    return rows


def _evidence(entry: Entry, what: str, published: int | None = None) -> str:
    """What proves our number: the certificate (count or bound) with its hash."""
    column = "certificate" if what == "value" else "count_certificate"
    archive, digest = getattr(entry, column), getattr(entry, f"{column}_sha256")
    if archive is None and what != "value" and entry.count_all is not None:
        return _listed_evidence(entry, what, published)
    if archive is None:
        return f"{entry.status}: {entry.note or entry.count_note or ''}".strip()
    shipped = "" if getattr(entry, f"{column}_shipped") else ", not shipped: rebuild with " + entry.rebuild_command
    return f"{what} = {number(entry, what)}: {archive} (sha256 {digest[:16]}…{shipped})"


def _listed_evidence(entry: Entry, what: str, published: int | None) -> str:
    """A count kept without its certificate: its class list (re-checked by ``atlas
    check``: each class optimal, closed, pairwise apart) proves it a lower bound, which
    settles a published number below it; one above it the list cannot settle."""
    ours = number(entry, what)
    listed = (f"{entry.count_classes} classes of {entry.count_all} placements listed in classes.parquet, each "
              f"re-checked by atlas check, the value by {_evidence(entry, 'value')}")
    if published is not None and published < ours:
        return f"{what} ≥ {ours}, which settles it: {listed}; that none is missing is not certified"
    return f"{what} = {ours} by the enumeration alone, not certified: unsettled ({listed})"


COLUMNS = ("sequence", "piece", "parameter", "what", "n", "atlas", "published", "verdict", "evidence")


def render(rows: list[Row], form: str) -> str:
    """The comparison as a table for a paper: Markdown, CSV or LaTeX (booktabs)."""
    values = [[getattr(row, name) if getattr(row, name) is not None else "" for name in COLUMNS] for row in rows]
    if form == "csv":
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(values)
        return text.getvalue()
    if form not in FORMATS:
        raise ValueError(f"format: {form!r} is not one of {', '.join(FORMATS)}")
    return tabulate(values, headers=COLUMNS, tablefmt="github" if form == "markdown" else "latex_booktabs") + "\n"


def bfiles(atlas: Atlas, out: Path, reference: list[dict]) -> list[Path]:
    """One b-file (``n a(n)`` a line) per piece, parameter and number the atlas has for
    consecutive square boards from its first; named ``b<A-number>.txt`` where the
    reference names the sequence, else ``<piece>-<parameter>-<what>.txt``. Returns them."""
    out.mkdir(parents=True, exist_ok=True)
    names = {(s["piece"], s["parameter"], s["what"]): s for s in reference if "only_when" not in s}
    written = []
    pairs = dict.fromkeys((entry.piece, entry.parameter) for entry in atlas.entries())
    for piece, parameter in pairs:
        for what in WHAT:
            terms = _consecutive(atlas.entries(piece, parameter), what)
            if not terms:
                continue
            sequence = names.get((piece, parameter, what))
            path = out / (f"b{sequence['a_number'][1:]}.txt" if sequence else f"{piece}-{parameter}-{what}.txt")
            header = f"# chessdom atlas: {what} of {parameter} for {piece}s on n×n boards, proved and certified\n"
            path.write_text(header + "".join(f"{n} {term}\n" for n, term in terms))
            written.append(path)
    return written


def _consecutive(entries: list[Entry], what: str) -> list[tuple[int, int]]:
    by_n = {entry.n: number(entry, what) for entry in entries if entry.n is not None}
    known = sorted(n for n, term in by_n.items() if term is not None)
    terms = []
    for n in range(known[0], known[-1] + 1) if known else ():
        if by_n.get(n) is None:
            break
        terms.append((n, by_n[n]))
    return terms
