"""A corpus of forged certificates: whole certificate directories whose claim is false —
that no 5 or fewer queens dominate the 8×8 board (γ(Q₈) is 5), or that 3 queens dominate
the 5×5 board in one class fewer ways than they do — each with its formula rebuilt byte
for byte, every size and SHA-256 right, the words of the claim consistent and a witness
that checks, so that only the DRAT check stands between it and "VERIFIED". Each is
rejected, by :func:`check_certificate` and by the command line.

The reason-deletion forgeries are dratify 0.1.10's unsoundness (a deleted reason leaves its
root assignment behind, and a RAT step on a literal no clause constrains then "conflicts"):
they verified until the checker asked dratify only what it answers soundly
(:mod:`chessdom.certificates.refutation`)."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chessdom.certificates import Unreadable, check_certificate, rebuild_formula
from chessdom.certificates.enumeration import expand
from chessdom.certificates.refutation import Refutation, check_refutation
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.prover import refutation_events
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

FORGED_CLAIM = "no 5 or fewer queens dominate the 8×8 board"
"""False: five queens dominate the chessboard (γ(Q₈) = 5), so the formula of "at most 5"
is satisfiable and no proof can refute it."""


# ---- the forgeries' proofs ------------------------------------------------------------------


def reason_deletion(top: int) -> str:
    """The issue's forgery over fresh variables x = top+1, y = top+2: ``x`` (RAT on a fresh
    variable), ``y ∨ ¬x`` (RUP, and the reason of y at the root), its deletion, then ``¬y``,
    RAT once no clause holds y, conflicting with the stale root assignment, and the empty
    clause."""
    x, y = top + 1, top + 2
    return f"{x} 0\n{y} -{x} 0\nd {y} -{x} 0\n-{y} 0\n0\n"


def unit_deletion(top: int) -> str:
    """The unit-deletion cousin: ``x``, its deletion, ``¬x``, the empty clause (x fresh)."""
    x = top + 1
    return f"{x} 0\nd {x} 0\n-{x} 0\n0\n"


def top_variable(formula: bytes) -> int:
    return int(formula.split(b"\n", 1)[0].split()[2])


def listed(directory: Path, name: str, data: bytes) -> dict:
    """Write ``name`` and return its manifest entry, size and SHA-256 right, as a forger would."""
    (directory / name).write_bytes(data)
    return {"file": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_manifest(directory: Path, manifest: dict) -> Path:
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    return directory


def cadical_refutation(formula: Path, extra: tuple[tuple[int, ...], ...]) -> bytes:
    """CaDiCaL's genuine proof of ``formula`` plus ``extra``, logged as the certificates'
    prover logs it."""
    proof = formula.with_name("cadical.drat")
    [_, (_, status, _)] = list(refutation_events(str(formula), str(proof), extra))
    assert status == "unsat"
    data = proof.read_bytes()
    proof.unlink()
    return data


def rejected(directory: Path, step: str = "DRAT refutation") -> str:
    """The verdict's reason, after checking the certificate is rejected at ``step``."""
    verdict = check_certificate(directory)
    assert verdict.ok is False
    assert verdict.reason.startswith(step), verdict.reason
    return verdict.reason


def rejected_by_the_command_line(directory: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "chessdom.certificates", str(directory)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "s NOT VERIFIED" in done.stdout.splitlines()


# ---- the genuine certificates the forgeries start from ---------------------------------------


@pytest.fixture(scope="module")
def queens8(tmp_path_factory):
    """A genuine certificate of γ(Q₈) = 5 (one proof) and a genuine cube bundle of it."""
    root = tmp_path_factory.mktemp("genuine")
    result = solve_placement("queen", 8)
    single = make_certificate(result, root / "single", CertifyOptions(time_limit=120, split="never")).manifest
    bundle = make_certificate(result, root / "bundle", CertifyOptions(time_limit=120, split="always")).manifest
    return root, single, bundle


@pytest.fixture(scope="module")
def queens5_count(tmp_path_factory):
    """A genuine enumeration: 186 placements of 3 queens dominate 5×5, 37 up to symmetry."""
    directory = tmp_path_factory.mktemp("genuine") / "count"
    result = solve_placement("queen", 5, count=True, representatives=True)
    return directory, make_certificate(result, directory, CertifyOptions(time_limit=120), enumeration=True).manifest


def test_the_genuine_certificates_the_forgeries_start_from_verify(queens8, queens5_count):
    root, _, _ = queens8
    assert check_certificate(root / "single").ok and check_certificate(root / "bundle").ok
    assert check_certificate(queens5_count[0]).ok


class Forger:
    """Writes certificates of FORGED_CLAIM: the genuine manifest with value 6, bound 5, the
    genuine witness plus one square (six queens that do dominate), and the formula of "at
    most 5 queens" as the checker rebuilds it."""

    def __init__(self, queens8, tmp_path: Path):
        _, self.single, self.bundle_manifest = queens8
        self.tmp_path = tmp_path
        problem = self.single["problem"]
        self.formula = rebuild_formula(problem, 5, self.single["encoding"], self.single["order"])
        self.top = top_variable(self.formula)
        witness = self.single["witness"]
        extra = next(f"{file}{rank}" for rank in range(1, 9) for file in "abcdefgh" if f"{file}{rank}" not in witness)
        self.witness = [*witness, extra]

    def _start(self, name: str, genuine: dict) -> tuple[Path, dict]:
        directory = self.tmp_path / name
        directory.mkdir()
        manifest = copy.deepcopy(genuine)
        manifest.update(value=6, witness=self.witness, claim=FORGED_CLAIM, refuted={"bound": 5, "relation": "at most"})
        lines = self.formula.decode().splitlines()
        manifest["formula"] = {**listed(directory, "formula.cnf", self.formula), "variables": self.top,
                               "clauses": len(lines) - 1}
        return directory, manifest

    def optimum(self, proof: str | bytes, name: str = "forged") -> Path:
        """A single-proof certificate of FORGED_CLAIM with ``proof``."""
        directory, manifest = self._start(name, self.single)
        data = proof.encode() if isinstance(proof, str) else proof
        manifest["proof"] = {**listed(directory, "proof.drat", data), "format": "DRAT, text"}
        return write_manifest(directory, manifest)

    def bundle(self, cubes: list[tuple[int, ...]], proofs: list[str | None], cover: str | None,
               name: str = "forged-bundle") -> Path:
        """A cube bundle of FORGED_CLAIM, in the shape make_certificate writes: each cube's
        proof, or CaDiCaL's genuine one where None; the cover proof likewise."""
        directory, manifest = self._start(name, self.bundle_manifest)
        formula = directory / "formula.cnf"
        text = "".join(" ".join(map(str, (*cube, 0))) + "\n" for cube in cubes)
        entries = []
        for index, (cube, proof) in enumerate(zip(cubes, proofs), start=1):
            data = proof.encode() if proof is not None else cadical_refutation(formula, tuple((l,) for l in cube))
            entries.append(listed(directory, f"cube-{index}.drat", data))
        negated = tuple(tuple(-literal for literal in cube) for cube in cubes)
        cover_data = cover.encode() if cover is not None else cadical_refutation(formula, negated)
        manifest["cubes"].update(file=listed(directory, "cubes.txt", text.encode()), proofs=entries,
                                 cover=listed(directory, "cover.drat", cover_data), count=len(cubes), splits=0)
        return write_manifest(directory, manifest)

    @property
    def unit(self) -> int:
        """The literal of the formula's one unit clause (the totalizer denies a sixth queen)."""
        [unit] = [int(line.split()[0]) for line in self.formula.decode().splitlines()[1:] if len(line.split()) == 2]
        return unit


@pytest.fixture
def forger(queens8, tmp_path):
    return Forger(queens8, tmp_path)


def test_the_forged_claim_has_the_checkers_formula_words_and_a_witness_that_checks(forger):
    """Everything but the proof passes: the corpus tests the DRAT check and nothing else."""
    verdict = check_certificate(forger.optimum(reason_deletion(forger.top)))
    assert verdict.claim == FORGED_CLAIM
    assert all(verdict.steps[step] is True for step in ("manifest", "bound and claim", "formula.cnf hash",
                                                        "proof.drat hash", "rebuilt formula", "witness"))
    assert verdict.steps["DRAT refutation"] is not True


# ---- single proofs -------------------------------------------------------------------------


def test_a_reason_deleted_then_resolved_on_does_not_refute_a_satisfiable_formula(forger):
    # dratify 0.1.10 alone verifies this proof; the checker's two passes do not.
    directory = forger.optimum(reason_deletion(forger.top))
    rejected(directory)
    rejected_by_the_command_line(directory)


def test_a_unit_added_deleted_and_negated_does_not_refute_a_satisfiable_formula(forger):
    directory = forger.optimum(unit_deletion(forger.top))
    rejected(directory)
    rejected_by_the_command_line(directory)


def test_a_lemma_the_formula_does_not_imply_does_not_refute_it(forger):
    """A queen on the first square variable's square, claimed as a unit, then the empty clause."""
    assert "neither RUP nor RAT" in rejected(forger.optimum("1 0\n0\n"))


def test_an_empty_proof_refutes_nothing(forger):
    assert "never derives the empty clause" in rejected(forger.optimum(""))


def test_a_proof_naming_a_fresh_variable_is_rejected_with_a_verdict_and_one_far_past_cannot_be_read(forger):
    rejected(forger.optimum(f"-{forger.top + 2} 0\n0\n"))
    with pytest.raises(Unreadable, match="names none above"):  # past the formula's + half the proof's length
        check_certificate(forger.optimum(f"-{forger.top + 100} 0\n0\n", "far"))


def test_genuine_lemmas_without_the_empty_clause_refute_nothing(forger, tmp_path):
    """What CaDiCaL logs while it solves the forged formula — it finds five queens — is
    all RUP, and never the empty clause."""
    formula = tmp_path / "formula.cnf"
    formula.write_bytes(forger.formula)
    [_, (_, status, _)] = list(refutation_events(str(formula), str(tmp_path / "learnt.drat")))
    learnt = (tmp_path / "learnt.drat").read_text()
    assert status == "sat" and learnt.count("\n") > 10 and "\n0\n" not in learnt
    assert "never derives the empty clause" in rejected(forger.optimum(learnt))


def test_the_genuine_proof_of_the_true_bound_does_not_refute_the_false_one(forger, queens8):
    """γ(Q₈) > 4's genuine proof, listed for γ(Q₈) > 5: a proof of another formula."""
    root, _, _ = queens8
    rejected(forger.optimum((root / "single" / "proof.drat").read_bytes()))


# ---- cube bundles ----------------------------------------------------------------------------


def test_a_bundle_whose_one_cube_proof_deletes_a_reason_does_not_refute_a_satisfiable_formula(forger):
    """Cubes ``u`` and ``¬u`` on the formula's unit clause ``u``: the cube ``¬u`` and the
    cover are refuted by unit propagation (CaDiCaL's genuine proofs); the cube ``u`` is the
    whole satisfiable formula, and its proof is the reason-deletion forgery."""
    u = forger.unit
    directory = forger.bundle([(u,), (-u,)], [reason_deletion(forger.top), None], None)
    rejected(directory, "cube refutations")
    rejected_by_the_command_line(directory)


def test_a_bundle_whose_cover_deletes_a_reason_does_not_refute_a_satisfiable_formula(forger):
    """One cube, ``¬u``, genuinely refuted; it covers nothing a model can satisfy, and the
    cover proof that says it covers everything is the reason-deletion forgery."""
    u = forger.unit
    directory = forger.bundle([(-u,)], [None], reason_deletion(forger.top))
    rejected(directory, "cover refutation")
    rejected_by_the_command_line(directory)


# ---- an enumeration missing one class ------------------------------------------------------


SQUARE_SYMMETRIES = (
    lambda r, f, n: (r, f), lambda r, f, n: (r, n - 1 - f), lambda r, f, n: (n - 1 - r, f),
    lambda r, f, n: (n - 1 - r, n - 1 - f), lambda r, f, n: (f, r), lambda r, f, n: (n - 1 - f, n - 1 - r),
    lambda r, f, n: (f, n - 1 - r), lambda r, f, n: (n - 1 - f, r),
)


def orbit_size(names: list[str], side: int) -> int:
    placed = [(int(name[1:]) - 1, ord(name[0]) - ord("a")) for name in names]
    return len({frozenset(symmetry(r, f, side) for r, f in placed) for symmetry in SQUARE_SYMMETRIES})


def forged_count(queens5_count, directory: Path, proof: str | bytes | None) -> Path:
    """The genuine count of γ(Q₅) with its last class left out, the counts, claim and
    formula (one orbit fewer blocked placements) made consistent; ``proof`` None keeps the
    genuine proof, which refutes the formula with that class blocked."""
    source, manifest = queens5_count
    manifest = copy.deepcopy(manifest)
    directory.mkdir()
    enumeration, problem = manifest["enumeration"], manifest["problem"]
    dropped = enumeration["representatives"].pop()
    enumeration["classes"] -= 1
    enumeration["solutions"] -= orbit_size(dropped, 5)
    manifest["claim"] = (f"exactly {enumeration['solutions']} placements of 3 queens dominate the 5×5 board "
                         f"(36 up to its 8 symmetries), and no 2 or fewer queens dominate the 5×5 board")
    placements = expand(problem, 3, enumeration)
    manifest["refuted"]["blocked"] = len(placements)
    formula = rebuild_formula(problem, 3, manifest["encoding"], manifest["order"], placements)
    manifest["formula"].update(listed(directory, "formula.cnf", formula))
    manifest["formula"]["clauses"] = int(formula.split(b"\n", 1)[0].split()[3])  # one orbit fewer blocking clauses
    if proof is None:
        data = (source / "proof.drat").read_bytes()
    else:
        data = proof.encode() if isinstance(proof, str) else proof
    manifest["proof"].update(listed(directory, "proof.drat", data))
    return write_manifest(directory, manifest)


def test_the_genuine_proof_of_a_count_does_not_refute_the_formula_missing_one_class(queens5_count, tmp_path):
    rejected(forged_count(queens5_count, tmp_path / "forged", None))


def test_a_reason_deletion_does_not_refute_a_count_missing_one_class(queens5_count, tmp_path):
    _, manifest = queens5_count
    top = manifest["formula"]["variables"]
    directory = forged_count(queens5_count, tmp_path / "forged", reason_deletion(top))
    assert top_variable((directory / "formula.cnf").read_bytes()) == top  # blocking clauses add no variable
    rejected(directory)


# ---- the issue's example, to the checker directly --------------------------------------------

ISSUE_FORMULA = "p cnf 2 1\n1 2 0\n"
ISSUE_PROOF = reason_deletion(2)
"""``3 0``, ``4 -3 0``, ``d 4 -3 0``, ``-4 0``, ``0``: the forgery as the issue reported it."""


def test_the_issues_example_is_the_reason_deletion_forgery():
    assert ISSUE_PROOF == "3 0\n4 -3 0\nd 4 -3 0\n-4 0\n0\n"


def test_dratify_0_1_10_on_its_own_verifies_the_issues_forgery_of_a_satisfiable_formula():
    """The upstream bug check_refutation works around, as a fact: should this fail, dratify
    has changed its deletion semantics (the two-pass policy stays sound either way)."""
    import cdclkit.native  # noqa: F401 - registers dratify's native engine
    import dratify

    formula, proof = dratify.parse_dimacs(ISSUE_FORMULA), dratify.parse_proof(ISSUE_PROOF)
    assert dratify.check_proof(formula, proof).ok
    assert dratify.check_proof(formula, proof, engine="python").ok


@pytest.mark.parametrize("engine", ["native", "python"])
def test_check_refutation_rejects_the_issues_forgery_of_a_satisfiable_formula(tmp_path, engine):
    formula, proof = tmp_path / "formula.cnf", tmp_path / "proof.drat"
    formula.write_text(ISSUE_FORMULA)
    proof.write_text(ISSUE_PROOF)
    refutation = Refutation("proof.drat", str(formula), hashlib.sha256(ISSUE_FORMULA.encode()).hexdigest(),
                            str(proof), hashlib.sha256(ISSUE_PROOF.encode()).hexdigest(),
                            formula_bytes=len(ISSUE_FORMULA), proof_bytes=len(ISSUE_PROOF))
    reason = check_refutation(refutation, engine)
    assert reason is not None and reason.startswith("the checker rejected proof.drat")
