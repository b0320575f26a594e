"""An entry's proved bound, kept under ``.work/<stem>/`` until the entry is finished, so a
resumed build goes straight on to the count: the value, its witness and how it was
proved, the bound's archive (already checked by the independent checker as stored) and
the seconds they took. Measured: resuming γ(Q_16)'s count ran its proof and its bound's
tree certificate again first, 112 s and 316 s + 119 s of checking (docs/benchmarks/atlas.md,
the third round). The kept bound is taken only while its archive is the one it names
(the same SHA-256), or was too large to ship and so is named by its hash alone."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from chessdom.atlas.archives import Archived
from chessdom.atlas.store import sha256_of, write_atomically
from chessdom.chessboard import PlacementProblem, PlacementResult

PROVED = "proved.json"
"""The kept bound's file in the entry's working folder."""
FORMAT = 1


def keep_proved(work: Path, result: PlacementResult, bound: Archived | None, seconds: dict) -> None:
    """Keep the proved ``result``, its ``bound`` archive (None: nothing to certify) and the
    ``seconds`` by stage (with ``checked_by``) for a resumed build."""
    data = {"format": FORMAT, "result": result.to_dict(), "bound": None if bound is None else asdict(bound),
            "seconds": seconds}
    write_atomically(work / PROVED, json.dumps(data, indent=1).encode())


def proved_before(work: Path, problem: PlacementProblem, directory: Path
                  ) -> tuple[PlacementResult, Archived | None, dict] | None:
    """The bound kept in ``work`` for ``problem``, its archive in the atlas ``directory``
    and the seconds; None when there is none, or it is unreadable, of another problem or
    format, or its archive is gone or changed."""
    try:
        data = json.loads((work / PROVED).read_text())
        result = PlacementResult.from_dict(data["result"])
        bound = None if data["bound"] is None else Archived(**data["bound"])
        seconds = dict(data["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if data.get("format") != FORMAT or result.problem != problem or not result.optimal:
        return None
    if bound is not None and bound.shipped and not _intact(directory / bound.relative, bound.sha256):
        return None
    return result, bound, seconds


def _intact(path: Path, sha256: str) -> bool:
    try:
        return sha256_of(path) == sha256
    except OSError:
        return False
