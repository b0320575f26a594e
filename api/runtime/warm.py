"""Imported by the fork server after the tasks: run each numba kernel once on a tiny
input, so that every worker forked from it starts with the machine code in memory.

Measured through ``SolverPool`` on this 2-core machine (two N-Queens counts with classes,
n = 10, then two 30×30 Squirrel–Cull tours): without this every fresh worker loaded the
kernels from numba's disk cache, 0.51 s a count and 0.37 s a tour; with it, 0.009 s and
0.010 s, the cost paid once when the fork server starts."""

from chessdom.native_search import nqueens_count
from chessdom.native_search.squirrel_cull import squirrel_cull_walk

nqueens_count(6, up_to_symmetry=True)
squirrel_cull_walk(8)
