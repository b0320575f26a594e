"""A cube bundle (contract version 2): a refutation split into cubes. ``cubes.txt`` holds
one cube a line, literals over the variables of ``formula.cnf`` ended by ``0``; proof
``N`` refutes ``formula.cnf`` plus cube ``N``'s literals as unit clauses, and the cover
proof refutes ``formula.cnf`` plus, for each cube, the clause of its negated literals (so
every assignment satisfying the formula satisfies some cube). Together they refute the
formula (Heule, Kullmann, Wieringa & Biere, HVC 2011)."""

from __future__ import annotations

import re
from pathlib import Path

from chessdom.certificates.contract import MAX_CUBES
from chessdom.certificates.files import read_listed
from chessdom.certificates.refutation import Refutation, refutation


_CUBE = re.compile(r"(?:-?[1-9][0-9]{0,9} )*0")


class CubeError(ValueError):
    """A malformed cube file, or proofs that do not match its cubes."""


def read_cubes(text: bytes, variables: int) -> list[tuple[int, ...]]:
    """The cubes of ``cubes.txt``; raises CubeError for anything else."""
    cubes = []
    try:
        lines = text.decode("ascii").split("\n")
    except UnicodeDecodeError:
        raise CubeError("cubes.txt is not ASCII text") from None
    if lines[-1] == "":  # the last line's own line feed
        lines.pop()
    longest = len(f"-{variables} ") * variables + 1  # every variable once, each at its widest, and the 0
    for number, line in enumerate(lines, start=1):
        if len(line) > longest:
            raise CubeError(f"cubes.txt line {number} is longer than any cube of the formula's {variables} variables")
        if not _CUBE.fullmatch(line):  # not int() over str.split(): "+2", "1_0", "\v" are no literals
            raise CubeError(f"cubes.txt line {number} is not literals (decimal, no sign but '-') separated by "
                            f"single spaces and ended by 0")
        literals = [int(token) for token in line.split(" ")]
        if not literals or literals[-1] != 0 or 0 in literals[:-1]:
            raise CubeError(f"cubes.txt line {number} must be literals ended by a single 0")
        if any(abs(literal) > variables for literal in literals[:-1]):
            raise CubeError(f"cubes.txt line {number} names a variable beyond the formula's {variables}")
        if len({abs(literal) for literal in literals[:-1]}) != len(literals) - 1:
            raise CubeError(f"cubes.txt line {number} names a variable twice")
        cubes.append(tuple(literals[:-1]))
        if len(cubes) > MAX_CUBES:
            raise CubeError(f"more than {MAX_CUBES} cubes")
    if not cubes:
        raise CubeError("cubes.txt holds no cube")
    return cubes


def formula_variables(path: Path) -> int:
    """``N`` of the formula's ``p cnf N M`` header (the formula was compared byte for byte
    with the rebuilt one before this is read)."""
    with path.open("rb") as file:
        return int(file.readline().split()[2])


def bundle_refutations(paths: dict, files: dict) -> list[tuple[str, Refutation]]:
    """Every refutation a cube bundle needs, with the step it belongs to: the cover, then
    one per cube (``files`` maps ``cube proof N`` to its manifest entry, ``paths`` to its
    path). Raises CubeError, or FileMismatch for a cube file changed since it was hashed."""
    listed = files["cubes"]
    cubes = read_cubes(read_listed(paths["cubes"], listed.bytes, listed.sha256), formula_variables(paths["formula"]))
    proofs = [label for label in files if label.startswith("cube proof ")]
    if len(proofs) != len(cubes):
        raise CubeError(f"cubes.txt holds {len(cubes)} cubes; the manifest lists {len(proofs)} cube proofs")
    negated = tuple(tuple(-literal for literal in cube) for cube in cubes)
    # The cover first: it is one proof, and without it the cubes prove nothing (a bundle of
    # 50 cubes over 32×32's formula whose cover was false cost 50 checks to say so).
    checks = [("cover refutation", refutation("cover", paths, files, negated))]
    return checks + [("cube refutations", refutation(label, paths, files, tuple((literal,) for literal in cube)))
                     for cube, label in zip(cubes, proofs)]
