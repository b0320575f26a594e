"""One DRAT check: a proof refuting ``formula.cnf`` (or version 3's ``fewer.cnf``) plus a
few clauses of the certificate's own (a cube's literals as unit clauses, the cover's
negated cubes, or a region cube's cardinality clauses, whose auxiliary variables lie above
the formula's header: dratify's formula grows to hold them) — or, for version 3's lemmas,
those clauses alone — checked by dratify.
It reads both files itself and checks their SHA-256 as it does, so it can run in any
executor's worker (a local pool, or a Dask worker that sees the certificate's directory).

**Why two passes, and why each is sound.** dratify 0.1.10 applies the deletion of a clause
that is the reason of a root-level assignment and keeps the assignment; a later RAT step
is then checked against a formula its root assignment no longer follows from, and a
four-step forgery (``x 0``, ``y -x 0``, ``d y -x 0``, ``-y 0``, ``0``, with ``x``, ``y``
fresh) "refutes" a satisfiable formula. So dratify is only asked what it answers soundly:

1. **RUP only, deletions applied** (``check_rat=False``). Every lemma is then implied by
   the clauses present plus the root assignment, and every root literal was implied by
   clauses present when it was assigned, all implied by the formula: by induction the empty
   clause is implied by the formula. A stale assignment can only make a step easier to
   check, never a false one true.
2. Only when pass 1 meets a step that is not RUP: **RUP and RAT, deletions ignored**
   (``apply_deletions=False``). Without deletions the clause set only grows and the root
   assignment is exactly its unit propagation; each RAT step keeps that set satisfiable if
   it was (Järvisalo, Heule & Biere 2012), so a satisfiable formula is never refuted.

Either pass accepting is enough. Measured (native engine, 2 cores, medians of 3):
CaDiCaL's proofs have no RAT step, so pass 1 is all they cost — γ(Q_12) ≤ 5's 14 MB proof
4.8 s, where checking without deletions takes 16.8 s (drat-trim's backward check 1.9 s);
``scripts/bench_certificates --checker`` has the table. The tests that make this checker
trusted are a corpus of forgeries (``tests/test_certificates_forgeries.py``) and
differential property tests against drat-trim (``tests/test_certificates_differential.py``).

dratify was chosen over ``drup`` (a verified checker) by measurement: drup took 93 s on a
2,641-step proof that dratify's native engine checks in 0.02 s. dratify reads the whole
proof into memory (about 11–21× the file's size at peak), which is why the contract bounds
the size of each proof (:data:`~.contract.MAX_PROOF_BYTES`) and cube bundles keep each small.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chessdom.certificates.added import Added
from chessdom.certificates.drat import ProofSyntax, read_proof
from chessdom.certificates.files import FileMismatch, Unreadable, read_listed

POLICY = "rup-with-deletions, else drat-without-deletions"
"""What :func:`check_refutation` asks dratify, in the words the verdict records."""
REVISION = 2
"""The checker's soundness revision: certificates accepted under an earlier one (dratify's
own deletion semantics, revision 1) are checked again before they are served."""


@dataclass(frozen=True)
class Refutation:
    """What to check: ``proof`` refutes ``formula`` with ``extra`` clauses (DIMACS lists)
    and then ``added``'s (built here, in the process that checks) added; both files must
    have the size and SHA-256 the manifest lists. With no ``formula`` (``""``: version 3's
    lemmas), the added clauses are the whole formula, numbered on from ``variables``."""

    name: str
    formula: str
    formula_sha256: str
    proof: str
    proof_sha256: str
    extra: tuple[tuple[int, ...], ...] = field(default=())
    formula_bytes: int = 0
    proof_bytes: int = 0
    added: Added | None = None
    variables: int = 0
    lrat: bool = False
    """Version 6: the proof is gzip-compressed binary LRAT (:mod:`.lrat`), not text DRAT."""


def refutation(label: str, paths: dict, files: dict, extra: tuple[tuple[int, ...], ...] = (),
               formula_label: str | None = "formula", added: Added | None = None, variables: int = 0) -> Refutation:
    """The refutation of the formula listed as ``formula_label`` (None: of the added
    clauses alone, numbered on from ``variables``) by the file the manifest lists as
    ``label`` (``paths`` and ``files`` map labels to paths and to
    :class:`~.manifest.Listed` entries)."""
    proof = files[label]
    if formula_label is None:
        return Refutation(proof.file, "", "", str(paths[label]), proof.sha256, extra, 0, proof.bytes, added,
                          variables)
    formula = files[formula_label]
    return Refutation(proof.file, str(paths[formula_label]), formula.sha256, str(paths[label]), proof.sha256, extra,
                      formula.bytes, proof.bytes, added)


_parsed: dict[tuple[str, str], object] = {}  # per process: the formulas of the certificate being checked


def _formula(refutation: Refutation):
    """A fresh dratify formula: the formula file's clauses, parsed once per process (a
    bundle of 50 cubes over a 10.5 MB formula parsed it 50 times, 15 s each), and the
    added clauses; or for a formula of added clauses alone, ``variables`` and those."""
    import dratify

    if not refutation.formula:
        formula = dratify.CNF(refutation.variables)
    else:
        key = (refutation.formula, refutation.formula_sha256)
        if key not in _parsed:
            text = read_listed(refutation.formula, refutation.formula_bytes, refutation.formula_sha256)
            if len(_parsed) >= 2:  # a section's formula and fewer's, no more
                _parsed.pop(next(iter(_parsed)))
            _parsed[key] = dratify.parse_dimacs(text.decode("ascii"))
        shared = _parsed[key]
        formula = dratify.CNF(shared.nvars)
        formula.clauses = list(shared.clauses)  # the clauses are tuples: the list is all that is copied
    variables = formula.nvars
    for clause in refutation.extra:
        formula.add_dimacs(clause)
    if refutation.added is not None:
        for clause in refutation.added.clauses(variables if refutation.formula else refutation.variables):
            formula.add_dimacs(clause)
    return formula


def _engine(engine: str) -> None:
    if engine == "native":
        try:
            import cdclkit.native  # noqa: F401 - importing it registers the Rust engine with dratify
        except ImportError:
            pass


def check_refutation(refutation: Refutation, engine: str = "native") -> str | None:
    """None when the proof refutes the formula (pass 1 or pass 2 above), else why not,
    prefixed by the proof's name. Raises Unreadable for a proof that is not text DRAT as
    :mod:`.drat` reads it (or a file that is not a regular one). An LRAT proof is checked
    by :mod:`.lrat`, whatever ``engine`` says."""
    if refutation.lrat:
        from chessdom.certificates.lrat import check_lrat  # numba loads only where LRAT is checked

        return check_lrat(refutation)
    _engine(engine)
    try:
        formula = _formula(refutation)
        proof = read_listed(refutation.proof, refutation.proof_bytes, refutation.proof_sha256)
    except FileMismatch as error:
        return f"the checker rejected {refutation.name}: {error}"
    try:
        steps = read_proof(proof, formula.nvars)
    except ProofSyntax as error:
        raise Unreadable(f"{refutation.name} is not a text DRAT proof: {error}") from None
    del proof
    first = _dratify(formula, steps, engine, check_rat=False, apply_deletions=True)
    if not isinstance(first, str) and first.ok:
        return None
    if isinstance(first, str) or first.reached_empty or first.failed_step <= 0:
        return f"the checker rejected {refutation.name}: {first if isinstance(first, str) else first.reason}"
    second = _dratify(formula, steps, engine, check_rat=True, apply_deletions=False)
    if isinstance(second, str):
        return f"the checker rejected {refutation.name}: {second}"
    if second.ok:
        return None
    where = f" (step {second.failed_step})" if second.failed_step > 0 else ""
    return f"the checker rejected {refutation.name}{where}: {second.reason}"


def _dratify(formula, steps: list, engine: str, **options):
    """dratify's result, or why it would not check the proof. The steps' variables are at
    most the formula's plus the proof's distinct fresh ones (:mod:`.drat`), within the
    bound dratify puts on parsed steps (the formula's plus the literal occurrences)."""
    import dratify

    try:
        return dratify.check_proof(formula, steps, engine=engine, **options)
    except ValueError as error:
        return f"dratify will not check it: {error}"
