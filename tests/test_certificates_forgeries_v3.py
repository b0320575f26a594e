"""Forged version 3 certificates, each rejected at the step the contract gives it. Every
forgery starts from a genuine certificate built by hand (tests/region_certificates.py),
and each test first shows what it changes is what the checker catches: a checker that
skipped the step would accept it, or reject it only later and for another reason."""

import copy as deep
import shutil

import pytest
from region_certificates import Plan, build, copier, entry, read, rejected, write

from chessdom.certificates import Unreadable, check_certificate, rebuild_formula


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    """Genuine certificates, built once: γ(Q5) ≤ 2 in cubes of the quadrants, γ(Q6) ≤ 2
    with one cube split into bands, and the count of γ(Q4) with its fewer section."""
    root = tmp_path_factory.mktemp("genuine")
    plans = {"q5": Plan(5), "q6": Plan(6, split_first=True), "count": Plan(4, count=True, fewer="at most"),
             "q5 count": Plan(5, count=True, fewer="at most")}
    for key, plan in plans.items():
        build(root / key, plan)
        assert check_certificate(root / key).ok
    return root


@pytest.fixture
def copy(genuine, tmp_path):
    return copier(genuine, tmp_path)



def test_a_cube_whose_proof_file_is_gone_is_rejected(copy):
    directory = copy("q5")
    (directory / "cube-2.drat").unlink()
    rejected(directory, "cube-2.drat hash", "missing")


def test_a_cube_whose_proof_entry_is_gone_cannot_be_read(copy):
    directory = copy("q5")
    manifest = read(directory)
    del manifest["regions"]["cubes"][1]["proof"]
    write(directory, manifest)
    with pytest.raises(Unreadable, match=r"regions.cubes\[1\].proof"):
        check_certificate(directory)


def test_a_changed_cube_file_is_rejected_by_its_hash(copy):
    directory = copy("q5")
    (directory / "cube-3.drat").write_bytes((directory / "cube-3.drat").read_bytes() + b"0\n")
    rejected(directory, "cube-3.drat hash", "longer")


@pytest.mark.parametrize("key", ["q5", "q6"])
def test_a_cube_dropped_with_its_proof_leaves_the_cover_open(copy, key):
    directory = copy(key)
    manifest = read(directory)
    for index in range(len(manifest["regions"]["cubes"])):
        dropped = deep.deepcopy(manifest)
        del dropped["regions"]["cubes"][index]
        write(directory, dropped)
        rejected(directory, "cover", "covered by no cube")
    write(directory, manifest)
    assert check_certificate(directory).ok


def test_a_fewer_cube_dropped_leaves_the_fewer_cover_open(copy):
    directory = copy("q5 count")
    manifest = read(directory)
    del manifest["fewer"]["regions"]["cubes"][0]
    write(directory, manifest)
    rejected(directory, "fewer cover", "covered by no cube")


def test_a_partition_not_kept_by_the_symmetries_is_rejected(copy):
    directory = copy("q5")
    manifest = read(directory)
    regions = manifest["regions"]["partitions"][0]
    # a1 moves from its quadrant to the middle: still a partition, no longer symmetric.
    source = next(region for region in regions if "a1" in region)
    source.remove("a1")
    next(region for region in regions if "c3" in region).append("a1")
    write(directory, manifest)
    rejected(directory, "partitions", "not kept by the board's symmetries")


@pytest.mark.parametrize("change,words", [
    (lambda regions: regions[0].append(regions[1][0]) or regions[1].pop(), "is in regions"),
    (lambda regions: regions[0].pop(), "in no region"),
    (lambda regions: regions.append([]), "is empty"),
    (lambda regions: regions[0].__setitem__(0, "f1"), "off the board"),
])
def test_a_partition_that_is_not_one_is_rejected(copy, change, words):
    directory = copy("q5")
    manifest = read(directory)
    change(manifest["regions"]["partitions"][0])
    write(directory, manifest)
    rejected(directory, "partitions", words)


def test_a_finer_partition_that_does_not_refine_is_rejected(copy):
    directory = copy("q6")
    manifest = read(directory)
    coarse, fine = manifest["regions"]["partitions"]
    # Swap a1 and f6 (opposite corners, both outer bands): still a partition, no refinement.
    outer_a1 = next(region for region in fine if "a1" in region)
    outer_f6 = next(region for region in fine if "f6" in region)
    assert not any("a1" in region and "f6" in region for region in coarse)
    outer_a1[outer_a1.index("a1")], outer_f6[outer_f6.index("f6")] = "f6", "a1"
    write(directory, manifest)
    rejected(directory, "partitions", "does not refine partition 0")


def test_the_proof_of_another_cube_does_not_refute_this_one(copy):
    directory = copy("q5")
    manifest = read(directory)
    cubes = manifest["regions"]["cubes"]
    cubes[0]["proof"], cubes[-1]["proof"] = cubes[-1]["proof"], cubes[0]["proof"]
    write(directory, manifest)
    rejected(directory, "region refutations", "the checker rejected")


def test_an_enumeration_missing_a_class_is_rejected_by_its_refutation(genuine, tmp_path):
    full = read(genuine / "q5 count")
    spare = {tuple(cube["counts"]): genuine / "q5 count" / cube["proof"]["file"] for cube in full["regions"]["cubes"]}
    manifest = build(tmp_path / "short", Plan(5, count=True, fewer="at most", drop_class=True, spare=spare))
    assert manifest["enumeration"]["classes"] == full["enumeration"]["classes"] - 1
    rejected(tmp_path / "short", "region refutations", "the checker rejected")


@pytest.mark.parametrize("plan", [Plan(5, objective="independent_domination"), Plan(4, count=True)],
                         ids=["independent domination", "a count"])
def test_exactly_without_fewer_is_rejected_where_fewer_pieces_are_not_refuted_by_it(tmp_path, plan):
    build(tmp_path, plan)
    rejected(tmp_path, "fewer", "need the manifest's 'fewer'")


def test_a_fewer_section_where_the_contract_has_none_is_rejected(genuine, copy):
    directory = copy("q5")
    manifest = read(directory)
    manifest["fewer"] = read(genuine / "count")["fewer"]
    write(directory, manifest)
    for name in ["fewer.cnf"] + [cube["proof"]["file"] for cube in manifest["fewer"]["regions"]["cubes"]]:
        shutil.copy(genuine / "count" / name, directory / name)
    rejected(directory, "fewer", "where the contract has none")


def test_exactly_in_fewer_is_refused_for_independent_domination(tmp_path):
    build(tmp_path, Plan(4, objective="independent_domination", count=True, fewer="exactly"))
    rejected(tmp_path, "fewer", "must be 'at most'")


def test_a_fewer_formula_that_is_not_the_contracts_is_rejected(copy):
    directory = copy("count")
    manifest = read(directory)
    problem = manifest["problem"]
    (directory / "fewer.cnf").write_bytes(rebuild_formula(problem, manifest["fewer"]["bound"] + 1, "totalizer"))
    manifest["fewer"]["formula"] = entry(directory / "fewer.cnf")
    write(directory, manifest)
    rejected(directory, "rebuilt fewer formula", "not the formula the contract builds")


def test_a_fewer_of_another_bound_is_rejected(copy):
    directory = copy("count")
    manifest = read(directory)
    manifest["fewer"]["bound"] = 0
    write(directory, manifest)
    rejected(directory, "fewer", "not 1")


def test_counts_beyond_a_regions_size_are_rejected(copy):
    directory = copy("q5")
    manifest = read(directory)
    manifest["regions"]["cubes"][0]["counts"][0] = 10
    write(directory, manifest)
    rejected(directory, "cubes", "which has 4 squares")


def test_a_cube_listed_twice_is_rejected(copy):
    directory = copy("q5")
    manifest = read(directory)
    twin = dict(manifest["regions"]["cubes"][0])
    shutil.copy(directory / twin["proof"]["file"], directory / "cube-99.drat")
    twin["proof"] = entry(directory / "cube-99.drat")
    manifest["regions"]["cubes"].append(twin)
    write(directory, manifest)
    rejected(directory, "cubes", "repeats an earlier cube")


def test_a_cover_needing_more_vectors_than_the_cap_is_refused(copy, monkeypatch):
    directory = copy("q6")
    assert check_certificate(directory).ok
    monkeypatch.setattr("chessdom.certificates.cover.MAX_VECTORS", 5)
    rejected(directory, "cover", "at most 5 vectors")


def test_the_cap_on_vectors_is_the_contracts():
    from chessdom.certificates.contract import MAX_VECTORS
    from chessdom.certificates.cover import MAX_VECTORS as USED

    assert MAX_VECTORS == USED == 2_000_000


def test_independence_has_no_version_three(copy):
    directory = copy("q5")
    manifest = read(directory)
    manifest["problem"]["objective"] = "independence"
    write(directory, manifest)
    with pytest.raises(Unreadable, match="not independence"):
        check_certificate(directory)
