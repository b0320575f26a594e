"""The documentation: the site builds with ``mkdocs build --strict`` (a warning fails it:
a broken link, a docstring mkdocstrings cannot render, a page missing from the nav), its
references are generated from the code, it needs no network to be read, and the README
stays a front door."""

import os
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


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(site_dir)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert "WARNING" not in build.stderr, build.stderr
    return site_dir


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
