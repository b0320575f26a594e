"""What the checker found: a :class:`Verdict`, filled in step by step."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Verdict:
    """What the checker found. ``ok`` only when every step below passed."""

    ok: bool = False
    steps: dict = field(default_factory=dict)
    """Each step's outcome: ``true``, or the reason it failed."""
    reason: str | None = None
    """The first failure, in words."""
    claim: str | None = None
    checker: dict = field(default_factory=dict)
    seconds: float = 0.0

    def fail(self, step: str, reason: str) -> Verdict:
        self.steps[step] = reason
        self.reason = self.reason or f"{step}: {reason}"
        return self

    def to_dict(self) -> dict:
        return asdict(self)
