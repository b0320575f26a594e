"""``GET /certificates/{id}`` and its two files: what a reader downloads to check a bound
(``chessdom certificate check URL`` does it all). Files are streamed from the data
directory, gzip-compressed on the fly for clients that accept it (DRAT text shrinks
about 4×), and never read into memory whole. This is the only place where a
certificate's id becomes URLs (:func:`with_links`)."""

from __future__ import annotations

import zlib
from typing import Annotated, Any

from flask import Response, current_app, g, request, send_file, url_for
from flask_openapi3 import APIBlueprint, Tag
from pydantic import BaseModel, Field

from chessdom.certificates import FORMULA, PROOF

from chessdom.api.http.errors import problem
from chessdom.api.http.schemas import ProblemDetail
from chessdom.api.runtime.certificate_store import CertificateStore

CHUNK = 1 << 20
GZIP_WINDOW = 16 + zlib.MAX_WBITS  # zlib's wbits for a gzip header and trailer

certificates = APIBlueprint(
    "certificates", __name__, url_prefix="/certificates",
    abp_tags=[Tag(name="certificates", description="Checkable evidence of proven bounds")],
)
RESPONSES = {404: ProblemDetail, 422: ProblemDetail}


class CertificatePath(BaseModel):
    certificate_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]


class Manifest(BaseModel):
    """The certificate's manifest (docs, "The certificate contract", has every field)."""

    model_config = {"extra": "allow"}
    contract: str
    problem: dict[str, Any]
    value: int
    refuted: dict[str, Any]
    claim: str
    encoding: str


def _store() -> CertificateStore:
    return CertificateStore(current_app.extensions["chessdom"].settings.data_dir)


def _visible(certificate_id: str) -> bool:
    """Only the token whose solve made a certificate may read it (others get 404)."""
    return current_app.extensions["chessdom"].store.certificate_visible(certificate_id, g.owner)


def _not_found(certificate_id: str):
    return problem(404, f"no certificate with id {certificate_id!r}")


def _gzip_chunks(path):
    compressor = zlib.compressobj(6, zlib.DEFLATED, GZIP_WINDOW)
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            if compressed := compressor.compress(chunk):
                yield compressed
    yield compressor.flush()


def _file(certificate_id: str, name: str):
    directory = _store().directory(certificate_id) if _visible(certificate_id) else None
    if directory is None:
        return _not_found(certificate_id)
    path = directory / name
    if request.accept_encodings["gzip"]:
        response = Response(_gzip_chunks(path), mimetype="text/plain")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = send_file(path, mimetype="text/plain", download_name=name, conditional=False)
    response.headers["Vary"] = "Accept-Encoding"
    return response


@certificates.get("/<certificate_id>", responses={200: Manifest, **RESPONSES})
def manifest(path: CertificatePath):
    """The manifest: problem, refuted bound and claim, encoding, sizes and SHA-256 of both
    files, the prover, and the independent checker's verdict."""
    found = _store().manifest(path.certificate_id) if _visible(path.certificate_id) else None
    return found if found is not None else _not_found(path.certificate_id)


@certificates.get(f"/<certificate_id>/{FORMULA}", responses=RESPONSES)
def formula(path: CertificatePath):
    """The plain formula in DIMACS, as the contract defines it."""
    return _file(path.certificate_id, FORMULA)


@certificates.get(f"/<certificate_id>/{PROOF}", responses=RESPONSES)
def proof(path: CertificatePath):
    """The DRAT refutation of the formula, text format."""
    return _file(path.certificate_id, PROOF)


def with_links(result: dict | None) -> dict | None:
    """``result`` with its certificate's URLs beside its id (a placement answer with a
    certificate; anything else is returned as it is)."""
    certificate = (result or {}).get("certificate")
    if not certificate or "id" not in certificate:
        return result
    certificate_id = certificate["id"]
    links = {
        "manifest": url_for("certificates.manifest", certificate_id=certificate_id),
        "formula": url_for("certificates.formula", certificate_id=certificate_id),
        "proof": url_for("certificates.proof", certificate_id=certificate_id),
    }
    return {**result, "certificate": {"id": certificate_id, **links, **certificate}}
