"""Version 3's steps: ``fewer`` where "exactly" needs it, the partitions, cubes, lemmas
and cover of each section (:mod:`.regions`, :mod:`.lemmas`, :mod:`.cover`), and the
refutations of its region cubes and lemmas, their added clauses described here and built
where each proof is checked (:mod:`.added`)."""

from __future__ import annotations

from chessdom.certificates.added import Added, within_budget
from chessdom.certificates.contract import MONOTONE, ContractError
from chessdom.certificates.cover import check_cover
from chessdom.certificates.formula import rebuild_formula
from chessdom.certificates.lemmas import check_lemmas
from chessdom.certificates.manifest import Manifest, Regions
from chessdom.certificates.rebuilt import same_formula
from chessdom.certificates.refutation import Refutation, refutation
from chessdom.certificates.regions import RegionError, check_cubes, read_partitions
from chessdom.certificates.verdict import Verdict


def fewer_step(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """Version 3: the relation "exactly" leaves placements of fewer pieces to ``fewer``,
    unless the objective is monotone and nothing is blocked (adding pieces to one of them
    then gives one of exactly ``B``, refuted). ``fewer`` stands only where it is needed."""
    if read.regions is None:
        return True
    needed = read.regions.relation == "exactly" and read.bound > 0 and (
        read.enumeration is not None or read.objective not in MONOTONE)
    fewer = read.fewer
    if fewer is None:
        if needed:
            return not verdict.fail("fewer", f"the relation 'exactly' refutes placements of exactly {read.bound} "
                                             f"pieces; those of fewer need the manifest's 'fewer', which it lacks")
        return True
    if not needed:
        return not verdict.fail("fewer", "the manifest lists 'fewer' where the contract has none")
    if fewer.bound != read.bound - 1:
        return not verdict.fail("fewer", f"fewer refutes {fewer.bound} pieces, not {read.bound - 1}")
    if fewer.regions.relation == "exactly" and read.objective not in MONOTONE:
        return not verdict.fail("fewer", f"fewer's relation must be 'at most' for {read.objective}")
    verdict.steps["fewer"] = True
    try:
        expected = rebuild_formula(read.problem, fewer.bound, read.encoding, read.order)
    except ContractError as error:
        return not verdict.fail("rebuilt fewer formula", str(error))
    return same_formula(expected, read.raw["fewer"]["formula"], context, verdict, "fewer formula")


def sections(read: Manifest) -> list[tuple[str, Regions, int]]:
    """Version 3's sections of region cubes: ``(step prefix, regions, refuted bound)``."""
    sections = [("", read.regions, read.bound)]
    if read.fewer is not None:
        sections.append(("fewer ", read.fewer.regions, read.fewer.bound))
    return sections


def regions_step(read: Manifest, context: dict, verdict: Verdict) -> bool:
    """Version 3: the partitions, the cubes, and that the cubes cover every count."""
    if read.regions is None:
        return True
    rows, cols = read.problem["rows"], read.problem["cols"]
    for prefix, section, bound in sections(read):
        try:
            levels = read_partitions(rows, cols, section.partitions)
            verdict.steps[f"{prefix}partitions"] = True
            check_cubes(levels, section.cubes)
            verdict.steps[f"{prefix}cubes"] = True
            lemmas = check_lemmas(rows, cols, levels, section)
            if section.lemmas or any(section.cube_lemmas):
                verdict.steps[f"{prefix}lemmas"] = True
            check_cover(levels, section.relation, section.cubes, bound)
        except RegionError as error:
            return not verdict.fail(prefix + error.step, error.reason)
        verdict.steps[f"{prefix}cover"] = True
        context[f"{prefix}levels"], context[f"{prefix}lemmas"] = levels, lemmas
    return True


def region_refutations(read: Manifest, context: dict) -> list[tuple[str, Refutation]]:
    """One refutation per lemma, of its own formula, and one per cube: its formula plus the
    cube's clauses and its lemmas' (the lemmas first: a lemma that does not hold is named
    before the cubes that use it). The clauses are described here, within the contract's
    budget, and built where each proof is checked (:mod:`.added`)."""
    checks = []
    for prefix, section, _ in sections(read):
        formula, lemmas = f"{prefix}formula", context[f"{prefix}lemmas"]
        regions = [tuple(map(tuple, level)) for level in context[f"{prefix}levels"].regions]
        for index, lemma in enumerate(lemmas, start=1):
            label = f"{prefix}lemma proof {index}"
            added = within_budget(Added(regions[lemma.level], None, "at most", (lemma,)), label, "lemmas")
            checks.append((f"{prefix}lemma refutations",
                           refutation(label, context["paths"], read.files, (), None, added, context[formula])))
        proof = "fewer proof" if prefix else "region proof"
        cubes = zip(section.cubes, section.cube_lemmas, strict=True)
        for index, ((level, counts), listed) in enumerate(cubes, start=1):
            added = Added(regions[level], counts, section.relation, tuple(lemmas[k - 1] for k in listed))
            within_budget(added, f"{prefix}cube {index}", "cubes")
            checks.append((f"{prefix}region refutations",
                           refutation(f"{proof} {index}", context["paths"], read.files, (), formula, added)))
    return checks
