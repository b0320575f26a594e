"""What a made certificate says of itself, as its callers show it — the service (under an
id) and ``chessdom solve --certify`` (in a directory) alike: :class:`CertificateSummary`,
read from its manifest; and :func:`verdict`, the one reading of a manifest's ``check``."""

from __future__ import annotations

from dataclasses import dataclass, field

from chessdom.models.certificates.manifest import cube_count

from chessdom.certificates import CONTRACT_V6


def verdict(check: dict) -> tuple[bool, dict]:
    """Whether a manifest's ``check`` says the certificate is checked, and what else it
    says (the checker, its version and time, or why it is not checked)."""
    rest = dict(check)
    return bool(rest.pop("checked")), rest


@dataclass(frozen=True)
class CertificateSummary:
    """A certificate's claim, how many cube proofs it holds (None: one proof), whether the
    independent checker accepted it and the checker's words; ``manifest`` is the whole
    manifest it was read from."""

    claim: str
    cubes: int | None
    checked: bool
    checker: dict
    manifest: dict = field(repr=False, compare=False)

    @property
    def form(self) -> str:
        """What its evidence is: ``tree`` (contract version 5), ``cliques`` (version 8),
        ``lrat`` (version 6's proofs) or ``drat`` (the proofs of versions 1 to 4)."""
        evidence = (self.manifest.get("evidence") or {}).get("form")
        return evidence or ("lrat" if self.manifest.get("contract") == CONTRACT_V6 else "drat")

    @classmethod
    def of(cls, manifest: dict) -> CertificateSummary:
        checked, checker = verdict(manifest["check"])
        return cls(manifest["claim"], cube_count(manifest), checked, checker, manifest)
