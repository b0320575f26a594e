"""Counts are set beside the published counts (OEIS A002564/A002563 and the others in
``literature_counts.csv``) as values are beside the published values: reported, never used."""

from chessdom import models
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, SolutionCount
from chessdom.models.dispatch.literature import literature_count


def queens(n: int, objective=Objective.DOMINATION) -> PlacementProblem:
    return PlacementProblem(Board.square(n), Piece.QUEEN, objective)


def test_a_computed_count_of_queen_domination_agrees_with_oeis():
    result = models.solve(queens(6), count=True)
    published = result.count.literature
    assert (result.count.solutions, result.count.up_to_symmetry) == (4, 1)
    assert (published.solutions, published.up_to_symmetry, published.agrees) == (4, 1, True)
    assert "A002564" in published.source and "A002563" in published.source


def test_a_count_of_seven_non_attacking_queens_is_beside_the_n_queens_counts():
    result = models.solve(queens(7, Objective.INDEPENDENCE), count=True)
    assert (result.count.literature.solutions, result.count.literature.up_to_symmetry) == (40, 6)
    assert result.count.literature.agrees is True


def test_a_count_that_differs_in_its_classes_disagrees():
    published = literature_count(queens(8), SolutionCount(4860, 637, True)).literature
    assert published.agrees is False and published.up_to_symmetry == 638


def test_a_count_stopped_by_its_limit_is_not_compared():
    assert literature_count(queens(8), SolutionCount(4000, 500, False)).literature.agrees is None


def test_a_source_without_classes_compares_the_total_only():
    kings = PlacementProblem(Board.square(4), Piece.KING, Objective.DOMINATION)
    published = literature_count(kings, SolutionCount(256, 40, True)).literature
    assert published.up_to_symmetry is None and published.agrees is True and "A347554" in published.source


def test_rectangles_and_unlisted_problems_have_no_published_count():
    count = SolutionCount(3, 1, True)
    rectangle = PlacementProblem(Board(4, 5), Piece.QUEEN, Objective.DOMINATION)
    assert literature_count(rectangle, count).literature is None
    amazons = PlacementProblem(Board.square(5), Piece.AMAZON, Objective.DOMINATION)
    assert literature_count(amazons, count).literature is None


def test_the_service_answers_a_count_with_its_published_count(client):
    body = client.post("/domination", json={"size": 5, "piece": "queen", "count": True}).get_json()
    assert body["count"]["literature"] == {"solutions": 186, "up_to_symmetry": 37,
                                           "source": "OEIS A002564, A002563", "agrees": True}
