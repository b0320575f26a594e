"""What a server process reads and writes on a connection itself, around the application:
where a request that is still arriving ends (so that it is in whole, body included, before
a request thread takes it, and a body over the limit is refused as soon as that is known),
and the ``application/problem+json`` answers the server writes on its own — a 413 at once,
a 503 when its buffers are full, and gunicorn's own 400, 414 and 431 — with the security
headers every answer of the application carries.

Only framing is read here; gunicorn's parser reads every request again and decides. A head
this scan cannot vouch for is handed over as it is (gunicorn answers it, or reads the rest
within the socket's receive timeout)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus

from chessdom.api.http.access import API_POLICY, SECURITY_HEADERS
from chessdom.api.http.errors import PROBLEM_TYPE, STATUS_CODES

CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
HEAD_LIMIT = 64 * 1024
"""Larger heads go to gunicorn's parser at once, which rejects them (414, 431)."""
MAX_CHUNK_LINE = 1024
INCOMPLETE, COMPLETE, TOO_LARGE, HAND_OVER = "incomplete", "complete", "too large", "hand over"
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")
SERVER_CODES = {400: "malformed_request", 414: "uri_too_long", 417: "expectation_failed",
                431: "headers_too_large", 501: "not_implemented"}


@dataclass
class RequestScan:
    """Where the request at the start of a growing buffer ends, and whether its body
    (``Content-Length`` or chunked) stays within ``max_body`` bytes. Each :meth:`feed`
    resumes where the last stopped, so a request trickled in byte by byte costs linear time."""

    max_body: int
    head_end: int | None = None
    length: int = 0
    chunked: bool = False
    expects_continue: bool = False
    body_bytes: int = 0
    _searched: int = 0
    _chunk_at: int = 0
    _in_trailers: bool = field(default=False, repr=False)

    def feed(self, buffer: bytearray) -> str:
        """INCOMPLETE, COMPLETE, TOO_LARGE, or HAND_OVER (not framing this scan vouches for)."""
        if self.head_end is None:
            end = buffer.find(b"\r\n\r\n", max(0, self._searched - 3))
            if end < 0:
                self._searched = len(buffer)
                return HAND_OVER if len(buffer) > HEAD_LIMIT else INCOMPLETE
            self.head_end = self._chunk_at = end + 4
            verdict = self._read_head(bytes(buffer[:end]))
            if verdict is not None:
                return verdict
        if self.chunked:
            return self._scan_chunks(buffer)
        return COMPLETE if len(buffer) >= self.head_end + self.length else INCOMPLETE

    def _read_head(self, head: bytes) -> str | None:
        request_line, *lines = head.split(b"\r\n")
        lengths, codings, expect = set(), [], b""
        for line in lines:
            name, colon, value = line.partition(b":")
            if not colon or not _TOKEN.fullmatch(name):
                return HAND_OVER  # folded or malformed: gunicorn answers 400
            name, value = name.lower(), value.strip(b" \t")
            if name == b"content-length":
                lengths.add(value)
            elif name == b"transfer-encoding":
                codings += [coding.strip(b" \t").lower() for coding in value.split(b",")]
            elif name == b"expect":
                expect = value.lower()
        self.expects_continue = expect == b"100-continue" and request_line.endswith(b" HTTP/1.1")
        if codings:
            if lengths or codings[-1] != b"chunked":
                return HAND_OVER  # gunicorn refuses both at once, and answers other codings 501
            self.chunked = True
            return None
        if len(lengths) > 1 or (lengths and not next(iter(lengths)).isdigit()):
            return HAND_OVER
        self.length = int(lengths.pop()) if lengths else 0
        return TOO_LARGE if self.length > self.max_body else None

    def _scan_chunks(self, buffer: bytearray) -> str:
        at = self._chunk_at
        while not self._in_trailers:
            line_end = buffer.find(b"\r\n", at, at + MAX_CHUNK_LINE)
            if line_end < 0:
                return HAND_OVER if len(buffer) - at >= MAX_CHUNK_LINE else INCOMPLETE
            size_text = bytes(buffer[at:line_end]).split(b";", 1)[0].strip(b" \t")
            if not _HEX.fullmatch(size_text):
                return HAND_OVER
            size = int(size_text, 16)
            if self.body_bytes + size > self.max_body:
                return TOO_LARGE
            if size == 0:
                self._in_trailers = True
                at = self._chunk_at = line_end + 2
                break
            data_end = line_end + 2 + size
            if len(buffer) < data_end + 2:
                return INCOMPLETE
            if buffer[data_end:data_end + 2] != b"\r\n":
                return HAND_OVER
            self.body_bytes += size
            at = self._chunk_at = data_end + 2
        # No trailer fields (an empty line), or trailer fields and then an empty line.
        if buffer[at:at + 2] == b"\r\n" or buffer.find(b"\r\n\r\n", max(at, self._searched - 3)) >= 0:
            return COMPLETE
        self._searched = len(buffer)
        return HAND_OVER if len(buffer) - at > HEAD_LIMIT else INCOMPLETE


def raw_problem(status: int, detail: str, *, code: str | None = None, headers: dict | None = None,
                close: bool = True) -> bytes:
    """A whole HTTP/1.1 answer in problem+json, as the application would send it."""
    body = json.dumps({
        "type": PROBLEM_TYPE, "title": HTTPStatus(status).phrase, "status": status, "detail": detail,
        "code": code or SERVER_CODES.get(status) or STATUS_CODES.get(status, "error"),
    }).encode()
    fields = {"Content-Type": "application/problem+json", "Content-Length": str(len(body)),
              **SECURITY_HEADERS, "Content-Security-Policy": API_POLICY, **(headers or {})}
    if close:
        fields["Connection"] = "close"
    head = f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
    return head.encode("latin-1") + b"\r\n" + body
