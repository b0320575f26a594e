"""Issue #48's hostile certificates at full size, for measuring the checker before and
after (the tests build them small): ``python tests/hostile_certificates.py OUT`` writes
one directory (or archive) per case into OUT, each checked with

    prlimit --as=$((2 * 2**30)) timeout 60 /usr/bin/time -v python -m chessdom.certificates OUT/CASE
"""

from __future__ import annotations

import gzip
import io
import json
import sys
import tarfile
from pathlib import Path

from chessdom.certificates import claim, enumeration_claim, rebuild_formula
from chessdom.certificates.contract import square_name
from chessdom.certificates.cover import compositions
from chessdom.certificates.enumeration import SQUARE_SYMMETRIES
from chessdom.certificates.regions import read_partitions
from chessdom.chessboard import Board, Piece
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.native_search.greedy import greedy_domination

sys.path.insert(0, str(Path(__file__).parent))
from region_certificates import entry  # noqa: E402


def _image(vector, regions_map) -> tuple[int, ...]:
    moved = [0] * len(vector)
    for region, count in zip(regions_map, vector):
        moved[region] = count
    return tuple(moved)


def _leaders(partition_names, n: int, total: int, most: int | None = None) -> list[tuple[int, ...]]:
    levels = read_partitions(n, n, [partition_names])
    seen, out = set(), []
    for vector in compositions(total, levels.sizes(0)):
        least = min(_image(vector, m) for m in levels.maps[0])
        if least not in seen:
            seen.add(least)
            out.append(least)
            if most is not None and len(out) == most:
                break
    return out


def _quadrants(n: int) -> list[list[str]]:
    half = n // 2
    return [[square_name(r, f) for r in range(n) for f in range(n) if (r < half) == low_r and (f < half) == low_f]
            for low_r in (True, False) for low_f in (True, False)]


def _regions_manifest(out: Path, problem: dict, witness: list[str], value: int, partition, relation: str,
                      cubes: list) -> dict:
    out.mkdir(parents=True)
    bound = value - 1
    (out / "formula.cnf").write_bytes(rebuild_formula(problem, bound, "totalizer", "hilbert"))
    listed = []
    for index, counts in enumerate(cubes, start=1):
        (out / f"cube-{index}.drat").write_bytes(b"0\n")
        listed.append({"level": 0, "counts": list(counts), "proof": entry(out / f"cube-{index}.drat")})
    return {"contract": "chessdom-certificate/3", "problem": problem, "value": value, "witness": witness,
            "claim": claim(problem, bound), "refuted": {"bound": bound, "relation": "at most"},
            "encoding": "totalizer", "order": "hilbert", "formula": entry(out / "formula.cnf"),
            "regions": {"partitions": [partition], "relation": relation, "cubes": listed}}


def _write(out: Path, manifest: dict) -> None:
    (out / "manifest.json").write_text(json.dumps(manifest))


def cover_of_1001_cubes(out: Path) -> None:
    """1,000 classes of 4 pieces in 64 one-square regions, and one "at most" cube of one
    piece a square, which covers every vector: the cover holds, after 635,376 vectors."""
    problem = {"rows": 8, "cols": 8, "piece": "queen", "objective": "domination"}
    partition = [[square_name(r, f)] for r in range(8) for f in range(8)]
    witness = list(solve_placement("queen", 8).placement)
    cubes = _leaders(partition, 8, 4, 1000) + [(1,) * 64]
    _write(out, _regions_manifest(out, problem, witness, 5, partition, "at most", cubes))


def _queens_32() -> tuple[dict, list[str]]:
    squares = greedy_domination(Board(32, 32), Piece("queen"))  # 20 queens
    return ({"rows": 32, "cols": 32, "piece": "queen", "objective": "domination"},
            [square_name(s // 32, s % 32) for s in squares])


def exactly_cubes_on_32(out: Path, lemmas: int = 0) -> None:
    problem, witness = _queens_32()
    partition = _quadrants(32)
    manifest = _regions_manifest(out, problem, witness, len(witness), partition, "exactly",
                                 _leaders(partition, 32, len(witness) - 1))
    if lemmas:
        group = [[square_name(r, f)] for r in range(32) for f in range(32)]
        manifest["regions"]["lemmas"] = []
        for k in range(1, lemmas + 1):
            (out / f"lemma-{k}.drat").write_bytes(b"0\n")
            manifest["regions"]["lemmas"].append({"level": 0, "counts": [256] * 4, "groups": group, "at_most": 1023,
                                                  "proof": entry(out / f"lemma-{k}.drat")})
        manifest["regions"]["cubes"][0]["lemmas"] = list(range(1, lemmas + 1))
    _write(out, manifest)


def bundle_of_50_cubes(out: Path) -> None:
    out.mkdir(parents=True)
    problem = {"rows": 32, "cols": 32, "piece": "queen", "objective": "domination"}
    (out / "formula.cnf").write_bytes(rebuild_formula(problem, 31, "totalizer", "hilbert"))
    lines = [[r * 32 + f + 1 for f in range(32)] for r in range(32)] + \
            [[r * 32 + f + 1 for r in range(32)] for f in range(18)]  # 32 pieces each: "at most 31" fails by propagation
    (out / "cubes.txt").write_text("".join(" ".join(map(str, cube)) + " 0\n" for cube in lines))
    for index in range(1, 51):
        (out / f"cube-{index}.drat").write_bytes(b"0\n")
    (out / "cover.drat").write_bytes(b"0\n")
    _write(out, {"contract": "chessdom-certificate/2", "problem": problem, "value": 32,
                 "witness": [square_name(0, f) for f in range(32)], "claim": claim(problem, 31),
                 "refuted": {"bound": 31, "relation": "at most"}, "encoding": "totalizer", "order": "hilbert",
                 "formula": entry(out / "formula.cnf"),
                 "cubes": {"file": entry(out / "cubes.txt"), "cover": entry(out / "cover.drat"),
                           "proofs": [entry(out / f"cube-{index}.drat") for index in range(1, 51)]}})


def proof_naming_a_huge_variable(genuine: Path, out: Path, size: int) -> None:
    out.mkdir(parents=True)
    for name in ("formula.cnf", "manifest.json"):
        (out / name).write_bytes((genuine / name).read_bytes())
    head = b"%d 0\n" % size
    (out / "proof.drat").write_bytes(head + b"1 -2 0\n" * ((size - len(head)) // 7))
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["proof"].update(entry(out / "proof.drat"))
    _write(out, manifest)


def archive_with_a_huge_pax_header(genuine: Path, out: Path) -> None:
    with gzip.open(out, "wb", compresslevel=1) as archive:
        header = tarfile.TarInfo("././@PaxHeader")
        header.type, header.size = tarfile.XHDTYPE, 2**30
        archive.write(header.tobuf(tarfile.USTAR_FORMAT))
        for _ in range(2**30 // 2**20):
            archive.write(bytes(2**20))
        with tarfile.open(fileobj=archive, mode="w|", format=tarfile.GNU_FORMAT) as tar:
            for path in sorted(genuine.iterdir()):
                tar.addfile(tar.gettarinfo(str(path), f"q6/{path.name}"), io.BytesIO(path.read_bytes()))


def count_of_no_knights(out: Path) -> None:
    out.mkdir(parents=True)
    problem = {"rows": 3, "cols": 3, "piece": "knight", "objective": "total_domination"}
    (out / "formula.cnf").write_bytes(rebuild_formula(problem, 5, "totalizer", "hilbert"))
    (out / "proof.drat").write_bytes(b"")
    _write(out, {"contract": "chessdom-certificate/2", "problem": problem, "value": 5,
                 "enumeration": {"solutions": 0, "classes": 0, "symmetries": list(SQUARE_SYMMETRIES),
                                 "representatives": []},
                 "claim": enumeration_claim(problem, 5, 0, 0, 8), "refuted": {"bound": 5, "relation": "at most"},
                 "encoding": "totalizer", "order": "hilbert", "formula": entry(out / "formula.cnf"),
                 "proof": entry(out / "proof.drat")})


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    genuine = out / "genuine-q6"
    make_certificate(solve_placement("queen", 6), genuine, CertifyOptions(time_limit=60, split="never"))
    cover_of_1001_cubes(out / "cover-1001")
    exactly_cubes_on_32(out / "exactly-32")
    exactly_cubes_on_32(out / "lemmas-24", lemmas=24)
    bundle_of_50_cubes(out / "bundle-50")
    proof_naming_a_huge_variable(genuine, out / "variable-16MiB", 16 * 2**20)
    proof_naming_a_huge_variable(genuine, out / "variable-63MiB", 63 * 2**20)
    archive_with_a_huge_pax_header(genuine, out / "pax-1GiB.tar.gz")
    count_of_no_knights(out / "knights-3")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
