"""Cube-and-conquer certificates: cubes over the formula's own variables (the totalizer's
node outputs along the Hilbert curve), one proof per cube and a cover proof, checked one
after another or in parallel. A bundle whose cover is incomplete, or one of whose cube
proofs is altered, is rejected; a proof too large for one file is split into cubes."""

import hashlib
import json
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from chessdom.certificates import Unreadable, check_certificate
from chessdom.library import solve_placement
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.certificates.cubes import count_cubes, regions_at_depth, totalizer_nodes
from chessdom.processes import WorkerPool
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's


@pytest.fixture(scope="module")
def queens6(tmp_path_factory):
    directory = tmp_path_factory.mktemp("bundle") / "gamma-q6"
    manifest = make_certificate(solve_placement("queen", 6), directory, CertifyOptions(time_limit=120,
                                split="always")).manifest
    return directory, manifest


def copy(bundle, tmp_path):
    return shutil.copytree(bundle[0], tmp_path / "copy")


def rehash(directory, name, entry_of):
    manifest = json.loads((directory / "manifest.json").read_text())
    data = (directory / name).read_bytes()
    entry_of(manifest).update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return manifest


def test_three_queens_on_six_by_six_are_certified_by_cubes_and_a_cover(queens6):
    directory, manifest = queens6
    cubes = (directory / "cubes.txt").read_text().splitlines()
    assert manifest["cubes"]["count"] == len(cubes) == len(manifest["cubes"]["proofs"]) > 1
    assert all(line.endswith(" 0") for line in cubes)
    assert manifest["check"]["checked"] and "cover refutation" in manifest["check"]["steps"]
    assert not (directory / "proof.drat").exists()
    assert check_certificate(directory).ok


def test_a_bundle_checks_in_parallel_on_a_worker_pool(queens6):
    with WorkerPool(2) as pool:
        verdict = check_certificate(queens6[0], executor=pool)
    assert verdict.ok and verdict.steps["cube refutations"] is True


def test_a_bundle_missing_one_cube_has_an_incomplete_cover_and_is_rejected(queens6, tmp_path):
    directory = copy(queens6, tmp_path)
    cubes = (directory / "cubes.txt").read_text().splitlines()
    (directory / "cubes.txt").write_text("\n".join(cubes[1:]) + "\n")
    manifest = rehash(directory, "cubes.txt", lambda m: m["cubes"]["file"])
    manifest["cubes"]["proofs"].pop(0)
    manifest["cubes"]["count"] -= 1
    for index, entry in enumerate(manifest["cubes"]["proofs"], start=1):
        (directory / entry["file"]).rename(directory / f"cube-{index}.drat.new")
        entry["file"] = f"cube-{index}.drat"
    for path in directory.glob("*.drat.new"):
        path.rename(directory / path.name.removesuffix(".new"))
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith("cover refutation")


def test_an_altered_cube_proof_is_rejected_even_with_its_hash_updated(queens6, tmp_path):
    directory = copy(queens6, tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    sizes = [entry["bytes"] for entry in manifest["cubes"]["proofs"]]
    index = sizes.index(max(sizes))
    name = manifest["cubes"]["proofs"][index]["file"]
    lines = (directory / name).read_text().splitlines()
    lemmas = [number for number, line in enumerate(lines) if not line.startswith("d") and line != "0"]
    middle = lemmas[len(lemmas) // 2]
    literals = lines[middle].split()
    lines[middle] = " ".join([str(-int(literals[0]))] + literals[1:])
    (directory / name).write_text("\n".join(lines) + "\n")
    rehash(directory, name, lambda m: m["cubes"]["proofs"][index])
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith("cube refutations")


def test_a_cube_proof_swapped_for_another_cubes_is_rejected(queens6, tmp_path):
    directory = copy(queens6, tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    proofs = manifest["cubes"]["proofs"]
    proofs[0], proofs[1] = proofs[1], proofs[0]
    (directory / "manifest.json").write_text(json.dumps(manifest))
    # Each file keeps its hash, so only the DRAT checks can tell.
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith("cube refutations")


def test_a_cube_naming_a_variable_beyond_the_formula_is_rejected(queens6, tmp_path):
    directory = copy(queens6, tmp_path)
    (directory / "cubes.txt").write_text((directory / "cubes.txt").read_text().replace(" 0\n", " 999999 0\n", 1))
    rehash(directory, "cubes.txt", lambda m: m["cubes"]["file"])
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith("cubes: cubes.txt line 1")


def test_a_file_entry_that_leaves_the_directory_is_rejected(queens6, tmp_path):
    directory = copy(queens6, tmp_path)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["cubes"]["cover"]["file"] = "../cover.drat"
    (directory / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Unreadable, match="plain name of a file beside the manifest"):
        check_certificate(directory)


def test_a_cube_proof_over_the_size_limit_is_split_on_a_square_until_each_fits(tmp_path):
    manifest = make_certificate(solve_placement("queen", 6), tmp_path / "q6", CertifyOptions(time_limit=120,
                                split="always", max_proof_bytes=4_000, workers=2)).manifest
    assert "cubes" in manifest and manifest["check"]["checked"]
    assert all(entry["bytes"] <= 4_000 for entry in manifest["cubes"]["proofs"])


def test_the_cubes_can_run_on_any_executor(tmp_path):
    with ThreadPoolExecutor(2) as executor:
        manifest = make_certificate(solve_placement("king", 5), tmp_path / "k5", CertifyOptions(time_limit=120,
                                    split="always"), executor=executor).manifest
    assert manifest["check"]["checked"]


def test_totalizer_nodes_count_the_quarters_of_a_hilbert_ordered_four_by_four_board():
    literals = list(range(1, 17))
    clauses = CardEnc.atmost(lits=literals, bound=3, top_id=16, encoding=EncType.totalizer).clauses
    nodes = totalizer_nodes(literals, clauses)
    quarters = regions_at_depth(literals, nodes, 2)
    assert sorted(len(quarter) for quarter in quarters) == [4, 4, 4, 4]
    # "at most 1 piece in the first quarter" is ¬o₂ of its node: with 2 pieces there, unit propagation denies it.
    first = quarters[0]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        two = sorted(first)[:2]
        assert not solver.solve(assumptions=[*two, -nodes[first][2]])


def test_count_cubes_cover_every_count_tuple_adding_up_to_the_bound():
    literals = list(range(1, 17))
    clauses = CardEnc.atmost(lits=literals, bound=3, top_id=16, encoding=EncType.totalizer).clauses
    cubes = count_cubes(literals, clauses, 3, 2)
    assert len(cubes) == 20  # tuples of four counts adding up to 3: C(6, 3)
    # Every placement of at most three pieces satisfies some cube.
    with Solver(name="cadical195", bootstrap_with=clauses + [[-l for l in cube] for cube in cubes]) as solver:
        assert not solver.solve()


@pytest.mark.timeout(120)
def test_thirty_rooks_on_29x29_find_their_count_cubes_at_once_and_give_up_at_the_time_limit(tmp_path):
    # The refutation is a pigeonhole: no proof within seconds. Its count cubes (four
    # regions of about 210 squares adding up to 811) once took minutes to enumerate,
    # uninterruptibly, and a synchronous certified request overran its deadline (a 503).
    # (``auto`` certifies it by its 29 ranks, contract version 8: asked for LRAT here.)
    result = solve_placement("rook", 29, variant="independence")
    with pytest.raises(CertificateUnavailable, match="time limit"):
        make_certificate(result, tmp_path / "r29", CertifyOptions(time_limit=2, form="lrat"))
