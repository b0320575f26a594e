"""A griffe extension: chessdom's docstrings, as written, rendered well by mkdocstrings.

Two habits of the source would otherwise show through in the reference:

- Sphinx roles (:func:`knight_tour`, :mod:`models.cubes`) and a paragraph ending in ``::``
  before a literal block. Markdown has neither: the role becomes plain code, ``::`` one
  colon.
- The few numpy-style sections write ``name : what it is`` (the description after the
  colon, where numpydoc expects a type), ``Returns`` as ``Type — what it is``, and
  ``Raises`` as ``Error for what``. They are rewritten into numpydoc's layout (the name on
  its own line, the description indented under it), so the parameter table shows each
  description beside the type taken from the signature.

The source stays as it is; only what the reference renders changes."""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|attr|data|exc|obj|const|ref):`~?\.?([^`]+)`")
LITERAL_BLOCK = re.compile(r"(\S)::\n\n")
SECTION = re.compile(r"^(?P<title>[A-Z][a-z]+)\n-{3,}$")
NAMED_ENTRY = re.compile(r"^(?P<names>\w+(?:, \w+)*) ?: ?(?P<text>.*)$")
RETURN_ENTRY = re.compile(r"^(?P<type>[\w.\[\], |]+) — (?P<text>.*)$")
RAISE_ENTRY = re.compile(r"^(?P<type>[A-Z]\w*(?:Error|Exception|Failed|Unavailable)\w*):? (?P<text>.*)$")
INDENT = "    "


def _entries(lines: list[str], pattern: re.Pattern, key: str) -> list[str] | None:
    """Lines of one section as numpydoc entries, or None when a line does not fit."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            out.append(line)
        elif line[0].isspace():
            if not out:
                return None
            out.append(INDENT + line.strip())
        else:
            match = pattern.match(line)
            if match is not None:
                out += [match[key], INDENT + match["text"]]
            elif out:
                out.append(INDENT + line.strip())  # the previous entry goes on
            else:
                return None
    return out


def numpydoc_sections(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        if index + 1 < len(lines) and SECTION.match(f"{lines[index]}\n{lines[index + 1]}"):
            title = lines[index]
            end = index + 2
            while end < len(lines) and not (
                end + 1 < len(lines) and SECTION.match(f"{lines[end]}\n{lines[end + 1]}")
            ):
                end += 1
            body = lines[index + 2:end]
            patterns = {
                "Parameters": (NAMED_ENTRY, "names"),
                "Returns": (RETURN_ENTRY, "type"),
                "Raises": (RAISE_ENTRY, "type"),
            }
            converted = _entries(body, *patterns[title]) if title in patterns else None
            out += [lines[index], lines[index + 1], *(body if converted is None else converted)]
            index = end
        else:
            out.append(lines[index])
            index += 1
    return "\n".join(out)


def markdown_docstring(text: str) -> str:
    text = ROLE.sub(r"`\1`", text)
    text = LITERAL_BLOCK.sub(r"\1:\n\n", text)
    return numpydoc_sections(text)


class RestRoles(griffe.Extension):
    def __init__(self) -> None:
        super().__init__()
        self._done: set[int] = set()

    def _rewrite(self, obj) -> None:
        docstring = obj.docstring
        if docstring is not None and id(docstring) not in self._done:
            self._done.add(id(docstring))
            docstring.value = markdown_docstring(docstring.value)

    def on_object(self, *, obj, loader, **kwargs) -> None:
        self._rewrite(obj)

    def on_package(self, *, pkg, loader, **kwargs) -> None:
        self._rewrite(pkg)
