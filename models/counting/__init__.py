"""Counting the optimal placements, and how many are distinct up to board symmetry, with
one representative placement per symmetry class.

The room, by idea:

- :mod:`.regions` — regions of the board that every symmetry maps onto itself, and the
  orbits of per-region piece counts;
- :mod:`.parts` — the plan of a count: its parts, one per orbit of the tuples of region
  counts, each with the weight of its orbit and the engine that lists it (a
  :class:`~chessdom.models.counting.parts.Lister`), and how a slow part is split;
- :mod:`.listers` — the engines that list a part: SAT by blocking clauses, CP-SAT's
  LP-pruned enumeration, SCIP's class leaders;
- :mod:`.tally` — the count as parts are listed, and its checks against itself;
- :mod:`.state` — a count's checkpoint, so that a stopped count goes on where it stopped;
- :mod:`.count` — :func:`~chessdom.models.counting.count.count_placements`, which puts them
  together (the cube workers' count is :mod:`chessdom.models.cubes.enumerating`).

Nothing is re-exported here: a killable child skips this package's ``__init__`` and
imports each module by its own name."""
