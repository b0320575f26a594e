"""Contract version 3: region cubes, checked up to symmetry. Certificates built here by hand
from the contract's text (tests/region_certificates.py, not the maker) are accepted, with
the steps the contract names; the checker's own partitions, maps, cover and cube clauses
agree with the ones written again in the tests; and versions 1 and 2 keep their fields."""

import json
import shutil
import tarfile

import pytest
from region_certificates import Plan, build, clauses_of, leaders, partitions_of, region_maps, vectors, write

from chessdom.certificates import CONTRACT, CONTRACT_V3, CONTRACTS, Unreadable, check_certificate
from chessdom.certificates.command import main
from chessdom.certificates.cover import check_cover, compositions
from chessdom.certificates.regions import RegionError, check_cubes, cube_clauses, read_partitions
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

PLANS = {
    "γ(Q5) ≤ 2, exactly": Plan(5),
    "γ(Q6) ≤ 2, at most": Plan(6, relation="at most"),
    "γ(Q6) ≤ 2, one cube split into bands": Plan(6, split_first=True),
    "γ(Q5) ≤ 2, at most, split": Plan(5, relation="at most", split_first=True),
    "the count of γ(Q4), fewer at most": Plan(4, count=True, fewer="at most"),
    "the count of γ(Q5), fewer exactly": Plan(5, count=True, fewer="exactly"),
    "i(Q5) ≤ 2, at most": Plan(5, objective="independent_domination", relation="at most"),
    "the count of i(Q4), fewer at most": Plan(4, objective="independent_domination", count=True, fewer="at most"),
    "γt(Q5) ≤ 2, exactly": Plan(5, objective="total_domination"),
}


def names(partition):
    return [[f"{'abcdefgh'[f]}{r + 1}" for r, f in region] for region in partition]


@pytest.mark.parametrize("plan", PLANS.values(), ids=PLANS.keys())
def test_a_genuine_region_certificate_is_accepted(tmp_path, plan):
    manifest = build(tmp_path, plan)
    verdict = check_certificate(tmp_path)
    assert verdict.ok, verdict.reason
    expected = {"partitions", "cubes", "cover", "region refutations"}
    if "fewer" in manifest:
        expected |= {"fewer", "rebuilt fewer formula", "fewer partitions", "fewer cubes", "fewer cover",
                     "fewer region refutations"}
    assert expected <= set(verdict.steps) and all(verdict.steps[step] is True for step in expected)
    assert verdict.claim == manifest["claim"]


def test_a_split_cube_is_checked_at_its_own_level(tmp_path):
    manifest = build(tmp_path, Plan(6, split_first=True))
    assert {cube["level"] for cube in manifest["regions"]["cubes"]} == {0, 1}
    assert check_certificate(tmp_path).ok


def test_the_command_line_checks_a_region_directory_and_its_archive(tmp_path, capsys):
    build(tmp_path / "q5", Plan(5, count=True, fewer="at most"))
    assert main([str(tmp_path / "q5")]) == 0
    with tarfile.open(tmp_path / "q5.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "q5", arcname="q5")
    assert main([str(tmp_path / "q5.tar.gz"), "--workers", "2", "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert verdict["ok"] and verdict["steps"]["fewer region refutations"] is True


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_the_checker_reads_the_quadrants_with_the_boards_symmetries(n):
    parts = partitions_of(n, 2)
    levels = read_partitions(n, n, [names(partition) for partition in parts])
    assert levels.maps == [region_maps(n, partition) for partition in parts]
    assert levels.sizes(0) == [len(region) for region in parts[0]]
    assert all(parts[0][parent][0] in parts[0][parent] and set(parts[1][k]) <= set(parts[0][parent])
               for k, parent in enumerate(levels.parents[0]))


@pytest.mark.parametrize("relation", ["at most", "exactly"])
@pytest.mark.parametrize("n,bound", [(5, 2), (6, 3), (7, 3)])
def test_the_checkers_cube_clauses_are_the_contracts(n, bound, relation):
    partition = partitions_of(n, 1)[0]
    levels = read_partitions(n, n, [names(partition)])
    for counts in leaders(partition, n, bound):
        expected = [tuple(clause) for clause in clauses_of(partition, n, counts, relation, 200)]
        assert list(cube_clauses(levels.regions[0], counts, relation, 200)) == expected


@pytest.mark.parametrize("relation", ["at most", "exactly"])
def test_the_orbit_leaders_cover_every_vector_and_any_one_left_out_does_not(relation):
    partition = partitions_of(7, 1)[0]
    levels = read_partitions(7, 7, [names(partition)])
    cubes = [(0, counts) for counts in leaders(partition, 7, 4)]
    assert check_cover(levels, relation, cubes, 4) >= len(vectors(levels.sizes(0), 4))
    for left_out in range(len(cubes)):
        with pytest.raises(RegionError, match="covered by no cube"):
            check_cover(levels, relation, cubes[:left_out] + cubes[left_out + 1:], 4)


def test_at_most_covers_what_lies_below_a_cube_and_exactly_does_not():
    partition = partitions_of(6, 1)[0]
    levels = read_partitions(6, 6, [names(partition)])
    # Every vector of 2 queens in the four quadrants lies below (1, 1, 1, 1) or (2, 0, 0, 0) up to symmetry.
    cubes = [(0, (1, 1, 1, 1)), (0, (2, 0, 0, 0))]
    assert check_cover(levels, "at most", cubes, 2)
    with pytest.raises(RegionError, match="covered by no cube"):
        check_cover(levels, "exactly", cubes, 2)


def test_a_vector_is_covered_by_all_its_refinements():
    parts = partitions_of(6, 2)
    levels = read_partitions(6, 6, [names(partition) for partition in parts])
    coarse = [(0, u) for u in leaders(parts[0], 6, 2)]
    first, parents = coarse.pop(0)[1], levels.parents[0]
    finer = [v for v in vectors(levels.sizes(1), 2)
             if all(sum(c for c, p in zip(v, parents) if p == i) == count for i, count in enumerate(first))]
    assert check_cover(levels, "exactly", coarse + [(1, v) for v in finer], 2)
    orbit = {tuple(finer[0][moved.index(k)] for k in range(len(moved))) for moved in region_maps(6, parts[1])}
    with pytest.raises(RegionError, match="covered by no cube"):
        check_cover(levels, "exactly", coarse + [(1, v) for v in finer if v not in orbit], 2)


@pytest.mark.parametrize("caps,total", [([3, 2, 4], 5), ([1, 1, 1], 0), ([2, 0, 2], 3), ([4], 5), ([], 0)])
def test_compositions_are_every_bounded_vector_of_the_sum_in_order(caps, total):
    assert list(compositions(total, caps)) == vectors(caps, total)


def test_cubes_must_fit_their_partitions():
    levels = read_partitions(6, 6, [names(partitions_of(6, 1)[0])])
    check_cubes(levels, [(0, (1, 1, 0, 0))])
    for cubes, words in (([(1, (1, 1, 0, 0))], "level 1"), ([(0, (1, 1, 0))], "3 counts"),
                         ([(0, (10, 0, 0, 0))], "which has 9 squares"),
                         ([(0, (1, 1, 0, 0)), (0, (1, 1, 0, 0))], "repeats")):
        with pytest.raises(RegionError, match=words):
            check_cubes(levels, cubes)


def test_version_three_is_listed_and_version_two_keeps_its_name():
    assert CONTRACT == "chessdom-certificate/2" and CONTRACT_V3 == "chessdom-certificate/3"
    assert CONTRACT_V3 in CONTRACTS and CONTRACT in CONTRACTS


@pytest.mark.parametrize("change,words", [
    (lambda m: m.update(contract=CONTRACT), "only chessdom-certificate/3 and chessdom-certificate/4 have regions"),
    (lambda m: m.update(proof=m["formula"]), "instead of a proof"),
    (lambda m: m["regions"].update(partitions=[m["regions"]["partitions"][0]] * 9), "1…8 partitions"),
    (lambda m: m["regions"].update(relation="at least"), "regions.relation"),
    (lambda m: m["regions"]["cubes"][0].update(counts=[1, True, 0, 0, 0]), "counts"),
    (lambda m: m["regions"]["cubes"][0].update(level=-1), "level"),
    (lambda m: m["regions"]["cubes"][0].pop("proof"), r"cubes\[0\].proof"),
    (lambda m: m["regions"]["cubes"][0]["proof"].update(bytes=2**40), r"cubes\[0\].proof.bytes must be in"),
    (lambda m: m["regions"]["cubes"][1].update(proof=m["regions"]["cubes"][0]["proof"]), "a name of its own"),
    (lambda m: m.update(fewer={"bound": 1, "regions": m["regions"], "formula": m["formula"]}), "a name of its own"),
    (lambda m: m["regions"].update(cubes=[]), "1…100000 cubes"),
    (lambda m: m["regions"]["partitions"][0].append(["a1"] * 30), "more squares"),
    (lambda m: m.update(fewer={"bound": 1, "fewer": {}, "regions": m["regions"], "formula": m["formula"]}),
     "fewer of its own"),
])
def test_a_region_manifest_of_the_wrong_shape_cannot_be_read(tmp_path, change, words):
    manifest = build(tmp_path, Plan(5))
    change(manifest)
    write(tmp_path, manifest)
    with pytest.raises(Unreadable, match=words):
        check_certificate(tmp_path)


def test_a_version_two_bundle_still_checks_beside_version_three(tmp_path):
    from chessdom.library import solve_placement
    from chessdom.models.certificates import CertifyOptions, make_certificate

    make_certificate(solve_placement("queen", 6), tmp_path / "v2", CertifyOptions(time_limit=60, split="always"))
    manifest = json.loads((tmp_path / "v2" / "manifest.json").read_text())
    assert manifest["contract"] == CONTRACT and "cubes" in manifest
    assert check_certificate(tmp_path / "v2").ok
    shutil.copytree(tmp_path / "v2", tmp_path / "v3-named")
    manifest["contract"] = CONTRACT_V3
    (tmp_path / "v3-named" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Unreadable, match="regions instead of a proof or cubes"):
        check_certificate(tmp_path / "v3-named")

