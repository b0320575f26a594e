"""``bench_certificates --jobs``' own parts: the rows it reads, the bytes it adds up from a
manifest, and the table's ``> cap`` and ratios."""

import argparse

import pytest

from chessdom.scripts import certified_jobs


def test_rows_read_families_and_ranges_with_total_domination():
    assert certified_jobs.rows_of("queen-total:10-12") == [("queen-total", 10), ("queen-total", 11),
                                                           ("queen-total", 12)]
    assert certified_jobs.rows_of("knight-count:14") == [("knight-count", 14)]
    with pytest.raises(argparse.ArgumentTypeError):
        certified_jobs.rows_of("bishop-domination:9")


def test_total_domination_rows_ask_for_the_total_variant_and_certify():
    params = certified_jobs.params_of("queen-total", 11, 60.0, True)
    assert params["variant"] == "total" and params["certify"] is True and params["size"] == 11
    assert "variant" not in certified_jobs.params_of("queen-domination", 11, 60.0, False)


def test_bytes_are_every_listed_file_once():
    manifest = {"formula": {"file": "formula.cnf", "bytes": 10, "sha256": "a"},
                "cubes": {"file": {"file": "cubes.txt", "bytes": 5, "sha256": "b"},
                          "proofs": [{"file": "cube-1.drat", "bytes": 7, "sha256": "c"}], "count": 1},
                "evidence": {"bytes": 99}}  # no sha256: not a file entry
    assert sum(certified_jobs.bytes_listed(manifest)) == 22


def test_table_says_cap_for_an_unfinished_job_and_divides_the_finished():
    lines = [{"row": "queen-domination:12", "value": 6, "plain": 2.0, "certified": 5.0, "form": "tree (v5)",
              "bytes": 38_000, "check_seconds": 0.5, "load": 1.0, "load after": 1.2},
             {"row": "knight-domination:17", "value": None, "plain": 9.0, "certified": None, "why": "timeout",
              "load": 1.0, "load after": 1.0}]
    text = certified_jobs.table(lines, 3600)
    assert "2.50" in text and "0.25" in text and "> 3600" in text and "timeout" in text


def test_a_trees_form_says_whether_the_answering_search_kept_it(monkeypatch):
    manifest = {"contract": "chessdom-certificate/5",
                "evidence": {"form": "tree", "file": "tree.bin", "bytes": 40, "sha256": "a", "search": "kept"}}

    class Answer:
        def json(self):
            return manifest

    monkeypatch.setattr(certified_jobs.requests, "get", lambda url, timeout: Answer())
    made = {"certificate": {"manifest": "/certificates/x/manifest.json", "checked": True, "checker": {"seconds": 1.5}}}
    figures = certified_jobs.certificate_figures("http://host", made)
    assert figures["form"] == "tree (v5), search kept" and figures["bytes"] == 40 and figures["check_seconds"] == 1.5
    manifest["evidence"] = {"form": "lrat", "file": "proof.lrat.gz", "bytes": 9, "sha256": "b"}
    assert certified_jobs.certificate_figures("http://host", made)["form"] == "lrat (v5)"
