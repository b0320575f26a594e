"""One module per comparison kind, each with ``cells(options)`` (the sweep's plain-dict
specs), ``run(spec)`` (one cell's records), ``METHODS``, its table ``LAYOUT`` and its
figure's ``PANEL``."""

from chessdom.scripts.sweep.kinds import domination, nqueens, paths, tours
from chessdom.scripts.sweep.options import SweepOptions
from chessdom.scripts.sweep.storage import cell_key

KINDS = {"domination": domination, "tours": tours, "paths": paths, "nqueens": nqueens}


def sweep_cells(options: SweepOptions) -> list[dict]:
    """The cells of a sweep, each once: keyed like the store, so ``--starts a1,a1`` runs a1 once."""
    return list({cell_key(spec): spec for spec in KINDS[options.kind].cells(options)}.values())


def cell_label(spec: dict) -> str:
    """A cell as the progress bar names it: ``queen plain 8×8``, ``6×6 from c5``, ``8×8 board 1``."""
    parts = [spec.get("piece"), spec.get("variant"), f"{spec['rows']}×{spec['cols']}"]
    if spec.get("start") is not None and spec["kind"] == "tours":
        parts.append(f"from {spec['start']}")
    if spec.get("instance") is not None:
        parts.append(f"board {spec['instance']}")
    return " ".join(part for part in parts if part)
