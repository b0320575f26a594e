"""One module per comparison kind, each with ``cells(options)`` (the sweep's plain-dict
specs), ``run(spec)`` (one cell's records), ``METHODS``, its table ``LAYOUT`` and its
figure's ``PANEL``. A kind whose methods are not all run by default also has
``DEFAULT_METHODS``, and its cells name the methods they run (``spec["methods"]``)."""

from chessdom.scripts.sweep.kinds import domination, nqueens, paths, tours
from chessdom.scripts.sweep.options import OptionError, SweepOptions, split_list
from chessdom.scripts.sweep.storage import cell_key

KINDS = {"domination": domination, "tours": tours, "paths": paths, "nqueens": nqueens}


def sweep_methods(kind: str, methods=None) -> tuple[str, ...]:
    """The methods a ``kind`` sweep runs, in the kind's order: those ``methods`` names (a
    comma list or a sequence), or by default the kind's ``DEFAULT_METHODS`` (every method
    of a kind without them). Raises ``OptionError`` for a name that is not a method of the
    kind, and for a kind that always runs every method."""
    module = KINDS[kind]
    if methods is None:
        return getattr(module, "DEFAULT_METHODS", module.METHODS)
    if not hasattr(module, "DEFAULT_METHODS"):
        choosers = [name for name, other in KINDS.items() if hasattr(other, "DEFAULT_METHODS")]
        raise OptionError("methods", f"does not apply to {kind}, which runs every method (only to "
                                     f"{' and '.join(choosers)}; --columns picks what the table shows)")
    names = split_list(methods)
    if not names:
        raise OptionError("methods", "is empty")
    for name in names:
        if name not in module.METHODS:
            raise OptionError("methods", f"{name!r} is not a method of {kind} (expected some of "
                                         f"{', '.join(module.METHODS)})")
    return tuple(method for method in module.METHODS if method in names)


def sweep_cells(options: SweepOptions, methods: tuple[str, ...] | None = None) -> list[dict]:
    """The cells of a sweep, each once: keyed like the store, so ``--starts a1,a1`` runs a1 once.
    The cells of a kind with ``DEFAULT_METHODS`` name the ``methods`` they run (by default
    those), so that a cell stored for other methods is never taken for them."""
    kind = KINDS[options.kind]
    specs = kind.cells(options)
    if hasattr(kind, "DEFAULT_METHODS"):
        chosen = list(sweep_methods(options.kind, methods))
        specs = [{**spec, "methods": chosen} for spec in specs]
    return list({cell_key(spec): spec for spec in specs}.values())


def cell_label(spec: dict) -> str:
    """A cell as the progress bar names it: ``queen plain 8×8``, ``6×6 from c5``, ``8×8 board 1``."""
    parts = [spec.get("piece"), spec.get("variant"), f"{spec['rows']}×{spec['cols']}"]
    if spec.get("start") is not None and spec["kind"] == "tours":
        parts.append(f"from {spec['start']}")
    if spec.get("instance") is not None:
        parts.append(f"board {spec['instance']}")
    return " ".join(part for part in parts if part)
