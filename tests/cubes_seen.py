"""Whether a placement lies in a cube: the test-side reading of a cube's constraints."""


def satisfies(cube, placement) -> bool:
    placed = set(placement)
    return (
        placed.issuperset(cube.occupied) and not placed.intersection(cube.empty)
        and all(len(placed.intersection(region)) == count for region, count in cube.counts)
    )
