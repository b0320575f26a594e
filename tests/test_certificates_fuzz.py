"""The checker fuzzed from genuine certificates: γ(Q_6) = 3 as one proof, as a cube bundle and
as a count, and false claims built from them (γ(Q_6) > 3 with the formula rebuilt, hashes,
words and witness right, only the proofs wrong). Each is mutated as a hostile author might —
the manifest's JSON (a key deleted at any depth, a value of another type or another plausible
value, a key given twice, bytes that are not UTF-8, a truncation), the other files (cut,
grown, a byte flipped, a symlink, a FIFO, a directory, nothing), the lines of ``cubes.txt``,
the text of a proof, and the archive (cut, or members with odd names and types) — and:

- :func:`check_certificate` returns a verdict or raises :class:`Unreadable`, never anything
  else (and raises Unreadable when the manifest is not JSON or a file not a regular one);
- a mutation that changes what the manifest claims, or the evidence the checker relies on,
  is never ``ok`` unless it left every field the checker relies on semantically equal (as
  the checker's JSON reading sees it: whitespace, or a duplicated key whose last value is
  the original); a false claim is never ``ok`` whatever its proof's text or cubes;
- for a sample, ``python -m chessdom.certificates`` says the same: exit 0, 1 or 2, and for 2
  exactly one line on stderr.

What the properties (and hand-made probes) found is kept below them as plain tests, each
failing on the checker as it was before its fix (the last two were strict xfails until
issue #48: a long-name tar header read whole, a bundle's formula parsed once per cube).
The strategies leave out the inputs of some of those bugs until ``FIXED`` says otherwise,
so that the properties test everything else.
``CHESSDOM_FUZZ_SCALE=N`` runs N times the examples."""

from __future__ import annotations

import contextlib
import copy
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from chessdom.certificates import Unreadable, Verdict, check_certificate, claim, rebuild_formula
from chessdom.certificates.command import main
from chessdom.certificates.contract import (MAX_CERTIFICATE_BYTES, MAX_FORMULA_BYTES, MAX_PROOF_BYTES,
                                            enumeration_claim)
from chessdom.certificates.enumeration import SQUARE_SYMMETRIES
from chessdom.certificates.sources import unpack
from chessdom.library import solve_placement
from chessdom.models.certificates import CertifyOptions, make_certificate
from drat_default import drat_by_default  # noqa: F401 - these certificates are DRAT's

SCALE = int(os.environ.get("CHESSDOM_FUZZ_SCALE", "1"))
"""Every property's examples times this: ``CHESSDOM_FUZZ_SCALE=20`` for a long campaign."""
HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large]
"""capsys is read before and after each example, so sharing it between examples is safe."""

# ---- the genuine certificates, and false claims made from them --------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def entry(directory: Path, name: str, data: bytes) -> dict:
    """Write ``name`` and return its manifest entry, size and SHA-256 right."""
    (directory / name).write_bytes(data)
    return {"file": name, "bytes": len(data), "sha256": sha256(data)}


def load(directory: Path) -> dict:
    return json.loads((directory / "manifest.json").read_text(encoding="utf-8"))


def save(directory: Path, manifest: dict) -> Path:
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
    return directory


def forged(genuine: Path, target: Path) -> Path:
    """``genuine`` claiming γ(Q_6) > 3 instead of > 2: value 4, bound 3, a witness of four
    queens that do dominate, the words and the formula of "no 3 or fewer", every hash right.
    The formula is satisfiable, so no proof can refute it: only the proofs are wrong."""
    shutil.copytree(genuine, target)
    manifest = load(target)
    problem = manifest["problem"]
    formula = rebuild_formula(problem, 3, manifest["encoding"], manifest["order"])
    manifest.update(value=4, witness=[*manifest["witness"], "f6"], claim=claim(problem, 3),
                    refuted={"bound": 3, "relation": "at most"})
    manifest["formula"].update(entry(target, "formula.cnf", formula))
    return save(target, manifest)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, Path]:
    """The genuine certificates (``single``, ``bundle``, ``count``) and the false claims
    (``forged``, ``forged bundle``) the properties start from, made once."""
    root = tmp_path_factory.mktemp("fuzz")
    result = solve_placement("queen", 6)
    make_certificate(result, root / "single", CertifyOptions(time_limit=60))
    make_certificate(result, root / "bundle", CertifyOptions(time_limit=60, split="always"))
    counted = solve_placement("queen", 6, count=True, representatives=True)
    make_certificate(counted, root / "count", CertifyOptions(time_limit=60), enumeration=True)
    made = {name: root / name for name in ("single", "bundle", "count")}
    made["forged"] = forged(made["single"], root / "forged")
    made["forged bundle"] = forged(made["bundle"], root / "forged bundle")
    return made


def test_the_certificates_the_fuzzing_starts_from_verify_and_the_forged_ones_only_fail_their_proofs(certificates):
    for name in ("single", "bundle", "count"):
        assert check_certificate(certificates[name]).ok, name
    for name in ("forged", "forged bundle"):
        verdict = check_certificate(certificates[name])
        assert not verdict.ok and verdict.claim == "no 3 or fewer queens dominate the 6×6 board"
        assert verdict.steps["witness"] is True and verdict.steps["rebuilt formula"] is True
        assert "refutation" in verdict.reason, verdict.reason


@contextlib.contextmanager
def copy_of(certificates: dict, name: str) -> Iterator[Path]:
    """A scratch copy of a certificate, removed afterwards (hypothesis runs many examples
    per test, so tmp_path would be shared)."""
    with tempfile.TemporaryDirectory(prefix="chessdom-fuzz-") as scratch:
        yield Path(shutil.copytree(certificates[name], Path(scratch) / "certificate"))


# ---- what the checker and its command answer --------------------------------------------------


def outcome(directory: Path) -> tuple[str, Verdict | Unreadable]:
    """``("ok" | "rejected" | "unreadable", verdict or error)``; any other exception
    propagates and fails the test."""
    try:
        verdict = check_certificate(directory)
    except Unreadable as error:
        return "unreadable", error
    assert isinstance(verdict, Verdict)
    return ("ok" if verdict.ok else "rejected"), verdict


EXIT = {"ok": 0, "rejected": 1, "unreadable": 2}


def command_agrees(target: Path, expected: str, capsys) -> None:
    """``python -m chessdom.certificates TARGET``, in process: the exit status of
    ``expected``, its last line, and for 2 exactly one line on stderr, without a traceback."""
    capsys.readouterr()
    status = main([str(target)])
    out, err = capsys.readouterr()
    assert status == EXIT[expected], (status, expected, out[-500:], err[:500])
    assert "Traceback" not in err
    if status == 2:
        assert out == "" and len(err.splitlines()) == 1 and err.endswith("\n")
        assert "cannot read" in err
    else:
        assert err == "" and out.splitlines()[-1] == ("s VERIFIED" if status == 0 else "s NOT VERIFIED")


sampled = st.integers(0, 3).map(lambda n: n == 0)
"""Whether this example also runs the command (one in four)."""

# ---- the manifest as JSON text, with what ordinary dumping cannot write ---------------------


class Raw(str):
    """JSON text written as it is (a deep list, a number no float holds, NaN)."""


class Pairs(list):
    """An object as its ``(key, value)`` pairs, a key possibly more than once."""


def dump(value) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, Pairs):
        return "{" + ", ".join(f"{json.dumps(key)}: {dump(item)}" for key, item in value) + "}"
    if isinstance(value, dict):
        return dump(Pairs(value.items()))
    if isinstance(value, list):
        return "[" + ", ".join(dump(item) for item in value) + "]"
    return json.dumps(value)  # ASCII: a lone surrogate is written as its \\u escape


def paths(value, prefix=()) -> list[tuple]:
    """Every key and index below ``value``, as paths from it."""
    found = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append((*prefix, key))
        found.extend(paths(item, (*prefix, key)))
    return found


def parent_of(manifest, path: tuple):
    node = manifest
    for key in path[:-1]:
        node = node[key]
    return node


FIXED = {"names": True, "relation": True, "missing manifest": True, "archive errors": True}
"""Flip each once its xfail tests below pass, and the properties cover it too: ``names``, a
listed file name with NUL or a lone surrogate (ValueError, not Unreadable); ``relation``,
``refuted.relation`` (listed by the contract, not read by the checker); ``missing
manifest``, a directory without one (FileMismatch, not Unreadable); ``archive errors``, an
archive cut inside its gzip header (TypeError from tarfile, and the command's exit 1)."""
NAME_ALPHABET = (st.characters() if FIXED["names"]
                 else st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
"""Text for any string the mutations write."""
ODD_NAMES = ["proof\x00.drat", "\ud800.drat"] if FIXED["names"] else []

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                    st.text(NAME_ALPHABET, max_size=40))
RAW_NUMBERS = ["1" + "0" * 400, "9" * 5000, "-" + "9" * 4300, "1e999", "-1e999", "-0", "0.0", "3.0", "1E2",
               "NaN", "Infinity", "-Infinity", "2e-400"]
other_values = st.one_of(
    scalars,
    st.sampled_from(RAW_NUMBERS).map(Raw),
    st.lists(scalars, max_size=5),
    st.dictionaries(st.text(NAME_ALPHABET, max_size=10), scalars, max_size=4),
    st.sampled_from([1, 2, 10, 200, 500, 5000, 100_000]).map(lambda depth: Raw("[" * depth + "]" * depth)),
    st.sampled_from([1, 2, 10, 200, 500, 5000, 100_000]).map(lambda depth: Raw('{"a": ' * depth + "1" + "}" * depth)),
)
"""Any JSON value, most of another type than the one replaced."""


def plausible(manifest: dict, path: tuple) -> st.SearchStrategy:
    """Values of the right type a forger might try at ``path``: the contract's other words,
    nearby numbers, other claims, other files' names, sizes and hashes, squares off the
    board or twice, other symmetries."""
    problem = manifest["problem"]
    key = next((item for item in reversed(path) if isinstance(item, str)), "")
    listed = [item for item in (manifest.get("formula"), manifest.get("proof"), *(
        [manifest["cubes"]["file"], manifest["cubes"]["cover"], *manifest["cubes"]["proofs"]] if "cubes" in manifest
        else [])) if item]
    squares = ["a1", "e3", "c5", "f6", "a7", "g1", "A1", "a01", "a0", "aa1", "a" * 31 + "1", "1a"]
    pools = {
        "contract": ["chessdom-certificate/1", "chessdom-certificate/2", "chessdom-certificate/3", "chessdom-certificate"],
        "rows": [0, 1, 5, 7, 64, 65, -6], "cols": [0, 1, 5, 7, 64, 65, -6],
        "piece": ["rook", "king", "bishop", "knight", "Queen", "queens", ""],
        "objective": ["independence", "total_domination", "independent_domination", "Domination"],
        "value": [0, 1, 2, 4, 5, 36, 37], "bound": [0, 1, 3, 4, 36, 37], "solutions": [0, 3, 5, 8, 10**7, 10**7 + 1],
        "classes": [0, 2, 4, 10**7 + 1], "blocked": [0, 3, 5], "variables": [0, 1, 10**9], "clauses": [0, -1],
        "relation": ["at least", "at most", "exactly", ""],
        "encoding": ["seqcounter", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer", "itotalizer", "native"],
        "order": ["row-major", "column-major", "Hilbert", ""],
        "claim": [claim(problem, bound) for bound in (1, 3, 4)] + [
            manifest["claim"].upper(), manifest["claim"] + ".", " " + manifest["claim"], manifest["claim"][:-1]],
        "file": ["formula.cnf", "proof.drat", "cubes.txt", "cover.drat", "cube-1.drat", "cube-11.drat", "manifest.json",
                 "../proof.drat", "/etc/passwd", "sub/proof.drat", ".", "..", "", "proof.drat/", "x" * 255, "x" * 256,
                 "\u00e9" * 200, *ODD_NAMES],
        "bytes": [0, -1, 1, *(item["bytes"] + 1 for item in listed[:2]), *(item["bytes"] for item in listed[-2:]),
                  MAX_PROOF_BYTES, MAX_PROOF_BYTES + 1, MAX_FORMULA_BYTES + 1, MAX_CERTIFICATE_BYTES],
        "sha256": [*(item["sha256"] for item in listed), "0" * 64, listed[0]["sha256"].upper(), listed[0]["sha256"][:63],
                   listed[0]["sha256"] + "0"],
        "witness": [[], ["a1"], ["a1", "a1", "e3"], ["a1", "e3", "c5", "f6"], ["c5", "a1", "e3"], ["a1", "e3", "c7"],
                    ["a1", "e3", "z9"]],
        "symmetries": [list(SQUARE_SYMMETRIES)[:4], [*SQUARE_SYMMETRIES, "identity"], list(SQUARE_SYMMETRIES)[::-1],
                       [*list(SQUARE_SYMMETRIES)[:7], "transpose"], []],
        "representatives": [[], [["a1", "e3", "c5"]] * 2, [["a1", "e3", "c5"], ["f1", "b3", "d5"]], [["a1", "e3"]],
                            [["a1", "e3", "c5", "f6"]], [["c5", "e3", "a1"]]],
        "proofs": [[], listed[-1:], listed[-3:]],
    }
    if key == "witness" and isinstance(path[-1], int) or key == "representatives" and len(path) > 2:
        return st.sampled_from(squares + [["a1"]])
    if key == "symmetries" and isinstance(path[-1], int):
        return st.sampled_from([*SQUARE_SYMMETRIES, "Identity", "rotate"])
    if key in pools and not (key == "proofs" and isinstance(path[-1], int)):
        return st.sampled_from(pools[key])
    if key in ("proofs", "formula", "proof", "cover"):
        return st.sampled_from([*listed, {**listed[0], "file": "elsewhere.drat"}])
    return st.one_of(st.sampled_from([0, 1, -1, "", "x", True, None]), st.text(NAME_ALPHABET, max_size=20))


def mutation_paths(manifest: dict) -> st.SearchStrategy:
    """A path into the manifest: a top-level key first, then anything below it (so that the
    ten cube proofs' entries do not drown the rest)."""
    every = paths(manifest)
    return st.sampled_from(sorted(manifest)).flatmap(
        lambda top: st.sampled_from([path for path in every if path[0] == top]))


@st.composite
def manifest_texts(draw, manifest: dict, original: bytes) -> bytes:
    """The manifest's bytes, mutated once."""
    kind = draw(st.sampled_from(["delete", "replace", "plausible", "plausible", "duplicate", "truncate", "byte",
                                 "space"]))
    event(f"manifest: {kind}")
    if kind in ("truncate", "byte", "space"):
        at = draw(st.integers(0, len(original) - 1))
        if kind == "truncate":
            return original[:at]
        if kind == "space":
            return original[:at] + draw(st.sampled_from([b" ", b"\n", b"\t", b"\r\n"])) + original[at:]
        byte = bytes([draw(st.integers(0x80, 0xFF))])
        return original[:at] + byte + original[at + draw(st.integers(0, 1)):]
    mutated = copy.deepcopy(manifest)
    path = draw(mutation_paths(manifest))
    parent = parent_of(mutated, path)
    if kind == "delete":
        del parent[path[-1]]
    elif kind == "replace":
        parent[path[-1]] = draw(other_values)
    elif kind == "plausible":
        parent[path[-1]] = draw(plausible(manifest, path))
    else:
        dicts = [()] + [p for p in paths(manifest) if isinstance(parent_of(manifest, (*p, None)), dict)
                        and parent_of(manifest, (*p, None))]
        where = draw(st.sampled_from(dicts))
        node = parent_of(mutated, (*where, None))
        key = draw(st.sampled_from(sorted(node)))
        extra = draw(st.one_of(other_values, plausible(manifest, (*where, key))))
        pairs = Pairs(node.items())
        index = [k for k, _ in pairs].index(key) + draw(st.sampled_from([0, 1]))  # before or after the original
        pairs.insert(index, (key, extra))
        if where:
            parent_of(mutated, where)[where[-1]] = pairs
        else:
            mutated = pairs
    return dump(mutated).encode("utf-8")


# ---- what the checker relies on, as its JSON reading sees it ----------------------------------


def reading(data: bytes):
    """The manifest as Python's JSON reading (the checker's) sees it, or None if not JSON."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


MISSING = "<missing>"


def _get(value, *keys):
    for key in keys:
        found = (isinstance(value, dict) and key in value
                 or isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value))
        if not found:
            return MISSING
        value = value[key]
    return value


def _entry(value):
    if not isinstance(value, dict):
        return value
    return {key: value.get(key, MISSING) for key in ("file", "bytes", "sha256")}


def _sorted(value):
    """A list whose order the checker ignores (the symmetries, a placement's squares)."""
    if isinstance(value, list):
        try:
            return sorted(value, key=lambda item: json.dumps(item, sort_keys=True))
        except (TypeError, ValueError, RecursionError):
            return value
    return value


def relied_on(manifest) -> str | None:
    """The claim and the evidence the checker relies on, as JSON text that keeps types apart
    (``3``, ``3.0`` and ``true`` differ); None when there is no such reading.

    Left out on purpose: ``refuted.relation`` until ``FIXED["relation"]`` (the contract's
    table lists it, the checker does not read it: an xfail test below), a count's ``witness`` (a count has none; one
    there is ignored), and the notes the contract does not check (``prover``, ``optimum``,
    ``check``, ``created_at``, ``cubes.splits``). The counts beside the files (``variables``,
    ``clauses``, ``refuted.blocked``, ``cubes.count``) and the proofs' ``format`` are
    compared with what they describe where given (a changed one is rejected:
    tests/test_certificates_bounded.py), and may be left out: they state nothing more."""
    if not isinstance(manifest, dict):
        return None
    enumeration = _get(manifest, "enumeration")
    picked = {
        "contract": _get(manifest, "contract"),
        "problem": {key: _get(manifest, "problem", key) for key in ("rows", "cols", "piece", "objective")},
        "value": _get(manifest, "value"),
        "claim": _get(manifest, "claim"),
        "bound": _get(manifest, "refuted", "bound"),
        "relation": _get(manifest, "refuted", "relation") if FIXED["relation"] else None,
        "encoding": _get(manifest, "encoding"),
        "order": _get(manifest, "order"),
        "formula": _entry(_get(manifest, "formula")),
        "proof": _entry(_get(manifest, "proof")),
        "cubes": {key: _entry(_get(manifest, "cubes", key)) for key in ("file", "cover")},
        "cube proofs": ([_entry(item) for item in manifest["cubes"]["proofs"]]
                        if isinstance(_get(manifest, "cubes", "proofs"), list) else _get(manifest, "cubes", "proofs")),
    }
    if enumeration is MISSING:
        picked["witness"] = _sorted(_get(manifest, "witness"))
    elif isinstance(enumeration, dict):
        representatives = enumeration.get("representatives", MISSING)
        if isinstance(representatives, list):
            representatives = _sorted([_sorted(item) for item in representatives])
        picked["enumeration"] = {"symmetries": _sorted(enumeration.get("symmetries", MISSING)),
                                 "representatives": representatives,
                                 "solutions": enumeration.get("solutions", MISSING),
                                 "classes": enumeration.get("classes", MISSING)}
    else:
        picked["enumeration"] = enumeration
    try:
        return json.dumps(picked, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return None


# ---- the properties ----------------------------------------------------------------------------


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data(), name=st.sampled_from(["single", "bundle", "count"]))
def test_a_mutated_manifest_is_read_or_rejected_and_verifies_only_what_it_claimed(certificates, capsys, data, name):
    original = (certificates[name] / "manifest.json").read_bytes()
    genuine = json.loads(original)
    text = data.draw(manifest_texts(genuine, original), label="manifest")
    read = reading(text)
    with copy_of(certificates, name) as directory:
        (directory / "manifest.json").write_bytes(text)
        result, _ = outcome(directory)
        if read is None:
            assert result == "unreadable", "a manifest that is not JSON was read"
        if result == "ok":
            assert relied_on(read) == relied_on(genuine), "a changed claim or evidence verified"
        event(f"manifest: {result}")
        if data.draw(sampled, label="command"):
            command_agrees(directory, result, capsys)


FILE_MUTATIONS = ["truncate", "append", "flip", "symlink", "symlink to /dev/zero", "dangling symlink", "fifo",
                  "directory", "remove"]


def mutate_file(path: Path, kind: str, draw) -> None:
    data = path.read_bytes() if path.is_file() else b""
    if kind in ("truncate", "append", "flip"):
        if kind == "truncate":
            data = data[:draw(st.integers(0, max(len(data) - 1, 0)))]
        elif kind == "append":
            data += draw(st.sampled_from([b"\n", b" ", b"0\n", b"c comment\n", b"\x00", bytes(100_000), b"\xff"]))
        else:
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
        path.write_bytes(data)
        return
    path.rename(path.with_name(path.name + ".real"))
    if kind == "symlink":
        path.symlink_to(path.name + ".real")
    elif kind == "symlink to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "dangling symlink":
        path.symlink_to("nowhere")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "x").write_bytes(data)


@settings(max_examples=100 * SCALE, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data(), name=st.sampled_from(["single", "bundle", "count"]),
       kind=st.sampled_from(FILE_MUTATIONS))
def test_a_changed_file_is_rejected_and_a_file_that_is_not_a_regular_one_cannot_be_read(
        certificates, capsys, data, name, kind):
    files = sorted(p.name for p in certificates[name].iterdir())
    if kind in ("truncate", "append", "flip") or kind == "remove" and not FIXED["missing manifest"]:
        files.remove("manifest.json")  # the manifest's own bytes: the test above; its removal: an xfail below
    target = data.draw(st.sampled_from(files), label="file")
    event(f"file: {kind}")
    with copy_of(certificates, name) as directory:
        if kind == "remove":
            (directory / target).unlink()
        else:
            mutate_file(directory / target, kind, data.draw)
        result, detail = outcome(directory)
        if kind in ("truncate", "append", "flip", "remove") and target != "manifest.json":
            assert result == "rejected", (result, str(detail))
            assert detail.reason.startswith(f"{target} hash"), detail.reason
        else:
            assert result == "unreadable", (result, getattr(detail, "reason", None))
        if data.draw(sampled, label="command"):
            command_agrees(directory, result, capsys)


PROOF_TOKENS = ["0", "1", "-1", "7", "-7", "224", "225", "-225", "226", "10000", "2147483647", "2147483648",
                "-2147483648", "4294967297", "9223372036854775808", "18446744073709551616", "1" + "0" * 30, "d", "-0",
                "+1", "1_0", "-", "c", "p", "cnf", "é", "\x00", "\t", "\r", "\x0b", "\x0c", "\x1c", "0x1", "1e3"]


@st.composite
def proof_texts(draw, original: bytes) -> bytes:
    """A proof's bytes, mutated: lines of odd tokens, a line gone, doubled or swapped, a cut,
    no final newline, a forgery's steps over fresh variables, a deletion alone."""
    lines = original.splitlines(keepends=True)
    kind = draw(st.sampled_from(["insert", "delete", "duplicate", "swap", "truncate", "no final newline",
                                 "fresh variables", "d alone", "empty clause first", "non-ascii"]))
    event(f"proof: {kind}")
    at = draw(st.integers(0, len(lines) - 1))
    if kind == "insert":
        for _ in range(draw(st.integers(1, 3))):
            tokens = draw(st.lists(st.sampled_from(PROOF_TOKENS), max_size=6))
            lines.insert(draw(st.integers(0, len(lines))), (" ".join(tokens) + draw(st.sampled_from(["\n", " 0\n", ""]))
                                                            ).encode("utf-8"))
    elif kind == "delete":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(draw(st.integers(0, len(lines))), lines[at])
    elif kind == "swap":
        other = draw(st.integers(0, len(lines) - 1))
        lines[at], lines[other] = lines[other], lines[at]
    elif kind == "truncate":
        data = b"".join(lines)
        return data[:draw(st.integers(0, len(data) - 1))]
    elif kind == "no final newline":
        return b"".join(lines).rstrip(b"\n")
    elif kind == "fresh variables":
        x, y = draw(st.sampled_from([(300, 301), (225, 226), (5000, 5001), (2**31 - 2, 2**31 - 1)]))
        lines.insert(at, f"{x} 0\n{y} -{x} 0\nd {y} -{x} 0\n-{y} 0\n0\n".encode())
    elif kind == "d alone":
        lines.insert(at, draw(st.sampled_from([b"d\n", b"d 0\n", b"d", b"d d 0\n"])))
    elif kind == "empty clause first":
        lines.insert(0, b"0\n")
    else:
        lines.insert(at, draw(st.sampled_from(["é 0\n", "1 é 0\n", "\u00a0 0\n", "１ 0\n"])).encode("utf-8")
                     + draw(st.sampled_from([b"", b"\xff\xfe"])))
    return b"".join(lines)


def relist(directory: Path, name: str, data: bytes) -> None:
    """Replace ``name`` with ``data`` and its manifest entry's size and SHA-256 to match."""
    manifest = load(directory)
    entries = [manifest.get("formula"), manifest.get("proof")]
    if "cubes" in manifest:
        entries += [manifest["cubes"]["file"], manifest["cubes"]["cover"], *manifest["cubes"]["proofs"]]
    [listed] = [item for item in entries if item and item["file"] == name]
    listed.update(entry(directory, name, data))
    save(directory, manifest)


@settings(max_examples=100 * SCALE, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data(), name=st.sampled_from(["forged", "forged bundle", "single", "count"]))
def test_no_proof_text_verifies_a_false_claim_and_none_breaks_the_checker(certificates, capsys, data, name):
    proofs = sorted(p.name for p in certificates[name].iterdir() if p.suffix == ".drat")
    target = data.draw(st.sampled_from(proofs), label="proof")
    text = data.draw(proof_texts((certificates[name] / target).read_bytes()), label="text")
    with copy_of(certificates, name) as directory:
        relist(directory, target, text)
        result, _ = outcome(directory)
        if name.startswith("forged"):
            assert result != "ok", f"a false claim verified with this {target}: {text[:300]!r}"
        event(f"proof: {name}: {result}")
        if data.draw(sampled, label="command"):
            command_agrees(directory, result, capsys)


@st.composite
def cube_texts(draw, original: bytes, variables: int) -> bytes:
    lines = original.decode().splitlines()
    kind = draw(st.sampled_from(["drop", "duplicate", "swap", "negate", "beyond", "add literal", "remove literal",
                                 "junk line", "crlf", "no final newline", "blank line", "non-ascii", "tabs",
                                 "empty"]))
    event(f"cubes: {kind}")
    at = draw(st.integers(0, len(lines) - 1))
    literals = lines[at].split()[:-1]
    if kind == "drop":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(draw(st.integers(0, len(lines))), lines[at])
    elif kind == "swap":
        other = draw(st.integers(0, len(lines) - 1))
        lines[at], lines[other] = lines[other], lines[at]
    elif kind in ("negate", "beyond", "remove literal"):
        index = draw(st.integers(0, len(literals) - 1))
        if kind == "negate":
            literals[index] = str(-int(literals[index]))
        elif kind == "beyond":
            literals[index] = str(draw(st.sampled_from([variables + 1, -variables - 1, 2**31, 10**30])))
        else:
            del literals[index]
        lines[at] = " ".join([*literals, "0"])
    elif kind == "add literal":
        literals.insert(draw(st.integers(0, len(literals))), str(draw(st.integers(-variables, variables))))
        lines[at] = " ".join([*literals, "0"])
    elif kind == "junk line":
        lines.insert(at, " ".join(draw(st.lists(st.sampled_from(PROOF_TOKENS), max_size=5))))
    elif kind == "non-ascii":
        lines[at] = lines[at].replace(" ", "\u00a0", 1)
    elif kind == "tabs":
        lines[at] = lines[at].replace(" ", "\t")
    elif kind == "empty":
        return b""
    text = "\n".join(lines) + ("" if kind == "no final newline" else "\n") + ("\n" if kind == "blank line" else "")
    if kind == "crlf":
        text = text.replace("\n", "\r\n")
    return text.encode("utf-8")


@settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data(), name=st.sampled_from(["forged bundle", "bundle"]))
def test_no_cubes_verify_a_false_claim_and_none_break_the_checker(certificates, capsys, data, name):
    original = (certificates[name] / "cubes.txt").read_bytes()
    variables = int((certificates[name] / "formula.cnf").read_bytes().split(b"\n", 1)[0].split()[2])
    text = data.draw(cube_texts(original, variables), label="cubes")
    with copy_of(certificates, name) as directory:
        relist(directory, "cubes.txt", text)
        result, _ = outcome(directory)
        if name == "forged bundle":
            assert result != "ok", f"a false claim verified with these cubes: {text!r}"
        event(f"cubes: {name}: {result}")
        if data.draw(sampled, label="command"):
            command_agrees(directory, result, capsys)


# ---- archives --------------------------------------------------------------------------------

FOLDERS = ["q6/", "", "./", "/", "/q6/", "../", "q6/../", "a/b/", "q6//", "q6/./"]
ODD_TYPES = {"symlink": tarfile.SYMTYPE, "hard link": tarfile.LNKTYPE, "character device": tarfile.CHRTYPE,
             "block device": tarfile.BLKTYPE, "fifo": tarfile.FIFOTYPE, "directory": tarfile.DIRTYPE,
             "contiguous": tarfile.CONTTYPE, "unknown type": b"Z"}


def member(name: str, data: bytes | None = None, kind=tarfile.REGTYPE, link: str = "") -> tuple:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    if data is not None:
        info.size = len(data)
    return info, data


@st.composite
def archives(draw, files: dict[str, bytes], forged_manifest: bytes) -> bytes:
    """A .tar.gz of the certificate's files in one folder (or several), with odd members added
    — links, devices, directories named like a listed file, absolute names, ``..``, names
    twice, a forged manifest — in any order, then perhaps cut or with a byte flipped."""
    folder = draw(st.sampled_from(FOLDERS[:5]))
    members = [member(folder + name, data) for name, data in files.items()]
    names = [*files, "manifest.json", "x" * 300, "", ".", "..", "\udcff", "a\\b"]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(FOLDERS)) + draw(st.sampled_from(names))
        kind = draw(st.sampled_from(["regular", "forged manifest", *ODD_TYPES]))
        event(f"archive member: {kind}")
        if kind == "regular":
            members.append(member(name, draw(st.binary(max_size=64))))
        elif kind == "forged manifest":
            members.append(member(draw(st.sampled_from(FOLDERS)) + "manifest.json", forged_manifest))
        else:
            link = draw(st.sampled_from(["/etc/passwd", "/dev/zero", "../../outside", folder + "proof.drat",
                                         folder + "manifest.json"]))
            data = b"" if ODD_TYPES[kind] in (tarfile.CONTTYPE, b"Z") else None
            members.append(member(name, data, ODD_TYPES[kind], link))
    members = draw(st.permutations(members))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1, format=draw(st.sampled_from(
            [tarfile.PAX_FORMAT, tarfile.GNU_FORMAT]))) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    archive = buffer.getvalue()
    damage = draw(st.sampled_from(["none", "none", "truncate", "flip"]))
    event(f"archive: {damage}")
    at = draw(st.integers(0 if FIXED["archive errors"] else 16, len(archive) - 1))
    if damage == "truncate":
        return archive[:at]
    if damage == "flip":
        return archive[:at] + bytes([archive[at] ^ draw(st.integers(1, 255))]) + archive[at + 1:]
    return archive


@settings(max_examples=100 * SCALE, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_an_odd_or_damaged_archive_unpacks_inside_its_folder_and_verifies_only_the_genuine_claim(
        certificates, capsys, data):
    genuine = certificates["single"]
    files = {p.name: p.read_bytes() for p in sorted(genuine.iterdir())}
    forged_manifest = (certificates["forged"] / "manifest.json").read_bytes()
    archive = data.draw(archives(files, forged_manifest), label="archive")
    with tempfile.TemporaryDirectory(prefix="chessdom-fuzz-") as scratch:
        root = Path(scratch) / "inside"
        root.mkdir()
        path = root / "c.tar.gz"
        path.write_bytes(archive)
        out = root / "out" / "certificate"
        try:
            result, _ = outcome(unpack(path, out))
        except Unreadable:
            result = "unreadable"
        assert sorted(p.name for p in Path(scratch).iterdir()) == ["inside"]
        assert sorted(p.name for p in root.iterdir()) == ["c.tar.gz", "out"]
        listed = {"manifest.json", "formula.cnf", "proof.drat"}
        for written in out.iterdir() if out.exists() else ():
            assert written.is_file() and not written.is_symlink(), written
            if result == "ok":
                assert written.name in listed
        if result == "ok":
            assert relied_on(load(out)) == relied_on(json.loads(files["manifest.json"]))
        event(f"archive: {result}")
        if data.draw(sampled, label="command"):
            command_agrees(path, result, capsys)


# ---- what the properties found: each failed before its fix ------------------------------------


@pytest.fixture
def single(certificates, tmp_path) -> Path:
    return Path(shutil.copytree(certificates["single"], tmp_path / "single"))


def test_a_listed_file_name_with_a_nul_byte_cannot_be_read(single):
    manifest = load(single)
    manifest["proof"]["file"] = "proof\u0000.drat"
    with pytest.raises(Unreadable):
        check_certificate(save(single, manifest))


def test_a_listed_file_name_with_a_lone_surrogate_cannot_be_read(single):
    manifest = load(single)
    manifest["proof"]["file"] = "\ud800.drat"
    (single / "manifest.json").write_text(json.dumps(manifest))  # ASCII, the surrogate as its \u escape
    with pytest.raises(Unreadable):
        check_certificate(single)


def test_a_directory_without_a_manifest_cannot_be_read(single, capsys):
    (single / "manifest.json").unlink()
    with pytest.raises(Unreadable):
        check_certificate(single)


def test_a_relation_the_objective_does_not_have_is_not_verified(single):
    manifest = load(single)
    manifest["refuted"]["relation"] = "at least"  # domination refutes "at most"
    assert not check_certificate(save(single, manifest)).ok


LONG = 200_000


@pytest.mark.parametrize("where", ["proof token", "problem.piece", "problem.objective"])
def test_what_cannot_be_read_is_said_in_a_bounded_line(single, capsys, where):
    # A 64 MiB proof of NUL bytes, listed with its true size and hash, printed a 256 MiB line
    # (each NUL as \x00) and took 1.4 GB to say so.
    manifest = load(single)
    if where == "proof token":
        relist(single, "proof.drat", b"\x00" * LONG)
    else:
        manifest["problem"][where.split(".")[1]] = "x" * LONG
        save(single, manifest)
    assert main([str(single)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and len(err) < 2000, len(err)


def test_an_enumeration_larger_than_its_listed_formula_could_block_is_refused_before_it_is_expanded(
        tmp_path, monkeypatch):
    # 16 non-attacking rooks on 16×16 are any permutation: classes are free to make. Each
    # placement is blocked by a clause of 16 literals (at least 3 bytes each), so 100 classes
    # (up to 800 placements) cannot fit in a formula listed as one byte.
    import random

    from chessdom.certificates import enumeration

    rng = random.Random(0)
    side = 16
    problem = {"rows": side, "cols": side, "piece": "rook", "objective": "independence"}
    representatives = []
    for _ in range(100):
        files = list(range(side))
        rng.shuffle(files)
        representatives.append([f"{enumeration._file_name(file)}{rank + 1}" for rank, file in enumerate(files)])
    solutions, classes = 800, 100
    manifest = {"contract": "chessdom-certificate/2", "problem": problem, "value": side,
                "enumeration": {"solutions": solutions, "classes": classes, "symmetries": list(SQUARE_SYMMETRIES),
                                "representatives": representatives},
                "claim": enumeration_claim(problem, side, solutions, classes, 8),
                "refuted": {"bound": side, "relation": "at least"}, "encoding": "totalizer", "order": "hilbert",
                "formula": entry(tmp_path, "formula.cnf", b"x"), "proof": entry(tmp_path, "proof.drat", b"0\n")}
    save(tmp_path, manifest)
    expanded = []
    original = enumeration._check_placement
    monkeypatch.setattr(enumeration, "_check_placement", lambda *args: expanded.append(1) or original(*args))
    with contextlib.suppress(Unreadable):
        assert not check_certificate(tmp_path).ok
    # A placement of 16 pieces takes at least 3·16 + 2 bytes of the formula it is blocked in.
    assert len(expanded) <= manifest["formula"]["bytes"] // (3 * side + 2), len(expanded)


def test_a_bundles_formula_is_parsed_once_however_many_cubes_it_has(tmp_path, monkeypatch):
    # Each cube's check read and parsed the whole formula again: a bundle of 50 cubes over
    # 32×32's 10.5 MB formula had no answer in 120 s (15 s a cube). The cubes need not be
    # hard: b + 1 square variables set true conflict by unit propagation through the
    # cardinality encoding. Here they are one distinct literal each, every DRAT check
    # answers "refuted" at once, and what is counted is how often the formula is parsed.
    import dratify

    from chessdom.certificates.enumeration import _file_name

    problem = {"rows": 32, "cols": 32, "piece": "queen", "objective": "domination"}
    formula = rebuild_formula(problem, 511, "sortnetwrk", "hilbert")
    cubes = 300
    witness = [f"{_file_name(file)}{rank}" for rank in range(1, 17) for file in range(32)]  # ranks 1…16
    manifest = {"contract": "chessdom-certificate/2", "problem": problem, "value": 512, "witness": witness,
                "claim": claim(problem, 511), "refuted": {"bound": 511, "relation": "at most"},
                "encoding": "sortnetwrk", "order": "hilbert", "formula": entry(tmp_path, "formula.cnf", formula),
                "cubes": {"file": entry(tmp_path, "cubes.txt", b"".join(b"%d 0\n" % n for n in range(1, cubes + 1))
                                        ),
                          "cover": entry(tmp_path, "cover.drat", b""),
                          "proofs": [entry(tmp_path, f"cube-{n}.drat", b"") for n in range(1, cubes + 1)]}}
    save(tmp_path, manifest)
    parsed, checked = [], []
    parse = dratify.parse_dimacs
    monkeypatch.setattr(dratify, "parse_dimacs", lambda text, **kw: parsed.append(1) or parse(text, **kw))
    monkeypatch.setattr(dratify, "check_proof", lambda *args, **kw: checked.append(1) or SimpleNamespace(ok=True))
    assert check_certificate(tmp_path).ok
    assert len(checked) == cubes + 1 and len(parsed) == 1, (len(checked), len(parsed))


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE])
def test_an_archive_whose_header_is_larger_than_any_certificate_file_cannot_be_read(certificates, tmp_path, kind):
    # A GNU long-name header declaring 80 MiB of name (zeros inflate ~1000:1). A member's own
    # size is refused from its header (sources._members); the header's payload is not: 1 GiB
    # of it in a 1 MB archive took 2.1 GB of memory, 512 MiB of pax comment 1.6 GB and 42 s,
    # and the certificate beside it verified.
    files = {p.name: p.read_bytes() for p in sorted(certificates["single"].iterdir())}
    size = MAX_PROOF_BYTES + 16 * 2**20
    path = tmp_path / "long-name.tar.gz"
    with gzip.open(path, "wb", compresslevel=1) as archive:
        header, _ = member("././@LongLink", kind=kind)
        header.size = size
        archive.write(header.tobuf(tarfile.GNU_FORMAT if kind == tarfile.GNUTYPE_LONGNAME else tarfile.USTAR_FORMAT))
        for _ in range(size // 2**20):
            archive.write(bytes(2**20))
        for name, data in {"x": b"", **files}.items():
            info, _ = member(f"q6/{name}", data)
            archive.write(info.tobuf(tarfile.GNU_FORMAT) + data + bytes(-len(data) % 512))
        archive.write(bytes(1024))
    with pytest.raises(Unreadable, match="a header of"):
        unpack(path, tmp_path / "out")


@pytest.mark.parametrize("damage", ["cut after 3 bytes", "sparse map of words"])
def test_an_archive_tarfile_trips_on_cannot_be_read(certificates, tmp_path, capsys, damage):
    # The first is a download killed after 3 bytes: a traceback, and exit status 1, which
    # says "read and rejected". The second is one line, but not Unreadable from unpack.
    path = tmp_path / "c.tar.gz"
    if damage == "cut after 3 bytes":
        path.write_bytes(b"\x1f\x8b\x08")
    else:
        with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
            info, data = member("q6/x", b"abcd")
            info.pax_headers = {"GNU.sparse.map": "a,b", "GNU.sparse.size": "4"}
            tar.addfile(info, io.BytesIO(data))
            for name in ("manifest.json", "formula.cnf", "proof.drat"):
                info, data = member(f"q6/{name}", (certificates["single"] / name).read_bytes())
                tar.addfile(info, io.BytesIO(data))
    with pytest.raises(Unreadable):
        unpack(path, tmp_path / "out")
    capsys.readouterr()
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "cannot read" in err


def _worker_dies(refutation, engine):
    """A DRAT check whose process dies (the kernel's OOM killer, a crash in the native
    engine): module-level, so that the pool can pickle it by name."""
    os._exit(137)


def test_a_worker_that_dies_is_not_a_rejection(certificates, tmp_path, capsys, monkeypatch):
    # Seen for real: a 64 MiB cube proof under `ulimit -v 1500000` with --workers 2 (the
    # native engine aborts on a failed allocation) ended in BrokenProcessPool and exit 1.
    from chessdom.certificates import check as checking

    directory = shutil.copytree(certificates["bundle"], tmp_path / "bundle")
    monkeypatch.setattr(checking, "check_refutation", _worker_dies)
    capsys.readouterr()
    status = main([str(directory), "--workers", "2"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1, (status, err[-300:])


def test_no_cube_longer_than_the_formula_has_variables_is_handed_to_the_drat_check(certificates, tmp_path,
                                                                                   monkeypatch):
    # One cube of 200,000 literals over a 224-variable formula: each is a Python int in a
    # list, a tuple, a unit clause, and again negated in the cover's clause.
    from chessdom.certificates import check as checking

    directory = shutil.copytree(certificates["bundle"], tmp_path / "bundle")
    variables = int((directory / "formula.cnf").read_bytes().split(b"\n", 1)[0].split()[2])
    lines = (directory / "cubes.txt").read_bytes().splitlines(keepends=True)
    relist(directory, "cubes.txt", b"-100 " * 200_000 + b"0\n" + b"".join(lines[1:]))
    longest = []

    def cube_length(refutation, engine):  # a cube's units, or the cover's longest negated cube
        cover = refutation.name == "cover.drat"
        longest.append(max(map(len, refutation.extra)) if cover else len(refutation.extra))

    monkeypatch.setattr(checking, "check_refutation", cube_length)
    with contextlib.suppress(Unreadable):
        check_certificate(directory)
    assert max(longest, default=0) <= variables, max(longest)


def test_what_a_rejection_says_is_a_bounded_line(single, capsys):
    manifest = load(single)
    manifest["claim"] = "x" * LONG
    save(single, manifest)
    capsys.readouterr()
    assert main([str(single)]) == 1
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) < 2000, max(map(len, out.splitlines()))
