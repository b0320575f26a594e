"""``manifest.json`` read as a hostile author might have written it: at most
:data:`~.contract.MAX_MANIFEST_BYTES`, from a regular file, every field of the type the
contract gives it, and the work it asks for — the board, the bound, the cubes, each
file's declared size — within the contract's limits before any of it is done. Anything
else is :class:`~.files.Unreadable`: the certificate cannot be read, which is not the same
as read and rejected (a claim or a proof that does not hold)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from chessdom.certificates.contract import (
    CONTRACT_V1,
    CONTRACT_V3,
    CONTRACT_V4,
    CONTRACT_V5,
    CONTRACT_V6,
    CONTRACT_V7,
    CONTRACT_V8,
    CONTRACT_V9,
    CONTRACT_V10,
    CONTRACTS,
    ENCODINGS,
    MANIFEST,
    MAX_CUBE_LEMMAS,
    MAX_CUBES,
    MAX_ENUMERATED,
    MAX_FORMULA_BYTES,
    MAX_GROUPS,
    MAX_MANIFEST_BYTES,
    MAX_PARTITIONS,
    MAX_PROOF_BYTES,
    MAX_REGIONS,
    MAX_SQUARES,
    MAX_TREE_BYTES,
    MAX_TREE_NODES,
    MAX_TREE_WORK,
    MINIMISATIONS,
    NO_SOLUTION,
    ORDERS,
    PIECES,
    PIECES_V1,
    ContractError,
    validate_problem,
)
from chessdom.certificates.files import FileMismatch, Unreadable, read_capped
from chessdom.certificates.manifest_fields import (
    Listed,
    choice,
    distinct_and_within,
    integer,
    listed_entry,
    name_list,
    shortened,
    typed,
)


@dataclass(frozen=True)
class Lemma:
    """A version 3 lemma, typed: at most ``at_most`` of ``groups`` (lists of square names)
    hold a piece wherever partition ``level`` holds at most ``counts``; whether the names,
    groups and counts fit the board is checked later (:mod:`.lemmas`)."""

    level: int
    counts: tuple[int, ...]
    groups: list
    at_most: int


@dataclass(frozen=True)
class Regions:
    """Version 3's ``regions`` (or ``fewer.regions``), typed and within the limits; whether
    the partitions partition the board and the cubes fit them is checked later
    (:mod:`.regions`)."""

    partitions: list
    """Lists of regions, a region a list of square names."""
    relation: str
    cubes: list[tuple[int, tuple[int, ...]]]
    """``(level, counts)`` of each cube, in the manifest's order."""
    lemmas: tuple[Lemma, ...] = ()
    """The section's lemmas, in order (lemma ``k`` is ``lemmas[k - 1]``)."""
    cube_lemmas: tuple[tuple[int, ...], ...] = ()
    """The lemma indices each cube lists, one tuple per cube (empty when none are given)."""

    def __post_init__(self):
        if not self.cube_lemmas:  # one (empty) list per cube, so the two always zip
            object.__setattr__(self, "cube_lemmas", ((),) * len(self.cubes))


@dataclass(frozen=True)
class Fewer:
    """Version 3's ``fewer``: the refutation of one piece fewer, in region cubes."""

    bound: int
    regions: Regions


@dataclass(frozen=True)
class Manifest:
    """The manifest's fields the checks rely on, of the contract's types and within its limits."""

    raw: dict
    problem: dict
    objective: str
    value: int | None
    """None only where ``no_solution``."""
    bound: int | None
    encoding: str
    order: str
    witness: list | None
    enumeration: dict | None
    files: dict[str, Listed]
    """``formula``, and ``proof`` or ``cubes``, ``cover`` and ``cube proof N``; version 3:
    ``region proof N`` and ``lemma proof K``, and with ``fewer`` also ``fewer formula``,
    ``fewer proof N`` and ``fewer lemma proof K``."""
    regions: Regions | None = None
    fewer: Fewer | None = None
    no_solution: bool = False
    """Version 4's claim that no placement of any size meets the objective."""
    tree_nodes: int | None = None
    """Version 5: the nodes of the search tree (``files["tree"]``) refuting the bound."""
    cliques: list | None = None
    """Version 8: the cliques (lists of square names) bounding independence."""


def read_manifest(directory: Path) -> Manifest:
    """The manifest of the certificate in ``directory``; raises Unreadable."""
    try:
        data = read_capped(directory / MANIFEST, MAX_MANIFEST_BYTES)
    except FileMismatch:
        raise Unreadable(f"{directory} holds no {MANIFEST}") from None
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Unreadable(f"{MANIFEST} is not JSON: {str(error)[:120]}") from None
    try:
        return _typed(raw)
    except ContractError as error:
        raise Unreadable(f"{MANIFEST}: {error}") from None


def _typed(raw) -> Manifest:
    if not isinstance(raw, dict):
        raise ContractError("must be a JSON object")
    if raw.get("contract") not in CONTRACTS:
        raise ContractError(f"contract must be one of {', '.join(CONTRACTS)}, got {shortened(raw.get('contract'))}")
    version_one = raw["contract"] == CONTRACT_V1
    if version_one and ({"order", "cubes", "enumeration"} & set(raw)):
        raise ContractError(f"{CONTRACT_V1} has no literal order, cubes or enumeration")
    version_four = raw["contract"] in (CONTRACT_V4, CONTRACT_V6)  # 6: version 4 in LRAT
    if raw["contract"] != CONTRACT_V3 and not version_four and ({"regions", "fewer"} & set(raw)):
        raise ContractError(f"only {CONTRACT_V3} and {CONTRACT_V4} have regions or fewer (and {CONTRACT_V6}, "
                            "their LRAT form)")
    version_five = raw["contract"] in (CONTRACT_V5, CONTRACT_V7, CONTRACT_V9, CONTRACT_V10)  # 7, 9, 10: leaves, binary
    every_piece = version_four or version_five or raw["contract"] == CONTRACT_V8
    rows, cols, _, objective = validate_problem(typed(raw, "problem", dict), PIECES if every_piece else PIECES_V1)
    if rows * cols > MAX_SQUARES:
        raise ContractError(f"the contract covers boards of at most {MAX_SQUARES} squares, not {rows}×{cols}")
    if version_five:
        return _tree(raw, objective, rows * cols)
    if raw["contract"] == CONTRACT_V8:
        return _cliques(raw, objective, rows * cols)
    if version_four and typed(raw, "refuted", dict).get("relation") == NO_SOLUTION:
        return _no_solution(raw, objective)
    squares = rows * cols
    value = integer(raw, "value", squares)
    bound = integer(typed(raw, "refuted", dict), "bound", squares, "refuted.bound")
    encoding = choice(raw, "encoding", ENCODINGS)
    order = "row-major" if version_one else choice(raw, "order", ORDERS)
    enumeration = _enumeration(raw["enumeration"]) if "enumeration" in raw else None
    witness = None if enumeration is not None else name_list(typed(raw, "witness", list), "witness")
    typed(raw, "claim", str)
    if raw["contract"] == CONTRACT_V3 or version_four and ({"regions", "fewer"} & set(raw)):
        regions, fewer = _version_three(raw, objective, squares)
        return Manifest(raw, raw["problem"], objective, value, bound, encoding, order, witness, enumeration,
                        _region_files(raw, regions, fewer), regions, fewer)
    return Manifest(raw, raw["problem"], objective, value, bound, encoding, order, witness, enumeration, _files(raw))


def _no_solution(raw: dict, objective: str) -> Manifest:
    """Version 4's claim that no placement of any size meets the objective: ``value``
    null, ``refuted`` its relation alone, and no evidence but ``formula``."""
    if raw.get("value") is not None:
        raise ContractError(f"value must be null where no placement exists, got {shortened(raw.get('value'))}")
    if set(raw["refuted"]) != {"relation"}:
        raise ContractError(f"refuted must hold only its relation {NO_SOLUTION!r} where no placement exists")
    evidence = {"witness", "enumeration", "proof", "cubes", "regions", "fewer", "encoding", "order"}
    if other := sorted(evidence & set(raw)):
        raise ContractError(f"a certificate that no placement exists has no {', '.join(other)}")
    typed(raw, "claim", str)
    files = distinct_and_within({"formula": listed_entry(raw.get("formula"), "formula", MAX_FORMULA_BYTES)})
    return Manifest(raw, raw["problem"], objective, None, None, "", "", None, None, files, no_solution=True)


def _tree(raw: dict, objective: str, squares: int) -> Manifest:
    """Version 5: a minimisation's bound refuted — or with ``enumeration``, its placements
    listed — by the search tree its ``evidence`` lists (``form`` "tree", the file, its bytes
    and SHA-256, and its ``nodes``); no formula."""
    if objective not in MINIMISATIONS:
        raise ContractError(f"{CONTRACT_V5} refutes the bounds of {', '.join(MINIMISATIONS)}, not {objective}")
    if other := sorted({"formula", "proof", "cubes", "regions", "fewer"} & set(raw)):
        raise ContractError(f"a tree certificate has no {', '.join(other)}")
    evidence = typed(raw, "evidence", dict)
    choice(evidence, "form", ("tree",), "evidence.form")
    nodes = integer(evidence, "nodes", MAX_TREE_NODES, "evidence.nodes")
    if nodes * squares * ((squares + 63) // 64) > MAX_TREE_WORK:
        raise ContractError(f"evidence.nodes: a replay of {nodes} nodes on {squares} squares is more work than the "
                            f"contract's {MAX_TREE_WORK} (nodes × squares × words)")
    files = distinct_and_within({"tree": listed_entry(evidence, "evidence", MAX_TREE_BYTES)})
    value = integer(raw, "value", squares)
    bound = integer(typed(raw, "refuted", dict), "bound", squares, "refuted.bound")
    enumeration = _enumeration(raw["enumeration"]) if "enumeration" in raw else None
    witness = None if enumeration is not None else name_list(typed(raw, "witness", list), "witness")
    typed(raw, "claim", str)
    return Manifest(raw, raw["problem"], objective, value, bound, "", "", witness, enumeration, files,
                    tree_nodes=nodes)


def _cliques(raw: dict, objective: str, squares: int) -> Manifest:
    """Version 8: independence's bound refuted by the cliques its ``evidence`` lists
    (``form`` "cliques"); no formula, no proof, no enumeration. The names are read here,
    at most one per square; whether they partition the board into cliques is checked later
    (:mod:`.cliques`)."""
    if objective != "independence":
        raise ContractError(f"{CONTRACT_V8} bounds independence, not {objective}")
    if other := sorted({"formula", "proof", "cubes", "regions", "fewer", "enumeration"} & set(raw)):
        raise ContractError(f"a certificate by cliques has no {', '.join(other)}")
    evidence = typed(raw, "evidence", dict)
    choice(evidence, "form", ("cliques",), "evidence.form")
    cliques = typed(evidence, "cliques", list, "evidence.cliques")
    if not 1 <= len(cliques) <= squares:
        raise ContractError(f"evidence.cliques must list 1…{squares} cliques, not {len(cliques)}")
    named = 0
    for index, clique in enumerate(cliques):
        if not isinstance(clique, list) or not clique:
            raise ContractError(f"evidence.cliques[{index}] must be a non-empty list of square names")
        name_list(clique, f"evidence.cliques[{index}]")
        named += len(clique)
        if named > squares:  # the pairs checked later are then at most squares² / 2
            raise ContractError(f"evidence.cliques names more squares than the board's {squares}")
    value = integer(raw, "value", squares)
    bound = integer(typed(raw, "refuted", dict), "bound", squares, "refuted.bound")
    witness = name_list(typed(raw, "witness", list), "witness")
    typed(raw, "claim", str)
    return Manifest(raw, raw["problem"], objective, value, bound, "", "", witness, None, {}, cliques=cliques)


def _version_three(raw: dict, objective: str, squares: int) -> tuple[Regions, Fewer | None]:
    if objective not in MINIMISATIONS:
        raise ContractError(f"{CONTRACT_V3} is defined for {', '.join(MINIMISATIONS)}, not {objective}")
    if {"proof", "cubes"} & set(raw):
        raise ContractError(f"{CONTRACT_V3} has regions instead of a proof or cubes")
    regions = _regions(raw.get("regions"), squares, "regions")
    fewer = None
    if "fewer" in raw:
        entry = typed(raw, "fewer", dict)
        if "fewer" in entry:
            raise ContractError("fewer cannot hold a fewer of its own")
        fewer = Fewer(integer(entry, "bound", squares, "fewer.bound"),
                      _regions(entry.get("regions"), squares, "fewer.regions"))
    if len(regions.cubes) + (len(fewer.regions.cubes) if fewer else 0) > MAX_CUBES:
        raise ContractError(f"regions and fewer list more than {MAX_CUBES} cubes together")
    return regions, fewer


def _regions(entry, squares: int, label: str) -> Regions:
    """Every field typed and bounded: the work of reading the partitions is bounded by the
    squares (each must list every square once), of the cubes by MAX_CUBES and MAX_REGIONS."""
    if not isinstance(entry, dict):
        raise ContractError(f"{label} must be a JSON object with partitions, relation and cubes")
    partitions = typed(entry, "partitions", list, f"{label}.partitions")
    if not 1 <= len(partitions) <= MAX_PARTITIONS:
        raise ContractError(f"{label}.partitions must list 1…{MAX_PARTITIONS} partitions, not {len(partitions)}")
    for j, partition in enumerate(partitions):
        where = f"{label}.partitions[{j}]"
        if not isinstance(partition, list) or not 1 <= len(partition) <= MAX_REGIONS:
            raise ContractError(f"{where} must be a list of 1…{MAX_REGIONS} regions")
        for region in partition:
            if not isinstance(region, list):
                raise ContractError(f"{where} must be a list of regions, each a list of square names")
            name_list(region, where)
        if sum(map(len, partition)) > squares:
            raise ContractError(f"{where} names more squares than the board's {squares}")
    relation = choice(entry, "relation", ("at most", "exactly"), f"{label}.relation")
    cubes = typed(entry, "cubes", list, f"{label}.cubes")
    if not 1 <= len(cubes) <= MAX_CUBES:
        raise ContractError(f"{label}.cubes must list 1…{MAX_CUBES} cubes, not {len(cubes)}")
    lemmas = typed(entry, "lemmas", list, f"{label}.lemmas") if "lemmas" in entry else []
    if len(lemmas) > MAX_CUBES:
        raise ContractError(f"{label}.lemmas must list at most {MAX_CUBES} lemmas, not {len(lemmas)}")
    return Regions(partitions, relation, [_cube(cube, squares, f"{label}.cubes[{index}]")
                                          for index, cube in enumerate(cubes)],
                   tuple(_lemma(lemma, squares, f"{label}.lemmas[{index}]") for index, lemma in enumerate(lemmas)),
                   tuple(_indices(cube, f"{label}.cubes[{index}].lemmas") for index, cube in enumerate(cubes)))


def _lemma(lemma, squares: int, label: str) -> Lemma:
    """A lemma's fields typed; its level and counts read as a cube's are."""
    level, counts = _cube(lemma, squares, label)
    groups = typed(lemma, "groups", list, f"{label}.groups")
    for index, group in enumerate(groups):
        if not isinstance(group, list):
            raise ContractError(f"{label}.groups must be a list of groups, each a list of square names")
        name_list(group, f"{label}.groups[{index}]")
    return Lemma(level, counts, groups, integer(lemma, "at_most", MAX_GROUPS, f"{label}.at_most"))


def _indices(cube: dict, label: str) -> tuple[int, ...]:
    """A cube's lemma indices (none when it lists none); their range is checked later."""
    indices = typed(cube, "lemmas", list, label) if "lemmas" in cube else []
    if len(indices) > MAX_CUBE_LEMMAS:
        raise ContractError(f"{label} must list at most {MAX_CUBE_LEMMAS} lemmas, not {len(indices)}")
    if not all(isinstance(index, int) and not isinstance(index, bool) for index in indices):
        raise ContractError(f"{label} must be a list of lemma indices (integers)")
    return tuple(indices)


def _cube(cube, squares: int, label: str) -> tuple[int, tuple[int, ...]]:
    if not isinstance(cube, dict):
        raise ContractError(f"{label} must be a JSON object with level, counts and proof")
    level = integer(cube, "level", MAX_PARTITIONS - 1, f"{label}.level")
    counts = typed(cube, "counts", list, f"{label}.counts")
    if not 1 <= len(counts) <= MAX_REGIONS or not all(
            isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= squares for count in counts):
        raise ContractError(f"{label}.counts must be a list of 1…{MAX_REGIONS} integers in 0…{squares}")
    return level, tuple(counts)


def _enumeration(enumeration) -> dict:
    if not isinstance(enumeration, dict):
        raise ContractError("enumeration must be a JSON object")
    name_list(typed(enumeration, "symmetries", list, "enumeration.symmetries"), "enumeration.symmetries",
              "symmetry names")
    representatives = typed(enumeration, "representatives", list, "enumeration.representatives")
    for index, names in enumerate(representatives):
        if not isinstance(names, list):
            raise ContractError(f"enumeration.representatives[{index}] must be a list of square names")
        name_list(names, f"enumeration.representatives[{index}]")
    # The work of expanding them is bounded by the representatives times the board's own
    # group (rebuilt from its shape, not read from here); these counts are only compared.
    integer(enumeration, "classes", MAX_ENUMERATED, "enumeration.classes")
    integer(enumeration, "solutions", MAX_ENUMERATED, "enumeration.solutions")
    return enumeration


def _files(raw: dict) -> dict[str, Listed]:
    files = {"formula": listed_entry(raw.get("formula"), "formula", MAX_FORMULA_BYTES)}
    if "cubes" in raw:
        cubes = typed(raw, "cubes", dict)
        proofs = typed(cubes, "proofs", list, "cubes.proofs")
        if not 1 <= len(proofs) <= MAX_CUBES:
            raise ContractError(f"cubes.proofs must list 1…{MAX_CUBES} proofs, not {len(proofs)}")
        files["cubes"] = listed_entry(cubes.get("file"), "cubes.file", MAX_PROOF_BYTES)
        files["cover"] = listed_entry(cubes.get("cover"), "cubes.cover", MAX_PROOF_BYTES)
        for index, entry in enumerate(proofs):
            files[f"cube proof {index + 1}"] = listed_entry(entry, f"cubes.proofs[{index}]", MAX_PROOF_BYTES)
    else:
        files["proof"] = listed_entry(raw.get("proof"), "proof", MAX_PROOF_BYTES)
    return distinct_and_within(files)


def _region_files(raw: dict, regions: Regions, fewer: Fewer | None) -> dict[str, Listed]:
    """Version 3's files: the formula, a proof per cube, and fewer's formula and proofs."""
    files = {"formula": listed_entry(raw.get("formula"), "formula", MAX_FORMULA_BYTES)}
    _proofs(files, raw["regions"], "regions", "region proof", "lemma proof")
    if fewer is not None:
        files["fewer formula"] = listed_entry(raw["fewer"].get("formula"), "fewer.formula", MAX_FORMULA_BYTES)
        _proofs(files, raw["fewer"]["regions"], "fewer.regions", "fewer proof", "fewer lemma proof")
    return distinct_and_within(files)


def _proofs(files: dict[str, Listed], regions: dict, label: str, cube: str, lemma: str) -> None:
    """A section's proofs into ``files``: ``{cube} N`` per cube, ``{lemma} K`` per lemma."""
    for index, entry in enumerate(regions["cubes"]):
        where = f"{label}.cubes[{index}].proof"
        files[f"{cube} {index + 1}"] = listed_entry(entry.get("proof"), where, MAX_PROOF_BYTES)
    for index, entry in enumerate(regions.get("lemmas", [])):
        where = f"{label}.lemmas[{index}].proof"
        files[f"{lemma} {index + 1}"] = listed_entry(entry.get("proof"), where, MAX_PROOF_BYTES)


