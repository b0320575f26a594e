"""``python -m chessdom.certificates DIR-or-URL``: check a certificate (the same check
as ``chessdom certificate check``)."""

import sys

from chessdom.certificates.command import main

sys.exit(main())
