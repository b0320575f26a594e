"""The certificate maker: the contract's plain formula (:mod:`.formula`) with its literal
order (:mod:`.orders`) and encoding chosen by measurement (:mod:`.choice`), the
proof-logging search run on that formula after the solve (:mod:`.prover`), contract
version 3's region cubes (:mod:`.regions`, :mod:`.region_evidence`) and version 2's one
proof or cube bundle (:mod:`.cubes`, :mod:`.plain_evidence`), version 8's clique covers
for independence (:mod:`.cliques`), enumerations
(:mod:`.enumeration`), the manifest (:mod:`.manifest`), and :func:`write_certificate`,
which writes a checked certificate into a directory it is given (:func:`make_certificate`
stages it beside and renames it into place whole: :mod:`.staging`), both returning its
:class:`CertificateSummary` under the :class:`CertifyOptions` asked for. The independent
checker is :mod:`chessdom.certificates`."""

from chessdom.models.certificates.choice import choose
from chessdom.models.certificates.formula import DEFAULT_ENCODING, PlainFormula, plain_formula
from chessdom.models.certificates.make import (
    MAX_SQUARES,
    SPLITS,
    CertificateUnavailable,
    make_certificate,
    refuted_bound,
    write_certificate,
)
from chessdom.models.certificates.manifest import cube_count
from chessdom.models.certificates.options import MAX_LRAT_PROOF_BYTES, MAX_PROOF_BYTES, CertifyOptions, Progress
from chessdom.models.certificates.orders import ORDERS
from chessdom.models.certificates.staging import staging_directory, sweep_partial_directories
from chessdom.models.certificates.summary import CertificateSummary, verdict

__all__ = [
    "DEFAULT_ENCODING",
    "MAX_LRAT_PROOF_BYTES",
    "MAX_PROOF_BYTES",
    "MAX_SQUARES",
    "ORDERS",
    "SPLITS",
    "CertificateSummary",
    "CertificateUnavailable",
    "CertifyOptions",
    "PlainFormula",
    "Progress",
    "choose",
    "cube_count",
    "make_certificate",
    "plain_formula",
    "refuted_bound",
    "staging_directory",
    "sweep_partial_directories",
    "verdict",
    "write_certificate",
]
