"""chessdom: provably optimal chessboard domination and independence, knight's tours,
shortest knight paths and N-Queens, as a library, a command and a JSON service.

>>> from chessdom import solve_placement
>>> print(solve_placement("queen", 8))  # doctest: +SKIP
"""

__all__ = ["__version__", "solve_nqueens", "solve_placement"]


def __getattr__(name: str):
    # Lazy, so that importing chessdom.chessboard does not load the solvers (nor read the
    # installed metadata: every solver child imports this package first).
    if name == "__version__":
        from importlib.metadata import version

        return version("chessdom")
    if name in __all__:
        from chessdom import library

        return getattr(library, name)
    raise AttributeError(f"module 'chessdom' has no attribute {name!r}")
