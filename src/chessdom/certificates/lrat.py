"""Contract version 6's refutations: a gzip-compressed binary LRAT proof, checked forward
in one pass by :mod:`.lrat_kernel` (compiled with numba), against the formula numbered as
the contract says — ``formula.cnf``'s clauses ``1 … m`` in file order, then the clauses the
checker adds for this proof (a cube's units, the cover's negated cubes, a region cube's
and its lemmas' clauses) in the order :mod:`.cubes` and :mod:`.added` build them.

**Why a replay that succeeds refutes the formula.** Each added clause ``C`` comes with
hints, ids of clauses present at that step; the kernel sets every literal of ``C`` false
and requires each hint but the last to be unit (its one open literal is then set) and the
last to be falsified. So the hinted clauses and ``¬C`` propagate to a conflict, and ``C``
is implied by them, hence by the formula (induction on the steps: deleting a clause only
removes one from what later hints may name). The last step derives the empty clause,
implied by the formula: the formula is unsatisfiable. Nothing is searched: the work is
the hints times the lengths of the clauses they name (Cruz-Filipe, Heule, Hunt, Kaufmann
& Schneider-Kamp, CADE 2017, define the format; lrat-trim and cake_lpr, a verified
checker, read the same files — ``docs/explanation/certificate-contract.md`` has the
commands).

**What is refused before the replay**: a stream that is not one gzip member, or inflates
past :data:`MAX_LRAT_BYTES`; a formula file that is not DIMACS as the contract writes it.
"""

from __future__ import annotations

import zlib

import numpy as np
from numba import njit

from chessdom.certificates import lrat_kernel as kernel
from chessdom.certificates.files import FileMismatch, read_listed

MAX_LRAT_BYTES = 256 * 2**20
"""One proof inflated: γ(Q_12) ≤ 5's single proof is 20 MB (6.4 MB stored)."""
REASONS = {
    kernel.TRUNCATED: "the proof ends inside a step",
    kernel.BAD_BYTE: "a step opens with byte {value}, neither 'a' nor 'd'",
    kernel.BAD_NUMBER: "a number is not a canonical varint below 2³²",
    kernel.ID_ORDER: "the added clause has id {value}, not the next id",
    kernel.BAD_LITERAL: "a literal names variable {value}, not one of the formula's",
    kernel.TAUTOLOGY: "the added clause holds a literal and its negation",
    kernel.RAT_HINT: "hint -{value} asks for a RAT step, which this checker refuses",
    kernel.HINT_UNKNOWN: "hint {value} names no earlier clause",
    kernel.HINT_DELETED: "hint {value} names a deleted clause",
    kernel.HINT_SATISFIED: "hint {value} is satisfied under the clause's negation",
    kernel.HINT_NOT_UNIT: "hint {value} is neither unit nor falsified under the clause's negation",
    kernel.AFTER_CONFLICT: "hint {value} follows the conflict",
    kernel.NO_CONFLICT: "the hints end without a conflict: the clause is not derived",
    kernel.DELETE_DEAD: "the deletion names {value}, not a live clause",
    kernel.EMPTY_DELETION: "a deletion names no clause",
    kernel.AFTER_EMPTY: "steps follow the empty clause",
    kernel.NO_EMPTY: "the proof ends without deriving the empty clause",
}


class LratUnreadable(ValueError):
    """A proof that is not one gzip stream of at most :data:`MAX_LRAT_BYTES`."""


def inflate(data: bytes) -> bytes:
    """The one gzip member ``data`` holds, at most :data:`MAX_LRAT_BYTES` inflated."""
    stream = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer, nothing else
    try:
        inflated = stream.decompress(data, MAX_LRAT_BYTES)
    except zlib.error as error:
        raise LratUnreadable(f"not a gzip stream ({error})") from None
    if stream.unconsumed_tail:
        raise LratUnreadable(f"inflates past the contract's {MAX_LRAT_BYTES} bytes")
    if not stream.eof:
        raise LratUnreadable("the gzip stream is cut short")
    if stream.unused_data:
        raise LratUnreadable("bytes follow the gzip stream")
    return inflated


@njit(cache=True)
def _integers(body):
    """The decimal integers of ``body`` (digits, '-', spaces and line feeds only), or an
    empty array with a −1 position for any other byte."""
    numbers = np.zeros(body.shape[0] // 2 + 1, np.int64)
    count, value, sign, inside = 0, 0, 1, False
    for at in range(body.shape[0]):
        byte = body[at]
        if 48 <= byte <= 57:
            value, inside = value * 10 + (byte - 48), True
        elif byte == 45 and not inside:
            sign = -1
        elif byte == 32 or byte == 10:
            if inside:
                numbers[count] = sign * value
                count += 1
            value, sign, inside = 0, 1, False
        else:
            return numbers[:0], at
    if inside:
        numbers[count] = sign * value
        count += 1
    return numbers[:count], -1


def dimacs(text: bytes) -> tuple[int, np.ndarray, np.ndarray]:
    """``(variables, literals, starts)`` of a DIMACS formula ``p cnf N M`` (as the contract
    writes it: the header, then clauses ended by 0), clause ``i`` (from 0) being
    ``literals[starts[i]:starts[i + 1]]``; raises ValueError for anything else."""
    header, _, body = text.partition(b"\n")
    fields = header.split()
    if len(fields) != 4 or fields[:2] != [b"p", b"cnf"] or not all(field.isdigit() for field in fields[2:]):
        raise ValueError("the formula does not open with 'p cnf N M'")
    variables, clauses = int(fields[2]), int(fields[3])
    numbers, bad = _integers(np.frombuffer(body, np.uint8))
    if bad >= 0:
        raise ValueError(f"the formula holds byte {body[bad]} after its header")
    ends = np.flatnonzero(numbers == 0)
    if len(ends) != clauses or (len(numbers) and numbers[-1] != 0):
        raise ValueError(f"the formula does not hold the {clauses} clauses its header says")
    literals = numbers[numbers != 0].astype(np.int32)
    if len(literals) and np.abs(literals).max() > variables:
        raise ValueError(f"the formula names a variable beyond its {variables}")
    starts = np.zeros(clauses + 1, np.int64)
    starts[1:] = ends + 1 - np.arange(1, clauses + 1)
    return variables, literals, starts


def tables(literals: np.ndarray, starts: np.ndarray, proof_bytes: int) -> tuple:
    """The kernel's clause tables, the original clauses in place and room for every clause
    a proof of ``proof_bytes`` can add (each at least 4 bytes, each literal at least 1)."""
    originals = len(starts) - 1
    room = originals + proof_bytes // 4 + 2
    pool = np.zeros(len(literals) + proof_bytes + 1, np.int32)
    pool[:len(literals)] = literals
    at = np.zeros(room + 1, np.int64)  # clause c (ids from 1) starts at at[c]
    at[1:originals + 2] = starts
    lengths = np.zeros(room, np.int32)
    lengths[1:originals + 1] = np.diff(starts)
    live = np.zeros(room, np.uint8)
    live[1:originals + 1] = 1
    return pool, at, lengths, live


def replay(formula: tuple[int, np.ndarray, np.ndarray], proof: bytes) -> str | None:
    """None when ``proof`` (inflated binary LRAT) refutes ``formula`` (:func:`dimacs`'s
    triple, extra clauses appended), else why not."""
    variables, literals, starts = formula
    if np.any(np.diff(starts) == 0):
        return None  # the formula holds the empty clause: refuted as it stands
    data = np.frombuffer(proof, np.uint8)
    result = kernel.check(data, tables(literals, starts, len(proof)), variables, len(starts) - 1)
    code, step, value, position = (int(item) for item in result)
    if code == kernel.OK:
        return None
    return f"step {step} (byte {position}): " + REASONS[code].format(value=value)


def with_clauses(formula: tuple[int, np.ndarray, np.ndarray], clauses) -> tuple[int, np.ndarray, np.ndarray]:
    """``formula`` with ``clauses`` (DIMACS lists) after its own, its variables grown to
    hold theirs."""
    variables, literals, starts = formula
    if not clauses:
        return formula
    added = np.fromiter((literal for clause in clauses for literal in clause), np.int32)
    sizes = np.fromiter((len(clause) for clause in clauses), np.int64, len(clauses))
    largest = int(np.abs(added).max()) if len(added) else 0
    return (max(variables, largest), np.concatenate((literals, added)),
            np.concatenate((starts, starts[-1] + np.cumsum(sizes))))


_parsed: dict[tuple[str, str], tuple] = {}  # per process: the formulas of the certificate being checked


def formula_of(refutation) -> tuple[int, np.ndarray, np.ndarray]:
    """The formula ``refutation`` (a :class:`~.refutation.Refutation`) refutes, numbered as
    the module says: its file's clauses, then its extra and added clauses; raises
    FileMismatch for a file changed since it was hashed, ValueError for one not DIMACS."""
    if refutation.formula:
        key = (refutation.formula, refutation.formula_sha256)
        if key not in _parsed:
            if len(_parsed) >= 2:  # a section's formula and fewer's, no more
                _parsed.pop(next(iter(_parsed)))
            _parsed[key] = dimacs(read_listed(refutation.formula, refutation.formula_bytes, refutation.formula_sha256))
        formula = _parsed[key]
    else:
        formula = (refutation.variables, np.zeros(0, np.int32), np.zeros(1, np.int64))
    formula = with_clauses(formula, refutation.extra)
    if refutation.added is not None:
        formula = with_clauses(formula, refutation.added.clauses(formula[0] if refutation.formula
                                                                 else refutation.variables))
    return formula


def check_lrat(refutation) -> str | None:
    """None when ``refutation``'s proof refutes :func:`formula_of` it; else why not,
    prefixed by the proof's name."""
    try:
        formula = formula_of(refutation)
        proof = inflate(read_listed(refutation.proof, refutation.proof_bytes, refutation.proof_sha256))
    except (FileMismatch, LratUnreadable, ValueError) as error:
        return f"the checker rejected {refutation.name}: {error}"
    reason = replay(formula, proof)
    return None if reason is None else f"the checker rejected {refutation.name}: {reason}"
