"""A cube bundle (contract version 2): a refutation split into cubes. ``cubes.txt`` holds
one cube a line, literals over the variables of ``formula.cnf`` ended by ``0``; proof
``N`` refutes ``formula.cnf`` plus cube ``N``'s literals as unit clauses, and the cover
proof refutes ``formula.cnf`` plus, for each cube, the clause of its negated literals (so
every assignment satisfying the formula satisfies some cube). Together they refute the
formula (Heule, Kullmann, Wieringa & Biere, HVC 2011)."""

from __future__ import annotations

from pathlib import Path

from chessdom.certificates.refutation import Refutation

MAX_CUBES = 100_000


class CubeError(ValueError):
    """A malformed cube file, or proofs that do not match its cubes."""


def read_cubes(path: Path, variables: int) -> list[tuple[int, ...]]:
    """The cubes of ``cubes.txt``; raises CubeError for anything else."""
    cubes = []
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), start=1):
        try:
            literals = [int(token) for token in line.split()]
        except ValueError:
            raise CubeError(f"cubes.txt line {number} is not a list of integers") from None
        if not literals or literals[-1] != 0 or 0 in literals[:-1]:
            raise CubeError(f"cubes.txt line {number} must be literals ended by a single 0")
        if any(abs(literal) > variables for literal in literals[:-1]):
            raise CubeError(f"cubes.txt line {number} names a variable beyond the formula's {variables}")
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


def bundle_refutations(formula: tuple[str, str], files: dict) -> list[tuple[str, Refutation]]:
    """Every refutation a cube bundle needs, with the step it belongs to: one per cube
    (``files`` maps ``cube proof N`` to its path and manifest entry) and the cover."""
    cubes = read_cubes(files["cubes"][0], formula_variables(Path(formula[0])))
    proofs = sorted((label for label in files if label.startswith("cube proof ")), key=lambda s: int(s.split()[-1]))
    if len(proofs) != len(cubes):
        raise CubeError(f"cubes.txt holds {len(cubes)} cubes; the manifest lists {len(proofs)} cube proofs")
    checks = []
    for cube, label in zip(cubes, proofs):
        path, entry = files[label]
        units = tuple((literal,) for literal in cube)
        checks.append(("cube refutations", Refutation(path.name, *formula, str(path), entry["sha256"], units)))
    cover_path, cover_entry = files["cover"]
    negated = tuple(tuple(-literal for literal in cube) for cube in cubes)
    checks.append(("cover refutation", Refutation(cover_path.name, *formula, str(cover_path),
                                                  cover_entry["sha256"], negated)))
    return checks
