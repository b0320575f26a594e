"""Issue #48's hostile cases, each built small where it scales, each failing on the checker
before the issue: work bounded by the input before the work (the cover indexed, a
region cube's clauses built where its proof is checked and each totalizer once, a budget
on what one proof's formula adds, a proof's variables bounded before dratify sizes
anything), every manifest count compared with what it describes, and the claim that no
placement of any size exists (version 4). The cases at full size, for measuring, are
written by ``tests/hostile_certificates.py``."""

from __future__ import annotations

import itertools
import json
import pickle
import random
import shutil
import time

import pytest

from chessdom.certificates import Unreadable, check_certificate, enumeration_claim, no_solution_claim, rebuild_formula
from chessdom.certificates import check as checking
from chessdom.certificates import totalizers
from chessdom.certificates.added import Added, added_cost, within_budget
from chessdom.certificates.contract import MAX_ADDED_COST
from chessdom.certificates.cover import check_cover, compositions
from chessdom.certificates.enumeration import SQUARE_SYMMETRIES
from chessdom.certificates.lemmas import CheckedLemma
from chessdom.certificates.regions import RegionError, read_partitions
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from region_certificates import Plan, build, entry, name
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

# ---- the cover: vectors × regions, not vectors × symmetries × cubes × regions ------------------


def one_square_regions(n: int):
    return read_partitions(n, n, [[[name(r, f)] for r in range(n) for f in range(n)]])


def image(vector, regions_map) -> tuple[int, ...]:
    moved = [0] * len(vector)
    for region, count in zip(regions_map, vector):
        moved[region] = count
    return tuple(moved)


def leaders(levels, total: int) -> list[tuple[int, ...]]:
    """One vector per orbit of the vectors adding up to ``total``: the least image."""
    return sorted({min(image(vector, m) for m in levels.maps[0]) for vector in compositions(total, levels.sizes(0))})


def test_an_at_most_cover_of_one_square_regions_is_checked_a_look_up_a_vector():
    # The case: 8×8, 64 one-square regions; here the bound 3 (41,664 vectors, 5,720
    # classes as cubes). Each vector was compared with every cube under all 8 symmetries:
    # about 10¹¹ counts compared, hours; now one look-up a vector.
    levels = one_square_regions(8)
    cubes = [(0, counts) for counts in leaders(levels, 3)]
    started = time.monotonic()
    assert check_cover(levels, "at most", cubes, 3) == 41_664
    assert time.monotonic() - started < 30  # about 1 s
    with pytest.raises(RegionError, match="covered by no cube"):
        check_cover(levels, "at most", cubes[:-1], 3)


def reference_cover(levels, relation: str, cubes, total: int) -> bool:
    """The contract's one-level cover, written out: some image below (or at) some cube."""
    def holds(vector, cube):
        return all(v <= c for v, c in zip(vector, cube)) if relation == "at most" else tuple(vector) == cube

    return all(any(holds(image(vector, m), cube) for m in levels.maps[0] for _, cube in cubes)
               for vector in compositions(total, levels.sizes(0)))


@pytest.mark.parametrize("seed", range(40))
def test_the_indexed_cover_agrees_with_the_contracts_cover_written_out(seed):
    # "at most" cubes adding up to more than the bound (none of chessdom's) are compared
    # one by one; the rest are looked up: both must say what the definition says.
    rng = random.Random(seed)
    levels = one_square_regions(rng.choice([2, 3]))
    total = rng.randint(1, 3)
    relation = rng.choice(["at most", "exactly"])
    every = list(itertools.product(range(2), repeat=len(levels.sizes(0))))
    cubes = [(0, counts) for counts in rng.sample(every, rng.randint(1, min(len(every), 30)))]
    try:
        check_cover(levels, relation, cubes, total)
        covered = True
    except RegionError:
        covered = False
    assert covered == reference_cover(levels, relation, cubes, total)


# ---- region cubes: described here, built where checked, each totalizer once ---------------------


@pytest.fixture(scope="module")
def with_lemmas(tmp_path_factory):
    directory = tmp_path_factory.mktemp("lemmas") / "q6"
    build(directory, Plan(6, lemmas=True))
    return directory


def test_no_cube_clause_is_built_before_the_first_proof_is_checked_and_none_twice(with_lemmas, monkeypatch):
    # 201 "exactly" cubes on 32×32 took 3.75 GB before the first proof was read: every
    # cube's totalizers were built first, in the main process, and each lemma's again for
    # every cube listing it (24 lemmas of 1024 groups: 87.5 s, 3.5 GB).
    built, first_check, sizes = [], [], []
    encoded, checked = totalizers.encoded, checking.check_refutation
    monkeypatch.setattr(totalizers, "encoded", lambda *args: built.append(args[:3]) or encoded(*args))

    def check(refutation, engine):
        first_check.append(len(built))
        sizes.append(len(pickle.dumps(refutation)))
        return checked(refutation, engine)

    monkeypatch.setattr(checking, "check_refutation", check)
    totalizers._cache.clear()
    assert check_certificate(with_lemmas).ok
    assert first_check[0] == 0 and len(first_check) > 1
    assert len(built) == len(totalizers._cache), "a totalizer was built twice"  # one build a distinct one
    assert max(sizes) < 64 * 1024, max(sizes)  # what a worker is sent: a description, not clauses


def test_shifted_totalizers_are_the_ones_python_sat_numbers_at_the_top_given():
    from pysat.card import CardEnc, EncType

    rng = random.Random(1)
    for _ in range(30):
        literals = tuple(sorted(rng.sample(range(1, 40), rng.randint(1, 12))))
        bound, top = rng.randint(0, len(literals)), rng.randint(40, 400)
        for kind, encode in (("at most", CardEnc.atmost), ("exactly", CardEnc.equals)):
            clauses, _ = totalizers.totalizer(kind, literals, bound, top)
            expected = encode(lits=list(literals), bound=bound, top_id=top, encoding=EncType.totalizer).clauses
            assert [list(clause) for clause in clauses] == expected


def big_lemma(number: int) -> CheckedLemma:
    return CheckedLemma(0, (256,) * 4, tuple((square,) for square in range(1, 1025)), number)


def test_a_cube_whose_clauses_would_pass_the_budget_is_refused_before_any_is_built():
    # The cube listing 24 lemmas of 1024 groups: 87.5 s and 3.5 GB to build.
    quadrants = tuple(tuple(range(1 + 256 * k, 257 + 256 * k)) for k in range(4))
    added = Added(quadrants, (4, 4, 4, 4), "exactly", tuple(big_lemma(k) for k in range(1, 25)))
    assert added_cost(added) > MAX_ADDED_COST
    with pytest.raises(RegionError, match="more than the contract's"):
        within_budget(added, "cube 1", "cubes")
    one = Added(quadrants, (4, 4, 4, 4), "exactly", (big_lemma(1),))
    assert within_budget(one, "cube 1", "cubes") is one  # one "exactly" quadrant set and a 1024-group lemma fit


# ---- a proof's variables ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    directory = tmp_path_factory.mktemp("single") / "q6"
    make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=60, split="never"))
    return directory


def relisted(directory, name: str, data: bytes):
    (directory / name).write_bytes(data)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["proof"].update(entry(directory / name))
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return directory


def test_a_proof_naming_a_variable_as_large_as_it_is_long_cannot_be_read(single, tmp_path):
    # 16 MiB of proof so: 1.7 GB; 63 MiB: the native engine aborted. Here 1 MiB.
    size = 2**20
    proof = b"1 -2 0\n" * (size // 7)
    proof = b"%d 0\n" % size + proof
    directory = relisted(shutil.copytree(single, tmp_path / "c"), "proof.drat", proof)
    with pytest.raises(Unreadable, match="names none above"):
        check_certificate(directory)


# ---- every manifest count compared with what it describes ----------------------------------------


@pytest.mark.parametrize("field,value,step", [
    (("formula", "variables"), 1, "rebuilt formula"),
    (("formula", "clauses"), "630", "rebuilt formula"),
    (("refuted", "blocked"), 2, "placements"),
    (("proof", "format"), "DRAT, binary", "DRAT refutation"),
])
def test_a_count_beside_a_file_that_is_not_the_files_is_rejected(single, tmp_path, field, value, step):
    directory = shutil.copytree(single, tmp_path / "c")
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest[field[0]][field[1]] = value
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith(step), verdict.reason


# ---- no placement of any size: version 4 ---------------------------------------------------------

KNIGHTS = {"rows": 3, "cols": 3, "piece": "knight", "objective": "total_domination"}


def test_no_placement_of_knights_totally_dominates_3x3_and_its_certificate_is_the_empty_clause(tmp_path):
    result = solve_placement("knight", 3, variant="total")
    manifest = make_certificate(result, tmp_path / "n3", CertifyOptions(time_limit=60)).manifest
    assert manifest["value"] is None and manifest["claim"] == no_solution_claim(KNIGHTS)
    verdict = check_certificate(tmp_path / "n3")
    assert verdict.ok and verdict.steps["empty clause"] is True, verdict.reason
    assert "\n 0\n" in (tmp_path / "n3" / "formula.cnf").read_text()  # the centre's clause


def test_a_count_of_no_placements_of_any_value_is_rejected(tmp_path):
    # "exactly 0 placements of 5 knights … and no 4 or fewer": true words, verified with
    # an empty proof whatever the value said.
    formula = rebuild_formula(KNIGHTS, 5, "totalizer", "hilbert")
    (tmp_path / "formula.cnf").write_bytes(formula)
    (tmp_path / "proof.drat").write_bytes(b"0\n")
    manifest = {"contract": "chessdom-certificate/2", "problem": KNIGHTS, "value": 5,
                "enumeration": {"solutions": 0, "classes": 0, "symmetries": list(SQUARE_SYMMETRIES),
                                "representatives": []},
                "claim": enumeration_claim(KNIGHTS, 5, 0, 0, 8), "refuted": {"bound": 5, "relation": "at most"},
                "encoding": "totalizer", "order": "hilbert", "formula": entry(tmp_path / "formula.cnf"),
                "proof": entry(tmp_path / "proof.drat")}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(tmp_path)
    assert not verdict.ok and "no square attacks b2" in verdict.reason, verdict.reason


def test_a_claim_of_no_solution_with_a_value_cannot_be_read_and_one_of_a_solvable_problem_is_rejected(tmp_path):
    result = solve_placement("knight", 3, variant="total")
    make_certificate(result, tmp_path / "n3", CertifyOptions(time_limit=60))
    manifest = json.loads((tmp_path / "n3" / "manifest.json").read_text())
    manifest["value"] = 4
    (tmp_path / "n3" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Unreadable, match="value must be null"):
        check_certificate(tmp_path / "n3")
    knights4 = {**KNIGHTS, "rows": 4, "cols": 4}
    formula = rebuild_formula(knights4, 0, "totalizer")
    structure = formula.split(b"\n")
    clauses = [line for line in structure[1:] if line][:16]  # the 16 coverage clauses come first
    (tmp_path / "formula.cnf").write_bytes(b"p cnf 16 16\n" + b"\n".join(clauses) + b"\n")
    manifest = {"contract": "chessdom-certificate/4", "problem": knights4, "value": None,
                "claim": no_solution_claim(knights4), "refuted": {"relation": "any size"},
                "formula": entry(tmp_path / "formula.cnf")}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(tmp_path)
    assert not verdict.ok and verdict.reason.startswith("empty clause"), verdict.reason


# ---- every limit of the contract refuses one past it -----------------------------------------------


@pytest.mark.parametrize("module,limit,words", [
    ("manifest", "MAX_PARTITIONS", "partitions must list"),
    ("manifest", "MAX_REGIONS", "regions"),
    ("manifest", "MAX_CUBES", "cubes must list"),
    ("lemmas", "MAX_GROUPS", "groups, not"),
    ("added", "MAX_ADDED_COST", "more than the contract's"),
    ("cover", "MAX_VECTORS", "at most"),
])
def test_a_limit_refuses_what_is_one_past_it(with_lemmas, tmp_path, monkeypatch, module, limit, words):
    # Each limit set to what this certificate needs, less one: a manifest beyond one that
    # bounds reading cannot be read; one beyond a limit on the work is rejected before it.
    manifest = json.loads((with_lemmas / "manifest.json").read_text())
    needed = {"MAX_PARTITIONS": len(manifest["regions"]["partitions"]),
              "MAX_REGIONS": max(map(len, manifest["regions"]["partitions"])),
              "MAX_CUBES": len(manifest["regions"]["cubes"]),
              "MAX_GROUPS": max(len(lemma["groups"]) for lemma in manifest["regions"]["lemmas"]),
              "MAX_ADDED_COST": 200, "MAX_VECTORS": 3}[limit]
    monkeypatch.setattr(f"chessdom.certificates.{module}.{limit}", needed - 1)
    try:
        verdict = check_certificate(with_lemmas)
    except Unreadable as error:
        assert words in str(error), str(error)
    else:
        assert not verdict.ok and words in verdict.reason, verdict.reason
