"""The solve dispatcher: one call, :func:`.solve.solve`, from a placement problem to a
checked answer, proved optimal or as far as the time limit allows — its arguments checked
once (:mod:`.arguments`), the backend picked by rules chosen by measurement
(:mod:`.auto_rules`), live bounds that only tighten (:mod:`.live_bounds`), opt-in cited
theorems (:mod:`.theorems`), and the published values reported beside an answer, never
used as it (:mod:`.literature`).

Nothing is re-exported here: a killable child skips this package's ``__init__`` and
imports each module by its own name."""
