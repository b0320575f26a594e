"""How a certificate is made: the caller's options (:class:`CertifyOptions`), and what the
maker's parts share while they prove (:class:`Proving`: those options with the deadline,
the executor and whom to tell the progress)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from chessdom.models.certificates.regions import CUBE_SECONDS

from chessdom.certificates.contract import MAX_PROOF_BYTES as CONTRACT_MAX_PROOF_BYTES

AUTO_PROOF = "lrat"
"""The proofs ``form="auto"`` writes where the tree does not apply. Measured, LRAT is the
better certificate (load 5–6 on 2 cores, other sessions running): γ(Q_12) ≤ 5's one proof
14.2 MB of DRAT checked in 17.2 s, against 6.4 MB of LRAT stored (20.2 MB inflated) checked
in 1.0 s; γ(Q_13) ≤ 6's 60 region cubes and 234 lemmas 93.5 MB of DRAT made in 81 s and
checked in 88 s, against 40.0 MB of LRAT made in 40 s and checked in 4.5 s. ``drat`` asks
for the text DRAT that drat-trim (and older chessdom checkers) read."""


def proof_form(form: str) -> str:
    """What the proof-logging runs write when certifying in ``form`` (the proofs' form for
    ``auto`` and for a tree that falls back to proofs)."""
    return AUTO_PROOF if form in ("auto", "tree") else form


MAX_PROOF_BYTES = 32 * 1024 * 1024
"""Past this one DRAT proof is split into cubes, each cube's proof under it. dratify's forward
check costs more than linearly in a proof's size: measured (CPU seconds, native engine, at
load 9–11 on 2 cores), γ(Q_13) ≤ 6 in one 146 MB proof took 422 s to check (2.9 s a MB),
while the 85 proofs of its cube bundle, 273 MB in all and none over 32 MB, took 159 s
(0.6 s a MB) and can be checked in parallel; γ(Q_12) ≤ 5's one 14 MB proof took 10 s.
Proving the bundle cost more (232 s of CaDiCaL against 53 s), but less than the check
saved. dratify also holds a proof in memory at 11–15× its size: 32 MiB keeps a check
under about 0.5 GB."""
MAX_LRAT_PROOF_BYTES = CONTRACT_MAX_PROOF_BYTES
"""Past this one LRAT proof is split into cubes: the contract's limit on one proof. Its hints
make the check linear in its size, as DRAT's is not: γ(N_14) ≤ 31 in one 35 MB LRAT proof
was checked in 2.8 s (its LRAT region cubes in 10.6 s, an earlier job's), so the reason
for DRAT's lower limit is gone."""


Progress = Callable[[dict], None]
"""Told the certificate's state as it changes: ``{"state": "making", "done": 3, "total": 85}``."""


@dataclass(frozen=True, kw_only=True)
class CertifyOptions:
    """How to certify: within ``time_limit`` seconds (None: no limit), each proof under
    ``max_proof_bytes`` (None: :data:`MAX_PROOF_BYTES` for DRAT, :data:`MAX_LRAT_PROOF_BYTES`
    for LRAT); ``encoding`` and ``order`` default to the measured choice for the
    piece and variant (:mod:`.choice`); ``split`` as :data:`~.make.SPLITS` says; region
    cubes start at partition ``region_level`` and are split when a run outgrows
    ``cube_seconds``; cubes run on ``workers`` local processes unless an executor is
    given, and the checker checks on as many; ``lemmas``: region cubes carry their line
    budgets as lemmas, each proved on its own (:mod:`.lemmas`); ``form``: ``auto`` certifies
    the branch-and-bound's answer by its own search tree (contract version 5,
    :mod:`.tree`), else proofs in :data:`AUTO_PROOF`'s format; ``tree`` asks for that
    tree whatever answered, ``drat`` for text DRAT proofs (contract versions 2 and 3),
    ``lrat`` for binary LRAT (version 6)."""

    time_limit: float | None = None
    max_proof_bytes: int | None = None
    encoding: str | None = None
    order: str | None = None
    split: str = "auto"
    workers: int = 1
    cube_seconds: float = CUBE_SECONDS
    region_level: int = 0
    lemmas: bool = True
    form: str = "auto"


@dataclass(frozen=True)
class Proving:
    """What the maker's parts share while they prove: the caller's options, the deadline
    they make of its time limit, the executor cubes run on (None: a local pool of
    ``options.workers``), and whom to tell the progress."""

    options: CertifyOptions
    deadline: float | None
    executor: Executor | None
    report: Progress

    @property
    def proof_form(self) -> str:
        """What the proof-logging runs write (:data:`~.prover.FORMS`)."""
        return proof_form(self.options.form)

    @property
    def max_proof_bytes(self) -> int:
        """The most one proof may take: the caller's limit, else its form's."""
        if self.options.max_proof_bytes is not None:
            return self.options.max_proof_bytes
        return MAX_LRAT_PROOF_BYTES if self.proof_form == "lrat" else MAX_PROOF_BYTES

    @classmethod
    def starting_now(cls, options: CertifyOptions, executor: Executor | None, report: Progress) -> Proving:
        limit = options.time_limit
        return cls(options, None if limit is None else time.monotonic() + limit, executor, report)
