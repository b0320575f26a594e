"""Imported by the fork server after the tasks: run each numba kernel once on a tiny
input, so that every worker forked from it starts with the machine code in memory.

Measured through ``SolverPool`` on this 2-core machine (two N-Queens counts with classes,
n = 10, then two 30×30 Squirrel–Cull tours): without this every fresh worker loaded the
kernels from numba's disk cache, 0.51 s a count and 0.37 s a tour; with it, 0.009 s and
0.010 s, the cost paid once when the fork server starts.

OR-Tools is loaded here too: the models import it only where they use it (the command
line's SAT path starts 0.26 s sooner without it), and a worker's first CP-SAT solve
otherwise paid 0.32–0.36 s for the import, against 0.01–0.04 s warm."""

from ortools.sat.python import cp_model  # noqa: F401 - loaded once, before the workers fork

from chessdom.models.dispatch.native_backend import compile_kernels
from chessdom.native_search import nqueens_count
from chessdom.native_search.squirrel_cull import squirrel_cull_walk

nqueens_count(6, up_to_symmetry=True)
squirrel_cull_walk(8)
# The branch-and-bound's kernels, optimum and count, as the dispatcher readies them before
# a solve's clock starts: every worker then reports a compile_time of 0.0 (measured through
# the service, a worker's first γ(Q_10) took 0.44 s cold and 0.006 s warm).
compile_kernels()
