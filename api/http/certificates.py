"""``GET /certificates/{id}``, its files and its archive: what a reader downloads to check
a bound or a count (``chessdom certificate check URL`` fetches the archive and does it
all); and ``DELETE /certificates/{id}``, which frees what it took of its token's storage.
Files are streamed from the data directory, never read into memory whole: a DRAT
certificate's formula and proof gzip-compressed on the fly for clients that accept it
(DRAT text shrinks about 4×), a search tree's ``tree.bin`` as it is kept (its nodes are
zlib-compressed already); the archive is the whole directory as a ``.tar.gz``, written as
it is sent. This is the only place where a certificate's id becomes URLs
(:func:`certificate_json`), each link null where the certificate has no such file.

Nothing of a certificate that a checker of an earlier revision accepted is sent before the
corrected checker has checked it again (the first download waits for that); one it rejects
is withdrawn, and its manifest and files answer 410 Gone with the reason."""

from __future__ import annotations

import tarfile
import zlib
from pathlib import Path
from typing import Annotated, Any

from flask import Response, current_app, g, request, send_file, url_for
from flask_openapi3 import APIBlueprint, Tag
from pydantic import BaseModel, Field

from chessdom.certificates import FORMULA, LRAT_PROOF, PROOF, TREE

from chessdom.api.http.errors import problem
from chessdom.api.http.schemas import ProblemDetail
from chessdom.api.runtime.answer import Certificate
from chessdom.api.runtime.certificate_recheck import WITHDRAWN, RecheckUnavailable
from chessdom.api.runtime.certificate_store import CertificateStore

CHUNK = 1 << 20
GZIP_WINDOW = 16 + zlib.MAX_WBITS  # zlib's wbits for a gzip header and trailer

certificates = APIBlueprint(
    "certificates", __name__, url_prefix="/certificates",
    abp_tags=[Tag(name="certificates", description="Checkable evidence of proven bounds")],
)
RESPONSES = {404: ProblemDetail, 410: ProblemDetail, 422: ProblemDetail, 503: ProblemDetail}
CHECKER_RETRY_SECONDS = 60


class CertificatePath(BaseModel):
    # Any id up to the length a job's takes: one that cannot exist (``nope``) is simply not
    # found, a 404 naming it, as ``/jobs/nope`` is — the store knows what an id looks like.
    certificate_id: Annotated[str, Field(max_length=64)]


class Manifest(BaseModel):
    """The certificate's manifest (docs, "The certificate contract", has every field)."""

    model_config = {"extra": "allow"}
    contract: str
    problem: dict[str, Any]
    value: int
    refuted: dict[str, Any]
    claim: str
    encoding: str | None = None
    """The cardinality encoding of the formula; absent from a search tree's (contract version 5)."""
    order: str | None = None
    """The literal order of the cardinality encoding (contract version 2)."""
    cubes: dict[str, Any] | None = None
    """A cube bundle's files, when the refutation is split into cubes."""
    enumeration: dict[str, Any] | None = None
    """For a certified count: representatives, symmetries, solutions and classes."""
    evidence: dict[str, Any] | None = None
    """A search tree's (contract version 5): ``form`` ``tree``, its file's size and SHA-256,
    its ``nodes``, and whether the ``search`` was ``kept`` from the solve or run ``again``."""


def _store() -> CertificateStore:
    return CertificateStore(current_app.extensions["chessdom"].settings.data_dir)


def _visible(certificate_id: str) -> bool:
    """Only the token whose solve made a certificate may read it (others get 404)."""
    return current_app.extensions["chessdom"].store.certificate_visible(certificate_id, g.owner)


def _not_found(certificate_id: str):
    return problem(404, f"no certificate with id {certificate_id!r}")


def _served(certificate_id: str) -> Path | Response:
    """The certificate's directory, once it may be served (re-checked first if a checker
    of an earlier revision accepted it), or the problem to answer: 404 when there is none
    (or it is another token's); 410 Gone when it was withdrawn, since it existed and is
    kept from readers for good; 503 when the checker cannot run here to re-check it."""
    store = _store()
    if not _visible(certificate_id) or store.directory(certificate_id) is None:
        return _not_found(certificate_id)
    try:
        reason = store.recheck(certificate_id)
    except RecheckUnavailable as error:
        return problem(503, f"certificate {certificate_id!r} must be checked again before it is served, and the "
                            f"checker cannot run: {error}", headers={"Retry-After": str(CHECKER_RETRY_SECONDS)},
                       code="checker_unavailable")
    if reason is not None:
        return problem(410, f"certificate {certificate_id!r} was withdrawn: {reason}", code="certificate_withdrawn")
    return store.directory(certificate_id) or _not_found(certificate_id)  # it may have expired meanwhile


def _gzip_chunks(path):
    compressor = zlib.compressobj(6, zlib.DEFLATED, GZIP_WINDOW)
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            if compressed := compressor.compress(chunk):
                yield compressed
    yield compressor.flush()


def _send(path: Path) -> Response:
    if request.accept_encodings["gzip"]:
        response = Response(_gzip_chunks(path), mimetype="text/plain")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = send_file(path, mimetype="text/plain", download_name=path.name, conditional=False)
    response.headers["Vary"] = "Accept-Encoding"
    return response


@certificates.get("/<certificate_id>", responses={200: Manifest, **RESPONSES})
def manifest(path: CertificatePath):
    """A certificate's manifest: what it proves, and what to check it with.

    Problem, refuted bound and claim, encoding, sizes and SHA-256 of both files, the prover,
    and the independent checker's verdict (with `previous_checker`, the verdict it
    replaced, when a checker of an earlier revision had accepted it)."""
    directory = _served(path.certificate_id)
    if isinstance(directory, Response):
        return directory
    found = _store().manifest(path.certificate_id)
    return found if found is not None else _not_found(path.certificate_id)


def _file(certificate_id: str, name: str) -> Path | Response:
    """The certificate's file ``name``, or the problem to answer: that of :func:`_served`,
    or 404 saying what the certificate holds instead."""
    directory = _served(certificate_id)
    if isinstance(directory, Response) or (directory / name).is_file():
        return directory if isinstance(directory, Response) else directory / name
    if (directory / TREE).is_file():
        held = "is the branch-and-bound's search tree (contract version 5): download its tree.bin or its archive"
    elif name == PROOF and (directory / LRAT_PROOF).is_file():
        held = f"has its refutation in LRAT (contract version 6): download its {LRAT_PROOF} or its archive"
    elif name == LRAT_PROOF and (directory / PROOF).is_file():
        held = f"has its refutation in DRAT: download its {PROOF} or its archive"
    elif name in (PROOF, LRAT_PROOF) and (directory / FORMULA).is_file():
        held = "has its refutation in cube proofs, or needs none (no placement of any size): download its archive"
    else:
        held = f"has no {name}: download its archive"
    return problem(404, f"certificate {certificate_id!r} {held}")


@certificates.get(f"/<certificate_id>/{FORMULA}", responses=RESPONSES)
def formula(path: CertificatePath):
    """The plain formula in DIMACS, as the contract defines it.

    A search tree (contract version 5) has none."""
    found = _file(path.certificate_id, FORMULA)
    return found if isinstance(found, Response) else _send(found)


@certificates.get(f"/<certificate_id>/{PROOF}", responses=RESPONSES)
def proof(path: CertificatePath):
    """The DRAT refutation of the formula, in text format.

    A cube bundle has none (its proofs are in the archive), nor has a search tree."""
    found = _file(path.certificate_id, PROOF)
    return found if isinstance(found, Response) else _send(found)


@certificates.get(f"/<certificate_id>/{LRAT_PROOF}", responses=RESPONSES)
def lrat_proof(path: CertificatePath):
    """The LRAT refutation of the formula, binary and gzip-compressed (contract version 6).

    Sent as it is kept (it is compressed already): `gunzip` it for lrat-trim or cake_lpr.
    A cube bundle has none (its proofs are in the archive), nor has a DRAT proof or a tree."""
    found = _file(path.certificate_id, LRAT_PROOF)
    if isinstance(found, Response):
        return found
    return send_file(found, mimetype="application/gzip", download_name=LRAT_PROOF, conditional=False)


@certificates.get(f"/<certificate_id>/{TREE}", responses=RESPONSES)
def tree(path: CertificatePath):
    """The branch-and-bound's search tree, in the contract's binary form (version 5).

    Its nodes are zlib-compressed already, so it is sent as it is kept, never gzip-encoded."""
    found = _file(path.certificate_id, TREE)
    if isinstance(found, Response):
        return found
    return send_file(found, mimetype="application/octet-stream", download_name=TREE, conditional=False)


@certificates.delete("/<certificate_id>", responses={204: None, 404: ProblemDetail, 422: ProblemDetail})
def delete(path: CertificatePath):
    """Delete a certificate, freeing what it took of your token's storage.

    A withdrawn one too. Its links answer 404 from then on; the job or answer that made it
    keeps its id."""
    context = current_app.extensions["chessdom"]
    if not _visible(path.certificate_id) or _store().directory(path.certificate_id) is None:
        return _not_found(path.certificate_id)
    _store().remove(path.certificate_id)
    context.store.forget_certificate(path.certificate_id)
    return Response(status=204)


def _tar_gz_chunks(directory: Path, prefix: str):
    """The directory's files as a gzip-compressed tar stream under ``prefix/``, written as
    it is read: a header block per file, its bytes, padding to 512, two empty blocks."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, GZIP_WINDOW)
    for path in sorted(directory.iterdir()):
        if not path.is_file():
            continue
        stat = path.stat()
        info = tarfile.TarInfo(f"{prefix}/{path.name}")
        info.size, info.mtime, info.mode = stat.st_size, int(stat.st_mtime), 0o644
        yield compressor.compress(info.tobuf(format=tarfile.USTAR_FORMAT))
        with path.open("rb") as file:
            while chunk := file.read(CHUNK):
                if compressed := compressor.compress(chunk):
                    yield compressed
        yield compressor.compress(b"\0" * (-stat.st_size % tarfile.BLOCKSIZE))
    yield compressor.compress(b"\0" * (2 * tarfile.BLOCKSIZE))
    yield compressor.flush()


@certificates.get("/<certificate_id>/archive", responses=RESPONSES)
def archive(path: CertificatePath):
    """The whole certificate directory as a gzip-compressed tar archive.

    One folder named by the id: what `chessdom certificate check` downloads, and the only
    way to fetch a cube bundle's proofs."""
    directory = _served(path.certificate_id)
    if isinstance(directory, Response):
        return directory
    response = Response(_tar_gz_chunks(directory, path.certificate_id), mimetype="application/gzip")
    response.headers["Content-Disposition"] = f'attachment; filename="certificate-{path.certificate_id}.tar.gz"'
    return response


def certificate_json(certificate: Certificate) -> dict:
    """``certificate`` as a client reads it: its URLs beside its id, and the checker's
    verdict as it stands now — one withdrawn since it was made says so (``checked``
    false, the withdrawal in ``checker``), as its downloads do with 410."""
    files = certificate.files
    if files is None:  # kept before the files were listed: every one had a formula, and a proof unless in cubes
        files = (FORMULA,) if certificate.cubes else (FORMULA, PROOF)
    links = {"manifest": url_for("certificates.manifest", certificate_id=certificate.id)}
    for name, endpoint in ((FORMULA, "formula"), (PROOF, "proof"), (TREE, "tree")):
        links[endpoint] = url_for(f"certificates.{endpoint}", certificate_id=certificate.id) if name in files else None
    if LRAT_PROOF in files:  # the one proof, whatever its form (``form`` says which)
        links["proof"] = url_for("certificates.lrat_proof", certificate_id=certificate.id)
    links["archive"] = url_for("certificates.archive", certificate_id=certificate.id)
    checked, checker = _verdict_now(certificate)
    return {"id": certificate.id, "form": certificate.form, **links, "claim": certificate.claim,
            "cubes": certificate.cubes, "bytes": certificate.size, "checked": checked, "checker": checker,
            "seconds": certificate.seconds}


def _verdict_now(certificate: Certificate) -> tuple[bool, dict]:
    """Whether ``certificate`` is checked, and by what, now: as it was made, unless it was
    withdrawn since (one look for a file beside it; the re-check itself waits for a
    download, :func:`_served`)."""
    store = _store()
    directory = store.directory(certificate.id)
    if directory is None or not (directory / WITHDRAWN).is_file():
        return certificate.checked, certificate.checker
    now = store.summary(certificate.id)
    return now.checked, now.checker
