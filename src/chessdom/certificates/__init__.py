"""The certificate checker: what a sceptical reader runs before citing a number.

It shares no code with the solver. It rebuilds ``formula.cnf`` from the problem named in
the manifest with its own attack rule, literal order and symmetries (:mod:`.formula`,
:mod:`.enumeration`), compares it byte for byte with the certificate's file, checks every
file's SHA-256, the witness or the listed placements and the words of the claim, and has
dratify check the DRAT refutations, asking it only what it answers soundly
(:mod:`.refutation`): one proof, a cube bundle's proofs and cover (:mod:`.cubes`), or
version 3's region cubes, whose partitions and cover it checks itself (:mod:`.regions`,
:mod:`.cover`), with the lemmas they may list (:mod:`.lemmas`), in parallel on any
executor (:mod:`.check`); version 6's LRAT proofs it checks itself, in linear time
(:mod:`.lrat`), and writes out for lrat-trim and cake_lpr on request (:mod:`.export`).
Version 5's search tree it replays (:mod:`.tree`), with version 7's packing leaves,
version 9's LP leaves and version 10's binary nodes; version 8's cliques it checks pair by
pair (:mod:`.cliques`). Whatever it reads is bounded by the contract's limits before any
work is done (:mod:`.manifest`, :mod:`.files`, :mod:`.sources`); what it cannot read is
:class:`Unreadable`, not a rejection.

    python -m chessdom.certificates DIR-or-ARCHIVE-or-URL     # or: chessdom certificate check …
    python -m chessdom.certificates DIR --write-cnf OUT       # and each proof with its formula, in OUT
"""

from chessdom.certificates.check import CheckerUnavailable, Verdict, check_certificate, checker_versions
from chessdom.certificates.contract import (
    COMPOUND_PIECES,
    CONTRACT,
    CONTRACT_V1,
    CONTRACT_V3,
    CONTRACT_V4,
    CONTRACT_V5,
    CONTRACT_V6,
    CONTRACT_V7,
    CONTRACT_V8,
    CONTRACT_V9,
    CONTRACT_V10,
    CONTRACTS,
    COVER,
    CUBES,
    FEWER_FORMULA,
    FEWER_LEMMA_PROOF,
    FEWER_PROOF,
    FILES,
    FORMULA,
    LEMMA_PROOF,
    LRAT_PROOF,
    LRAT_SUFFIX,
    MANIFEST,
    NO_SOLUTION,
    ORDERS,
    PIECES,
    PROOF,
    REGION_PROOF,
    TREE,
    TREE_MAGIC,
    claim,
    enumeration_claim,
    no_solution_claim,
    refuted_bound,
)
from chessdom.certificates.files import Unreadable
from chessdom.certificates.formula import rebuild_formula

__all__ = [
    "COMPOUND_PIECES",
    "CONTRACT",
    "CONTRACTS",
    "CONTRACT_V1",
    "CONTRACT_V3",
    "CONTRACT_V4",
    "CONTRACT_V5",
    "CONTRACT_V6",
    "CONTRACT_V7",
    "CONTRACT_V8",
    "CONTRACT_V9",
    "CONTRACT_V10",
    "COVER",
    "CUBES",
    "FEWER_FORMULA",
    "FEWER_LEMMA_PROOF",
    "FEWER_PROOF",
    "FILES",
    "FORMULA",
    "LEMMA_PROOF",
    "LRAT_PROOF",
    "LRAT_SUFFIX",
    "MANIFEST",
    "NO_SOLUTION",
    "ORDERS",
    "PIECES",
    "PROOF",
    "REGION_PROOF",
    "TREE",
    "TREE_MAGIC",
    "CheckerUnavailable",
    "Unreadable",
    "Verdict",
    "check_certificate",
    "checker_versions",
    "claim",
    "enumeration_claim",
    "no_solution_claim",
    "rebuild_formula",
    "refuted_bound",
]
