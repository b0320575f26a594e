"""``python -m chessdom.api``: the same as ``chessdom serve``."""

from chessdom.api.server import main

main()
