"""Who may ask what, and what every answer says about itself: bearer tokens, job owners,
the ``Host`` allow-list, JSON-only bodies and the security headers.

Tokens are required whenever any are configured (``chessdom serve`` refuses to listen
beyond loopback without them); a job belongs to the token that made it. The ``Host``
check stops DNS rebinding, where a foreign page reaches a loopback service through a
name its attacker controls."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from flask import Flask, Response, g, request

from chessdom.api.http.errors import problem
from chessdom.api.runtime.config import Settings

# Pages a browser opens by navigation, which cannot carry a bearer token; they hold no
# data (the lab and the docs call the API like any other client) and /health says only
# that the service lives.
PUBLIC_PATHS = re.compile(r"^/(?:$|lab/|docs(?:/|$)|openapi\.json$|health$)")
JSON_METHODS = ("POST", "PUT", "PATCH")

# What a JSON answer may do in a browser: nothing. Pages set their own policy.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'{scripts}; style-src 'self'{styles}; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}
"""On every answer, the server's own error pages included (see :mod:`chessdom.api.serving.wire`)."""
INLINE = {"script": re.compile(r"<script>(.*?)</script>", re.S), "style": re.compile(r"<style>(.*?)</style>", re.S)}


def owner_of(token: str) -> str:
    """The name a token's jobs are filed under: its hash, so the store holds no token."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def page_policy(html: str) -> str:
    """A policy for a page that allows its own inline scripts and styles by their hashes
    (Swagger UI's page has one of each) and nothing else inline."""
    hashes = {
        kind: "".join(
            f" 'sha256-{base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()}'"
            for block in pattern.findall(html)
        )
        for kind, pattern in INLINE.items()
    }
    return PAGE_POLICY.format(scripts=hashes["script"], styles=hashes["style"])


def register_access(app: Flask, settings: Settings) -> None:
    tokens = tuple(settings.tokens)
    allowed_hosts = {host.lower() for host in settings.allowed_hosts}

    @app.before_request
    def check_host():
        if "*" in allowed_hosts:
            return None
        host = request.host.lower()
        name = host[1:host.index("]")] if host.startswith("[") else host.rsplit(":", 1)[0]
        if name not in allowed_hosts:
            return problem(400, f"this service does not answer to the host name {name!r}; "
                                "add it to CHESSDOM_ALLOWED_HOSTS")
        return None

    @app.before_request
    def authenticate():
        g.owner = None
        if not tokens:
            return None
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        matched = next((token for token in tokens if hmac.compare_digest(given.encode(), token.encode())), None)
        if scheme.lower() == "bearer" and matched is not None:
            g.owner = owner_of(matched)
            return None
        if PUBLIC_PATHS.match(request.path) and request.method in ("GET", "HEAD"):
            return None
        return problem(401, "send a valid token: Authorization: Bearer <token>",
                       headers={"WWW-Authenticate": 'Bearer realm="chessdom"'})

    @app.before_request
    def require_json():
        # A browser may send a text/plain or form POST to any site without asking first;
        # a JSON one needs the site's consent (CORS), which this service never gives.
        if request.method not in JSON_METHODS or request.routing_exception is not None:
            return None
        if request.mimetype != "application/json":
            return problem(415, "send the request body as application/json")
        return None

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        if "Content-Security-Policy" not in response.headers:
            if response.mimetype == "text/html" and not response.direct_passthrough:
                response.headers["Content-Security-Policy"] = page_policy(response.get_data(as_text=True))
            else:
                response.headers["Content-Security-Policy"] = API_POLICY
        return response
