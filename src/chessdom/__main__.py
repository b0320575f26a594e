"""``python -m chessdom``: the same command as the ``chessdom`` console script."""

import sys

from chessdom.cli import main

sys.exit(main())
