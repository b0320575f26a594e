"""Check a file of queen placements, one per line ("a1 h5 ..."), on an n×n board: each
dominates the board, no two are images of each other under the board's 8 symmetries;
prints the classes and the placements they stand for (the sum of the orbits)."""
import sys

n, path = int(sys.argv[1]), sys.argv[2]


def square(name):  # "h5" -> (column, row), 0-based
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def dominates(queens):
    return all(
        any(x == qx or y == qy or abs(x - qx) == abs(y - qy) for qx, qy in queens)
        for x in range(n) for y in range(n)
    )


def images(queens):
    m = n - 1
    maps = [lambda x, y: (x, y), lambda x, y: (m - x, y), lambda x, y: (x, m - y),
            lambda x, y: (m - x, m - y), lambda x, y: (y, x), lambda x, y: (m - y, x),
            lambda x, y: (y, m - x), lambda x, y: (m - y, m - x)]
    return {tuple(sorted(f(x, y) for x, y in queens)) for f in maps}


classes, placements, sizes = set(), 0, set()
for line in open(path):
    queens = [square(name) for name in line.split()]
    sizes.add(len(queens))
    assert len(set(queens)) == len(queens) and dominates(queens), line
    orbit = images(queens)
    form = min(orbit)
    assert form not in classes, f"two lines in one class: {line}"
    classes.add(form)
    placements += len(orbit)
print(f"{len(classes)} classes of dominating placements of {sizes} queens,",
      f"standing for {placements}")
