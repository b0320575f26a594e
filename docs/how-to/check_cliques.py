"""Check a certificate of independence by cliques (contract version 8) with nothing but
Python: every square of the board in exactly one clique, every two squares of a clique
attacking each other, fewer cliques than the refuted bound, and the witness mutually
non-attacking. Prints what it proves and exits 0, or says what fails and exits 1.
Usage: python check_cliques.py CERTIFICATE-DIR/manifest.json"""
import json
import re
import sys

manifest = json.load(open(sys.argv[1], encoding="utf-8"))
problem = manifest["problem"]
rows, cols, piece = problem["rows"], problem["cols"], problem["piece"]
KNIGHT, KING = {(1, 2), (2, 1)}, {(0, 1), (1, 0), (1, 1)}


def square(name):  # "h5" -> (rank, file), 0-based; files a…z, aa…
    letters, digits = re.fullmatch(r"([a-z]+)([1-9][0-9]*)", name).groups()
    file = 0
    for letter in letters:
        file = file * 26 + ord(letter) - ord("a") + 1
    if not (0 <= int(digits) - 1 < rows and 0 <= file - 1 < cols):
        fail(f"{name} is off the board")
    return int(digits) - 1, file - 1


def attacks(a, b):  # pieces do not block one another
    dr, df = abs(a[0] - b[0]), abs(a[1] - b[1])
    line, diagonal, knight = dr == 0 or df == 0, dr == df, (dr, df) in KNIGHT
    return (dr, df) != (0, 0) and {
        "queen": line or diagonal, "rook": line, "bishop": diagonal, "knight": knight, "king": (dr, df) in KING,
        "amazon": line or diagonal or knight, "chancellor": line or knight, "archbishop": diagonal or knight,
    }[piece]


def fail(reason):
    print("NOT VERIFIED:", reason)
    sys.exit(1)


if manifest["contract"] != "chessdom-certificate/8" or problem["objective"] != "independence":
    fail("not a certificate of independence by cliques")
cliques = [[square(name) for name in clique] for clique in manifest["evidence"]["cliques"]]
named = [s for clique in cliques for s in clique]
if len(named) != len(set(named)) or set(named) != {(r, f) for r in range(rows) for f in range(cols)}:
    fail("the cliques do not hold every square exactly once")
for clique in cliques:
    if not all(attacks(a, b) for i, a in enumerate(clique) for b in clique[i + 1:]):
        fail(f"{manifest['evidence']['cliques'][cliques.index(clique)]} is not a clique of {piece}s")
bound, value = manifest["refuted"]["bound"], manifest["value"]
if not len(cliques) < bound == value + 1:
    fail(f"{len(cliques)} cliques do not refute {bound}, or {bound} is not one more than {value}")
witness = [square(name) for name in manifest["witness"]]
if len(set(witness)) != value or any(attacks(a, b) for i, a in enumerate(witness) for b in witness[i + 1:]):
    fail(f"the witness is not {value} mutually non-attacking {piece}s")
print(f"VERIFIED: {value} mutually non-attacking {piece}s fit on the {rows}×{cols} board (the witness), "
      f"and no more ({len(cliques)} cliques)")
