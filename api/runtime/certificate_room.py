"""Whether a call may certify, decided once before it runs (:meth:`CertificateRoom.grant`),
and whose each certificate is once made (:meth:`CertificateRoom.own`): the server's side
of a certificate's life, over the files of :mod:`~chessdom.api.runtime.certificate_store`."""

from __future__ import annotations

import logging
from dataclasses import replace

from chessdom.api.runtime.answer import Answer
from chessdom.api.runtime.calls import Call
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.api.runtime.store import Store
from chessdom.api.runtime.store.database import DiskFull

log = logging.getLogger(__name__)


class CertificateRoom:
    """The server's side of a certificate's life: whether a call may certify, decided here
    once before it runs (:meth:`grant`); and, once it answered, each certificate filed
    under its owner (:meth:`own`), or withdrawn when that cannot be recorded
    (:meth:`withdraw`: a full disk, a canceled job)."""

    def __init__(self, files: CertificateStore, owners: Store, *, max_total_bytes: int | None = None,
                 max_stored_per_owner: int | None = None):
        self.files, self.owners = files, owners
        self.max_total_bytes, self.max_stored_per_owner = max_total_bytes, max_stored_per_owner

    def grant(self, call: Call, owner: str | None) -> tuple[Call, str | None]:
        """``call`` as it may run for ``owner``, and why it may not certify (None: it may, or
        did not ask). A call that may certify does so within the bound on all certificates
        together, which its worker holds however many write at once; one that may not runs
        without certifying: every certificate together, or this owner's stores, are at their
        bound."""
        asked = call.placement
        if asked is None or asked.certify is None:
            return call, None
        reason = None
        if self.max_total_bytes is not None:
            reason = self.files.why_no_room(self.max_total_bytes)
        most = self.max_stored_per_owner
        if reason is None and most is not None:
            reason = self.owners.quota_reached(owner, most)
        if reason is not None:
            return call.with_arguments(certify=None), reason
        left = None if most is None else most - self.owners.stored_bytes(owner)
        return call.with_arguments(certify=replace(asked.certify, max_total_bytes=self.max_total_bytes,
                                                   quota_left=left)), None

    @staticmethod
    def kept(answer: Answer) -> tuple[tuple[str, int], ...]:
        """(id, bytes) of each certificate ``answer`` carries, as its worker measured them."""
        return tuple((certificate.id, certificate.size) for certificate in answer.certificates)

    def own(self, answer: Answer, owner: str | None) -> Answer:
        """File ``answer``'s certificates under ``owner``; when the store cannot write, the
        answer goes out all the same, without them (:meth:`withdraw`)."""
        try:
            for certificate_id, size in self.kept(answer):
                self.owners.keep_certificate(certificate_id, size, owner)
        except DiskFull as unwritable:
            log.warning("%s: a certificate was not filed", unwritable)
            return self.withdraw(answer, f"{unwritable}: the certificate could not be kept")
        return answer

    def withdraw(self, answer: Answer, reason: str) -> Answer:
        """Delete ``answer``'s certificates, which nobody could be shown: the answer
        without them, saying ``reason``."""
        if not answer.certificates:
            return answer
        for certificate in answer.certificates:
            self.files.remove(certificate.id)
        return answer.without_certificates(reason)
