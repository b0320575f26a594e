"""CaDiCaL's binary LRAT, renumbered as the contract numbers clauses and stored gzip-compressed
(contract version 6, docs/explanation/certificate-contract.md).

**Why renumber.** CaDiCaL gives every clause an id as it meets it, original or derived, one
counter for both: an original clause is numbered when it is added, but clauses it derives
*while* clauses are added take ids in between — a unit clause propagates at once, and a
later clause whose literals it falsifies is shortened by derived units first (measured,
CaDiCaL 1.9.5: ``[1 2 3], [-1 -2], [-1 -3], [-2 -3], [1], [2 3]`` numbers ``[2 3]`` 8, not
6); a clause with a repeated literal is added and then derived again without it. The
proof names every derived clause as it adds it, so the ids it never adds are the original
clauses', in order: the ``k``-th of them is the formula's clause ``k``. Renumbered so —
the formula's clauses ``1 … m``, the derived ones ``m + 1, m + 2, …`` in the order the
proof adds them, steps after the empty clause dropped — the proof is plain LRAT of the
formula as the contract writes it, which lrat-trim and cake_lpr read as it is. (Checked
on 1,000 random small formulas with units, repeated literals and tautologies:
lrat-trim and cake_lpr accepted every renumbered proof.)

Binary LRAT: every number an unsigned LEB128 varint of ``2·|x| + (x < 0)``; ``a id lits 0
hints 0`` adds, ``d ids 0`` deletes.
"""

from __future__ import annotations

import gzip

import numpy as np
from numba import njit

COMPRESS_LEVEL = 6
"""gzip's level: measured on γ(Q_12) ≤ 5's 20.2 MB proof, level 1 gives 7.7 MB in 0.3 s,
level 6 6.4 MB in 0.75 s (xz's fastest 6.5 MB in 1.1 s)."""


class NotRenumbered(ValueError):
    """A proof this module cannot renumber (it names more original clauses than given)."""


@njit(cache=True)
def _number(data, at):
    value, shift = 0, 0
    while True:
        byte = int(data[at])
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            return value, at
        shift += 7


@njit(cache=True)
def _put(out, at, value):
    while value >= 128:
        out[at] = (value & 127) | 128
        value >>= 7
        at += 1
    out[at] = value
    return at + 1


@njit(cache=True)
def _ids(data):
    """The ids the proof adds, in order, its largest id named anywhere, and where it ends
    (after the empty clause)."""
    added = np.zeros(data.shape[0] // 4 + 1, np.int64)
    count, largest, at = 0, 0, 0
    while at < data.shape[0]:
        kind = data[at]
        at += 1
        if kind == 97:  # "a"
            identity, at = _number(data, at)
            added[count] = identity >> 1
            count += 1
            largest = max(largest, identity >> 1)
            empty = True
            while True:
                number, at = _number(data, at)
                if number == 0:
                    break
                empty = False
            while True:
                number, at = _number(data, at)
                if number == 0:
                    break
                largest = max(largest, number >> 1)
            if empty:
                return added[:count], largest, at
        else:  # "d"
            while True:
                number, at = _number(data, at)
                if number == 0:
                    break
                largest = max(largest, number >> 1)
    return added[:count], largest, at


@njit(cache=True)
def _rewrite(data, end, renamed):
    """The steps up to ``end`` with every id through ``renamed``."""
    out = np.zeros(2 * end + 16, np.uint8)
    at, put = 0, 0
    while at < end:
        kind = data[at]
        out[put] = kind
        at, put = at + 1, put + 1
        if kind == 97:
            identity, at = _number(data, at)
            put = _put(out, put, 2 * renamed[identity >> 1])
            while True:  # the literals, as they are
                number, at = _number(data, at)
                put = _put(out, put, number)
                if number == 0:
                    break
        while True:  # the hints of an addition, the ids of a deletion
            number, at = _number(data, at)
            put = _put(out, put, 2 * renamed[number >> 1] + (number & 1))
            if number == 0:
                break
    return out[:put]


def renumber(raw: bytes, originals: int) -> bytes:
    """``raw`` (CaDiCaL's binary LRAT of ``originals`` clauses) numbered as the module says."""
    data = np.frombuffer(raw, np.uint8)
    added, largest, end = _ids(data)
    renamed = np.zeros(largest + 1, np.int64)
    derived = np.zeros(largest + 1, np.bool_)
    derived[added] = True
    unnamed = np.flatnonzero(~derived[1:]) + 1  # the original clauses' ids, in order
    if len(unnamed) > originals:
        raise NotRenumbered(f"the proof names {len(unnamed)} clauses it does not add, of {originals} given")
    renamed[unnamed] = np.arange(1, len(unnamed) + 1)
    renamed[added] = originals + np.arange(1, len(added) + 1)
    return _rewrite(data, end, renamed).tobytes()


def store(raw: bytes, originals: int) -> bytes:
    """What the certificate holds: ``raw`` renumbered, gzip-compressed (no name, no time in
    the header, so the same proof gives the same bytes)."""
    return gzip.compress(renumber(raw, originals), compresslevel=COMPRESS_LEVEL, mtime=0)
