"""The README's example outputs, recorded in one run: each example's command run here,
its output printed under the README marker it belongs to, with the run's provenance.

    python -m chessdom.scripts.readme_examples [--write]

``--write`` puts the outputs into README.md in place (each fenced block that follows an
``<!-- example: NAME -->`` marker); ``tests/test_readme.py`` checks that the README's
blocks still have the shape of what the commands print.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARKER = re.compile(r"(<!-- example: (?P<name>[\w-]+) -->\n```(?P<lang>\w*)\n)(?P<body>.*?)(```)", re.S)


def _printed(function: Callable[[], object]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        function()
    return out.getvalue()


def _cli(*argv: str) -> str:
    from chessdom.cli import main

    return _printed(lambda: main(list(argv)))


def library_example() -> str:
    from chessdom import solve_placement

    return _printed(lambda: print(solve_placement("knight", (6, 9), variant="total")))


def cli_example() -> str:
    return _cli("solve", "queen", "8")


def compare_example() -> str:
    """The table as printed, less the provenance comment above it."""
    with tempfile.TemporaryDirectory() as data:
        table = _cli("compare", "domination", "--pieces", "queen", "--sizes", "4-8", "--time-limit", "20",
                     "--data", data)
    return "".join(line + "\n" for line in table.splitlines() if line.startswith("|"))


def certificate_example() -> str:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch) / "q8"
        _cli("solve", "queen", "8", "--certify", str(directory))
        return _cli("certificate", "check", str(directory))


EXAMPLES: dict[str, Callable[[], str]] = {
    "library": library_example,
    "cli": cli_example,
    "compare": compare_example,
    "certificate": certificate_example,
}


def provenance() -> str:
    revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip() or "unknown"
    return (f"recorded {time.strftime('%Y-%m-%d')} at revision {revision} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()})")


def write(outputs: dict[str, str]) -> None:
    text = README.read_text(encoding="utf-8")

    def replace(match: re.Match) -> str:
        name = match["name"]
        return match[1] + outputs[name] + match[5] if name in outputs else match[0]

    README.write_text(MARKER.sub(replace, text), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="put the outputs into README.md")
    args = parser.parse_args(argv)
    outputs = {name: example() for name, example in EXAMPLES.items()}
    print(f"<!-- {provenance()} -->")
    for name, output in outputs.items():
        print(f"<!-- example: {name} -->\n{output}")
    if args.write:
        write(outputs)


if __name__ == "__main__":
    sys.exit(main())
