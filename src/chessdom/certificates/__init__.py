"""The certificate checker: what a sceptical reader runs before citing a number.

It shares no code with the solver. It rebuilds ``formula.cnf`` from the problem named in
the manifest with its own attack rule (:mod:`.contract`), compares it byte for byte with
the certificate's file, checks both files' SHA-256, the witness placement and the words
of the claim, and has dratify check the DRAT refutation (:mod:`.check`).

    python -m chessdom.certificates DIR-or-URL     # or: chessdom certificate check …
"""

from chessdom.certificates.check import CheckerUnavailable, Verdict, check_certificate, checker_versions
from chessdom.certificates.contract import CONTRACT, FILES, FORMULA, MANIFEST, PROOF, claim, rebuild_formula, refuted_bound

__all__ = [
    "CONTRACT",
    "FILES",
    "FORMULA",
    "MANIFEST",
    "PROOF",
    "CheckerUnavailable",
    "Verdict",
    "check_certificate",
    "checker_versions",
    "claim",
    "rebuild_formula",
    "refuted_bound",
]
