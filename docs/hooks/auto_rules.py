"""MkDocs hook: what ``solver="auto"`` picks, generated from the rules themselves
(``models/dispatch/auto_rules.py``) when the site is built, so the page says what the code
does.

``<!-- auto-rules -->`` becomes a table of the backend ``auto`` picks for every piece and
problem on n×n boards (found by asking the rules for every n up to :data:`LARGEST_SIDE`,
so a rule shadowed by an earlier one shows as the code applies it), then the rules in the
order they are tried, each with the measurement that chose it."""

from __future__ import annotations

from itertools import groupby

LARGEST_SIDE = 64
SYMBOL = {"domination": "γ", "independent_domination": "i", "total_domination": "γt", "independence": "β"}


def joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def segments(piece, objective) -> tuple[tuple[int, int, str], ...]:
    """The sides where one rule holds, as (first side, last side, rule name)."""
    from chessdom.chessboard import Board, PlacementProblem
    from chessdom.models.dispatch.auto_rules import auto_rule

    names = [(side, auto_rule(PlacementProblem(Board.square(side), piece, objective)).name)
             for side in range(1, LARGEST_SIDE + 1)]
    return tuple((group[0][0], group[-1][0], name)
                 for name, group in ((name, list(group)) for name, group in groupby(names, key=lambda item: item[1])))


def sides(first: int, last: int) -> str:
    if first == 1 and last == LARGEST_SIDE:
        return "every size"
    if first == 1:
        return f"below {last + 1}×{last + 1}"
    if last == LARGEST_SIDE:
        return f"from {first}×{first}"
    if first == last:
        return f"on {first}×{first}"
    return f"{first}×{first} to {last}×{last}"


def problems(pairs: list) -> str:
    """``[(queen, γ), (queen, i), (rook, γ)]`` → "γ and i of queens; γ of rooks"; pieces with
    the same problems share a clause."""
    by_piece: dict = {}
    for piece, objective in pairs:
        by_piece.setdefault(piece, []).append(SYMBOL[objective.value])
    clauses: dict[tuple[str, ...], list[str]] = {}
    for piece, symbols in by_piece.items():
        clauses.setdefault(tuple(symbols), []).append(f"{piece.value}s")
    return "; ".join(f"{joined(list(symbols))} of {joined(pieces)}" for symbols, pieces in clauses.items())


def picks_table() -> str:
    from chessdom.chessboard import Objective, Piece
    from chessdom.models.dispatch.auto_rules import AUTO_RULES

    backend = {rule.name: rule.backend for rule in AUTO_RULES}
    groups: dict[tuple, list] = {}
    for piece in Piece:
        for objective in Objective:
            groups.setdefault(segments(piece, objective), []).append((piece, objective))
    rows = ["| problems | boards | `auto` picks | by the rule |", "|---|---|---|---|"]
    for spans, pairs in groups.items():
        for index, (first, last, name) in enumerate(spans):
            named = problems(pairs) if index == 0 else ""  # a problem's later sizes under its first
            rows.append(f"| {named} | {sides(first, last)} | `{backend[name]}` | `{name}` |")
    return "\n".join(rows)


def rules_list() -> str:
    from chessdom.models.dispatch.auto_rules import AUTO_RULES, MEASURED_IN

    items = [f"{number}. `{rule.name}` → `{rule.backend}`{' (only with a certificate asked for)' if rule.certified else ''}: "
             f"{rule.measured}."
             for number, rule in enumerate(AUTO_RULES, start=1)]
    return "\n".join(items) + f"\n\n(The figures as the rules cite them, measured in {MEASURED_IN}.)"


def on_page_markdown(markdown: str, page, config, files):
    if "<!-- auto-rules -->" not in markdown:
        return markdown
    return markdown.replace("<!-- auto-rules -->", f"{picks_table()}\n\nThe rules, in the order they are tried "
                                                   f"(the first that applies picks):\n\n{rules_list()}")
