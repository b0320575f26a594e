"""The encodings: a placement problem stated once as sets of squares and lines
(:mod:`.formulation`) and solved by CP-SAT (:mod:`.cpsat`), SAT (:mod:`.sat`) or SCIP's
branch-and-cut (:mod:`.mip`), each handing the dispatcher a raw answer
(:mod:`.backend_answer`); lex-leader symmetry breaking (:mod:`.symmetry_breaking`), which the
encodings and the counts share; and N-Queens by CP-SAT (:mod:`.nqueens`).

Nothing is re-exported here: a killable child skips this package's ``__init__`` and
imports each module by its own name."""
