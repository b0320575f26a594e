"""The maker's side of certificate contract version 3: region cubes. The partitions refine
each other and every symmetry keeps them; a cube's clauses admit exactly the placements
with its counts; the first cubes and their split children cover every tuple of counts up
to symmetry; and the certificates made of them — of an optimum, split into finer regions,
of a count with its ``fewer`` section — are accepted by the independent checker, and
rejected once a part's proof or a class is taken out."""

import hashlib
import itertools
import json
import random
import shutil
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from pysat.solvers import Solver

from chessdom.certificates import COMPOUND_PIECES, check_certificate, enumeration_claim, rebuild_formula
from chessdom.certificates.enumeration import expand
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, parse_squares, symmetry_permutations
from chessdom.library import solve_placement
from chessdom.models.certificates import (
    CertificateUnavailable, CertifyOptions, cube_count, make_certificate, plain_formula,
)
from chessdom.models.certificates.prover import ProofRun
from chessdom.models.certificates.regions import (
    AT_MOST, EXACTLY, Cube, children, cube_clauses, first_cubes, partitions, prove_region_cube,
)
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

BOARDS = [Board(6, 6), Board(7, 7), Board(5, 8), Board(7, 4)]


def image(partition, permutation):
    return {frozenset(permutation[s] for s in region) for region in partition}


@pytest.mark.parametrize("board", BOARDS, ids=str)
def test_each_level_partitions_the_board_refines_the_last_and_is_kept_by_every_symmetry(board):
    levels = partitions(board)
    for level, partition in enumerate(levels):
        squares = sorted(s for region in partition for s in region)
        assert squares == list(board.squares()) and all(partition)
        for permutation in symmetry_permutations(board):
            assert image(partition, permutation) == {frozenset(region) for region in partition}
        if level:
            assert all(any(set(region) <= set(coarse) for coarse in levels[level - 1]) for region in partition)
    assert len(levels[0]) < len(levels[1]) < len(levels[2])


def counts_of(partition, placement):
    return tuple(sum(1 for s in placement if s in region) for region in partition)


@pytest.mark.parametrize("relation", [EXACTLY, AT_MOST])
def test_a_cubes_clauses_admit_exactly_the_placements_with_its_counts(relation):
    board = Board(5, 5)
    problem = PlacementProblem(board, Piece.QUEEN, Objective.DOMINATION)
    variables = plain_formula(problem, 3, "totalizer", "hilbert").variables
    partition = partitions(board)[1]
    generator = random.Random(5)
    for _ in range(40):
        counts = tuple(generator.randint(0, min(2, len(region))) for region in partition)
        clauses = cube_clauses(variables, partition, counts, relation)
        assert all(abs(literal) <= 25 or abs(literal) > variables for clause in clauses for literal in clause)
        placement = set(generator.sample(range(25), generator.randint(0, 6)))
        actual = counts_of(partition, placement)
        expected = actual == counts if relation == EXACTLY else all(a <= c for a, c in zip(actual, counts))
        with Solver(name="cadical195", bootstrap_with=[list(clause) for clause in clauses]) as solver:
            assumptions = [s + 1 if s in placement else -(s + 1) for s in range(25)]
            assert solver.solve(assumptions=assumptions) == expected, (counts, actual)


def classes(vectors, partition, permutations):
    """The vectors' orbits under ``permutations`` acting on the regions of ``partition``."""
    index = {frozenset(region): i for i, region in enumerate(partition)}
    maps = [[index[frozenset(p[s] for s in region)] for region in partition] for p in permutations]
    orbit = {}
    for vector in vectors:
        images = set()
        for mapping in maps:
            moved = [0] * len(vector)
            for region, count in enumerate(vector):
                moved[mapping[region]] = count
            images.add(tuple(moved))
        orbit[vector] = frozenset(images)
    return orbit


@pytest.mark.parametrize("board, bound", [(Board(7, 7), 4), (Board(6, 6), 3), (Board(5, 8), 4)], ids=str)
def test_the_first_cubes_stand_for_every_tuple_adding_up_to_the_bound_once(board, bound):
    partition = partitions(board)[0]
    vectors = [v for v in itertools.product(*(range(len(r) + 1) for r in partition)) if sum(v) == bound]
    orbit = classes(vectors, partition, symmetry_permutations(board))
    cubes = first_cubes(board, bound)
    assert all(cube.level == 0 for cube in cubes)
    assert {orbit[cube.counts] for cube in cubes} == set(orbit.values())
    assert len(cubes) == len(set(orbit.values()))


def test_a_split_cubes_children_stand_for_every_refinement_of_its_counts():
    board = Board(7, 7)
    levels = partitions(board)
    first = Cube(0, (2, 0, 1, 0, 1))
    for cube in (first, children(board, levels, first)[0]):
        level = cube.level
        fine, coarse = levels[level + 1], levels[level]
        parent = [next(i for i, region in enumerate(coarse) if set(part) <= set(region)) for part in fine]
        assert parent == sorted(parent)
        refinements = list(_refinements(fine, parent, cube.counts))
        keeping = [p for p in symmetry_permutations(board)
                   if counts_of(coarse, {p[s] for s in _placement_of(coarse, cube.counts)}) == cube.counts]
        orbit = classes(refinements, fine, keeping)
        split = children(board, levels, cube)
        assert all(child.level == level + 1 for child in split)
        assert len({orbit[child.counts] for child in split}) == len(split)  # one child per orbit
        assert {orbit[child.counts] for child in split} == set(orbit.values())  # every orbit has one


def _refinements(fine, parent, counts):
    """Every vector over ``fine`` whose sums over each coarse region are ``counts``."""
    shares = []
    for index, count in enumerate(counts):
        bands = [len(region) for region, above in zip(fine, parent) if above == index]
        shares.append([t for t in itertools.product(*(range(size + 1) for size in bands)) if sum(t) == count])
    for choice in itertools.product(*shares):
        yield tuple(itertools.chain.from_iterable(choice))  # the fine regions are listed coarse region by region


def _placement_of(partition, counts):
    """Some set of squares with ``counts`` per region."""
    return {s for region, count in zip(partition, counts) for s in region[:count]}


# ---- certificates, checked by the independent checker ---------------------------------------


def certify(tmp_path, piece, size, variant="plain", count=False, executor=None, **options):
    result = solve_placement(piece, size, variant=variant, count=count, representatives=count)
    directory = tmp_path / f"{piece}-{size}-{variant}{'-count' if count else ''}"
    manifest = make_certificate(result, directory, CertifyOptions(time_limit=120, split="regions", **options),
                                enumeration=count, executor=executor).manifest
    return result, directory, manifest


def test_seven_queens_are_certified_by_region_cubes_one_per_class_of_counts(tmp_path):
    _, directory, manifest = certify(tmp_path, "queen", 7)
    assert manifest["contract"] == "chessdom-certificate/3" and "proof" not in manifest and "cubes" not in manifest
    regions = manifest["regions"]
    assert regions["relation"] == EXACTLY and len(regions["partitions"]) == 1
    assert [cube["counts"] for cube in regions["cubes"]] == [list(c.counts) for c in first_cubes(Board(7, 7), 3)]
    assert [cube["proof"]["file"] for cube in regions["cubes"]] == [
        f"cube-{index}.drat" for index in range(1, len(regions["cubes"]) + 1)]
    files = ["formula.cnf", "manifest.json"] + [entry["proof"]["file"] for entry in regions["cubes"] + regions["lemmas"]]
    assert cube_count(manifest) == len(regions["cubes"]) and sorted(p.name for p in directory.iterdir()) == sorted(files)
    assert manifest["check"]["checked"] and check_certificate(directory).ok


# Every piece on a square; the single pieces on a rectangle too, as the compound pieces'
# lines are theirs (their rectangles took 6 s of the suite, measured).
REGION_BOARDS = [(piece.value, size) for piece in Piece for size in ("5", "3x5")
                 if size == "5" or piece.value not in COMPOUND_PIECES]


@pytest.mark.parametrize("variant", ["plain", "independent", "total"])
@pytest.mark.parametrize(("piece", "size"), REGION_BOARDS)
def test_every_piece_and_minimisation_certifies_by_region_cubes_on_small_boards(tmp_path, piece, variant, size):
    result, directory, manifest = certify(tmp_path, piece, size, variant)
    # Version 4 is the first to list the compound pieces; region cubes came with version 3.
    contract = "chessdom-certificate/4" if piece in COMPOUND_PIECES else "chessdom-certificate/3"
    assert manifest["contract"] == contract and manifest["value"] == result.value
    assert manifest["check"]["checked"] and check_certificate(directory).ok


def test_independent_domination_is_refuted_by_at_most_cubes_without_fewer(tmp_path):
    _, directory, manifest = certify(tmp_path, "queen", 7, "independent")
    assert manifest["regions"]["relation"] == AT_MOST and "fewer" not in manifest
    assert check_certificate(directory).ok


def test_independence_has_no_region_cubes_and_says_so_leaving_nothing(tmp_path):
    with pytest.raises(CertificateUnavailable, match="no region cubes"):
        certify(tmp_path, "knight", 4, "independence")
    assert list(tmp_path.iterdir()) == []


def test_a_level_beyond_the_finest_partition_is_refused(tmp_path):
    with pytest.raises(ValueError, match="region_level must be 0 to 2"):
        certify(tmp_path, "queen", 4, region_level=3)


def test_cubes_started_at_a_finer_level_are_accepted_by_the_cover(tmp_path):
    _, directory, manifest = certify(tmp_path, "queen", 6, region_level=1)
    assert len(manifest["regions"]["partitions"]) == 2
    assert {cube["level"] for cube in manifest["regions"]["cubes"]} == {1}
    assert check_certificate(directory).ok


class FirstCubeOutgrowsItsSlice(ThreadPoolExecutor):
    """Proves every cube, but reports the first as out of time: it is split."""

    def __init__(self):
        super().__init__(2)
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        if self.calls == 1:
            future = Future()
            future.set_result(ProofRun("timeout", None, 0.0, 0))
            return future
        return super().submit(fn, *args, **kwargs)


def test_a_cube_out_of_time_is_split_into_the_next_level_and_the_mix_checks(tmp_path):
    with FirstCubeOutgrowsItsSlice() as executor:
        _, directory, manifest = certify(tmp_path, "queen", 7, executor=executor)
    levels = [cube["level"] for cube in manifest["regions"]["cubes"]]
    assert manifest["prover"]["splits"] == 1 and set(levels) == {0, 1}
    assert len(manifest["regions"]["partitions"]) == 2
    assert manifest["check"]["checked"] and check_certificate(directory).ok


@pytest.fixture(scope="module")
def queens5_count(tmp_path_factory):
    return certify(tmp_path_factory.mktemp("regions"), "queen", 5, count=True)


def test_a_count_is_certified_by_its_parts_and_the_cubes_of_one_piece_fewer(queens5_count):
    result, directory, manifest = queens5_count
    assert manifest["regions"]["relation"] == EXACTLY
    assert [cube["counts"] for cube in manifest["regions"]["cubes"]] == [
        list(c.counts) for c in first_cubes(Board(5, 5), result.value)]
    fewer = manifest["fewer"]
    assert fewer["bound"] == result.value - 1 and fewer["formula"]["file"] == "fewer.cnf"
    assert (directory / "fewer.cnf").read_bytes() == rebuild_formula(manifest["problem"], result.value - 1,
                                                                      manifest["encoding"], manifest["order"])
    assert all(cube["proof"]["file"].startswith("fewer-cube-") for cube in fewer["regions"]["cubes"])
    assert manifest["check"]["checked"] and check_certificate(directory).ok


@pytest.mark.parametrize("piece, size, variant, fewer", [("queen", 6, "independent", AT_MOST),
                                                         ("king", "3x5", "total", EXACTLY)])
def test_counts_of_the_other_minimisations_carry_fewer_in_the_relation_their_objective_allows(
        tmp_path, piece, size, variant, fewer):
    _, directory, manifest = certify(tmp_path, piece, size, variant, count=True)
    assert manifest["regions"]["relation"] == EXACTLY and manifest["fewer"]["regions"]["relation"] == fewer
    assert manifest["check"]["checked"] and check_certificate(directory).ok


def test_a_count_missing_one_parts_proof_is_rejected(queens5_count, tmp_path):
    directory = shutil.copytree(queens5_count[1], tmp_path / "copy")
    manifest = json.loads((directory / "manifest.json").read_text())
    cubes = manifest["regions"]["cubes"]
    (directory / cubes.pop(0)["proof"]["file"]).unlink()
    for index, cube in enumerate(cubes, start=1):  # renumbered, as a forger would
        (directory / cube["proof"]["file"]).rename(directory / f"cube-{index}.drat")
        cube["proof"]["file"] = f"cube-{index}.drat"
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and "cover" in verdict.reason, verdict.reason


def test_a_count_missing_one_class_is_rejected_even_with_formula_claim_and_hashes_forged(queens5_count, tmp_path):
    directory = shutil.copytree(queens5_count[1], tmp_path / "copy")
    manifest = json.loads((directory / "manifest.json").read_text())
    problem, value, enumeration = manifest["problem"], manifest["value"], manifest["enumeration"]
    enumeration["representatives"].pop()
    enumeration["classes"] -= 1
    enumeration["solutions"] = sum(
        len({frozenset(p[s] for s in parse_squares(Board(5, 5), names)) for p in symmetry_permutations(Board(5, 5))})
        for names in enumeration["representatives"])
    placements = expand(problem, value, enumeration)
    manifest["refuted"]["blocked"] = len(placements)
    manifest["claim"] = enumeration_claim(problem, value, len(placements), enumeration["classes"], 8)
    formula = rebuild_formula(problem, value, manifest["encoding"], manifest["order"], placements)
    (directory / "formula.cnf").write_bytes(formula)
    manifest["formula"].update(bytes=len(formula), sha256=hashlib.sha256(formula).hexdigest(),
                               clauses=int(formula.split(b"\n", 1)[0].split()[3]))
    (directory / "manifest.json").write_text(json.dumps(manifest))
    verdict = check_certificate(directory)
    assert not verdict.ok and "cube" in verdict.reason, verdict.reason


def test_a_region_cube_is_sent_as_its_counts_and_its_clauses_built_by_the_worker(tmp_path):
    # Built by the caller for every cube at submission, γ(N_16)'s count certificate held
    # 3,000 cubes' clauses at once, 1.5 MB each, and its process was killed at 19 GB.
    sent = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            sent.append((fn, kwargs))
            return super().submit(fn, *args, **kwargs)

    with Recording(2) as executor:
        _, directory, manifest = certify(tmp_path, "knight", 6, executor=executor)  # a knight's cubes have no lemmas
    assert manifest["check"]["checked"] and len(sent) >= len(manifest["regions"]["cubes"]) > 1
    assert all(fn is prove_region_cube and "extra" not in kwargs for fn, kwargs in sent)
