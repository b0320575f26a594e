"""Comparisons of models against searches, sweeps, benchmarks and figures."""

if __name__ != "chessdom.scripts":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.scripts")
