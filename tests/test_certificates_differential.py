"""The DRAT check against drat-trim (Heule & Wetzler), a checker nobody on this project
wrote, on small random formulas. A satisfiable formula is refuted by nothing, so every
proof of one is a forgery: fresh-variable RAT chains, deleted reasons and units, garbage,
and CaDiCaL's genuine proofs of a nearby unsatisfiable formula, whole or garbled — chessdom
rejects each, and so does drat-trim. On unsatisfiable formulas (random 3-CNF past the
threshold, pigeonholes) chessdom accepts CaDiCaL's genuine proofs, and whatever garbled
proof it accepts, drat-trim accepts too: as it stands, or with its deletions left out,
which is what chessdom's second pass checks (:mod:`chessdom.certificates.refutation`).

Formulas have at most 12 variables (pigeonholes 20) and 45 clauses, so each example is
milliseconds of checking plus one drat-trim process (about 50 ms)."""

from __future__ import annotations

import hashlib
import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from pysat.examples.genhard import PHP
from pysat.solvers import Minisat22

from chessdom.certificates import Unreadable
from chessdom.certificates.refutation import Refutation, check_refutation
from chessdom.models.certificates.prover import refutation_events
from reference_checker import MISSING, drat_trim, drat_trim_verifies

ENGINES = ("native", "python")
FORGERIES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GENUINE = settings(max_examples=30, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.fixture(scope="module", autouse=True)
def reference():
    if drat_trim() is None:
        pytest.skip(MISSING)


# ---- formulas, proofs and the two checkers ------------------------------------------------


def dimacs(clauses, variables: int) -> str:
    return f"p cnf {variables} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


def proof_text(steps) -> str:
    """Steps ``("a"|"d", literals)`` as text DRAT; ``("a", ())`` is the empty clause."""
    return "".join(("d " if kind == "d" else "") + " ".join(map(str, (*lits, 0))) + "\n" for kind, lits in steps)


def read_steps(text: str) -> list[tuple[str, tuple[int, ...]]]:
    steps = []
    for line in text.splitlines():
        tokens = line.split()
        if not tokens:
            continue
        kind = "d" if tokens[0] == "d" else "a"
        literals = tuple(int(token) for token in tokens[kind == "d":])
        assert literals[-1] == 0, line
        steps.append((kind, literals[:-1]))
    return steps


def satisfiable(clauses) -> bool:
    with Minisat22(bootstrap_with=clauses) as solver:
        return solver.solve()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Verdicts:
    """One formula and one proof, written to files, put to chessdom (each engine) and to
    drat-trim."""

    def __init__(self, directory: Path, clauses, variables: int, steps):
        self.directory = directory
        self.formula = directory / "formula.cnf"
        self.proof = directory / "proof.drat"
        self.formula.write_text(dimacs(clauses, variables))
        self.proof.write_text(proof_text(steps))
        self.steps = list(steps)

    def chessdom(self, engine: str = "native") -> bool:
        formula, proof = self.formula.read_bytes(), self.proof.read_bytes()
        refutation = Refutation("proof.drat", str(self.formula), sha256(formula), str(self.proof), sha256(proof),
                                formula_bytes=len(formula), proof_bytes=len(proof))
        return check_refutation(refutation, engine) is None

    def drat_trim(self) -> bool:
        return drat_trim_verifies(self.formula, self.proof)

    def drat_trim_without_deletions(self) -> bool:
        undeleted = self.directory / "undeleted.drat"
        undeleted.write_text(proof_text([step for step in self.steps if step[0] == "a"]))
        return drat_trim_verifies(self.formula, undeleted)


def cadical_proof(clauses, variables: int) -> list[tuple[str, tuple[int, ...]]]:
    """CaDiCaL's text DRAT refutation of an unsatisfiable formula, logged exactly as the
    certificates' prover logs it (:func:`~chessdom.models.certificates.prover.refutation_events`)."""
    with tempfile.TemporaryDirectory() as scratch:
        formula, proof = Path(scratch) / "formula.cnf", Path(scratch) / "proof.drat"
        formula.write_text(dimacs(clauses, variables))
        [_, (_, status, _)] = list(refutation_events(str(formula), str(proof)))
        assert status == "unsat"
        return read_steps(proof.read_text())


def rejected_everywhere(clauses, variables: int, steps) -> None:
    """The proof refutes a satisfiable formula, so both checkers must say no."""
    assert satisfiable(clauses)
    with tempfile.TemporaryDirectory() as scratch:
        verdicts = Verdicts(Path(scratch), clauses, variables, steps)
        for engine in ENGINES:
            assert not verdicts.chessdom(engine), f"chessdom ({engine}) refuted a satisfiable formula"
        assert not verdicts.drat_trim(), "drat-trim refuted a satisfiable formula"


# ---- strategies ------------------------------------------------------------------------------

WIDTHS = st.sampled_from([1, 2, 2, 3, 3, 3, 4])
"""Units and binaries are what unit propagation runs on, so forged deletions find reasons."""


@st.composite
def clause_over(draw, variables: int, width=WIDTHS):
    size = min(draw(width), variables)
    names = draw(st.lists(st.integers(1, variables), min_size=size, max_size=size, unique=True))
    return tuple(name if draw(st.booleans()) else -name for name in names)


@st.composite
def satisfiable_formulas(draw, propagating: bool = False):
    """``(clauses, variables)``: at most 12 variables and 40 clauses, every clause true
    under a planted assignment (so satisfiable, and pysat is asked again anyway). With
    ``propagating``, it starts with a chain ``l₁``, ``¬l₁ ∨ l₂``, … of literals true under
    that assignment, so that unit propagation sets literals at the root through reasons."""
    variables = draw(st.integers(2, 12))
    model = draw(st.lists(st.booleans(), min_size=variables, max_size=variables))
    clauses = []
    if propagating:
        names = draw(st.lists(st.integers(1, variables), min_size=2, max_size=min(4, variables), unique=True))
        chain = [name if model[name - 1] else -name for name in names]
        clauses = [(chain[0],)] + [(-before, after) for before, after in itertools.pairwise(chain)]
    for clause in draw(st.lists(clause_over(variables), min_size=1, max_size=40)):
        if not any((literal > 0) == model[abs(literal) - 1] for literal in clause):
            clause = (-clause[0], *clause[1:])
        clauses.append(clause)
    return clauses[:40], variables


@st.composite
def unsatisfiable_random_3cnf(draw):
    """Random 3-CNF past the satisfiability threshold (4.3 clauses a variable): 4–8
    variables, 5 clauses a variable or more, at most 40 clauses; kept when unsatisfiable."""
    variables = draw(st.integers(4, 8))
    count = draw(st.integers(min(5 * variables, 40), 40))
    clauses = draw(st.lists(clause_over(variables, st.just(3)), min_size=count, max_size=count))
    assume(not satisfiable(clauses))
    return clauses, variables


@st.composite
def pigeonholes(draw):
    """PHP(h): h + 1 pigeons, h holes (h ≤ 4: 20 variables, 45 clauses), its variables
    renamed and its clauses and literals shuffled."""
    formula = PHP(draw(st.integers(1, 4)))
    names = draw(st.permutations(range(1, formula.nv + 1)))
    rename = {old: new for old, new in zip(range(1, formula.nv + 1), names)}
    clauses = [tuple(draw(st.permutations([rename[abs(l)] * (1 if l > 0 else -1) for l in clause])))
               for clause in formula.clauses]
    return draw(st.permutations(clauses)), formula.nv


UNSATISFIABLE = st.one_of(unsatisfiable_random_3cnf(), pigeonholes())


def unit_propagation(clauses) -> set[int]:
    """The literals the formula's unit propagation sets at the root (no conflict: the
    formulas here are satisfiable)."""
    true: set[int] = set()
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(literal in true for literal in clause):
                continue
            free = [literal for literal in clause if -literal not in true]
            if len(free) == 1:
                true.add(free[0])
                changed = True
    return true


# ---- (a) a satisfiable formula is refuted by nothing -------------------------------------


@FORGERIES
@given(satisfiable_formulas(), st.integers(2, 4), st.data())
def test_a_fresh_variable_rat_chain_with_its_reasons_deleted_refutes_no_satisfiable_formula(formula, length, data):
    """x₁, x₂ ∨ ¬x₁, … xₖ ∨ ¬xₖ₋₁, their deletion, then ¬xₖ and the empty clause: the
    issue's forgery, generalised, with copies of formula clauses mixed in."""
    clauses, variables = formula
    fresh = [variables + index for index in range(1, length + 1)]
    chain = [("a", (fresh[0],))] + [("a", (fresh[i], -fresh[i - 1])) for i in range(1, length)]
    deletions = data.draw(st.permutations([("d", lits) for _, lits in chain[1:]]))
    noise = data.draw(st.lists(st.sampled_from(clauses).map(lambda c: ("a", c)), max_size=3))
    steps = chain + noise + deletions + [("a", (-fresh[-1],)), ("a", ())]
    rejected_everywhere(clauses, variables, steps)


@FORGERIES
@given(satisfiable_formulas(propagating=True), st.data())
def test_deleting_every_clause_on_a_propagated_literal_then_negating_it_refutes_no_satisfiable_formula(
        formula, data):
    """With every clause holding ``l`` deleted, ``¬l`` is RAT on nothing; when unit
    propagation had set ``l`` at the root, the stale assignment made ``¬l`` a conflict."""
    clauses, variables = formula
    units = {clause[0] for clause in clauses if len(clause) == 1}
    propagated = sorted(unit_propagation(clauses) - units)
    pool = propagated or sorted({literal for clause in clauses for literal in clause})
    event("a literal propagated at the root" if propagated else "no literal propagated at the root")
    chosen = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
    steps = []
    for literal in chosen:
        steps += [("d", clause) for clause in clauses if literal in clause and len(clause) > 1]
        steps.append(("a", (-literal,)))
    rejected_everywhere(clauses, variables, steps + [("a", ())])


@FORGERIES
@given(satisfiable_formulas(), st.data())
def test_a_unit_added_deleted_and_negated_refutes_no_satisfiable_formula(formula, data):
    """``x 0``, ``d x 0``, ``-x 0``, ``0``: x fresh, or a formula variable of either sign."""
    clauses, variables = formula
    x = data.draw(st.integers(1, variables + 1)) * data.draw(st.sampled_from([1, -1]))
    rejected_everywhere(clauses, variables, [("a", (x,)), ("d", (x,)), ("a", (-x,)), ("a", ())])


@FORGERIES
@given(satisfiable_formulas(), st.data())
def test_random_additions_and_deletions_refute_no_satisfiable_formula(formula, data):
    clauses, variables = formula
    step = st.one_of(
        clause_over(variables + 1).map(lambda c: ("a", c)),
        clause_over(variables + 1).map(lambda c: ("d", c)),
        st.sampled_from(clauses).map(lambda c: ("d", c)),
    )
    rejected_everywhere(clauses, variables, data.draw(st.lists(step, max_size=12)) + [("a", ())])


@st.composite
def nearby_refutations(draw):
    """A satisfiable formula F, extra clauses E with F ∧ E unsatisfiable (random clauses,
    then blocking clauses of F ∧ E's models on at most three variables until none is left),
    and CaDiCaL's refutation of F ∧ E."""
    clauses, variables = draw(satisfiable_formulas())
    extra = draw(st.lists(clause_over(variables), max_size=6))
    for _ in range(64):
        with Minisat22(bootstrap_with=clauses + extra) as solver:
            if not solver.solve():
                break
            model = {abs(literal): literal for literal in solver.get_model()}
        names = draw(st.lists(st.integers(1, variables), min_size=1, max_size=3, unique=True))
        extra.append(tuple(-model.get(name, name) for name in names))
    else:
        falsified = draw(st.sampled_from(clauses))
        extra += [(-literal,) for literal in falsified]
    return clauses, variables, extra, cadical_proof(clauses + extra, variables)


@FORGERIES
@given(nearby_refutations())
def test_a_genuine_proof_of_a_nearby_unsatisfiable_formula_refutes_no_satisfiable_one(nearby):
    clauses, variables, _, proof = nearby
    rejected_everywhere(clauses, variables, proof)


@FORGERIES
@given(nearby_refutations())
def test_the_clauses_that_made_it_unsatisfiable_claimed_as_lemmas_refute_no_satisfiable_formula(nearby):
    clauses, variables, extra, proof = nearby
    rejected_everywhere(clauses, variables, [("a", clause) for clause in extra] + proof)


@FORGERIES
@given(nearby_refutations(), st.data())
def test_a_shuffled_or_garbled_genuine_proof_refutes_no_satisfiable_formula(nearby, data):
    clauses, variables, _, proof = nearby
    steps = [step for step in proof if step[1]]  # the empty clause goes last, whatever happens
    how = data.draw(st.sampled_from(["shuffle", "drop", "negate", "cut"]))
    if how == "shuffle":
        steps = data.draw(st.permutations(steps))
    elif how == "drop" and steps:
        del steps[data.draw(st.integers(0, len(steps) - 1))]
    elif how == "negate" and steps:
        index = data.draw(st.integers(0, len(steps) - 1))
        kind, lits = steps[index]
        at = data.draw(st.integers(0, len(lits) - 1))
        steps[index] = (kind, (*lits[:at], -lits[at], *lits[at + 1:]))
    elif how == "cut":
        steps = steps[:data.draw(st.integers(0, len(steps)))]
    rejected_everywhere(clauses, variables, steps + [("a", ())])


# ---- (b) genuine proofs of unsatisfiable formulas -------------------------------------------


@GENUINE
@given(UNSATISFIABLE)
def test_cadicals_genuine_refutations_are_accepted_by_chessdom_and_drat_trim(formula):
    """Completeness on real proofs: what CaDiCaL logs for the certificates verifies."""
    clauses, variables = formula
    with tempfile.TemporaryDirectory() as scratch:
        verdicts = Verdicts(Path(scratch), clauses, variables, cadical_proof(clauses, variables))
        for engine in ENGINES:
            assert verdicts.chessdom(engine), f"chessdom ({engine}) rejected CaDiCaL's proof"
        assert verdicts.drat_trim()


def mutated(proof, clauses, data):
    """A genuine proof with one change: a lemma dropped, a literal negated, a clause of the
    formula or a lemma deleted early, a window of steps reversed, or the empty clause cut."""
    steps = list(proof)
    how = data.draw(st.sampled_from(["drop", "negate", "delete early", "reverse", "cut"]))
    event(f"mutation: {how}")
    lemmas = [index for index, (kind, lits) in enumerate(steps) if kind == "a" and lits]
    if how == "drop" and lemmas:
        del steps[data.draw(st.sampled_from(lemmas))]
    elif how == "negate" and lemmas:
        index = data.draw(st.sampled_from(lemmas))
        lits = steps[index][1]
        at = data.draw(st.integers(0, len(lits) - 1))
        steps[index] = ("a", (*lits[:at], -lits[at], *lits[at + 1:]))
    elif how == "delete early":
        victim = data.draw(st.sampled_from([("d", clause) for clause in clauses]
                                           + [("d", steps[index][1]) for index in lemmas]))
        steps.insert(data.draw(st.integers(0, len(steps))), victim)
    elif how == "reverse":
        start = data.draw(st.integers(0, len(steps)))
        end = data.draw(st.integers(start, len(steps)))
        steps[start:end] = steps[start:end][::-1]
    else:
        steps = [step for step in steps if step[1]]
    return steps


@GENUINE
@given(UNSATISFIABLE, st.data())
def test_whatever_garbled_refutation_chessdom_accepts_drat_trim_accepts_too(formula, data):
    """chessdom accepts a proof when its lemmas are RUP with deletions applied, or DRAT
    with deletions left out: drat-trim must verify the proof, or the proof without its
    deletions. Both of chessdom's engines agree."""
    clauses, variables = formula
    with tempfile.TemporaryDirectory() as scratch:
        verdicts = Verdicts(Path(scratch), clauses, variables,
                            mutated(cadical_proof(clauses, variables), clauses, data))
        accepted = verdicts.chessdom("native")
        event("chessdom accepts the garbled proof" if accepted else "chessdom rejects the garbled proof")
        assert verdicts.chessdom("python") == accepted
        if accepted:
            as_it_stands = verdicts.drat_trim()
            event("drat-trim verifies it as it stands" if as_it_stands else "drat-trim rejects it as it stands")
            assert as_it_stands or verdicts.drat_trim_without_deletions()


def test_a_valid_proof_naming_a_fresh_variable_is_accepted_as_drat_trim_accepts_it_within_the_bound():
    """``6 0`` is RAT on a variable no clause names; then ``2 0`` and the empty clause are
    RUP. A proof names no variable above the formula's plus half its length (9 bytes: 6):
    ``10 0`` in its place, which drat-trim accepts, chessdom cannot read
    (:mod:`chessdom.certificates.drat`: drat-trim itself crashes on one near 2³¹)."""
    clauses = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    with tempfile.TemporaryDirectory() as scratch:
        verdicts = Verdicts(Path(scratch), clauses, 2, [("a", (6,)), ("a", (2,)), ("a", ())])
        assert verdicts.drat_trim()
        assert verdicts.chessdom("native")
        verdicts = Verdicts(Path(scratch), clauses, 2, [("a", (10,)), ("a", (2,)), ("a", ())])
        assert verdicts.drat_trim()
        with pytest.raises(Unreadable, match="names none above 7"):
            verdicts.chessdom("native")
