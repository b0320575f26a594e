"""The checker's command line, shared by ``python -m chessdom.certificates`` and
``chessdom certificate check``: a directory, or a URL the service gave, fetched first."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from chessdom.certificates.check import ENGINES, CheckerUnavailable, check_certificate
from chessdom.certificates.contract import FORMULA, MANIFEST, PROOF

USAGE_ERROR = 2
REJECTED = 1


def fetch(url: str, directory: Path) -> None:
    """Download ``url`` (``…/certificates/{id}``) and its two files into ``directory``,
    streamed: a proof is never held in memory here."""
    import requests

    url = url.rstrip("/")
    for name, address in ((MANIFEST, url), (FORMULA, f"{url}/{FORMULA}"), (PROOF, f"{url}/{PROOF}")):
        with requests.get(address, stream=True, timeout=60) as response:
            response.raise_for_status()
            with (directory / name).open("wb") as file:
                for chunk in response.iter_content(chunk_size=1 << 20):  # gzip is undone here
                    file.write(chunk)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="DIR-or-URL", help="a certificate directory, or its URL /certificates/{id}")
    parser.add_argument("--engine", choices=ENGINES, default="native",
                        help="dratify's engine: native (Rust, from cdclkit[native]) or python (10–20× slower); "
                             "default %(default)s")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def run(args: argparse.Namespace) -> int:
    """Check and print the verdict: exit status 0 verified, 1 rejected. Raises ValueError
    for a target that is neither a directory nor a fetchable URL, or a missing engine."""
    target = args.target
    try:
        if target.startswith(("http://", "https://")):
            with tempfile.TemporaryDirectory(prefix="chessdom-certificate-") as scratch:
                fetch(target, Path(scratch))
                verdict = check_certificate(scratch, engine=args.engine)
        elif Path(target).is_dir():
            verdict = check_certificate(target, engine=args.engine)
        else:
            raise ValueError(f"{target} is neither a directory nor an http(s) URL")
    except CheckerUnavailable as error:
        raise ValueError(str(error)) from None
    except OSError as error:  # requests' errors are OSErrors too
        raise ValueError(f"could not fetch {target}: {error}") from None
    if args.json:
        print(json.dumps(verdict.to_dict()))
    else:
        for step, outcome in verdict.steps.items():
            print(f"{step}: {'ok' if outcome is True else outcome}")
        if verdict.claim:
            print(f"claim: {verdict.claim}")
        checker = verdict.checker
        print(f"checker: {checker['name']} {checker['version']} ({checker['engine']}), {verdict.seconds:.2f} s")
        print("s VERIFIED" if verdict.ok else "s NOT VERIFIED")
    return 0 if verdict.ok else REJECTED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m chessdom.certificates",
        description="Check a chessdom certificate (a directory, or the URL the service gave): rebuild its formula, "
                    "check hashes, witness and the DRAT refutation. Exit status 0 verified, 1 rejected, 2 usage.")
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except ValueError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
