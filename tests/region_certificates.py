"""Contract version 3 certificates built by hand for the checker's tests, from the contract's
text and not from the maker (models/certificates): the placements by brute force, the
quadrant partitions and their symmetry maps computed here, each cube's clauses written
from the spec with python-sat's CardEnc, and each proof CaDiCaL 1.9.5's text DRAT trace.
Small boards only: every placement of a few queens on 6×6 is enumerated."""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.solvers import Cadical195, pysolvers

from chessdom.certificates import CONTRACT_V3, check_certificate, claim, enumeration_claim, rebuild_formula

SYMMETRIES = {
    "identity": lambda r, f, n: (r, f),
    "mirror_files": lambda r, f, n: (r, n - 1 - f),
    "mirror_ranks": lambda r, f, n: (n - 1 - r, f),
    "half_turn": lambda r, f, n: (n - 1 - r, n - 1 - f),
    "transpose": lambda r, f, n: (f, r),
    "anti_transpose": lambda r, f, n: (n - 1 - f, n - 1 - r),
    "quarter_turn": lambda r, f, n: (f, n - 1 - r),
    "three_quarter_turn": lambda r, f, n: (n - 1 - f, r),
}
VARIANTS = {"domination": "plain", "independent_domination": "independent", "total_domination": "total"}


def name(r: int, f: int) -> str:
    return f"{'abcdefghijklmnopqrstuvwxyz'[f]}{r + 1}"


def variable(r: int, f: int, n: int) -> int:
    return r * n + f + 1


def attacks(r: int, f: int, rr: int, ff: int) -> bool:
    """Queen moves, with no blocking (as in every domination problem)."""
    return (r, f) != (rr, ff) and (r == rr or f == ff or abs(r - rr) == abs(f - ff))


def meets(n: int, objective: str, placement) -> bool:
    squares = [(r, f) for r in range(n) for f in range(n)]
    if objective == "independent_domination" and any(attacks(*a, *b) for a in placement for b in placement):
        return False
    own = objective != "total_domination"
    return all((own and s in placement) or any(attacks(*p, *s) for p in placement) for s in squares)


def optimum(n: int, objective: str) -> tuple[int, list[tuple]]:
    """The least number of queens meeting ``objective`` on n×n and every such placement."""
    squares = [(r, f) for r in range(n) for f in range(n)]
    for value in range(1, n * n + 1):
        found = [p for p in itertools.combinations(squares, value) if meets(n, objective, p)]
        if found:
            return value, found
    raise AssertionError("no placement")


def quadrants(n: int) -> list[list[tuple[int, int]]]:
    """Partition 0: the four quadrants, and on an odd side the middle rank and file as one."""
    half, regions = n // 2, {}
    for r in range(n):
        for f in range(n):
            key = "middle" if n % 2 and half in (r, f) else (r < half, f < half)
            regions.setdefault(key, []).append((r, f))
    return list(regions.values())


def bands(n: int, coarse: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """A finer partition: each region cut into the squares near the centre and the rest
    (distance from the centre kept by every symmetry)."""
    near = (n - 1) / 4
    finer = []
    for region in coarse:
        inner = [s for s in region if max(abs(s[0] - (n - 1) / 2), abs(s[1] - (n - 1) / 2)) <= near]
        outer = [s for s in region if s not in inner]
        finer += [part for part in (inner, outer) if part]
    return finer


def region_maps(n: int, partition: list[list[tuple[int, int]]]) -> list[tuple[int, ...]]:
    index = {s: i for i, region in enumerate(partition) for s in region}
    return [tuple(index[move(*region[0], n)] for region in partition) for move in SYMMETRIES.values()]


def vectors(sizes: list[int], total: int) -> list[tuple[int, ...]]:
    return [u for u in itertools.product(*(range(s + 1) for s in sizes)) if sum(u) == total]


def leaders(partition, n: int, total: int) -> list[tuple[int, ...]]:
    """One vector of counts adding up to ``total`` per orbit under the board's symmetries."""
    maps, chosen = region_maps(n, partition), set()
    for u in vectors([len(region) for region in partition], total):
        images = []
        for moved in maps:
            image = [0] * len(u)
            for i, target in enumerate(moved):
                image[target] = u[i]
            images.append(tuple(image))
        chosen.add(min(images))
    return sorted(chosen)


def clauses_of(partition, n: int, counts, relation: str, top: int) -> list[list[int]]:
    """The cube's clauses as the spec words them (written again here, not the checker's)."""
    encode = CardEnc.equals if relation == "exactly" else CardEnc.atmost
    out = []
    for region, count in zip(partition, counts):
        lits = sorted(variable(r, f, n) for r, f in region)
        cnf = encode(lits=lits, bound=count, top_id=top, encoding=EncType.totalizer).clauses
        out += cnf
        top = max([top] + [abs(x) for c in cnf for x in c])
    return out


def prove(formula: bytes, extra: list[list[int]], proof: Path) -> bool:
    """CaDiCaL's text DRAT proof of formula + extra into ``proof``; False (no proof) when satisfiable."""
    solver = Cadical195()
    solver.configure({"binary": 0})
    with open(proof, "w+b") as file:
        trace = pysolvers.cadical195_tracepr(solver.cadical, file)
        for line in formula.decode().splitlines()[1:]:
            solver.add_clause([int(x) for x in line.split()[:-1]])
        for clause in extra:
            solver.add_clause(clause)
        satisfiable = solver.solve()
        pysolvers.flushpr(trace)
        solver.delete()
        pysolvers.flushpr(trace)
    return not satisfiable


def entry(path: Path) -> dict:
    data = path.read_bytes()
    return {"file": path.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


@dataclass
class Plan:
    """What to build: the problem, the relations, how many partitions, and the cubes."""

    n: int
    objective: str = "domination"
    relation: str = "exactly"
    levels: int = 1
    count: bool = False
    fewer: str | None = None
    """fewer's relation, or None for no fewer."""
    split_first: bool = False
    """The first cube replaced by every finer vector coarsening to it (level 1)."""
    drop_class: bool = False
    """The enumeration lists one class fewer (its cubes' proofs as far as they exist)."""
    spare: dict = field(default_factory=dict)
    """counts → a proof file to use where the formula is satisfiable (a forgery's)."""
    lemmas: bool = False
    """Each cube lists the line budgets its counts imply (:func:`budgets`) as lemmas."""


def partitions_of(n: int, levels: int) -> list:
    parts = [quadrants(n)]
    while len(parts) < levels:
        parts.append(bands(n, parts[-1]))
    return parts


def section(directory: Path, plan: Plan, formula: bytes, bound: int, relation: str, prefix: str) -> dict:
    """The cubes of one section, each proved into ``{prefix}N.drat``."""
    parts = partitions_of(plan.n, max(plan.levels, 2 if plan.split_first else 1))
    cubes = [(0, u) for u in leaders(parts[0], plan.n, bound)]
    if plan.split_first and prefix == "cube-":
        first = cubes.pop(0)[1]
        children = [[k for k, region in enumerate(parts[1]) if region[0] in parts[0][i]] for i in range(len(first))]
        for v in vectors([len(region) for region in parts[1]], bound):
            if all(sum(v[k] for k in ks) == first[i] for i, ks in enumerate(children)):
                cubes.insert(0, (1, v))
    top = int(formula.split()[2])
    listed, lemmas = [], {}
    for index, (level, counts) in enumerate(cubes, start=1):
        path = directory / f"{prefix}{index}.drat"
        extra = clauses_of(parts[level], plan.n, counts, relation, top)
        cube = {"level": level, "counts": list(counts)}
        if plan.lemmas and (own := budgets(plan.n, level, parts[level], counts)):
            cube["lemmas"] = [lemmas.setdefault(key, len(lemmas) + 1) for key in own]
            extra += lemma_clauses_of(plan.n, own, largest(top, extra))
        if not prove(formula, extra, path):
            path.write_bytes(plan.spare[counts].read_bytes())
        listed.append({**cube, "proof": entry(path)})
    names = [[[name(*s) for s in region] for region in partition] for partition in parts]
    out = {"partitions": names[: max(level for level, _ in cubes) + 1], "relation": relation, "cubes": listed}
    if lemmas:
        out["lemmas"] = [prove_lemma(directory / f"{prefix.replace('cube', 'lemma')}{k}.drat", plan.n, parts, top, key)
                         for k, key in enumerate(lemmas, start=1)]
    return out


FAMILIES = {"ranks": lambda r, f: r, "files": lambda r, f: f, "diagonals": lambda r, f: r - f,
            "anti-diagonals": lambda r, f: r + f}


def line_groups(n: int) -> list[list[list[tuple[int, int]]]]:
    """Sets of lines of one direction each: every rank, every file, every diagonal, every
    anti-diagonal, and the lower and the upper half of the ranks and of the files."""
    found = []
    for family in FAMILIES.values():
        lines: dict[int, list] = {}
        for r in range(n):
            for f in range(n):
                lines.setdefault(family(r, f), []).append((r, f))
        found.append([lines[key] for key in sorted(lines)])
    for family in (found[0], found[1]):
        found += [family[: n // 2], family[n - n // 2:]]
    return found


def budgets(n: int, level: int, partition, counts) -> list[tuple]:
    """The lemmas a cube's counts imply, as keys ``(level, caps, groups, at_most)``: of each
    set of lines (:func:`line_groups`), the lines meeting a region the cube lets hold a
    piece; lines of one direction are disjoint, so at most ``min(c_i, those lines meeting
    region i)`` of them hold a piece of region ``i``, kept when that adds up to fewer than
    the lines (the counts then bind: no lemma unit propagation alone refutes). The caps are
    the cube's counts where the lines meet a region, the region's size elsewhere."""
    keys = []
    for lines in line_groups(n):
        groups = [line for line in lines if any(count and set(line) & set(region)
                                                for count, region in zip(counts, partition))]
        meets = [sum(1 for line in groups if set(line) & set(region)) for region in partition]
        most = sum(min(count, meet) for count, meet in zip(counts, meets))
        if most < len(groups):
            caps = tuple(count if meet else len(region) for count, meet, region in zip(counts, meets, partition))
            keys.append((level, caps, tuple(tuple(line) for line in groups), most))
    return list(dict.fromkeys(keys))  # a half of the ranks may be all the ranks that can hold a piece


def largest(top: int, clauses) -> int:
    return max([top] + [abs(x) for c in clauses for x in c])


def definitions(n: int, groups, top: int) -> tuple[list[list[int]], list[int]]:
    """The contract's fresh ``y_j = T + j`` per group, ``[-y, s…]`` then ``[y, -s]`` per square."""
    out, ys = [], []
    for group in groups:
        top += 1
        ys.append(top)
        squares = sorted(variable(r, f, n) for r, f in group)
        out += [[-top] + squares] + [[top, -s] for s in squares]
    return out, ys


def lemma_formula_of(partition, n: int, caps, groups, at_most: int, variables: int) -> list[list[int]]:
    """A lemma's formula as the contract words it: the caps as a cube's "at most" clauses
    (numbered on from the section formula's N), the definitions, then at least at_most + 1."""
    out = clauses_of(partition, n, caps, "at most", variables)
    defined, ys = definitions(n, groups, largest(variables, out))
    return out + defined + CardEnc.atleast(lits=ys, bound=at_most + 1, top_id=ys[-1],
                                           encoding=EncType.totalizer).clauses


def lemma_clauses_of(n: int, lemmas, top: int) -> list[list[int]]:
    """What a cube's lemmas add to its formula (``top`` its largest variable so far)."""
    out = []
    for _, _, groups, at_most in lemmas:
        defined, ys = definitions(n, groups, top)
        bounded = CardEnc.atmost(lits=ys, bound=at_most, top_id=ys[-1], encoding=EncType.totalizer).clauses
        out += defined + bounded
        top = largest(ys[-1], bounded)
    return out


def prove_lemma(path: Path, n: int, parts, variables: int, key: tuple) -> dict:
    level, caps, groups, at_most = key
    assert prove(b"p cnf 0 0\n", lemma_formula_of(parts[level], n, caps, groups, at_most, variables), path)
    return {"level": level, "counts": list(caps), "groups": [[name(*s) for s in group] for group in groups],
            "at_most": at_most, "proof": entry(path)}


def build(directory: Path, plan: Plan) -> dict:
    """A version 3 certificate of ``plan`` in ``directory``; its manifest."""
    directory.mkdir(parents=True, exist_ok=True)
    n, objective = plan.n, plan.objective
    problem = {"rows": n, "cols": n, "piece": "queen", "objective": objective}
    value, placements = optimum(n, objective)
    manifest = {"contract": CONTRACT_V3, "problem": problem, "value": value}
    blocked = []
    if plan.count:
        bound = value
        representatives = _representatives(n, placements)
        if plan.drop_class:
            representatives.pop()
        blocked = sorted({tuple(sorted(variable(*move(*s, n), n) for s in p))
                          for p in representatives for move in SYMMETRIES.values()})
        manifest["enumeration"] = {"symmetries": list(SYMMETRIES), "classes": len(representatives),
                                   "solutions": len(blocked),
                                   "representatives": [[name(*s) for s in p] for p in representatives]}
        manifest["claim"] = enumeration_claim(problem, value, len(blocked), len(representatives), 8)
    else:
        bound = value - 1
        manifest["witness"] = [name(*s) for s in placements[0]]
        manifest["claim"] = claim(problem, bound)
    manifest["refuted"] = {"bound": bound, "relation": "at most"}
    formula = rebuild_formula(problem, bound, "totalizer", "row-major", [list(p) for p in blocked])
    (directory / "formula.cnf").write_bytes(formula)
    manifest.update(encoding="totalizer", order="row-major", formula=entry(directory / "formula.cnf"))
    manifest["regions"] = section(directory, plan, formula, bound, plan.relation, "cube-")
    if plan.fewer is not None:
        fewer = rebuild_formula(problem, bound - 1, "totalizer", "row-major")
        (directory / "fewer.cnf").write_bytes(fewer)
        manifest["fewer"] = {"bound": bound - 1, "formula": entry(directory / "fewer.cnf"),
                             "regions": section(directory, plan, fewer, bound - 1, plan.fewer, "fewer-cube-")}
    write(directory, manifest)
    return manifest


def _representatives(n: int, placements: list[tuple]) -> list[tuple]:
    seen, representatives = set(), []
    for placement in placements:
        if frozenset(placement) in seen:
            continue
        representatives.append(placement)
        seen |= {frozenset(move(*s, n) for s in placement) for move in SYMMETRIES.values()}
    return representatives


def write(directory: Path, manifest: dict) -> None:
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1))


def read(directory: Path) -> dict:
    return json.loads((directory / "manifest.json").read_text())


def copier(genuine: Path, tmp_path: Path):
    """``copied(key)``: a fresh copy of the genuine certificate ``genuine / key`` to forge."""
    def copied(key: str) -> Path:
        shutil.copytree(genuine / key, tmp_path / key)
        return tmp_path / key
    return copied


def rejected(directory: Path, step: str, words: str = ""):
    """The verdict on ``directory``, after asserting it failed first at ``step`` saying ``words``."""
    verdict = check_certificate(directory)
    assert not verdict.ok and verdict.reason.startswith(f"{step}:"), verdict.reason
    assert words in verdict.reason, verdict.reason
    return verdict
