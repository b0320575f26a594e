"""No dead code: vulture finds nothing at 80 % confidence in the package's folders (unused
imports, unreachable code, unused arguments and locals). Below 80 % it names every Flask
route, pydantic validator and solver callback, which are called by their frameworks."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("src", "chessboard", "models", "native_search", "atlas", "api", "scripts")


def test_vulture_finds_nothing_dead_at_80_percent_confidence():
    found = subprocess.run(
        [sys.executable, "-m", "vulture", *FOLDERS, "--min-confidence", "80"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert found.returncode == 0, found.stdout + found.stderr
