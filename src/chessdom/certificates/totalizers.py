"""python-sat's totalizers as the contract numbers them, each distinct one built once per
process and shifted to where it is used.

A version 3 proof's formula adds totalizers: one per region of its cube, one per lemma
it lists (:mod:`.regions`, :mod:`.lemmas`). Their auxiliary variables are numbered on from
the largest variable so far, so the same totalizer has other numbers in other cubes; a
lemma's was built again for every cube listing it (24 lemmas of 1024 groups in one cube:
87.5 s, 3.5 GB). Here each is built once, numbered from a *base* just above the variables
it counts, and shifted: python-sat numbers the auxiliary variables of a totalizer
consecutively from ``top_id + 1``, whatever ``top_id`` is, so moving every variable above
the base up by ``top − base`` gives exactly the clauses ``top_id=top`` gives
(``tests/test_certificates_hostile.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Callable

Clauses = tuple[tuple[int, ...], ...]
Block = tuple[Clauses, int, int]
"""Clauses numbered from a base, the base, and their largest variable."""

MAX_CACHED_CLAUSES = 2_000_000
"""What a process keeps built, at most (about 200 MB); past it the cache starts again."""
_cache: dict[tuple, Block] = {}  # per process: a worker checks many proofs of one certificate
_cached = [0]


def _kept(key: tuple, build: Callable[[], Block]) -> Block:
    if (block := _cache.get(key)) is None:
        block = build()
        if _cached[0] + len(block[0]) > MAX_CACHED_CLAUSES:
            _cache.clear()
            _cached[0] = 0
        _cache[key] = block
        _cached[0] += len(block[0])
    return block


def shifted(block: Block, top: int) -> tuple[Clauses, int]:
    """The block's clauses with every variable above its base moved up by ``top − base``
    (``top`` at least the base), and the largest of ``top`` and their variables."""
    clauses, base, largest = block
    delta = top - base
    if delta:
        clauses = tuple(tuple(literal if abs(literal) <= base else literal + delta if literal > 0 else literal - delta
                              for literal in clause) for clause in clauses)
    return clauses, max(top, largest + delta if largest > base else largest)


def encoded(kind: str, literals: list[int], bound: int, top: int) -> Clauses:
    """python-sat's totalizer "at most", "exactly" or "at least" ``bound`` of ``literals``
    with ``top_id=top``, its auxiliary variables checked to be fresh (above ``top``)."""
    from pysat.card import CardEnc, EncType

    encode = {"at most": CardEnc.atmost, "exactly": CardEnc.equals, "at least": CardEnc.atleast}[kind]
    clauses = encode(lits=literals, bound=bound, top_id=top, encoding=EncType.totalizer).clauses
    own = set(literals)
    if any(abs(literal) not in own and abs(literal) <= top for clause in clauses for literal in clause):
        raise ValueError("python-sat's totalizer reused a variable")  # never seen
    return tuple(tuple(clause) for clause in clauses)


def largest_of(base: int, clauses: Clauses) -> int:
    return max([base, *(abs(literal) for clause in clauses for literal in clause)])


def totalizer(kind: str, literals: tuple[int, ...], bound: int, top: int) -> tuple[Clauses, int]:
    """:func:`encoded` of ``literals`` (positive, none above ``top``) with ``top_id=top``,
    and the largest of ``top`` and its variables."""
    def build() -> Block:
        base = max(literals)
        clauses = encoded(kind, list(literals), bound, base)
        return clauses, base, largest_of(base, clauses)

    return shifted(_kept(("totalizer", kind, literals, bound), build), top)


def counted(kind: str, groups: tuple[tuple[int, ...], ...], bound: int, top: int) -> tuple[Clauses, int]:
    """A fresh variable ``y_j`` per group numbered on from ``top``, its definition (``y_j``
    holds exactly when a square of group ``j`` holds a piece: ``[-y_j, *group]``, then
    ``[y_j, -s]`` for each square), then :func:`encoded` ``kind`` ``bound`` of the ``y``s
    with ``top_id`` the last ``y``; and the largest variable. The groups' squares are at
    most ``top``."""
    def build() -> Block:
        base = top_of_squares = max(max(group) for group in groups)
        clauses: list[tuple[int, ...]] = []
        for group in groups:
            base += 1
            clauses.append((-base, *group))
            clauses.extend((base, -square) for square in group)
        ys = list(range(top_of_squares + 1, base + 1))
        clauses.extend(encoded(kind, ys, bound, base))
        return tuple(clauses), top_of_squares, largest_of(base, clauses)

    return shifted(_kept(("groups", kind, groups, bound), build), top)
