"""MkDocs hook: the command-line reference shows ``chessdom … --help`` as it is.

A page writes ``<!-- chessdom-help solve -->`` (or ``certificate check``, or nothing after
``chessdom-help`` for the top level) and gets the help text of that command, produced at
build time by the installed ``chessdom`` command itself."""

from __future__ import annotations

import contextlib
import io
import os
import re

HELP = re.compile(r"<!-- chessdom-help ?([a-z ]*?) ?-->")
WIDTH = "80"


def command_help(words: list[str]) -> str:
    from chessdom.cli import main

    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH  # argparse wraps to the terminal's width
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*words, "--help"])
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    text = out.getvalue().rstrip()
    if not text.startswith("usage:"):
        raise RuntimeError(f"chessdom {' '.join(words)} --help printed no usage")
    return text


def on_page_markdown(markdown: str, page, config, files):
    def replace(match: re.Match) -> str:
        return "```text\n" + command_help(match[1].split()) + "\n```"

    return HELP.sub(replace, markdown)
