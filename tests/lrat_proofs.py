"""LRAT proofs written by hand for the tests: text steps (``"5 2 0 1 2 0"``, ``"d 2 0"``)
encoded as binary LRAT the way CaDiCaL writes it, written independently of the maker's
and the checker's own code."""

from __future__ import annotations

from chessdom.certificates.lrat import dimacs, replay


def varint(number: int) -> bytes:
    """``2·|number| + (number < 0)`` as an unsigned LEB128 varint."""
    value = 2 * abs(number) + (number < 0)
    out = bytearray()
    while value >= 128:
        out.append(value & 127 | 128)
        value >>= 7
    out.append(value)
    return bytes(out)


def binary(steps: list[str]) -> bytes:
    """Text LRAT steps as binary LRAT (a deletion's text opens with ``d``, no id)."""
    out = bytearray()
    for step in steps:
        tokens = step.split()
        if tokens[0] == "d":
            out += b"d" + b"".join(varint(int(token)) for token in tokens[1:])
        else:
            out += b"a" + b"".join(varint(int(token)) for token in tokens)
    return bytes(out)


def cnf(variables: int, clauses: list[list[int]]) -> bytes:
    return (f"p cnf {variables} {len(clauses)}\n"
            + "".join(" ".join(map(str, (*clause, 0))) + "\n" for clause in clauses)).encode()


def verdict(formula: bytes, proof: bytes) -> str | None:
    """The checker's replay: None when ``proof`` refutes ``formula``, else why not."""
    return replay(dimacs(formula), proof)
