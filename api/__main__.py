"""``python -m chessdom.api``: the same as ``chessdom serve``."""

from chessdom.api.serving.server import main

main()
