"""The chessdom JSON service (Flask). Build it with :func:`create_app`."""

if __name__ != "chessdom.api":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.api")

from chessdom.api.http.app import create_app

__all__ = ["create_app"]
