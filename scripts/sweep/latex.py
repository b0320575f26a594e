"""The LaTeX table: pandas' Styler with booktabs rules, siunitx ``S`` columns sized to
their numbers, a ``\\multicolumn`` header and ``\\cmidrule`` per method, and the row labels
of a group written once."""

from __future__ import annotations

import re

from chessdom.scripts.sweep.grid import (
    CELL_MEASURES, MEASURES, TEXT_MEASURES, UNPROVED_MARK, Columns, Grid, atomic_frame, cell_text,
)

NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")
"""What siunitx reads as a number in an ``S`` column (as this module writes numbers)."""


def latex(grid: Grid, columns: Columns, comments: list[str], notes: list[str], caption: str | None,
          label: str | None) -> str:
    """``comments`` become ``%`` lines above the table, ``notes`` a footnote-size line under it."""
    frame = atomic_frame(grid, columns)
    texts = frame.apply(lambda column: [cell_text(column.name[1], value) for value in column])
    for method in {method for method, measure in frame.columns if method and measure == "value"}:
        # Braced as text in its S column (below), so the mark prints after the number.
        texts[(method, "value")] = [text + UNPROVED_MARK if cell.get(method) and grid.unproved(cell[method]) else text
                                    for text, cell in zip(texts[(method, "value")], grid.cells)]
    # Sparse row labels: a piece and a variant once per group, as a reader scans them.
    repeated = {name: texts[[("", other) for other in grid.index[: depth + 1]]].agg("\t".join, axis=1)
                for depth, name in enumerate(grid.index[:-1])}
    for name, prefix in repeated.items():
        texts[("", name)] = texts[("", name)].where(prefix != prefix.shift(), "")
    numeric = [bool(method) and measure not in TEXT_MEASURES or measure in CELL_MEASURES
               for method, measure in frame.columns]
    styler = texts.style.hide(axis="index")
    for column, is_number in zip(frame.columns, numeric):
        # siunitx reads every cell of an S column as a number; text there needs braces.
        styler = styler.format(lambda text, braces=is_number: _braced(text) if braces else text,
                               subset=[column], escape="latex")
    styler = styler.format_index(lambda measure: _braced(MEASURES.get(measure, CELL_MEASURES.get(measure, measure))),
                                 axis=1, level=1, escape="latex")
    styler = styler.format_index(escape="latex", axis=1, level=0)
    tex = styler.to_latex(
        column_format="".join(_s_column(texts[column]) if is_number else "l"
                              for column, is_number in zip(frame.columns, numeric)),
        hrules=True, multicol_align="c", caption=caption, label=label,
        position_float="centering" if caption or label else None,
    )
    tex = _with_method_rules(tex, list(frame.columns))
    if notes:
        note = _escape_latex(" ".join(notes))
        tex = tex.replace("\\end{tabular}\n", f"\\end{{tabular}}\n\\par\\smallskip{{\\footnotesize {note}}}\n", 1)
    return ("".join(f"% {line}\n" for line in comments)
            + "% needs \\usepackage{booktabs} and \\usepackage{siunitx} in the preamble\n" + tex)


def _braced(text: str) -> str:
    return "{" + text + "}" if text and not NUMBER.fullmatch(text) else text


def _s_column(texts) -> str:
    """``S[table-format=…]`` wide enough for the column's numbers, so siunitx aligns them
    on the decimal point without guessing their width."""
    numbers = [text for text in texts if NUMBER.fullmatch(text)]
    if not numbers:
        return "l"
    whole = max(len(text.lstrip("+-").split(".")[0]) for text in numbers)
    decimals = max(len(text.split(".")[1]) if "." in text else 0 for text in numbers)
    sign = "+" if any(text[0] in "+-" for text in numbers) else ""
    return f"S[table-format={sign}{whole}.{decimals}]"


def _with_method_rules(tex: str, columns: list[tuple[str, str]]) -> str:
    """A booktabs ``\\cmidrule`` under each method's ``\\multicolumn`` header."""
    spans, start = [], None
    for position, (method, _) in enumerate(columns, start=1):
        if method and (position == 1 or columns[position - 2][0] != method):
            start = position
        if method and (position == len(columns) or columns[position][0] != method):
            spans.append((start, position))
    rules = " ".join(f"\\cmidrule(lr){{{first}-{last}}}" for first, last in spans)
    head, rule, rest = tex.partition("\\toprule\n")
    first_row, newline, body = rest.partition("\n")
    return head + rule + first_row + newline + rules + "\n" + body if rules else tex


_LATEX_SPECIALS = str.maketrans({
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
})


def _escape_latex(text: str) -> str:
    """The note under the table; the cells go through Styler's own escaping."""
    return text.translate(_LATEX_SPECIALS)
