"""The chessdom JSON service (Flask). Build it with :func:`create_app`."""

from api.app import create_app

__all__ = ["create_app"]
