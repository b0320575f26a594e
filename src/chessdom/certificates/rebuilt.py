"""A certificate's formula file compared byte for byte with the formula the contract
builds, and the counts the manifest lists beside it (``variables``, ``clauses``) with the
rebuilt header's."""

from __future__ import annotations

import hashlib
from pathlib import Path

from chessdom.certificates.verdict import Verdict


def first_difference(expected: bytes, path: Path) -> str:
    with path.open("rb") as file:
        for number, (want, got) in enumerate(zip(expected.splitlines(), file), start=1):
            if want != got.rstrip(b"\r\n"):
                return f"line {number}: expected {want.decode()[:80]!r}, found {got.decode(errors='replace')[:80]!r}"
    return "the files differ in length"


def same_formula(expected: bytes, listed: dict, context: dict, verdict: Verdict, label: str) -> bool:
    """The file listed as ``label`` (its manifest entry ``listed``) is ``expected``, and
    the entry's ``variables`` and ``clauses``, where given, are its header's ``N`` and
    ``M``; ``N`` goes in ``context[label]``, from the rebuilt bytes, not from a file that
    might change after it was hashed."""
    step = f"rebuilt {label}"
    listed_file = context["files"][label]
    if hashlib.sha256(expected).hexdigest() != listed_file.sha256:
        return not verdict.fail(step, f"{listed_file.file} is not the formula the contract builds for the claim: "
                                      + first_difference(expected, context["paths"][label]))
    variables, clauses = map(int, expected[: expected.index(b"\n")].split()[2:4])
    for name, value in (("variables", variables), ("clauses", clauses)):
        if name in listed and (type(listed[name]) is not int or listed[name] != value):
            return not verdict.fail(step, f"{listed_file.file} has {value} {name}; the manifest lists "
                                          f"{str(listed[name])[:40]}")
    context[label] = variables
    verdict.steps[step] = True
    return True
