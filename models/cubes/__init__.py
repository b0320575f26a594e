"""Cube-and-conquer: one SAT query ("is there a placement of k pieces?") split into
independent cubes that run anywhere a :class:`concurrent.futures.Executor` runs them — a
local :class:`~chessdom.processes.WorkerPool`, or a Dask cluster through
``distributed.Client.get_executor()``. The query is refuted when every cube is (Heule,
Kullmann, Wieringa & Biere, HVC 2011); a cube that finds a placement answers it at once
and the cubes still queued are cancelled.

- :mod:`.splitting` — the cubes: region counts, one per symmetry orbit, largest first, refined past a budget;
- :mod:`.conquering` — one cube's SAT call, and running them all on an executor;
- :mod:`.incremental` — one solver per worker for a round's cubes, each asked under assumptions;
- :mod:`.stop` — telling the cubes still running to stop, on this machine or a cluster;
- :mod:`.optimise` — a whole optimisation asked as cube queries;
- :mod:`.enumerating` — the parts of a count of placements, listed in parallel.
"""

from chessdom.models.counting.regions import regions
from chessdom.models.cubes.conquering import Conquest, CubeAnswer, available_cores, conquer, local_pool, solve_cube
from chessdom.models.cubes.enumerating import count_by_cubes, enumerate_by_cubes
from chessdom.models.cubes.optimise import solve_by_cubes
from chessdom.models.cubes.splitting import Cube, refine, split

__all__ = [
    "Conquest", "Cube", "CubeAnswer", "available_cores", "conquer", "count_by_cubes", "enumerate_by_cubes",
    "local_pool", "refine", "regions", "solve_by_cubes", "solve_cube", "split",
]
