"""The atlas (issue 50) on a small grid: what it builds is what brute force finds, a killed
build resumes recomputing nothing finished, the reader reads it, and ``chessdom atlas``
checks, compares and exports it."""

import hashlib
import itertools
import json

import pytest

from chessdom.atlas import Atlas
from chessdom.atlas import builder as builder_module
from chessdom.atlas import compute as compute_module
from chessdom.atlas.builder import Here, Local, build
from chessdom.atlas.compute import EntrySpec, compute_entry
from chessdom.atlas.exports import load_reference
from chessdom.atlas.grid import cells, specs
from chessdom.atlas.schema import OUT_OF_REACH, PROVED
from chessdom.chessboard import (
    Board, Objective, canonical_form, check_placement, parse_piece, parse_squares,
)
from chessdom.cli import main
from chessdom.models.certificates import CertificateUnavailable

PIECES, PARAMETERS = ("queen", "knight"), ("domination", "independence")


def small_grid(directory, max_n=3):
    return specs(directory, cells(PIECES, PARAMETERS, [(n, n) for n in range(1, max_n + 1)]), time_limit=60,
                 count_limit=60, ship_bytes=None)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    directory = tmp_path_factory.mktemp("atlas")
    outcome = build(directory, small_grid(directory, max_n=4), Here(), progress=False)
    assert outcome.failures == []
    return directory


def brute_force(piece, parameter, n):
    """The optimum, its placements and classes, by trying every set of squares (for
    independence every set of pairwise non-attacking squares: a set is independent exactly
    when no two of its squares attack each other alone), each kept one checked whole."""
    board, objective = Board(n, n), Objective(parameter)
    kind = parse_piece(piece)
    if objective.maximize:
        apart = {pair for pair in itertools.combinations(range(n * n), 2)
                 if check_placement(board, kind, pair).independent}
        candidates = list(_independent_sets(range(n * n), apart, ()))
        sizes = [max(map(len, candidates))]
    else:
        candidates, sizes = None, range(1, n * n + 1)
    for size in sizes:
        pool = [c for c in candidates if len(c) == size] if candidates is not None else \
            itertools.combinations(range(n * n), size)
        found = [squares for squares in pool if objective.satisfied_by(check_placement(board, kind, squares))]
        if found:
            return size, len(found), len({canonical_form(board, squares) for squares in found})
    return None


def _independent_sets(squares, apart, chosen):
    yield chosen
    for index, square in enumerate(squares):
        if all((other, square) in apart for other in chosen):
            yield from _independent_sets(squares[index + 1:], apart, (*chosen, square))


def test_every_entry_is_what_brute_force_finds(built):
    atlas = Atlas.open(built)
    entries = atlas.entries()
    assert len(entries) == len(PIECES) * len(PARAMETERS) * 4
    for entry in entries:
        assert entry.status == PROVED, entry
        value, count_all, count_classes = brute_force(entry.piece, entry.parameter, entry.n)
        assert (entry.value, entry.count_all, entry.count_classes) == (value, count_all, count_classes), entry.stem
        classes = atlas.classes(entry)
        assert [c.index for c in classes] == list(range(count_classes))
        assert sum(c.orbit_size for c in classes) == count_all
        # Independence with a piece on every square (knights on 1×1 and 2×2) has nothing to refute.
        trivial = entry.parameter == "independence" and entry.value == entry.n ** 2
        assert (atlas.certificate_path(entry) is None) == trivial
        assert atlas.count_certificate_path(entry).is_file()
        assert entry.checked_by.startswith("chessdom.certificates")


def test_the_reader_filters_and_finds_entries(built):
    atlas = Atlas.open(built)
    assert {e.piece for e in atlas.entries(piece="knight")} == {"knight"}
    assert [e.n for e in atlas.entries(piece="queen", parameter="independence")] == [1, 2, 3, 4]
    assert all(e.n == 3 for e in atlas.entries(n=3)) and len(atlas.entries(n=3)) == 4
    entry = atlas.entry("queen", "domination", 4)
    assert entry.to_dict()["n"] == 4 and entry.to_dict()["witness"] == list(entry.witness)
    assert atlas.entry("queen", "domination", 9) is None
    board = Board(4, 4)
    assert check_placement(board, parse_piece("queen"), parse_squares(board, entry.witness)).dominating
    rows = json.loads((built / "atlas.json").read_text())
    assert rows["format"] == "chessdom-atlas" and rows["version"] == 2 and len(rows["entries"]) == 16


def test_the_certificate_command_accepts_each_archive_as_is(built, capsys):
    entry = Atlas.open(built).entry("knight", "domination", 4)
    for archive in (entry.certificate, entry.count_certificate):
        assert main(["certificate", "check", str(built / archive)]) == 0


def fingerprints(directory):
    return {path.relative_to(directory): (path.stat().st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
            for folder in ("entries", "certificates") for path in (directory / folder).iterdir()}


def test_a_killed_build_resumes_recomputing_nothing_finished(tmp_path, monkeypatch):
    grid = small_grid(tmp_path, max_n=2)
    calls = []

    def killed_at_the_third(spec):
        calls.append(spec.stem)
        if len(calls) == 3:
            # Killed mid-entry: a half-made count state and a half-written entry file left behind.
            (tmp_path / ".work" / spec.stem / "count-state").mkdir(parents=True)
            (tmp_path / "entries" / f".{spec.stem}.json.x.partial").write_text("{")
            raise KeyboardInterrupt
        return compute_entry(spec)

    monkeypatch.setattr(builder_module, "compute_entry", killed_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        build(tmp_path, grid, Here(), progress=False)
    finished_before = fingerprints(tmp_path)
    assert len(Atlas.open(tmp_path).entries()) == 2  # the index holds what finished

    solves = []
    real_solve = compute_module.solve_with
    monkeypatch.setattr(compute_module, "solve_with", lambda problem, *a, **k: solves.append(problem) or
                        real_solve(problem, *a, **k))
    monkeypatch.setattr(builder_module, "compute_entry", compute_entry)
    outcome = build(tmp_path, grid, Here(), progress=False)
    assert (outcome.computed, outcome.reused) == (len(grid) - 2, 2)
    assert len(solves) == len(grid) - 2  # no solver call for a finished entry
    after = fingerprints(tmp_path)
    assert {path: after[path] for path in finished_before} == finished_before
    assert len(Atlas.open(tmp_path).entries()) == len(grid)
    assert main(["atlas", "check", str(tmp_path), "--jobs", "0", "--no-progress"]) == 0


def test_an_entry_out_of_reach_records_its_bounds_never_a_value(tmp_path):
    row = compute_entry(EntrySpec(tmp_path, "queen", "independent_domination", 12, 12, time_limit=0.05,
                                  count_limit=1))
    assert row["status"] == OUT_OF_REACH and row["value"] is None
    assert "time limit" in row["note"] and row["count_note"] == "no proved value to count"
    assert row["certificate"] is None and row["count_all"] is None


def test_check_compare_and_export_from_the_command(built, tmp_path, capsys):
    assert main(["atlas", "check", str(built), "--jobs", "0", "--no-progress"]) == 0
    assert "no faults" in capsys.readouterr().out
    assert main(["atlas", "compare", str(built), "--format", "csv"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("sequence,piece,parameter,what,n,atlas,published,verdict")
    # queens' and knights' γ, their counts, N-Queens (β(Q_n) = n from n = 4) and knights' β
    assert {line.split(",")[0] for line in table[1:]} >= {"A075458", "A002564", "A002563", "A006075", "A103315",
                                                         "A030978", "A000170"}
    assert all(",agree," in line for line in table[1:] if not line.startswith(","))
    # What no sequence covers is new: N-Queens counts placements of n queens, not of β(Q_3) = 2.
    assert any(line.startswith(",queen,independence,count_all,3,") and ",new," in line for line in table[1:])
    assert main(["atlas", "compare", str(built), "--format", "csv", "--only", "new"]) == 0
    assert {line.split(",")[7] for line in capsys.readouterr().out.splitlines()[1:]} == {"new"}
    assert main(["atlas", "export", str(built), "--bfiles", str(tmp_path / "b")]) == 0
    lines = (tmp_path / "b" / "b075458.txt").read_text().splitlines()
    atlas = Atlas.open(built)
    assert [line for line in lines if not line.startswith("#")] == [
        f"{n} {atlas.entry('queen', 'domination', n).value}" for n in range(1, 5)]


def test_a_published_term_that_disagrees_is_shown_with_our_evidence(built, tmp_path, capsys):
    wrong = next(s for s in load_reference() if s["a_number"] == "A002563")
    wrong["terms"] = [term + 1 for term in wrong["terms"]]
    (tmp_path / "r.json").write_text(json.dumps({"sequences": [wrong]}))
    assert main(["atlas", "compare", str(built), "--reference", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "|   4 |" in line)
    assert "disagree" in row and "certificates/queen-domination-4x4-count.tar.gz" in row and "count_classes = 3" in row


def test_bad_build_arguments_are_named(tmp_path, capsys):
    assert main(["atlas", "build", str(tmp_path), "--pieces", "dragon"]) == 2
    assert "piece: 'dragon'" in capsys.readouterr().err
    (tmp_path / "grid.csv").write_text("piece,parameter,rows,cols\nqueen,domination,0,3\n")
    assert main(["atlas", "build", str(tmp_path), "--grid", str(tmp_path / "grid.csv")]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["atlas", "check", str(tmp_path / "none")]) == 2
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "not-a-reference.json").write_text('{"sequences": [1]}')
    for argv, named in ((["build", str(tmp_path), "--grid", str(tmp_path / "empty.csv")], "--grid"),
                        (["export", "--bfiles", str(tmp_path / "empty.csv")], "argument --bfiles"),
                        (["compare", "--reference", str(tmp_path / "none.json")], "argument --reference"),
                        (["compare", "--reference", str(tmp_path / "empty.csv")], "argument --reference"),
                        (["compare", "--reference", str(tmp_path / "not-a-reference.json")], "argument --reference")):
        capsys.readouterr()
        assert main(["atlas", *argv]) == 2, argv
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and named in error, argv


def test_the_reference_page_describes_every_file_and_column(built):
    from pathlib import Path

    from chessdom.atlas.dataset import CLASS_COLUMNS, COLUMNS, datapackage
    from chessdom.atlas.schema import FIELDS

    page = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "atlas.md").read_text()
    assert set(COLUMNS) == set(FIELDS)
    for name, (kind, description) in [*COLUMNS.items(), *CLASS_COLUMNS.items()]:
        assert f"| `{name}` | {kind} | {description} |" in page, name  # the page says what datapackage.json says
    resources = datapackage(built)["resources"]
    for resource in resources:
        shown = resource["path"] if "/" not in resource["path"] else resource["path"].split("/")[0] + "/<stem>"
        assert f"`{shown}" in page, resource["path"]
    listed = {resource["path"] for resource in resources}
    assert {f"certificates/{path.name}" for path in (built / "certificates").iterdir()} <= listed


def test_an_entry_killed_at_its_hard_deadline_is_recorded_out_of_reach(tmp_path, monkeypatch):
    monkeypatch.setattr(builder_module, "hard_seconds", lambda spec: 2.0)
    spec = EntrySpec(tmp_path, "queen", "independent_domination", 14, 14, time_limit=600, count_limit=0)
    local = Local(1)
    try:
        outcome = build(tmp_path, [spec], local, progress=False)
    finally:
        local.close()
    assert outcome.computed == 1 and outcome.failures == []
    entry, = Atlas.open(tmp_path).entries()
    assert entry.status == OUT_OF_REACH and entry.value is None and entry.certificate is None
    assert "hard deadline of 2 s" in entry.note


def test_retry_computes_again_only_the_entries_it_names(tmp_path, capsys):
    base = ["atlas", "build", str(tmp_path), "--pieces", "queen,knight", "--parameters", "domination",
            "--min-n", "3", "--max-n", "3", "--jobs", "0", "--no-progress"]
    assert main([*base, "--count-limit", "0"]) == 0
    assert all(entry.count_all is None for entry in Atlas.open(tmp_path).entries())
    assert main([*base, "--count-limit", "60"]) == 0
    assert "0 entries computed, 2 already finished" in capsys.readouterr().out
    assert main([*base, "--count-limit", "60", "--retry", "uncounted"]) == 0
    assert "2 entries computed, 0 already finished" in capsys.readouterr().out
    assert [entry.count_all for entry in Atlas.open(tmp_path).entries()] == [
        brute_force(piece, "domination", 3)[1] for piece in ("knight", "queen")]
    assert main([*base, "--count-limit", "60", "--retry", "uncertified"]) == 0  # each count is certified
    assert "0 entries computed, 2 already finished" in capsys.readouterr().out
    assert main([*base, "--certify-count-limit", "0", "--retry", "uncounted,uncertified"]) == 0
    assert "0 entries computed, 2 already finished" in capsys.readouterr().out
    assert main([*base, "--certify-count-limit", "0", "--min-n", "4", "--max-n", "4"]) == 0
    assert all(entry.count_certificate is None for entry in Atlas.open(tmp_path).entries() if entry.rows == 4)
    capsys.readouterr()
    assert main([*base, "--min-n", "3", "--max-n", "4", "--count-limit", "60", "--retry", "uncertified"]) == 0
    assert "2 entries computed, 2 already finished" in capsys.readouterr().out
    assert all(entry.count_certificate is not None for entry in Atlas.open(tmp_path).entries())
    assert main([*base, "--retry", "everything"]) == 2


def test_each_class_list_has_one_home_and_follows_its_entry(built, tmp_path):
    import shutil
    from dataclasses import replace

    from chessdom.atlas.provenance import provenance
    from chessdom.atlas.store import entry_path, read_entry, write_entry, write_indexes

    assert not (built / ".work").exists()  # every waiting class list moved into classes.parquet
    for path in (built / "entries").glob("*.json"):
        assert list(json.loads(path.read_text())) == ["entry"], path.name
    copy = shutil.copytree(built, tmp_path / "atlas")
    before = Atlas.open(copy)
    counted = [entry for entry in before.entries() if entry.count_classes]
    dropped, kept = counted[0], counted[1:]
    # Computed again and this time not counted: its earlier classes go, the others' stay.
    write_entry(copy, replace(read_entry(entry_path(copy, dropped.stem)), count_all=None, count_classes=None,
                              count_note="not counted"), [])
    write_indexes(copy, provenance())
    after = Atlas.open(copy)
    assert after.classes(after.entry(dropped.piece, dropped.parameter, dropped.n)) == []
    assert all(after.classes(entry) == before.classes(entry) and len(after.classes(entry)) == entry.count_classes
               for entry in kept)


def test_a_count_whose_certificate_was_not_made_is_kept_as_a_proved_lower_bound(tmp_path, monkeypatch, capsys):
    spec = EntrySpec(tmp_path, "queen", "domination", 5, 5, time_limit=60, count_limit=60)
    certified = compute_entry(spec)
    assert certified["count_certificate"] is not None
    making = compute_module.make_certificate

    def bound_only(result, directory, options, *, enumeration, executor):
        if enumeration:
            raise CertificateUnavailable("its cubes did not finish within the time limit")
        return making(result, directory, options, enumeration=enumeration, executor=executor)

    monkeypatch.setattr(compute_module, "make_certificate", bound_only)
    row = compute_entry(spec)
    assert row["status"] == PROVED and row["certificate"] is not None
    assert (row["count_all"], row["count_classes"]) == (certified["count_all"], certified["count_classes"])
    assert row["count_certificate"] is None
    assert row["count_note"].startswith("not certified: its cubes did not finish")
    build(tmp_path, [], Here(), progress=False)  # the indexes, over the finished entry
    assert main(["atlas", "check", str(tmp_path), "--jobs", "0", "--no-progress"]) == 0
    capsys.readouterr()
    classes = next(s for s in load_reference() if s["a_number"] == "A002563")
    at = 5 - classes["offset"]
    for published, said in ((row["count_classes"] - 1, "which settles it"), (row["count_classes"] + 1, "unsettled")):
        classes["terms"][at] = published
        (tmp_path / "r.json").write_text(json.dumps({"sequences": [classes]}))
        assert main(["atlas", "compare", str(tmp_path), "--reference", str(tmp_path / "r.json"), "--format", "csv"]) == 0
        line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("A002563,"))
        assert ",disagree," in line and said in line and "certificates/queen-domination-5x5.tar.gz" in line


@pytest.mark.parametrize(("piece", "parameter", "n", "form"), [
    ("queen", "domination", 7, "tree"),  # the branch-and-bound's count in parts, its subtrees stitched
    ("knight", "independence", 5, "lrat"),  # SAT parts on the entry's workers
])
def test_an_entry_on_workers_of_its_own_is_the_entry_made_in_one_process(tmp_path, monkeypatch, piece, parameter,
                                                                          n, form):
    executors = []
    for name in ("count_by_branch_and_bound", "count_by_cubes"):
        counting = getattr(compute_module, name)

        def spied(*args, _counting=counting, **kwargs):
            executors.append(kwargs.get("executor", args[2] if len(args) > 2 else None))
            return _counting(*args, **kwargs)

        monkeypatch.setattr(compute_module, name, spied)
    rows = {workers: compute_entry(EntrySpec(tmp_path / str(workers), piece, parameter, n, n, time_limit=60,
                                             count_limit=60, workers=workers)) for workers in (1, 2)}
    one, two = rows[1], rows[2]
    assert executors[-1] is not None  # the count with workers ran on them, in parts
    assert two["status"] == PROVED and two["count_note"] is None and two["count_certificate_form"] == form
    for column in ("value", "count_all", "count_classes", "certificate_form", "count_certificate_form"):
        assert two[column] == one[column], column
    assert "--entry-workers 2" in two["rebuild_command"] and "--entry-workers" not in one["rebuild_command"]
    for workers in (1, 2):
        build(tmp_path / str(workers), [], Here(), progress=False)
    assert Atlas.open(tmp_path / "2").classes(Atlas.open(tmp_path / "2").entries()[0]) == \
        Atlas.open(tmp_path / "1").classes(Atlas.open(tmp_path / "1").entries()[0])
    assert main(["atlas", "check", str(tmp_path / "2"), "--jobs", "0", "--no-progress"]) == 0


def test_certify_count_limit_0_keeps_the_count_uncertified(tmp_path):
    row = compute_entry(EntrySpec(tmp_path, "queen", "domination", 6, 6, time_limit=60, count_limit=60,
                                  certify_count_limit=0))
    assert row["certificate"] is not None and row["count_certificate"] is None
    assert row["count_all"] == brute_force("queen", "domination", 6)[1]
    assert row["count_note"].startswith("not certified: the build's --certify-count-limit is 0")
    assert row["rebuild_command"].endswith("--certify-count-limit 0")


def test_a_count_stopped_by_its_limit_keeps_its_parts_for_a_retry(tmp_path):
    from dataclasses import replace

    from chessdom.atlas.compute import COUNT_STATE
    from chessdom.atlas.proved import PROVED as PROVED_FILE
    from chessdom.atlas.schema import WORK
    from chessdom.models import count_placements

    # Rooks: eight queens' count would go to the N-Queens kernel, which keeps no parts.
    spec = EntrySpec(tmp_path, "rook", "independence", 6, 6, time_limit=60, count_limit=0.001)
    work = tmp_path / WORK / spec.stem
    row = compute_entry(spec)
    assert row["status"] == PROVED and row["count_all"] is None
    assert sorted(path.name for path in work.iterdir()) == [COUNT_STATE, PROVED_FILE]
    fresh = compute_entry(replace(spec, directory=tmp_path / "fresh", count_limit=60))
    again = compute_entry(replace(spec, count_limit=60))
    assert (again["count_all"], again["count_classes"]) == (fresh["count_all"], fresh["count_classes"])
    assert not work.exists()
    # parts another count left there (not this entry's) are cleared, not an error
    count_placements(spec.problem, 5, time_limit=60, state_dir=work / COUNT_STATE)
    assert compute_entry(replace(spec, count_limit=60))["count_all"] == fresh["count_all"]


def test_a_resumed_entry_takes_its_proved_bound_over_and_counts_on(tmp_path, monkeypatch):
    spec = EntrySpec(tmp_path, "queen", "domination", 6, 6, time_limit=60, count_limit=60)
    proving, certifying, counting = compute_module._prove, compute_module.make_certificate, compute_module._count
    proved, bounds = [], []

    def killed_while_counting(*args, **kwargs):
        raise KeyboardInterrupt

    def spied_prove(*args, **kwargs):
        proved.append(proving(*args, **kwargs))
        return proved[-1]

    def spied_certificate(result, directory, options, *, enumeration, executor):
        made = certifying(result, directory, options, enumeration=enumeration, executor=executor)
        if not enumeration:
            bounds.append(sorted(path.read_bytes() for path in directory.iterdir() if path.is_file()))
        return made

    monkeypatch.setattr(compute_module, "_prove", spied_prove)
    monkeypatch.setattr(compute_module, "make_certificate", spied_certificate)
    for directory in (tmp_path, tmp_path / "b"):
        monkeypatch.setattr(compute_module, "_count", killed_while_counting)
        with pytest.raises(KeyboardInterrupt):
            compute_entry(spec if directory == tmp_path else EntrySpec(directory, "queen", "domination", 6, 6,
                                                                      time_limit=60, count_limit=60))
    assert len(proved) == len(bounds) == 2
    monkeypatch.setattr(compute_module, "_count", counting)
    row = compute_entry(spec)
    assert len(proved) == len(bounds) == 2  # neither proved nor certified again
    assert row["status"] == PROVED and row["value"] == proved[0].value
    assert row["witness"] == list(proved[0].placement) and row["count_certificate"] is not None
    assert row["count_all"] == brute_force("queen", "domination", 6)[1]
    assert row["seconds"] >= row["seconds_prove"] + row["seconds_certify"] > 0
    build(tmp_path, [], Here(), progress=False)
    assert main(["atlas", "check", str(tmp_path), "--jobs", "0", "--no-progress"]) == 0

    # a kept bound whose archive changed is not taken: the entry is proved and certified again
    (tmp_path / "b" / "certificates" / f"{spec.stem}.tar.gz").write_bytes(b"changed")
    row = compute_entry(EntrySpec(tmp_path / "b", "queen", "domination", 6, 6, time_limit=60, count_limit=60))
    assert len(proved) == len(bounds) == 3 and row["count_certificate"] is not None


def test_an_archive_the_checker_does_not_accept_is_not_left_behind(tmp_path, monkeypatch):
    def unreadable(path):
        raise ValueError(f"{path.name}: evidence.bytes must be in 0…64")

    monkeypatch.setattr(compute_module, "check_archive", unreadable)
    with pytest.raises(ValueError, match="evidence.bytes"):
        compute_entry(EntrySpec(tmp_path, "queen", "domination", 5, 5, time_limit=60, count_limit=60))
    assert not list((tmp_path / "certificates").glob("*"))


def test_a_second_build_into_a_directory_being_written_is_refused(built, tmp_path, capsys):
    from chessdom.atlas.store import AtlasBusy, writing_alone

    with writing_alone(tmp_path):
        with pytest.raises(AtlasBusy):
            build(tmp_path, [], Here(), progress=False)
        assert main(["atlas", "build", str(tmp_path), "--pieces", "rook", "--max-n", "1", "--no-progress"]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "another atlas build or merge is writing this directory" in error
        assert main(["atlas", "merge", str(built), "--into", str(tmp_path)]) == 2
        assert "another atlas build or merge is writing this directory" in capsys.readouterr().err
    assert not list(tmp_path.glob("entries/*"))  # nothing was computed under the lock
    build(tmp_path, [], Here(), progress=False)  # and the lock ends with its holder
    (tmp_path / "a-file").write_text("")
    for directory in (tmp_path / "a-file", tmp_path / "a-file" / "below"):
        assert main(["atlas", "build", str(directory), "--pieces", "rook", "--max-n", "1", "--no-progress"]) == 2
        assert capsys.readouterr().err.startswith(f"chessdom atlas: error: atlas directory {directory}: ")


def test_merge_takes_another_atlas_entries_as_they_are_and_the_result_checks(built, tmp_path, capsys):
    destination = tmp_path / "into"
    king = EntrySpec(destination, "king", "domination", 2, 2, time_limit=60, count_limit=60)
    assert build(destination, [king], Here(), progress=False).failures == []
    assert main(["atlas", "merge", str(built), "--into", str(destination)]) == 0
    source, merged = Atlas.open(built), Atlas.open(destination)
    assert {e.stem for e in merged.entries()} == {e.stem for e in source.entries()} | {king.stem}
    for entry in source.entries():  # rows, class lists and archives as the source has them
        assert merged.entry(entry.piece, entry.parameter, entry.rows) == entry
        assert merged.classes(entry) == source.classes(entry)
        for archive in (entry.certificate, entry.count_certificate):
            if archive is not None:
                assert (destination / archive).read_bytes() == (built / archive).read_bytes()
    assert not (destination / ".work").exists()
    assert main(["atlas", "check", str(destination), "--jobs", "0", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["atlas", "merge", str(built), "--into", str(destination)]) == 0
    assert f"0 entries taken from {built}, {len(source.entries())} already there kept" in capsys.readouterr().out
    assert main(["atlas", "merge", str(built), "--into", str(destination), "--replace"]) == 0
    assert f"{len(source.entries())} entries taken" in capsys.readouterr().out


def test_bench_atlas_frontier_lists_each_entry_with_its_limits_and_why_it_is_short(built, capsys):
    from chessdom.scripts import bench_atlas

    assert bench_atlas.main(["--frontier", str(built)]) == 0
    lines = capsys.readouterr().out.splitlines()
    entries = Atlas.open(built).entries()
    assert len(lines) == 2 + len(entries)
    for entry, line in zip(entries, lines[2:]):
        assert line.startswith(f"| {entry.stem} ") and "time-limit 60 count-limit 60" in line
        assert (entry.status == "none_exists") == (entry.note is not None and entry.note in line)


def test_one_entrys_classes_are_read_alone_from_row_groups_in_the_index_order(built, tmp_path, monkeypatch):
    import shutil

    import pyarrow.parquet as parquet

    from chessdom.atlas import store
    from chessdom.atlas.provenance import provenance

    copy = shutil.copytree(built, tmp_path / "atlas")
    monkeypatch.setattr(store, "CLASS_ROW_GROUP", 2)
    store.write_indexes(copy, provenance())
    file = parquet.ParquetFile(copy / "classes.parquet")
    assert file.metadata.num_row_groups == -(-file.metadata.num_rows // 2) > 1
    everything = store.read_classes(copy / "classes.parquet")
    atlas = Atlas.open(copy)
    for entry in atlas.entries():
        key = (entry.piece, entry.parameter, entry.rows, entry.cols)
        alone = store.read_classes(copy / "classes.parquet", key)
        assert alone == ({key: everything[key]} if key in everything else {})
        assert atlas.classes(entry) == everything.get(key, [])
