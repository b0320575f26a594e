"""One module per comparison kind, each with ``cells(options)`` (the sweep's plain-dict
specs) and ``run(spec)`` (one cell's records)."""

from chessdom.scripts.sweep.kinds import domination, nqueens, paths, tours

KINDS = {"domination": domination, "tours": tours, "paths": paths, "nqueens": nqueens}
