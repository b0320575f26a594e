"""The README's example outputs, recorded in one run: each example's command run here,
its output printed under the README marker it belongs to, with the run's provenance.
The command-line examples run the installed command itself (``python -m chessdom ...``,
in a process of its own), so what the README shows is what the tool prints; the library
example prints what ``solve_placement`` returns, as the README's Python does.

    python -m chessdom.scripts.readme_examples [--write]

``--write`` puts the outputs into README.md in place (each fenced block that follows an
``<!-- example: NAME -->`` marker); ``tests/test_readme.py`` checks that the README's
blocks still have the shape of what the commands print.
"""

from __future__ import annotations

import argparse
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


def _cli(*argv: str) -> str:
    """What ``chessdom ARGV`` prints on standard output. A script does not import the
    command (nothing but the command's own entry points does): it runs it."""
    done = subprocess.run([sys.executable, "-m", "chessdom", *argv], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"chessdom {' '.join(argv)} exited with status {done.returncode}:\n{done.stderr}")
    return done.stdout


def library_example() -> str:
    from chessdom import solve_placement

    return f"{solve_placement('knight', (6, 9), variant='total')}\n"  # what print() writes


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
