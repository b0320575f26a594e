"""The branch-and-bound's search in parts certifies itself: each part, recording, hands back
the subtree it searched, and the nodes above the cut with those subtrees, stitched in the
search's own order, are entry for entry the tree the one search writes — for a count (its
listing tree) and for a bound (its refutation) — which the independent checker accepts as
it is; a stitched tree with a part left out or two parts swapped it rejects."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.models.certificates import CertificateUnavailable, CertifyOptions, make_certificate
from chessdom.models.certificates.manifest import file_entry
from chessdom.models.certificates.tree import listing_tree, search_tree, write_tree_file
from chessdom.models.counting.state import STATE_FILE, SUBTREES
from chessdom.models.cubes import local_pool
from chessdom.models.dispatch.arguments import CountOptions, SolveOptions
from chessdom.models.dispatch.native_backend import kept_tree, recording_trees
from chessdom.models.dispatch.solve import solve_with
from chessdom.native_search.branch_and_bound import search_arrays
from chessdom.native_search.domination_kernel import recorded_search
from chessdom.native_search.subtree_count import list_part, subtree_parts
from chessdom.native_search.subtree_trees import MissingSubtree, TreeOutgrown, stitched_tree, tree_in_parts

from chessdom.certificates import TREE, check_certificate


def problem(n: int, piece: str = "queen", objective: str = "domination", board: Board | None = None
            ) -> PlacementProblem:
    return PlacementProblem(board or Board.square(n), Piece(piece), Objective(objective))


# Even and odd boards to 11×11; 7×7 and 10×10 of γ, 7×7 and 9×9 of i were dropped (6.6 s of
# the suite, measured), their neighbours cutting the same trees in parts.
PROBLEMS = [*(problem(n) for n in (6, 8, 9, 11)),
            *(problem(n, objective="independent_domination") for n in (6, 8, 10, 11)),
            problem(8, objective="total_domination"), problem(7, "knight"), problem(8, "king"),
            problem(0, "bishop", board=Board(5, 8)), problem(6, "knight", "total_domination")]


def one_search_tree(placement: PlacementProblem, k: int, listing: bool) -> np.ndarray:
    arrays = search_arrays(placement)
    return recorded_search(arrays.covers, arrays.excludes, arrays.full, k, list_rows=1 if listing else 0,
                           packing=arrays.packing)[3]


def part_subtrees(placement: PlacementProblem, k: int) -> tuple[list, dict[str, np.ndarray]]:
    parts = subtree_parts(placement, k)
    return parts, {part.key: list_part(placement, k, part, recording=True)[3] for part in parts}


def counted(tmp_path: Path, placement: PlacementProblem) -> tuple[Path, int]:
    """A count's tree certificate (its listing search run again), checked."""
    result = solve_with(placement, SolveOptions(solver="bnb"), count=CountOptions(representatives=True))
    directory = tmp_path / "count"
    make_certificate(result, directory, CertifyOptions(form="tree"), enumeration=True)
    return directory, result.value


def with_tree(directory: Path, tree: np.ndarray) -> Path:
    """``directory`` with ``tree`` as its evidence, every size and hash right."""
    write_tree_file(directory / TREE, tree)
    data = json.loads((directory / "manifest.json").read_text())
    data["evidence"] = {**data["evidence"], **file_entry(directory / TREE), "nodes": len(tree)}
    (directory / "manifest.json").write_text(json.dumps(data))
    return directory


@pytest.mark.parametrize("placement", PROBLEMS, ids=str)
def test_the_stitched_count_tree_is_the_one_searchs_and_the_checker_accepts_it(tmp_path, placement):
    directory, value = counted(tmp_path, placement)
    parts, subtrees = part_subtrees(placement, value)
    stitched = stitched_tree(placement, value, parts, subtrees)
    one = one_search_tree(placement, value, listing=True)
    assert len(parts) > 1 and np.array_equal(stitched, one)
    # the search's own order, whatever order the parts are handed in (as they finished)
    assert np.array_equal(stitched_tree(placement, value, parts[::-1], dict(reversed(subtrees.items()))), one)
    assert check_certificate(with_tree(directory, stitched)).ok


@pytest.mark.parametrize("placement", PROBLEMS[:3] + PROBLEMS[4:6] + PROBLEMS[-5:], ids=str)
def test_a_refutation_in_parts_is_the_one_searchs_with_or_without_listing(placement):
    value = solve_with(placement, SolveOptions(solver="bnb")).value
    refutation = one_search_tree(placement, value - 1, listing=False)
    # a search that finds nothing writes the same tree whether it lists or not
    assert np.array_equal(one_search_tree(placement, value - 1, listing=True), refutation)
    stitched, found = tree_in_parts(placement, value - 1)
    assert found == 0 and np.array_equal(stitched, refutation)


def test_a_tree_in_parts_that_outgrows_its_bound_stops_and_says_so():
    placement = problem(9)
    value = solve_with(placement, SolveOptions(solver="bnb")).value
    entries = len(one_search_tree(placement, value - 1, listing=False))
    assert tree_in_parts(placement, value - 1, max_entries=entries)[0].shape == (entries,)
    for bound in (entries - 1, 10):  # the stitched tree one entry over; the first part's subtree over
        with pytest.raises(TreeOutgrown, match=f"more than the {bound} entries"):
            tree_in_parts(placement, value - 1, max_entries=bound)


def forgery(directory: Path, placement: PlacementProblem, value: int, change) -> Path:
    parts, subtrees = part_subtrees(placement, value)
    genuine = stitched_tree(placement, value, parts, subtrees)
    forged = stitched_tree(placement, value, parts, change(parts, subtrees))
    assert not np.array_equal(forged, genuine)
    return with_tree(directory, forged)


def dropped(parts, subtrees):
    """The largest part's subtree left out."""
    largest = max(parts, key=lambda part: len(subtrees[part.key]))
    return {**subtrees, largest.key: np.zeros(0, np.int32)}


def swapped(parts, subtrees):
    """The two largest parts' subtrees swapped (two that differ)."""
    first, second = sorted(parts, key=lambda part: len(subtrees[part.key]))[-2:]
    assert not np.array_equal(subtrees[first.key], subtrees[second.key])
    return {**subtrees, first.key: subtrees[second.key], second.key: subtrees[first.key]}


@pytest.mark.parametrize("change", [dropped, swapped])
@pytest.mark.parametrize("placement", [problem(8), problem(8, objective="independent_domination")], ids=str)
def test_a_stitched_tree_missing_a_part_or_with_two_swapped_is_rejected(tmp_path, placement, change):
    directory, value = counted(tmp_path, placement)
    verdict = check_certificate(forgery(directory, placement, value, change))
    assert not verdict.ok and "tree replay" in verdict.reason, verdict.reason


def test_a_part_without_its_subtree_is_named():
    placement = problem(8)
    parts, subtrees = part_subtrees(placement, 5)
    del subtrees[parts[3].key]
    with pytest.raises(MissingSubtree, match=parts[3].key.replace("|", r"\|")):
        stitched_tree(placement, 5, parts, subtrees)
    with pytest.raises(MissingSubtree, match="not this search's cut"):
        stitched_tree(placement, 5, parts[:1], subtrees)


def parted(placement: PlacementProblem, value: int, state_dir: Path | None = None, executor=None):
    """The count in parts: on ``executor``, else in ``state_dir`` one part after the other,
    else on two threads."""
    from chessdom.models.dispatch.native_backend import count_by_branch_and_bound

    if executor is None and state_dir is None:
        with ThreadPoolExecutor(2) as pool:
            return parted(placement, value, executor=pool)
    return count_by_branch_and_bound(placement, value, representatives=True, state_dir=state_dir, executor=executor)


def certificate_of(tmp_path: Path, solved, count, name: str = "kept", form: str = "auto") -> dict:
    """The count's certificate in ``form`` (the solve came first: a solve forgets the trees
    kept for its problem)."""
    make_certificate(replace(solved, count=count), tmp_path / name, CertifyOptions(form=form), enumeration=True)
    assert check_certificate(tmp_path / name).ok
    return json.loads((tmp_path / name / "manifest.json").read_text())


@pytest.mark.parametrize("placement", [problem(9), problem(8, objective="independent_domination"),
                                       problem(6, "knight", "total_domination")], ids=str)
def test_a_count_in_parts_keeps_its_stitched_tree_and_certifies_by_it(tmp_path, placement):
    solved = solve_with(placement, SolveOptions(solver="bnb"))
    value = solved.value
    with recording_trees():
        count = parted(placement, value)
    kept = kept_tree(placement, value, take=False, listing=True)
    assert kept is not None and np.array_equal(kept, one_search_tree(placement, value, listing=True))
    data = certificate_of(tmp_path, solved, count)
    assert data["evidence"]["search"] == "kept" and data["enumeration"]["solutions"] == count.solutions


def test_parts_on_worker_processes_keep_the_same_tree():
    placement = problem(10)
    with recording_trees(), local_pool(2) as pool:
        parted(placement, 5, executor=pool)
    assert np.array_equal(kept_tree(placement, 5, listing=True), one_search_tree(placement, 5, listing=True))


def test_a_count_not_recording_keeps_no_tree_and_writes_no_subtree(tmp_path):
    placement = problem(8)
    kept_tree(placement, 5, listing=True)  # whatever an earlier test left
    parted(placement, 5, tmp_path)
    assert kept_tree(placement, 5, listing=True) is None and not (tmp_path / SUBTREES).exists()
    assert all("subtree" not in record for record in records(tmp_path))


def records(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / STATE_FILE).read_text().splitlines()]


def rewrite(directory: Path, kept: list[dict]) -> None:
    (directory / STATE_FILE).write_text("".join(json.dumps(record) + "\n" for record in kept))


def test_a_resumed_count_ends_with_the_whole_tree(tmp_path):
    placement = problem(9)
    with recording_trees():
        whole = parted(placement, 5, tmp_path)
    header, *parts = [record for record in records(tmp_path) if "complete" not in record]
    assert all(record["entries"] > 0 for record in parts) and len(list((tmp_path / SUBTREES).iterdir())) == len(parts)
    rewrite(tmp_path, [header, *parts[: len(parts) // 3]])  # killed a third of the way
    kept_tree(placement, 5, listing=True)
    with recording_trees():
        assert parted(placement, 5, tmp_path) == whole
    assert np.array_equal(kept_tree(placement, 5, listing=True), one_search_tree(placement, 5, listing=True))


def test_records_without_subtrees_keep_no_tree_and_the_certificate_searches_again(tmp_path):
    placement = problem(9)
    state, solved = tmp_path / "state", solve_with(placement, SolveOptions(solver="bnb"))
    parted(placement, 5, state)  # not recording: records as they were written before subtrees
    with recording_trees():
        count = parted(placement, 5, state)
    assert kept_tree(placement, 5, take=False, listing=True) is None
    assert certificate_of(tmp_path, solved, count, "again", "tree")["evidence"]["search"] == "again"


def test_a_subtree_file_lost_or_cut_short_leaves_no_tree(tmp_path):
    placement = problem(8)
    with recording_trees():
        parted(placement, 5, tmp_path)
    kept_tree(placement, 5, listing=True)
    files = sorted((tmp_path / SUBTREES).iterdir())
    files[0].unlink()
    files[1].write_bytes(files[1].read_bytes()[:-3])
    with recording_trees():
        parted(placement, 5, tmp_path)
    assert kept_tree(placement, 5, listing=True) is None


def test_a_search_run_again_in_parts_writes_the_one_searchs_tree():
    placement = problem(8)
    solved = solve_with(placement, SolveOptions(solver="bnb"))
    counted_too = replace(solved, count=parted(placement, 5))  # not recording: no tree kept
    with ThreadPoolExecutor(2) as pool:
        bound, how = search_tree(solved, None, pool)
        listing, again = listing_tree(counted_too, None, pool)
        assert how == again == "again"
        assert np.array_equal(bound, one_search_tree(placement, 4, listing=False))
        assert np.array_equal(listing, one_search_tree(placement, 5, listing=True))
        with pytest.raises(CertificateUnavailable, match="run again in parts .* did not finish within the time"):
            search_tree(solve_with(problem(13), SolveOptions(solver="bnb")), 0.0, pool)
