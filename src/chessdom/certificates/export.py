"""``--write-cnf DIR``: each refutation of a certificate written out for the field's checkers
— the formula it refutes, numbered as the checker numbers it (the formula file's clauses,
then the clauses the checker adds for that proof: a cube's units, the cover's negated
cubes, a region cube's and its lemmas' clauses), as ``NAME.cnf``, and its proof as
``NAME.lrat`` (version 6, inflated binary LRAT: ``lrat-trim NAME.cnf NAME.lrat``,
``cake_lpr NAME.cnf NAME.lrat``) or ``NAME.drat`` (``drat-trim NAME.cnf NAME.drat``)."""

from __future__ import annotations

from pathlib import Path

from chessdom.certificates.contract import LRAT_SUFFIX
from chessdom.certificates.files import read_listed
from chessdom.certificates.lrat import formula_of, inflate


def write_refutation(refutation, directory: Path) -> str:
    """Write ``refutation``'s (a :class:`~.refutation.Refutation`) formula and proof into
    ``directory``; the name they share."""
    variables, literals, starts = formula_of(refutation)
    stem = Path(refutation.proof).name.removesuffix(LRAT_SUFFIX).removesuffix(".drat")
    with (directory / f"{stem}.cnf").open("w", encoding="ascii") as file:
        file.write(f"p cnf {variables} {len(starts) - 1}\n")
        for start, end in zip(starts[:-1].tolist(), starts[1:].tolist()):
            file.write(" ".join(map(str, literals[start:end].tolist())) + " 0\n")
    proof = read_listed(refutation.proof, refutation.proof_bytes, refutation.proof_sha256)
    if refutation.lrat:
        (directory / f"{stem}.lrat").write_bytes(inflate(proof))
    else:
        (directory / f"{stem}.drat").write_bytes(proof)
    return stem
