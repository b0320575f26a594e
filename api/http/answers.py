"""The one presenter: a runtime :class:`~chessdom.api.runtime.answer.Answer` as the JSON a
client reads, made here and nowhere else. A result is written as the library writes it
(``to_dict``); then come the steps traced beside it, the certificates with their URLs
(:func:`~chessdom.api.http.certificates.certificate_json`) or why there are none,
whether the cache served it, and for a placement problem the atlas's entry of it. A job's
representatives are left to their paged route: there may be hundreds of thousands."""

from __future__ import annotations

from dataclasses import asdict

from flask import url_for

from chessdom.chessboard import PlacementResult, SolutionCount

from chessdom.api.http.atlas import atlas_link
from chessdom.api.http.certificates import certificate_json
from chessdom.api.runtime.answer import Answer, Certification, EarlierResult, PlacementVerdict


def answer_json(answer: Answer | None, *, job_id: str | None = None) -> dict | None:
    """The client's JSON of ``answer`` (None for none yet); with ``job_id``, a job's, whose
    representatives are counted and linked to ``GET /jobs/{id}/representatives``."""
    match answer:
        case None:
            return None
        case Answer(result=PlacementVerdict() as verdict):
            return asdict(verdict)
        case Answer(result=EarlierResult(stored=stored)):
            return stored
    body = answer.result.to_dict()
    if answer.trace is not None:
        body["trace"] = answer.trace
    if answer.certification is not None:
        body.update(_certification_json(answer.certification))
    if answer.count_certification is not None:
        body["count"].update(_certification_json(answer.count_certification))
    listed = listed_count(answer)
    if job_id is not None and listed is not None:
        body["count"].update(representatives=None, representatives_total=len(listed.representatives),
                             representatives_page=url_for("api.job_representatives", job_id=job_id))
    if answer.cached is not None:
        body["cached"] = answer.cached
    if isinstance(answer.result, PlacementResult):
        body["atlas"] = atlas_link(answer.result.problem, answer.result.value)
    return body


def job_json(job: dict) -> dict:
    """A stored job as a client reads it: its answer made JSON in place."""
    return {**job, "result": answer_json(job["result"], job_id=job["id"])}


def listed_count(answer: Answer | None) -> SolutionCount | None:
    """A placement answer's count, if it lists representatives (an N-Queens count is a
    plain number: it lists none)."""
    match answer:
        case Answer(result=PlacementResult(count=SolutionCount(representatives=tuple()) as count)):
            return count
    return None


def _certification_json(certification: Certification) -> dict:
    certificate = certification.certificate
    return {"certificate": certificate_json(certificate) if certificate is not None else None,
            "certificate_unavailable": certification.unavailable}
