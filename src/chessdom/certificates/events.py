"""The checker as a generator of events, for a process that checks one certificate after
another: the service's and the command line's certificate makers run it in a warm child
(``chessdom.processes.killable``), which pays for starting Python and loading numba once
instead of per certificate (measured by the service's helper, load 7–8 on 2 cores: 1.75 s
of wall time to check a 17-node tree in a fresh process, of which importing numba 0.43 s
and this package 0.27 s). The child imports this package alone: it is a checker process,
sharing no code with the solver that made the certificate."""

from __future__ import annotations

from collections.abc import Iterator

from chessdom.certificates.check import CheckerUnavailable, check_certificate
from chessdom.certificates.files import Unreadable


def verdict_events(directory: str) -> Iterator[tuple]:
    """One event: ``("verdict", Verdict.to_dict())``, or ``("unreadable", why)`` for a
    certificate outside the contract's shape and limits, ``("unavailable", why)`` when the
    checker's engine is missing."""
    try:
        verdict = check_certificate(directory)
    except Unreadable as error:
        yield ("unreadable", str(error))
        return
    except CheckerUnavailable as error:
        yield ("unavailable", str(error))
        return
    yield ("verdict", verdict.to_dict())
