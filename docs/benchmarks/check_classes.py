"""Check a file of queen (or knight) placements, one per line ("a1 h5 ..."), on an n×n
board: each dominates the board, no two are images of each other under the board's 8
symmetries; prints the classes and the placements they stand for (the sum of the orbits).
Usage: python check_classes.py N FILE [queen|knight]"""
import sys

n, path = int(sys.argv[1]), sys.argv[2]
piece = sys.argv[3] if len(sys.argv) > 3 else "queen"


def square(name):  # "h5" -> (column, row), 0-based
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def attacks(px, py, x, y):  # the piece's own square counts as dominated
    dx, dy = abs(x - px), abs(y - py)
    if piece == "knight":
        return (dx, dy) in ((0, 0), (1, 2), (2, 1))
    return dx == 0 or dy == 0 or dx == dy


def dominates(pieces):
    return all(any(attacks(px, py, x, y) for px, py in pieces) for x in range(n) for y in range(n))


def images(pieces):
    m = n - 1
    maps = [lambda x, y: (x, y), lambda x, y: (m - x, y), lambda x, y: (x, m - y),
            lambda x, y: (m - x, m - y), lambda x, y: (y, x), lambda x, y: (m - y, x),
            lambda x, y: (y, m - x), lambda x, y: (m - y, m - x)]
    return {tuple(sorted(f(x, y) for x, y in pieces)) for f in maps}


assert piece in ("queen", "knight"), f"piece must be queen or knight, not {piece}"
classes, placements, sizes = set(), 0, set()
for line in open(path):
    pieces = [square(name) for name in line.split()]
    sizes.add(len(pieces))
    assert len(set(pieces)) == len(pieces) and dominates(pieces), line
    orbit = images(pieces)
    form = min(orbit)
    assert form not in classes, f"two lines in one class: {line}"
    classes.add(form)
    placements += len(orbit)
print(f"{len(classes)} classes of dominating placements of {sizes} {piece}s,",
      f"standing for {placements}")
