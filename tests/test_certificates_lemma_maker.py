"""The maker's side of contract version 3's lemmas (models/certificates/lemmas.py): a region
cube's line budgets below the section's bound become lemmas capping the regions their lines
cross; each lemma's own formula admits exactly the placements within its caps with more
occupied lines than its budget (and CaDiCaL refutes it); a cube's formula with its lemmas
admits exactly the placements the lemmas allow (and is refuted); a section proves each
distinct lemma once and lists only those its final cubes use."""

from __future__ import annotations

import json
import random
import shutil
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from pysat.solvers import Solver

from chessdom.certificates import check_certificate
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate, plain_formula
from chessdom.models.certificates.lemmas import (
    Lines, applied_clauses, cube_lemmas, largest_variable, lemma_formula, section_lines,
)
from chessdom.models.certificates.prover import ProofRun, log_proof
from chessdom.models.certificates.region_evidence import region_plan
from chessdom.models.certificates.regions import (
    AT_MOST, EXACTLY, LEMMA_LEVELS, RegionLimits, children, cube_clauses, first_cubes, partitions, prove_regions,
)
from chessdom.models.counting.regions import line_budgets
from chessdom.models.encodings.formulation import formulate
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's


def queens(board: Board) -> PlacementProblem:
    return PlacementProblem(board, Piece.QUEEN, Objective.DOMINATION)


def some_cubes(board: Board, bound: int):
    """The first cubes of ``bound`` and the children of the first of them (level 1)."""
    cubes = first_cubes(board, bound)
    return cubes + children(board, partitions(board), cubes[0])


@pytest.mark.parametrize("board, bound", [(Board(7, 7), 3), (Board(6, 6), 2), (Board(5, 8), 3)], ids=str)
def test_a_cubes_lemmas_are_its_line_budgets_below_the_bound_capping_the_regions_their_lines_cross(board, bound):
    formulation = formulate(queens(board))
    lines = section_lines(queens(board), bound, "lemma-")
    levels = partitions(board)
    for cube in some_cubes(board, bound):
        partition = levels[cube.level]
        lemmas = cube_lemmas(lines, cube.level, partition, cube.counts)
        budgets = line_budgets(formulation.lines, formulation.line_families, tuple(zip(partition, cube.counts)))
        expected = {(tuple(tuple(sorted(formulation.lines[i])) for i in members), budget)
                    for members, budget in budgets if budget <= bound - 2}
        assert {(lemma.groups, lemma.at_most) for lemma in lemmas} == expected
        assert list(lemmas) == sorted(lemmas) and all(lemma.level == cube.level for lemma in lemmas)
        for lemma in lemmas:
            crossed = {i for i, region in enumerate(partition) for group in lemma.groups if set(group) & set(region)}
            assert lemma.counts == tuple(count if i in crossed else len(region)
                                         for i, (region, count) in enumerate(zip(partition, cube.counts)))
            assert lemma.at_most < len(lemma.groups) <= 1024
            assert sum(lemma.counts[i] for i in crossed) == lemma.at_most  # the budget is the union's count


def test_budgets_at_the_bound_or_one_below_are_left_out():
    board = Board(7, 7)
    cube = first_cubes(board, 3)[1]
    partition = partitions(board)[0]
    below = cube_lemmas(section_lines(queens(board), 3, "lemma-"), 0, partition, cube.counts)
    up_to = cube_lemmas(section_lines(queens(board), 4, "lemma-"), 0, partition, cube.counts)
    assert set(below) < set(up_to) and {lemma.at_most for lemma in set(up_to) - set(below)} == {2}


@pytest.mark.parametrize("piece, objective", [(Piece.KNIGHT, Objective.DOMINATION), (Piece.KING, Objective.DOMINATION),
                                              (Piece.QUEEN, Objective.TOTAL_DOMINATION)])
def test_pieces_and_objectives_without_lines_get_no_lemmas(tmp_path, piece, objective):
    problem = PlacementProblem(Board(5, 5), piece, objective)
    assert section_lines(problem, 3, "lemma-") is None
    formula = plain_formula(problem, 2)
    formula.write_dimacs(tmp_path / "formula.cnf")
    plan = region_plan(problem, formula, tmp_path / "formula.cnf", 2, ("totalizer", "row-major"), False)
    assert all(section.lemmas is None for section in plan.sections)


def test_lemmas_are_off_when_asked_and_fewer_has_its_own_bound(tmp_path):
    problem = PlacementProblem(Board(6, 6), Piece.QUEEN, Objective.INDEPENDENT_DOMINATION)
    formula = plain_formula(problem, 3)
    formula.write_dimacs(tmp_path / "formula.cnf")
    plan = region_plan(problem, formula, tmp_path / "formula.cnf", 3, ("totalizer", "row-major"), True)
    assert [(s.lemmas.bound, s.lemmas.prefix) for s in plan.sections] == [(3, "lemma-"), (2, "fewer-lemma-")]
    off = region_plan(problem, formula, tmp_path / "formula.cnf", 3, ("totalizer", "row-major"), True, lemmas=False)
    assert all(section.lemmas is None for section in off.sections)


def occupied(lemma, placement) -> int:
    return sum(1 for group in lemma.groups if set(group) & placement)


def test_a_lemmas_formula_admits_exactly_the_placements_within_its_caps_with_more_lines_than_its_budget():
    board = Board(6, 6)
    partition = partitions(board)[1]
    lines = section_lines(queens(board), 4, "lemma-")
    generator = random.Random(7)
    lemmas = {lemma for _ in range(30)
              for lemma in cube_lemmas(lines, 1, partition,
                                       tuple(generator.randint(0, min(2, len(r))) for r in partition))}
    for lemma in sorted(lemmas)[::7]:
        caps = cube_clauses(36, partition, lemma.counts, AT_MOST)
        clauses = lemma_formula(caps, 36, lemma)
        with Solver(name="cadical195", bootstrap_with=[list(clause) for clause in clauses]) as solver:
            assert not solver.solve()  # the lemma holds: the formula is refuted
        for _ in range(20):  # without the caps, a placement is a model exactly when it has more occupied lines
            placement = set(generator.sample(range(36), generator.randint(0, 8)))
            with Solver(name="cadical195", bootstrap_with=[list(c) for c in clauses[len(caps):]]) as solver:
                assumptions = [s + 1 if s in placement else -(s + 1) for s in range(36)]
                assert solver.solve(assumptions=assumptions) == (occupied(lemma, placement) > lemma.at_most)


def test_a_cubes_lemma_clauses_admit_exactly_the_placements_within_every_budget_numbered_fresh():
    board = Board(7, 7)
    partition = partitions(board)[0]
    lines = section_lines(queens(board), 3, "lemma-")
    lemmas = cube_lemmas(lines, 0, partition, first_cubes(board, 3)[3].counts)
    top = 100
    clauses = applied_clauses(top, lemmas)
    first = lemmas[0]
    squares = [s + 1 for s in first.groups[0]]  # y_1 = top + 1, defined as the contract spells it
    assert clauses[:1 + len(squares)] == ((-(top + 1), *squares), *((top + 1, -s) for s in squares))
    assert all(abs(literal) <= 49 or abs(literal) > top for clause in clauses for literal in clause)
    generator = random.Random(3)
    with Solver(name="cadical195", bootstrap_with=[list(clause) for clause in clauses]) as solver:
        for _ in range(60):
            placement = set(generator.sample(range(49), generator.randint(0, 6)))
            assumptions = [s + 1 if s in placement else -(s + 1) for s in range(49)]
            allowed = all(occupied(lemma, placement) <= lemma.at_most for lemma in lemmas)
            assert solver.solve(assumptions=assumptions) == allowed


@pytest.mark.parametrize("board, bound", [(Board(7, 7), 3), (Board(8, 8), 4)], ids=str)
def test_cadical_refutes_each_lemma_alone_and_each_cube_with_its_lemmas(tmp_path, board, bound):
    problem = queens(board)
    formula = plain_formula(problem, bound)
    lines = section_lines(problem, bound, "lemma-")
    partition = partitions(board)[0]
    for cube in first_cubes(board, bound)[::3]:
        lemmas = cube_lemmas(lines, 0, partition, cube.counts)
        assert lemmas
        for lemma in lemmas[::5]:
            caps = cube_clauses(formula.variables, partition, lemma.counts, AT_MOST)
            with Solver(name="cadical195", bootstrap_with=lemma_formula(caps, formula.variables, lemma)) as solver:
                assert not solver.solve()
        region = cube_clauses(formula.variables, partition, cube.counts, EXACTLY)
        extra = region + applied_clauses(largest_variable(formula.variables, region), lemmas)
        with Solver(name="cadical195", bootstrap_with=formula.clauses + [list(c) for c in extra]) as solver:
            assert not solver.solve()


def test_a_lemma_is_proved_with_a_drat_proof_from_its_own_clauses_alone(tmp_path):
    board = Board(7, 7)
    partition = partitions(board)[0]
    lemma = cube_lemmas(section_lines(queens(board), 3, "lemma-"), 0, partition, first_cubes(board, 3)[2].counts)[0]
    clauses = lemma_formula(cube_clauses(49, partition, lemma.counts, AT_MOST), 49, lemma)
    run = log_proof(None, tmp_path / "lemma.drat", time_limit=60, max_proof_bytes=1 << 20, extra=clauses)
    assert run.status == "unsat" and (tmp_path / "lemma.drat").stat().st_size == run.proof_bytes


class Recording(ThreadPoolExecutor):
    """Runs everything, recording each proof's name; the first cube (``split_first``) out of
    time, every lemma (``lemmas_too_large``) past the proof limit, without running them."""

    def __init__(self, split_first: bool = False, lemmas_too_large: bool = False):
        super().__init__(2)
        self.names, self.split_first, self.lemmas_too_large = [], split_first, lemmas_too_large

    def submit(self, fn, /, *args, **kwargs):
        self.names.append(args[1].name)
        canned = None
        if self.split_first and len(self.names) == 1:
            canned = ProofRun("timeout", None, 0.0, 0)
        elif self.lemmas_too_large and args[1].name.startswith(".lemma-"):
            canned = ProofRun("too_large", None, 0.0, 1 << 30)
        if canned is None:
            return super().submit(fn, *args, **kwargs)
        future = Future()
        future.set_result(canned)
        return future


def proved_plan(tmp_path, board: Board, bound: int, executor, **options):
    problem = queens(board)
    formula = plain_formula(problem, bound)
    formula.write_dimacs(tmp_path / "formula.cnf")
    plan = region_plan(problem, formula, tmp_path / "formula.cnf", bound, ("totalizer", "row-major"), False,
                       **options)
    return plan, prove_regions(board, plan.sections, tmp_path, executor, RegionLimits(None, 1 << 26))


def test_a_section_proves_each_distinct_lemma_once_and_numbers_them_in_order(tmp_path):
    board = Board(7, 7)
    with Recording() as executor:
        plan, proofs = proved_plan(tmp_path, board, 3, executor)
    lines, partition = plan.sections[0].lemmas, partitions(board)[0]
    uses = [lemma for cube in first_cubes(board, 3) for lemma in cube_lemmas(lines, 0, partition, cube.counts)]
    assert len(uses) > len(set(uses))  # cubes share lemmas
    assert sum(name.startswith(".lemma-") for name in executor.names) == len(set(uses))
    listed = [lemma for lemma, _ in proofs.lemmas[0]]
    assert listed == sorted(set(uses)) and all(run.status == "unsat" for _, run in proofs.lemmas[0])
    for proof in proofs.sections[0]:
        assert [listed[k - 1] for k in proof.lemmas] == list(cube_lemmas(lines, 0, partition, proof.cube.counts))
    files = sorted(path.name for path in tmp_path.iterdir())
    assert files == sorted(["formula.cnf"] + [f"cube-{k}.drat" for k in range(1, len(proofs.sections[0]) + 1)]
                           + [f"lemma-{k}.drat" for k in range(1, len(listed) + 1)])


def test_a_split_cubes_lemmas_are_proved_but_only_those_of_the_final_cubes_are_kept(tmp_path):
    board = Board(7, 7)
    with Recording(split_first=True) as executor:
        plan, proofs = proved_plan(tmp_path, board, 3, executor)
    assert proofs.splits == 1 and {proof.cube.level for proof in proofs.sections[0]} == {0, 1}
    used = {k for proof in proofs.sections[0] for k in proof.lemmas}
    assert used == set(range(1, len(proofs.lemmas[0]) + 1))
    for proof in proofs.sections[0]:
        assert all(proofs.lemmas[0][k - 1][0].level == proof.cube.level for k in proof.lemmas)
    proved = sum(name.startswith(".lemma-") for name in executor.names)
    kept = sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("lemma-"))
    assert proved > len(kept) == len(proofs.lemmas[0]) and not any(p.name.startswith(".") for p in tmp_path.iterdir())


def test_without_lemmas_no_lemma_is_proved(tmp_path):
    with Recording() as executor:
        _, proofs = proved_plan(tmp_path, Board(7, 7), 3, executor, lemmas=False)
    assert proofs.lemmas == [[]] and all(proof.lemmas == () for proof in proofs.sections[0])
    assert not any(name.startswith(".lemma-") for name in executor.names)


def test_lines_of_a_section_are_those_of_the_formulation():
    problem = queens(Board(5, 5))
    lines = section_lines(problem, 2, "fewer-lemma-")
    formulation = formulate(problem)
    assert lines == Lines(formulation.lines, formulation.line_families, 2, "fewer-lemma-")


# ---- certificates with lemmas, checked by the independent checker -----------------------------


@pytest.fixture(scope="module")
def queens7(tmp_path_factory):
    directory = tmp_path_factory.mktemp("lemmas") / "q7"
    manifest = make_certificate(solve_placement("queen", 7), directory, CertifyOptions(time_limit=120,
                                split="regions")).manifest
    return directory, manifest


def test_region_cubes_with_line_budget_lemmas_are_verified(queens7):
    directory, manifest = queens7
    regions = manifest["regions"]
    lemmas = regions["lemmas"]
    assert manifest["check"]["verdict"] == "VERIFIED" and {"lemmas", "lemma refutations"} <= set(manifest["check"]["steps"])
    assert [lemma["proof"]["file"] for lemma in lemmas] == [f"lemma-{k}.drat" for k in range(1, len(lemmas) + 1)]
    assert manifest["prover"]["lemmas"] == len(lemmas)
    for cube in regions["cubes"]:
        assert cube["lemmas"] == sorted(cube["lemmas"]) and len(set(cube["lemmas"])) == len(cube["lemmas"])
        for k in cube["lemmas"]:
            assert lemmas[k - 1]["level"] == cube["level"]
            assert all(c <= cap for c, cap in zip(cube["counts"], lemmas[k - 1]["counts"]))
    assert {k for cube in regions["cubes"] for k in cube["lemmas"]} == set(range(1, len(lemmas) + 1))
    files = ["formula.cnf", "manifest.json"] + [entry["proof"]["file"] for entry in regions["cubes"] + lemmas]
    assert sorted(path.name for path in directory.iterdir()) == sorted(files)
    assert check_certificate(directory).ok


def forged(queens7, tmp_path, change) -> object:
    """The verdict on a copy of the certificate changed by ``change(directory, manifest)``."""
    directory = shutil.copytree(queens7[0], tmp_path / "forged")
    manifest = json.loads((directory / "manifest.json").read_text())
    change(directory, manifest)
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return check_certificate(directory)


def test_a_certificate_missing_one_lemma_proof_is_rejected(queens7, tmp_path):
    verdict = forged(queens7, tmp_path, lambda directory, manifest: (directory / "lemma-1.drat").unlink())
    assert not verdict.ok and "lemma-1.drat" in verdict.reason


def test_a_lemma_proof_listed_under_another_lemma_is_rejected(queens7, tmp_path):
    def swap(directory, manifest):
        lemmas = manifest["regions"]["lemmas"]
        # the longest proof's lemma is not refuted by propagation alone, so another's short proof fails on it
        longest = max(lemmas, key=lambda lemma: lemma["proof"]["bytes"])
        shortest = min(lemmas, key=lambda lemma: lemma["proof"]["bytes"])
        (directory / longest["proof"]["file"]).write_bytes((directory / shortest["proof"]["file"]).read_bytes())
        longest["proof"] = {**shortest["proof"], "file": longest["proof"]["file"]}

    verdict = forged(queens7, tmp_path, swap)
    assert not verdict.ok and "lemma refutations" in verdict.steps and "lemma-" in verdict.reason, verdict.reason


def test_a_cube_that_leaves_out_a_lemma_its_proof_used_is_rejected(queens7, tmp_path):
    def drop(directory, manifest):
        for cube in manifest["regions"]["cubes"]:
            cube["lemmas"] = cube["lemmas"][1:]

    verdict = forged(queens7, tmp_path, drop)
    assert not verdict.ok and "region refutations" in verdict.steps, verdict.reason


def test_a_count_with_lemmas_in_both_sections_is_verified(tmp_path):
    result = solve_placement("queen", 6, count=True, representatives=True)
    manifest = make_certificate(result, tmp_path / "q6-count", CertifyOptions(time_limit=120, split="regions"),
                                enumeration=True).manifest
    assert manifest["regions"]["lemmas"] and manifest["fewer"]["regions"]["lemmas"]
    assert all(lemma["at_most"] < result.value for lemma in manifest["regions"]["lemmas"])
    assert all(lemma["at_most"] < result.value - 1 for lemma in manifest["fewer"]["regions"]["lemmas"])
    assert manifest["fewer"]["regions"]["lemmas"][0]["proof"]["file"] == "fewer-lemma-1.drat"
    assert manifest["check"]["checked"] and check_certificate(tmp_path / "q6-count").ok


def test_only_cubes_of_the_lemma_levels_carry_lemmas(tmp_path):
    """Split cubes (level 1) go without lemmas: measured, theirs made them slower (LEMMA_LEVELS)."""
    with Recording(split_first=True) as executor:
        _, proofs = proved_plan(tmp_path, Board(7, 7), 3, executor)
    levels = {proof.cube.level: bool(proof.lemmas) for proof in proofs.sections[0]}
    assert LEMMA_LEVELS == (0,) and levels == {0: True, 1: False}


def test_a_lemma_that_cannot_be_proved_leaves_the_cubes_to_be_refuted_without_lemmas(tmp_path):
    with Recording(lemmas_too_large=True) as executor:
        manifest = make_certificate(solve_placement("queen", 7), tmp_path / "q7", CertifyOptions(time_limit=120,
                                    split="regions"), executor=executor).manifest
    assert manifest["check"]["verdict"] == "VERIFIED" and "lemmas" not in manifest["regions"]
    assert len([name for name in executor.names if name.startswith(".cube-")]) > len(manifest["regions"]["cubes"])  # twice
    assert sorted(p.name for p in (tmp_path / "q7").iterdir() if p.name.startswith(".")) == []
