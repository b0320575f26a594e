"""Text DRAT read as strictly as the field defines it, and read once: what this accepts,
drat-trim (Heule & Wetzler) accepts too, and dratify is handed steps, never text.

**The grammar.** A proof is a sequence of clauses, each its literals and then ``0``,
a deletion opened by the token ``d``. Tokens are separated by ASCII spaces, line feeds and
carriage returns, nothing else (drat-trim turns on binary parsing when it meets a tab
among the first bytes; Python's ``int`` and ``str.split`` take ``+2``, ``1_0``, vertical
tabs and Unicode separators). A literal is a decimal integer without sign but ``-`` and
without leading zeros, ``1 ≤ |literal| ≤ 2³¹ − 1`` (drat-trim reads an ``int``). No
comments, no empty deletion (``d 0``), and the last clause is ended by its ``0``.

**Why read here, not by dratify.** dratify's reader is Python's ``int`` over
``str.split``, and its native engine sizes its arrays by the largest variable named: one
literal naming variable 16,000,000 in a 16 MiB proof cost 1.7 GB, and in 63 MiB an abort
(``memory allocation of 5637144576 bytes failed``); drat-trim crashes on a proof naming
variable 2³¹ − 1. So a variable above ``variables + bytes / 2`` (``variables``: the
formula's and its added clauses'; a proof of ``bytes`` bytes cannot name more fresh
variables than that) is refused, and the variables above ``variables``, *fresh*, are
renumbered ``variables + 1, + 2, …`` in the order they first appear. Renaming variables
the formula does not name changes no step's RUP or RAT check (both are read off clauses,
whatever their variables are called), so the verdict is the proof's own, and no variable
dratify sizes by exceeds ``variables`` plus the proof's distinct fresh variables.
"""

from __future__ import annotations

import re

LARGEST_LITERAL = 2**31 - 1
"""drat-trim reads each literal into a C ``int``."""
_ALPHABET = b"0123456789-d \n\r"
_MALFORMED = re.compile(
    rb"d[^ \n\r]|[^ \n\r]d"  # d is a token of its own
    rb"|-(?![1-9])|[^ \n\r]-"  # a minus starts a token and is followed by a non-zero digit
    rb"|(?:^|[ \n\r-])0[0-9]"  # no leading zero
    rb"|[0-9]{11}")  # no more digits than an int has
_TEN_DIGITS = re.compile(rb"[0-9]{10}")


class ProofSyntax(ValueError):
    """Bytes that are not text DRAT as this module defines it; the message says where."""


def _validate(data: bytes) -> None:
    stray = data.translate(None, _ALPHABET)
    if stray:
        at = data.index(stray[:1])
        raise ProofSyntax(f"byte {at}: {stray[:1]!r} is not in text DRAT (digits, '-', 'd', spaces and line ends)")
    if (bad := _MALFORMED.search(data)) is not None:
        raise ProofSyntax(f"byte {bad.start()}: {data[bad.start():bad.start() + 12]!r} is not a literal, '0' or 'd'")
    for match in _TEN_DIGITS.finditer(data):
        if int(match[0]) > LARGEST_LITERAL:
            raise ProofSyntax(f"byte {match.start()}: {match[0].decode()} is beyond a literal's 2³¹ − 1")


def _tokens(data: bytes, chunk: int = 1 << 20):
    """``data.split()``, a chunk at a time (cut at a space or line feed): the whole proof's
    tokens at once took 760 MB for 63 MiB before the first was read."""
    start = 0
    while start < len(data):
        at = min(start + chunk, len(data) - 1)
        cuts = [cut for cut in (data.find(b"\n", at), data.find(b" ", at)) if cut >= 0]
        end = min(cuts) + 1 if cuts else len(data)
        yield from data[start:end].split()
        start = end


def read_proof(data: bytes, variables: int) -> list[tuple[str, tuple[int, ...]]]:
    """The steps of ``data`` as dratify's internal literals (``2·(v − 1) + negated``),
    fresh variables (above ``variables``) renumbered as the module says; raises
    ProofSyntax."""
    _validate(data)
    largest = variables + len(data) // 2
    steps: list[tuple[str, tuple[int, ...]]] = []
    fresh: dict[int, int] = {}
    kind, literals = "a", []
    for token in _tokens(data):
        if token == b"d":
            if literals or kind == "d":
                raise ProofSyntax(f"clause {len(steps) + 1}: 'd' inside a clause (it can only open one)")
            kind = "d"
            continue
        number = int(token)
        if number == 0:
            if kind == "d" and not literals:
                raise ProofSyntax(f"clause {len(steps) + 1}: a deletion of no literal")
            steps.append((kind, tuple(literals)))
            kind, literals = "a", []
            continue
        variable = abs(number)
        if variable > variables:
            if variable > largest:
                raise ProofSyntax(f"clause {len(steps) + 1} names variable {variable}: a proof of {len(data)} bytes "
                                  f"of a formula of {variables} variables names none above {largest}")
            variable = fresh.setdefault(variable, variables + len(fresh) + 1)
        literals.append(2 * (variable - 1) + (number < 0))
    if literals or kind == "d":
        raise ProofSyntax(f"clause {len(steps) + 1} is not ended by 0")
    return steps
