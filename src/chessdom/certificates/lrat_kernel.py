"""The compiled forward check of a binary LRAT proof (:mod:`.lrat` reads the files and says
what a failure means). One pass over the proof's bytes; each step's work is its own bytes
plus the literals of the clauses its hints name, so the whole check costs the proof's
hints times the longest clause at most — linear in the proof for a given formula.

**Binary LRAT** (as CaDiCaL and lrat-trim write it): every number is an unsigned LEB128
varint of ``2·|x| + (x < 0)``. An addition is the byte ``a``, its clause id, its literals,
``0``, its hints, ``0``; a deletion is the byte ``d``, the ids it deletes, ``0``.

What is checked, and refused, here (the codes are :data:`~.lrat.REASONS`'): the id of
each addition is exactly one past the last clause (the formula's clauses are ``1 … m``);
a literal names a variable of the formula (a refutation by unit propagation needs no
other); no lemma is a tautology; a hint is a positive id (a negative hint is a RAT step,
refused: CaDiCaL's proofs have none) of an earlier clause not yet deleted; under the
lemma's negation every hint but the last is a unit clause, whose literal is then set,
and the last is falsified — a unit-propagation derivation ending in conflict, so the
lemma is implied by the clauses its hints name; a deletion names live clauses only; the
proof ends at the empty clause and not before its last byte.
"""

from __future__ import annotations

import numpy as np
from numba import njit

(OK, TRUNCATED, BAD_BYTE, BAD_NUMBER, ID_ORDER, BAD_LITERAL, TAUTOLOGY, RAT_HINT, HINT_UNKNOWN, HINT_DELETED,
 HINT_SATISFIED, HINT_NOT_UNIT, AFTER_CONFLICT, NO_CONFLICT, DELETE_DEAD, EMPTY_DELETION, AFTER_EMPTY,
 NO_EMPTY) = range(18)
CODE, STEP, VALUE, POSITION = range(4)
LARGEST = (1 << 32) - 1
"""A varint past this (``2·id`` of an id beyond 2³¹ − 1) is refused."""


@njit(cache=True)
def _number(proof, at):
    """The varint at ``at`` and the position after it; position −1: truncated, −2: not
    canonical (a last byte of 0 after a continued one) or past :data:`LARGEST`."""
    value, shift = 0, 0
    while at < proof.shape[0]:
        byte = int(proof[at])
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            if (byte == 0 and shift > 0) or value > LARGEST:
                return 0, -2
            return value, at
        shift += 7
        if shift > 28:
            return 0, -2
    return 0, -1


@njit(cache=True)
def _hint(lits, starts, lengths, values, clause):
    """The clause under the current values, ``(free, literal)``: ``free`` −1 when it is
    satisfied, else how many of its literals are unassigned (0: falsified; 1: unit, that
    literal; 2: two or more)."""
    unit, free = 0, 0
    for k in range(starts[clause], starts[clause] + lengths[clause]):
        literal = lits[k]
        value = values[abs(literal)] * (1 if literal > 0 else -1)
        if value > 0:
            return -1, 0
        if value == 0:
            free += 1
            unit = literal
            if free > 1:
                return 2, 0
    return free, unit


@njit(cache=True)
def _read(proof, at, result):
    """:func:`_number`, with ``result`` saying why where there is none (``at`` < 0)."""
    number, at = _number(proof, at)
    if at < 0:
        result[CODE] = TRUNCATED if at == -1 else BAD_NUMBER
    return number, at


@njit(cache=True)
def _chain(proof, at, lits, starts, lengths, live, values, trail, result, clause):
    """The hints of clause ``clause`` after its literals (already set false, ``trail[0]``
    of them): the position after them, or −1 with ``result`` set."""
    conflict = False
    while True:
        hint, at = _read(proof, at, result)
        if at < 0:
            return -1
        if hint == 0:
            if not conflict:
                result[CODE] = NO_CONFLICT
                return -1
            return at
        result[VALUE] = hint >> 1
        if hint & 1:
            result[CODE] = RAT_HINT
            return -1
        if conflict:
            result[CODE] = AFTER_CONFLICT
            return -1
        other = hint >> 1
        if other >= clause:
            result[CODE] = HINT_UNKNOWN
            return -1
        if not live[other]:
            result[CODE] = HINT_DELETED
            return -1
        free, unit = _hint(lits, starts, lengths, values, other)
        if free == -1 or free == 2:
            result[CODE] = HINT_SATISFIED if free == -1 else HINT_NOT_UNIT
            return -1
        if free == 0:
            conflict = True
        else:
            values[abs(unit)] = 1 if unit > 0 else -1
            trail[0] += 1
            trail[trail[0]] = abs(unit)


@njit(cache=True)
def _addition(proof, at, tables, values, trail, result, variables, clause):
    """Addition ``clause`` from ``at`` (after its ``a``): the position after it, or −1."""
    lits, starts, lengths, live = tables
    identity, at = _read(proof, at, result)
    if at < 0:
        return -1
    result[VALUE] = identity >> 1
    if identity & 1 or identity >> 1 != clause:
        result[CODE] = ID_ORDER
        return -1
    trail[0] = 0
    size = 0
    while True:
        number, at = _read(proof, at, result)
        if at < 0:
            break
        if number == 0:
            at = _chain(proof, at, lits, starts, lengths, live, values, trail, result, clause)
            break
        variable = number >> 1
        result[VALUE] = variable
        if variable == 0 or variable > variables:
            result[CODE] = BAD_LITERAL
            at = -1
            break
        literal = -variable if number & 1 else variable
        if values[variable] == (1 if literal > 0 else -1):  # its negation was set false
            result[CODE] = TAUTOLOGY
            at = -1
            break
        if values[variable] == 0:
            values[variable] = -1 if literal > 0 else 1
            trail[0] += 1
            trail[trail[0]] = variable
        lits[starts[clause] + size] = literal
        size += 1
    for k in range(1, trail[0] + 1):  # the values are set back before anything else is read
        values[trail[k]] = 0
    if at >= 0:
        lengths[clause] = size
        live[clause] = 1
        starts[clause + 1] = starts[clause] + size
    return at


@njit(cache=True)
def _deletion(proof, at, live, clause, result):
    """One deletion from ``at`` (after its ``d``): the position after it, or −1."""
    count = 0
    while True:
        number, at = _read(proof, at, result)
        if at < 0:
            return -1
        if number == 0:
            if count == 0:
                result[CODE] = EMPTY_DELETION
                return -1
            return at
        result[VALUE] = number >> 1
        other = number >> 1
        if number & 1 or other == 0 or other >= clause or not live[other]:
            result[CODE] = DELETE_DEAD
            return -1
        live[other] = 0
        count += 1


@njit(cache=True)
def check(proof, tables, variables, originals):
    """The check of ``proof`` against the ``originals`` clauses in ``tables`` (literal
    pool, starts, lengths, live flags; sized by :func:`~.lrat.tables` for this proof):
    ``[code, step, value, position]``, code :data:`OK` when the empty clause is derived
    at the proof's last byte, :data:`NO_EMPTY` when the proof ends without it."""
    result = np.zeros(4, np.int64)
    values = np.zeros(variables + 1, np.int8)
    trail = np.zeros(variables + 2, np.int64)
    clause, at, step = originals + 1, 0, 0
    while at < proof.shape[0]:
        step += 1
        result[STEP], result[POSITION] = step, at
        kind = proof[at]
        if kind == 97:  # "a"
            at = _addition(proof, at + 1, tables, values, trail, result, variables, clause)
            if at < 0:
                return result
            clause += 1
            if tables[2][clause - 1] == 0:
                result[CODE] = OK if at == proof.shape[0] else AFTER_EMPTY
                return result
        elif kind == 100:  # "d"
            at = _deletion(proof, at + 1, tables[3], clause, result)
            if at < 0:
                return result
        else:
            result[CODE], result[VALUE] = BAD_BYTE, kind
            return result
    result[CODE] = NO_EMPTY
    return result
