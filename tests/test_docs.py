"""The documentation: the site builds with ``mkdocs build --strict`` (a warning fails it:
a broken link, a docstring mkdocstrings cannot render, a page missing from the nav), its
references are generated from the code, it needs no network to be read, and the README
stays a front door."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 300


def test_readme_is_a_front_door_not_a_manual():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES


def test_site_builds_strictly_with_every_page(site):
    for page in ("index.html", "getting-started.html", "explanation/certificate-contract.html",
                 "reference/configuration.html", "benchmarks/index.html"):
        assert (site / page).is_file(), page


def test_http_reference_is_rendered_from_the_openapi_document(site):
    page = (site / "reference" / "http-api.html").read_text(encoding="utf-8")
    assert (site / "reference" / "openapi.json").is_file()
    for operation in ("POST /domination", "POST /jobs", "GET /certificates/{certificate_id}"):
        assert operation in page, operation
    assert 'id="schema-placementresponse"' in page


def test_python_reference_is_rendered_from_docstrings(site):
    python = site / "reference" / "python"
    assert "solve_placement" in (python / "chessdom.html").read_text(encoding="utf-8")
    assert "knight_tour" in (python / "native-search.html").read_text(encoding="utf-8")
    assert "rebuild_formula" in (python / "certificates.html").read_text(encoding="utf-8")
    assert "sweep_frame" in (python / "sweep.html").read_text(encoding="utf-8")


def test_command_line_reference_is_the_commands_own_help(site):
    page = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "usage: chessdom solve" in page


def test_site_loads_nothing_from_the_network(site):
    remote = re.compile(r"""<(?:script|link|img)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//""", re.IGNORECASE)
    for page in site.rglob("*.html"):
        assert not remote.search(page.read_text(encoding="utf-8")), page


def check_classes(size: int, lines: list[str], tmp_path: Path, *piece: str) -> subprocess.CompletedProcess:
    placements = tmp_path / "classes.txt"
    placements.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return subprocess.run([sys.executable, str(ROOT / "docs/benchmarks/check_classes.py"), str(size),
                           str(placements), *piece], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("piece, size, value", [("queen", 7, 4), ("knight", 7, 10), ("knight", 8, 12)])
def test_the_published_class_checker_agrees_with_the_count_and_refuses_a_class_twice(piece, size, value, tmp_path):
    from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
    from chessdom.models import count_placements

    problem = PlacementProblem(Board.square(size), Piece(piece), Objective.DOMINATION)
    count = count_placements(problem, value, representatives=True)
    lines = [" ".join(squares) for squares in count.representatives]
    checked = check_classes(size, lines, tmp_path, piece)
    assert checked.stdout.strip() == (f"{count.up_to_symmetry} classes of dominating placements of {{{value}}} "
                                      f"{piece}s, standing for {count.solutions}")
    mirrored = " ".join(f"{chr(ord('a') + size - 1 - (ord(s[0]) - ord('a')))}{s[1:]}" for s in lines[0].split())
    assert check_classes(size, [*lines, mirrored], tmp_path, piece).returncode != 0
    assert check_classes(size, [lines[0].rsplit(" ", 1)[0]], tmp_path, piece).returncode != 0


@pytest.mark.parametrize("piece, size", [("queen", 8), ("knight", 5), ("bishop", 7), ("king", 6), ("archbishop", 5)])
def test_the_published_clique_checker_accepts_a_certificate_and_refuses_a_forged_one(piece, size, tmp_path):
    import json

    from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
    from chessdom.models import solve
    from chessdom.models.certificates import make_certificate

    result = solve(PlacementProblem(Board.square(size), Piece(piece), Objective.INDEPENDENCE), time_limit=60)
    made = make_certificate(result, tmp_path / "certificate")
    assert made.form == "cliques"
    script = [sys.executable, str(ROOT / "docs/how-to/check_cliques.py"), str(tmp_path / "certificate" / "manifest.json")]
    checked = subprocess.run(script, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and checked.stdout.startswith(f"VERIFIED: {result.value} mutually"), checked
    manifest = json.loads((tmp_path / "certificate" / "manifest.json").read_text())
    manifest["evidence"]["cliques"][0].append(manifest["evidence"]["cliques"].pop()[0])  # a square moved
    (tmp_path / "certificate" / "manifest.json").write_text(json.dumps(manifest))
    refused = subprocess.run(script, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and refused.stdout.startswith("NOT VERIFIED"), refused
