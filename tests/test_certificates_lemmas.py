"""Contract version 3's lemmas (issue #38): certificates whose region cubes list line
budgets as lemmas, built by hand from the contract's words (tests/region_certificates.py:
"at most b of these ranks, files or diagonals hold a queen", b from the cube's counts, each
lemma proved by CaDiCaL from its own formula), are accepted; forged ones are rejected at the
step the contract names, each test first showing the checker could not have passed it by
looking elsewhere."""

import copy as deep
import re
import shutil
from pathlib import Path

import pytest
from region_certificates import (
    Plan,
    build,
    clauses_of,
    copier,
    entry,
    largest,
    lemma_clauses_of,
    lemma_formula_of,
    partitions_of,
    prove,
    read,
    rejected,
    write,
)

from chessdom.certificates import Unreadable, check_certificate
from chessdom.certificates.lemmas import check_lemmas, cube_lemma_clauses, lemma_formula
from chessdom.certificates.manifest import read_manifest
from chessdom.certificates.refutation import Refutation, check_refutation
from chessdom.certificates.regions import read_partitions

PLANS = {"q5": Plan(5, lemmas=True), "q6 at most": Plan(6, relation="at most", lemmas=True),
         "q6 split": Plan(6, split_first=True, lemmas=True),
         "q5 count": Plan(5, count=True, fewer="at most", lemmas=True)}


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    root = tmp_path_factory.mktemp("lemmas")
    for key, plan in PLANS.items():
        build(root / key, plan)
    return root


@pytest.fixture
def copy(genuine, tmp_path):
    return copier(genuine, tmp_path)



def edited(directory, change):
    """The manifest changed by ``change`` (and written back: every file keeps its hash)."""
    manifest = read(directory)
    change(manifest)
    write(directory, manifest)
    return manifest


@pytest.mark.parametrize("key", PLANS)
def test_a_certificate_whose_cubes_list_line_budgets_is_accepted(genuine, key):
    manifest = read(genuine / key)
    assert manifest["regions"]["lemmas"] and any("lemmas" in cube for cube in manifest["regions"]["cubes"])
    verdict = check_certificate(genuine / key)
    assert verdict.ok, verdict.reason
    expected = {"lemmas", "lemma refutations", "region refutations"}
    if "fewer" in manifest:
        assert manifest["fewer"]["regions"]["lemmas"]
        expected |= {"fewer lemmas", "fewer lemma refutations", "fewer region refutations"}
    assert all(verdict.steps[step] is True for step in expected)


def test_lemmas_of_a_finer_partition_are_checked_at_their_level(genuine):
    manifest = read(genuine / "q6 split")
    assert {lemma["level"] for lemma in manifest["regions"]["lemmas"]} == {0, 1}


def test_without_lemmas_a_certificate_checks_with_the_steps_it_had(tmp_path):
    build(tmp_path, Plan(5))
    verdict = check_certificate(tmp_path)
    assert verdict.ok and not any("lemma" in step for step in verdict.steps)


def test_the_checkers_lemma_formulas_are_the_contracts(genuine):
    """The checker's lemma formula and a cube's lemma clauses, clause for clause, against
    the ones the helper writes from the contract's words (squares read back from names)."""
    for key in ("q6 split", "q5 count"):
        directory = genuine / key
        read_back = read_manifest(directory)
        n, variables = read_back.problem["rows"], int((directory / "formula.cnf").read_text().split()[2])
        levels = read_partitions(n, n, read_back.regions.partitions)
        lemmas = check_lemmas(n, n, levels, read_back.regions)
        parts = partitions_of(n, 2)
        raw = read(directory)["regions"]["lemmas"]
        for lemma, written in zip(lemmas, raw, strict=True):
            groups = [[(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in group] for group in written["groups"]]
            expected = lemma_formula_of(parts[written["level"]], n, written["counts"], groups, written["at_most"],
                                        variables)
            assert [list(clause) for clause in lemma_formula(levels.regions[lemma.level], lemma, variables)] == expected
        top = variables + 40
        key_of = [(lemma["level"], None, [[(int(s[1:]) - 1, ord(s[0]) - ord("a")) for s in group]
                                          for group in lemma["groups"]], lemma["at_most"]) for lemma in raw]
        assert [list(c) for c in cube_lemma_clauses(lemmas[:3], top)] == lemma_clauses_of(n, key_of[:3], top)


def test_a_lemma_proof_file_that_is_gone_is_rejected_by_its_hash(copy):
    directory = copy("q5")
    (directory / "lemma-2.drat").unlink()
    rejected(directory, "lemma-2.drat hash", "missing")


def test_a_lemma_proof_that_proves_nothing_is_rejected(copy):
    """Each lemma of γ(Q6) ≤ 2 needs counting: unit propagation alone does not refute it."""
    directory = copy("q6 at most")
    manifest = read(directory)
    (directory / "nothing.drat").write_text("0\n")
    for number in range(1, len(manifest["regions"]["lemmas"]) + 1):
        forged = deep.deepcopy(manifest)
        forged["regions"]["lemmas"][number - 1]["proof"] = entry(directory / "nothing.drat")
        write(directory, forged)
        rejected(directory, "lemma refutations", "nothing.drat")


def test_a_lemma_without_a_proof_entry_cannot_be_read(copy):
    directory = copy("q5")
    edited(directory, lambda manifest: manifest["regions"]["lemmas"][0].pop("proof"))
    with pytest.raises(Unreadable, match=r"regions.lemmas\[0\].proof"):
        check_certificate(directory)


@pytest.mark.parametrize("key,step", [("q5", "lemma refutations"), ("q5 count", "fewer lemma refutations")])
def test_the_proof_of_another_lemma_is_rejected(copy, key, step):
    directory = copy(key)

    def swapped(manifest):
        lemmas = manifest.get("fewer", manifest)["regions"]["lemmas"]
        lemmas[0]["proof"], lemmas[-1]["proof"] = lemmas[-1]["proof"], lemmas[0]["proof"]
    edited(directory, swapped)
    rejected(directory, step, "the checker rejected")


def _target(manifest) -> tuple[int, dict]:
    """A lemma of γ(Q6) ≤ 2 with room to change: at most 1 or more of 4 or more groups."""
    return next((number, lemma) for number, lemma in enumerate(manifest["regions"]["lemmas"], start=1)
                if 1 <= lemma["at_most"] and lemma["at_most"] + 2 <= len(lemma["groups"]))


@pytest.mark.parametrize("change", [
    lambda lemma: lemma["groups"].reverse(),
    lambda lemma: lemma["groups"].append(["a1"]),
    lambda lemma: lemma["groups"].__setitem__(0, lemma["groups"][1]),
    lambda lemma: lemma.update(at_most=lemma["at_most"] - 1),
    lambda lemma: lemma["counts"].__setitem__(-1, lemma["counts"][-1] + 1),
], ids=["groups reordered", "a group more", "a group twice", "at most one less", "a cap raised"])
def test_a_changed_lemma_is_not_refuted_by_its_proof(copy, change):
    """Changes a proof of the lemma as listed cannot survive. (A weaker lemma — one square
    less in a group, at most one more — may well be refuted by the same proof, and is then
    rightly accepted: it holds too.)"""
    directory = copy("q6 at most")
    number, _ = _target(read(directory))
    manifest = edited(directory, lambda manifest: change(_target(manifest)[1]))
    lemma = manifest["regions"]["lemmas"][number - 1]
    assert 0 <= lemma["at_most"] < len(lemma["groups"])
    rejected(directory, "lemma refutations", f"lemma-{number}.drat")


def _no_queen_on_any_rank(n: int = 5) -> tuple[list[int], list, dict]:
    """A false lemma, "no rank holds a queen" whatever the regions hold: its caps (every
    region's size), its groups as squares, and its manifest entry without a proof."""
    ranks = [[(r, f) for f in range(n)] for r in range(n)]
    sizes = [len(region) for region in partitions_of(n, 1)[0]]
    return sizes, ranks, {"level": 0, "counts": sizes, "at_most": 0,
                          "groups": [[f"{'abcdefgh'[f]}{r + 1}" for r, f in rank] for rank in ranks]}


def test_a_false_lemma_makes_its_cube_easy_and_is_rejected_at_its_own_proof(copy, tmp_path):
    """"No queen on any rank": a cube's proof with it is a few steps, and valid — only the
    lemma's own proof, which cannot exist, stops the forgery."""
    directory = copy("q5")
    manifest = read(directory)
    n, variables = 5, int((directory / "formula.cnf").read_text().split()[2])
    sizes, ranks, false = _no_queen_on_any_rank()
    formula = (directory / "formula.cnf").read_bytes()
    cube = manifest["regions"]["cubes"][0]
    extra = clauses_of(partitions_of(n, 1)[0], n, cube["counts"], "exactly", variables)
    extra += lemma_clauses_of(n, [(0, sizes, ranks, 0)], largest(variables, extra))
    assert prove(formula, extra, directory / "cube-1.drat")
    forged = Refutation("cube-1.drat", str(directory / "formula.cnf"), entry(directory / "formula.cnf")["sha256"],
                        str(directory / "cube-1.drat"), entry(directory / "cube-1.drat")["sha256"],
                        tuple(map(tuple, extra)), len(formula), entry(directory / "cube-1.drat")["bytes"])
    assert check_refutation(forged) is None
    shutil.copy(directory / "lemma-1.drat", directory / "lemma-false.drat")
    manifest["regions"]["lemmas"].append({**false, "proof": entry(directory / "lemma-false.drat")})
    cube.update(lemmas=[len(manifest["regions"]["lemmas"])], proof=entry(directory / "cube-1.drat"))
    write(directory, manifest)
    rejected(directory, "lemma refutations", "lemma-false.drat")


def test_a_lemma_is_proved_from_its_own_formula_not_from_the_problems(copy):
    """formula.cnf is unsatisfiable (that is the claim), so with its clauses any lemma,
    even a false one, would be refuted: a proof that uses them proves no lemma."""
    directory = copy("q5")
    manifest = read(directory)
    formula = (directory / "formula.cnf").read_bytes()
    sizes, ranks, false = _no_queen_on_any_rank()
    clauses = lemma_formula_of(partitions_of(5, 1)[0], 5, sizes, ranks, 0, int(formula.split()[2]))
    assert prove(formula, clauses, directory / "lemma-false.drat")
    assert not prove(b"p cnf 0 0\n", clauses, directory / "unused.drat")
    manifest["regions"]["lemmas"].append({**false, "proof": entry(directory / "lemma-false.drat")})
    write(directory, manifest)
    rejected(directory, "lemma refutations", "lemma-false.drat")


def test_a_cube_proof_made_with_lemmas_does_not_refute_the_cube_without_them(copy):
    directory = copy("q6 at most")
    manifest = read(directory)
    outcomes = []
    for index, cube in enumerate(manifest["regions"]["cubes"]):
        without = deep.deepcopy(manifest)
        del without["regions"]["cubes"][index]["lemmas"]
        write(directory, without)
        verdict = check_certificate(directory)
        outcomes.append(verdict.reason)
        assert verdict.ok or verdict.reason.startswith(f"region refutations: the checker rejected cube-{index + 1}")
    assert any(reason is not None for reason in outcomes), "every proof refutes its cube without its lemmas"


def _another_levels(manifest):
    cube = next(cube for cube in manifest["regions"]["cubes"] if cube["level"] == 0)
    cube["lemmas"].append(next(k for k, lemma in enumerate(manifest["regions"]["lemmas"], start=1)
                               if lemma["level"] == 1))


def _below_its_counts(manifest):
    cubes, lemmas = manifest["regions"]["cubes"], manifest["regions"]["lemmas"]
    cube = cubes[0]
    cube["lemmas"].append(next(k for k, lemma in enumerate(lemmas, start=1) if lemma["level"] == cube["level"]
                               and any(c > cap for c, cap in zip(cube["counts"], lemma["counts"]))))


def _cap_lowered(manifest):
    """The cap of a region where the cube counts pieces, lowered below its count."""
    cube = next(cube for cube in manifest["regions"]["cubes"] if "lemmas" in cube)
    lemma = manifest["regions"]["lemmas"][cube["lemmas"][0] - 1]
    region = next(i for i, count in enumerate(cube["counts"]) if count > 0)
    lemma["counts"][region] = cube["counts"][region] - 1


@pytest.mark.parametrize("key,step,change,words", [
    ("q6 split", "lemmas", _another_levels, "of level 0 and lists lemma"),
    ("q5", "lemmas", _below_its_counts, "more than the"),
    ("q5", "lemmas", _cap_lowered, "more than the"),
    ("q5", "lemmas", lambda m: m["regions"]["cubes"][0]["lemmas"].append(len(m["regions"]["lemmas"]) + 1),
     "the section has"),
    ("q5", "lemmas", lambda m: m["regions"]["cubes"][0]["lemmas"].append(0), "lists lemma 0"),
    ("q5", "lemmas", lambda m: m["regions"]["cubes"][0]["lemmas"].append(-1), "lists lemma -1"),
    ("q5", "lemmas", lambda m: m["regions"]["cubes"][0]["lemmas"].append(m["regions"]["cubes"][0]["lemmas"][0]),
     "twice"),
    ("q5", "lemmas", lambda m: m["regions"]["cubes"][0].update(lemmas=[1, 1]), "twice"),
    ("q5 count", "fewer lemmas", lambda m: m["fewer"]["regions"]["cubes"][0]["lemmas"].append(999),
     "the section has"),
    ("q5", "lemmas", lambda m: m["regions"].pop("lemmas"), "the section has 0 lemmas"),
], ids=["a lemma of another level", "a lemma below the cube's counts", "a lemma's cap lowered",
        "an index past the end", "index 0", "a negative index", "an index repeated",
        "the same index twice", "fewer's index past the end", "no lemmas to list"])
def test_a_cube_may_list_only_its_own_lemmas(copy, key, step, change, words):
    directory = copy(key)
    edited(directory, change)
    rejected(directory, step, words)


def _group(index, value):
    return lambda m: m["regions"]["lemmas"][0]["groups"].__setitem__(index, value)


@pytest.mark.parametrize("change,words", [
    (lambda m: m["regions"]["lemmas"][0].update(at_most=len(m["regions"]["lemmas"][0]["groups"])), "says nothing"),
    (lambda m: m["regions"]["lemmas"][0].update(at_most=99), "says nothing"),
    (_group(0, []), "group 1 is empty"),
    (_group(1, ["a1", "z9"]), "group 2: z9 is off the board"),
    (_group(1, ["a1", "A1"]), "group 2: 'A1' is not a square name"),
    (_group(2, ["b2", "c3", "b2"]), "group 3: b2 is given twice"),
    (lambda m: m["regions"]["lemmas"][0].update(groups=[["a1"]] * 1025), "1025 groups, not 1…1024"),
    (lambda m: m["regions"]["lemmas"][0].update(groups=[]), "0 groups, not 1…1024"),
    (lambda m: m["regions"]["lemmas"][0].update(level=1), "lemma 1 is of level 1; the manifest lists 1 partitions"),
    (lambda m: m["regions"]["lemmas"][0]["counts"].pop(), "gives 4 counts for the 5 regions"),
    (lambda m: m["regions"]["lemmas"][0]["counts"].__setitem__(0, 5), "and it has 4 squares"),
], ids=["at most all the groups", "at most more than the groups", "an empty group", "a square off the board",
        "not a square name", "a square twice in a group", "too many groups", "no groups", "a level not listed",
        "too few counts", "a cap above the region's size"])
def test_a_lemma_that_does_not_fit_the_board_is_rejected(copy, change, words):
    directory = copy("q5")
    edited(directory, change)
    rejected(directory, "lemmas", words)


@pytest.mark.parametrize("change,words", [
    (lambda m: m["regions"].update(lemmas={}), "regions.lemmas must be a JSON list"),
    (lambda m: m["regions"]["lemmas"].append(7), r"regions.lemmas\[\d+\] must be a JSON object"),
    (lambda m: m["regions"]["lemmas"][0].update(groups=["a1"]), r"lemmas\[0\].groups must be a list of groups"),
    (lambda m: m["regions"]["lemmas"][0]["groups"][0].append(3), r"lemmas\[0\].groups\[0\] must be a list of square"),
    (lambda m: m["regions"]["lemmas"][0].update(at_most=True), r"lemmas\[0\].at_most"),
    (lambda m: m["regions"]["lemmas"][0].update(at_most=-1), r"lemmas\[0\].at_most must be in 0…1024"),
    (lambda m: m["regions"]["lemmas"][0].update(counts="1"), r"lemmas\[0\].counts"),
    (lambda m: m["regions"]["lemmas"][0].pop("level"), r"lemmas\[0\].level"),
    (lambda m: m["regions"]["cubes"][0].update(lemmas=[1, True]), r"cubes\[0\].lemmas must be a list of lemma"),
    (lambda m: m["regions"]["cubes"][0].update(lemmas=1), r"cubes\[0\].lemmas must be a JSON list"),
    (lambda m: m["regions"]["lemmas"][1].update(proof=m["regions"]["lemmas"][0]["proof"]), "a name of its own"),
    (lambda m: m["regions"]["lemmas"][0].update(proof=m["regions"]["cubes"][0]["proof"]), "a name of its own"),
])
def test_a_lemma_of_the_wrong_shape_cannot_be_read(copy, change, words):
    directory = copy("q5")
    edited(directory, change)
    with pytest.raises(Unreadable, match=words):
        check_certificate(directory)


def test_a_section_of_more_lemmas_than_the_cap_cannot_be_read(copy, monkeypatch):
    directory = copy("q5")
    manifest = read(directory)
    cubes, lemmas = len(manifest["regions"]["cubes"]), len(manifest["regions"]["lemmas"])
    assert cubes < lemmas
    monkeypatch.setattr("chessdom.certificates.manifest.MAX_CUBES", lemmas)
    assert check_certificate(directory).ok
    monkeypatch.setattr("chessdom.certificates.manifest.MAX_CUBES", lemmas - 1)
    with pytest.raises(Unreadable, match=f"regions.lemmas must list at most {lemmas - 1} lemmas"):
        check_certificate(directory)


def test_the_contract_pages_recipe_writes_the_checkers_lemma_formulas(genuine):
    """The page's ``lemma_cnf`` (docs/explanation/certificate-contract.md, "Lemmas"), run as
    printed, gives the clauses the checker refutes, in the same order."""
    page = (Path(__file__).parents[1] / "docs" / "explanation" / "certificate-contract.md").read_text()
    recipe = next(code for code in re.findall(r"```python\n(.*?)```", page, re.DOTALL) if "def lemma_cnf" in code)
    scope: dict = {}
    exec(recipe, scope)  # noqa: S102 - the page's own example, run to keep it true
    directory = genuine / "q6 split"
    read_back = read_manifest(directory)
    variables = int((directory / "formula.cnf").read_text().split(maxsplit=3)[2])
    levels = read_partitions(6, 6, read_back.regions.partitions)
    for lemma in check_lemmas(6, 6, levels, read_back.regions):
        text = scope["lemma_cnf"](variables, levels.regions[lemma.level], lemma.counts, lemma.groups, lemma.at_most)
        clauses = lemma_formula(levels.regions[lemma.level], lemma, variables)
        assert text.splitlines()[1:] == [" ".join(map(str, clause)) + " 0" for clause in clauses]


def test_a_cube_listing_more_lemmas_than_the_cap_cannot_be_read(copy, monkeypatch):
    directory = copy("q5")
    listed = max(len(cube.get("lemmas", [])) for cube in read(directory)["regions"]["cubes"])
    assert listed > 1
    monkeypatch.setattr("chessdom.certificates.manifest.MAX_CUBE_LEMMAS", listed)
    assert check_certificate(directory).ok
    monkeypatch.setattr("chessdom.certificates.manifest.MAX_CUBE_LEMMAS", listed - 1)
    with pytest.raises(Unreadable, match=rf"\.lemmas must list at most {listed - 1} lemmas, not {listed}"):
        check_certificate(directory)
