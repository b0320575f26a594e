"""The certificate maker: the contract's plain formula, the proof-logging run, the
manifest, and :func:`make_certificate`, which writes a checked certificate into a
directory it is given. The independent checker is :mod:`chessdom.certificates`."""

from chessdom.models.certificates.formula import DEFAULT_ENCODING, PlainFormula, plain_formula
from chessdom.models.certificates.make import (
    MAX_PROOF_BYTES,
    MAX_SQUARES,
    CertificateUnavailable,
    make_certificate,
    refuted_bound,
    staging_directory,
)

__all__ = [
    "DEFAULT_ENCODING",
    "MAX_PROOF_BYTES",
    "MAX_SQUARES",
    "CertificateUnavailable",
    "PlainFormula",
    "make_certificate",
    "plain_formula",
    "refuted_bound",
    "staging_directory",
]
