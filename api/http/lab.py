"""The Board lab: the page at ``/`` that watches searches step by step and plays the
domination challenges (seed 002's interactive half). It is static files and one table, the
pieces; the page calls the same JSON endpoints as any other client, so nothing here computes."""

from __future__ import annotations

from flask_openapi3 import APIBlueprint, Tag

from chessdom.api import responses
from chessdom.chessboard import Piece

lab = APIBlueprint("lab", __name__, static_folder="static", static_url_path="/lab",
                   abp_tags=[Tag(name="lab", description="The Board lab's page and its table of pieces")])

# The page loads nothing from anywhere but this service: no CDN, no external fonts.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@lab.get("/", doc_ui=False)
def index():
    response = lab.send_static_file("index.html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


@lab.get("/lab/pieces.json", responses={200: responses.PieceList})
def pieces():
    """Every piece as ``chessboard`` declares it — how it slides and leaps, its letter,
    glyph and names in English and Hungarian — so the page restates none of them."""
    return {"pieces": [piece.to_dict() for piece in Piece]}
