"""A certificate's manifest: what it proves, in words the checker derives again, and every
file it holds with its size and SHA-256 (docs/explanation/certificate-contract.md)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from chessdom.certificates import (
    COMPOUND_PIECES, CONTRACT, CONTRACT_V3, CONTRACT_V4, CONTRACT_V6, COVER, CUBES, FEWER_FORMULA, FORMULA, LRAT_SUFFIX,
    MANIFEST, PROOF, claim, enumeration_claim,
)
from chessdom.chessboard import PlacementResult, square_names
from chessdom.models.certificates.cubes import Bundle
from chessdom.models.certificates.enumeration import Enumeration
from chessdom.models.certificates.formula import PlainFormula
from chessdom.models.certificates.lemmas import Lemma
from chessdom.models.certificates.prover import SOLVER, ProofRun
from chessdom.models.certificates.region_evidence import RegionPlan
from chessdom.models.certificates.regions import ProvedCube, RegionProofs, Section, partition_names, partitions


@dataclass(frozen=True)
class Evidence:
    """One proof (``run``), or a cube bundle with its cover proof, or (contract version 3)
    the region cubes of ``plan``'s sections with their ``regions`` proofs."""

    run: ProofRun | None = None
    bundle: Bundle | None = None
    cover: ProofRun | None = None
    seconds: float = 0.0
    """A bundle's wall time, first cube to cover (or to the last region cube)."""
    plan: RegionPlan | None = None
    regions: RegionProofs | None = None
    form: str = "drat"
    """The proofs' format (:data:`~.prover.FORMS`): ``lrat`` makes contract version 6."""


FORMATS = {"drat": "DRAT, text", "lrat": "LRAT, binary, gzip"}
"""``proof.format`` and ``cubes.format`` by the proofs' form."""


def proof_name(name: str, form: str) -> str:
    """A proof file's name (``proof.drat``, ``cube-3.drat``, …) as ``form`` stores it."""
    return name.removesuffix(".drat") + LRAT_SUFFIX if form == "lrat" else name


def rename_proofs(directory: Path, form: str) -> None:
    """Every proof in ``directory`` named as ``form`` stores it (the runs write ``.drat``)."""
    if form != "drat":
        for path in directory.glob("*.drat"):
            path.rename(directory / proof_name(path.name, form))


def file_entry(path: Path) -> dict:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return {"file": path.name, "bytes": size, "sha256": digest.hexdigest()}


def bundle_entries(directory: Path, cubes: int, form: str = "drat") -> dict:
    """The manifest's ``cubes``: the cube file, one proof per cube, the cover proof."""
    return {"file": file_entry(directory / CUBES),
            "proofs": [file_entry(directory / proof_name(f"cube-{index}.drat", form)) for index in range(1, cubes + 1)],
            "cover": file_entry(directory / proof_name(COVER, form))}


def manifest_of(result: PlacementResult, bound: int, encoding: str, order: str, directory: Path,
                formula: PlainFormula, evidence: Evidence, listed: Enumeration | None) -> dict:
    problem = result.problem
    problem_dict = problem.to_dict()
    manifest = {"contract": CONTRACT, "problem": problem_dict, "value": result.value}
    if listed is None:
        manifest["witness"] = list(result.placement)
        manifest["claim"] = claim(problem_dict, bound)
    else:
        manifest["enumeration"] = listed.to_manifest()
        manifest["claim"] = enumeration_claim(problem_dict, result.value, len(listed.placements),
                                              len(listed.representatives), len(listed.symmetries))
    manifest["refuted"] = {"bound": bound, "relation": "at least" if problem.objective.maximize else "at most"}
    if listed is not None:
        manifest["refuted"]["blocked"] = len(listed.placements)
    manifest.update({
        "encoding": encoding,
        "order": order,
        "formula": {**file_entry(directory / FORMULA), "variables": formula.variables,
                    "clauses": len(formula.clauses)},
    })
    if evidence.regions is not None:
        manifest["contract"] = CONTRACT_V3
        manifest.update(_region_entries(problem.board, directory, evidence))
    elif evidence.run is not None:
        run = evidence.run
        manifest["proof"] = {**file_entry(directory / proof_name(PROOF, evidence.form)),
                             "format": FORMATS[evidence.form]}
        manifest["prover"] = {**SOLVER, "solve_seconds": round(run.solve_seconds, 3),
                              "wall_seconds": round(run.wall_seconds, 3)}
    else:
        runs = evidence.bundle.runs
        manifest["cubes"] = {**bundle_entries(directory, len(runs), evidence.form), "count": len(runs),
                             "splits": evidence.bundle.splits, "format": FORMATS[evidence.form]}
        manifest["prover"] = {**SOLVER, "solve_seconds": round(sum(run.solve_seconds for run in runs)
                                                               + evidence.cover.solve_seconds, 3),
                              "longest_cube_seconds": round(max(run.solve_seconds for run in runs), 3),
                              "wall_seconds": round(evidence.seconds, 3)}
    if problem_dict["piece"] in COMPOUND_PIECES:  # the version that lists them (the contract page)
        manifest["contract"] = CONTRACT_V4
    if evidence.form == "lrat":  # versions 2 to 4 in LRAT, every piece
        manifest["contract"] = CONTRACT_V6
    manifest["optimum"] = {"solver": result.solver.name, "proof": result.proof}
    manifest["created_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return manifest


def _region_entries(board, directory: Path, evidence: Evidence) -> dict:
    """Contract version 3's ``regions``, ``fewer`` (when planned) and ``prover``."""
    plan, proved = evidence.plan, evidence.regions.sections
    lemmas = evidence.regions.lemmas
    entries = {"regions": _regions(board, directory, plan.sections[0], proved[0], lemmas[0], evidence.form)}
    if plan.fewer is not None:
        bound, formula = plan.fewer
        entries["fewer"] = {"bound": bound,
                            "formula": {**file_entry(directory / FEWER_FORMULA), "variables": formula.variables,
                                        "clauses": len(formula.clauses)},
                            "regions": _regions(board, directory, plan.sections[1], proved[1], lemmas[1],
                                                evidence.form)}
    runs = [proof.run for section in proved for proof in section]
    lemma_runs = [run for section in evidence.regions.lemmas for _, run in section]
    entries["prover"] = {**SOLVER, "solve_seconds": round(sum(run.solve_seconds for run in runs + lemma_runs), 3),
                         "longest_cube_seconds": round(max(run.solve_seconds for run in runs), 3),
                         "wall_seconds": round(evidence.seconds, 3), "cubes": len(runs),
                         "lemmas": len(lemma_runs), "splits": evidence.regions.splits}
    return entries


def _regions(board, directory: Path, section: Section, proved: list[ProvedCube],
             lemmas: list[tuple[Lemma, ProofRun]], form: str) -> dict:
    """One section's partitions (as many as its deepest cube or lemma needs), relation,
    cubes and (when its cubes use any) lemmas."""
    deepest = max(proof.cube.level for proof in proved)
    entry = {"partitions": [partition_names(board, partition) for partition in partitions(board)[:deepest + 1]],
             "relation": section.relation,
             "cubes": [{"level": proof.cube.level, "counts": list(proof.cube.counts),
                        "proof": file_entry(directory / proof_name(f"{section.prefix}{index}.drat", form)),
                        **({"lemmas": list(proof.lemmas)} if proof.lemmas else {})}
                       for index, proof in enumerate(proved, start=1)]}
    if lemmas:
        entry["lemmas"] = [{"level": lemma.level, "counts": list(lemma.counts),
                            "groups": [square_names(board, group) for group in lemma.groups],
                            "at_most": lemma.at_most,
                            "proof": file_entry(directory / proof_name(f"{section.lemmas.prefix}{index}.drat",
                                                                       form))}
                           for index, (lemma, _) in enumerate(lemmas, start=1)]
    return entry


def cube_count(manifest: dict) -> int | None:
    """How many cube proofs a manifest lists (a bundle's, or version 3's region cubes,
    ``fewer``'s included); None for a certificate of one proof, ``proof.drat``."""
    if "cubes" in manifest:
        return manifest["cubes"]["count"]
    if "regions" in manifest:
        return len(manifest["regions"]["cubes"]) + len(manifest.get("fewer", {}).get("regions", {}).get("cubes", ()))
    return None


def write_manifest(directory: Path, manifest: dict) -> None:
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
