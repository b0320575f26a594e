"""The amazon (queen + knight), chancellor (rook + knight) and archbishop (bishop + knight):
declared once in ``chessboard/pieces.py`` and then answered everywhere — attack sets,
every objective by every engine, counts, HTTP, the command line, the library and
certificates — judged against a rule written out by hand here from the chess definitions."""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations

import pytest

from chessdom.api.responses import PieceList

from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, Status, attack_table, check_placement
from chessdom.chessboard import parse_square, render_text, square_names
from chessdom.cli import main
from chessdom.library import solve_placement
from chessdom.models import count_placements, solve
from chessdom.native_search.paths import attacked_squares

COMPOUNDS = (Piece.AMAZON, Piece.CHANCELLOR, Piece.ARCHBISHOP)

# From b2 of the 5×5 board, written out square by square.
QUEEN_FROM_B2 = {"a2", "c2", "d2", "e2", "b1", "b3", "b4", "b5", "a1", "c3", "d4", "e5", "a3", "c1"}
ROOK_FROM_B2 = {"a2", "c2", "d2", "e2", "b1", "b3", "b4", "b5"}
BISHOP_FROM_B2 = {"a1", "c3", "d4", "e5", "a3", "c1"}
KNIGHT_FROM_B2 = {"a4", "c4", "d3", "d1"}
FROM_B2 = {
    Piece.AMAZON: QUEEN_FROM_B2 | KNIGHT_FROM_B2,
    Piece.CHANCELLOR: ROOK_FROM_B2 | KNIGHT_FROM_B2,
    Piece.ARCHBISHOP: BISHOP_FROM_B2 | KNIGHT_FROM_B2,
}


def attacks_by_hand(piece: Piece, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The chess definition, not the declaration: a knight's jump, or a line the piece rides."""
    dr, df = abs(a[0] - b[0]), abs(a[1] - b[1])
    if dr == df == 0:
        return False
    if {dr, df} == {1, 2}:
        return True
    along_rank_or_file, along_diagonal = dr == 0 or df == 0, dr == df
    return {Piece.AMAZON: along_rank_or_file or along_diagonal, Piece.CHANCELLOR: along_rank_or_file,
            Piece.ARCHBISHOP: along_diagonal}[piece]


@cache
def neighbourhoods(piece: Piece, n: int) -> tuple[int, ...]:
    """Bit t of entry s: a piece on s attacks t, by :func:`attacks_by_hand`."""
    squares = [divmod(s, n) for s in range(n * n)]
    return tuple(sum(1 << t for t, b in enumerate(squares) if attacks_by_hand(piece, a, b)) for a in squares)


def independent_sets(piece: Piece, n: int):
    """Every independent set (as a bitmask and its size), each once."""
    attacked = neighbourhoods(piece, n)

    def grow(start: int, chosen: int, blocked: int, size: int):
        yield chosen, size
        for square in range(start, n * n):
            if not blocked >> square & 1:
                yield from grow(square + 1, chosen | 1 << square, blocked | attacked[square] | 1 << square, size + 1)

    yield from grow(0, 0, 0, 0)


def covered(piece: Piece, n: int, chosen: int, closed: bool) -> bool:
    union = chosen if closed else 0
    for square, attacked in enumerate(neighbourhoods(piece, n)):
        if chosen >> square & 1:
            union |= attacked
    return union == (1 << n * n) - 1


@cache
def by_hand(piece: Piece, n: int, objective: Objective) -> tuple[int | None, int]:
    """The optimum on the n×n board and how many placements reach it, by trying them all
    (None: no placement at all, as for total domination of one square)."""
    if objective in (Objective.INDEPENDENCE, Objective.INDEPENDENT_DOMINATION):
        sizes = [size for chosen, size in independent_sets(piece, n)
                 if objective is Objective.INDEPENDENCE or covered(piece, n, chosen, closed=True)]
        best = max(sizes) if objective is Objective.INDEPENDENCE else min(sizes)
        return best, sizes.count(best)
    closed = objective is Objective.DOMINATION
    for size in range(1, n * n + 1):
        found = sum(covered(piece, n, sum(1 << s for s in squares), closed) for squares in combinations(range(n * n), size))
        if found:
            return size, found
    return None, 0


@pytest.mark.parametrize("piece", COMPOUNDS, ids=lambda piece: piece.value)
def test_a_compound_piece_attacks_its_lines_and_its_knight_jumps_from_b2(piece):
    board = Board.square(5)
    b2 = parse_square(board, "b2")
    assert set(square_names(board, attack_table(board, piece).lists[b2])) == FROM_B2[piece]
    assert set(square_names(board, check_placement(board, piece, [b2]).undominated)) == (
        set(square_names(board, board.squares())) - FROM_B2[piece] - {"b2"})
    assert set(square_names(board, attacked_squares(board, piece, b2, set()))) == FROM_B2[piece]


@pytest.mark.parametrize("piece", COMPOUNDS, ids=lambda piece: piece.value)
def test_every_objective_by_every_engine_matches_trying_every_placement_up_to_six(piece):
    for n in range(1, 7):
        for objective in Objective:
            problem = PlacementProblem(Board.square(n), piece, objective)
            expected, _ = by_hand(piece, n, objective)
            engines = ["cpsat", "sat", "auto"] + (["bnb"] if objective is not Objective.INDEPENDENCE else [])
            for engine in engines:
                result = solve(problem, solver=engine)
                if expected is None:
                    assert result.status is Status.INFEASIBLE, f"{problem} by {engine}"
                else:
                    assert (result.value, result.optimal, result.verified) == (expected, True, True), f"{problem} by {engine}"


@pytest.mark.parametrize("piece", COMPOUNDS, ids=lambda piece: piece.value)
def test_optimal_placements_are_counted_as_trying_every_placement_counts_them(piece):
    for n in (4, 5, 6):
        for objective in Objective:
            problem = PlacementProblem(Board.square(n), piece, objective)
            value, expected = by_hand(piece, n, objective)
            for method in ("sat", "cpsat"):
                count = count_placements(problem, value, method=method)
                assert (count.solutions, count.exact) == (expected, True), f"{problem} by {method}"


def test_the_diagram_draws_an_amazon_as_its_letter(capsys):
    board = Board.square(5)
    diagram = render_text(board, Piece.AMAZON, [parse_square(board, "b2")])
    assert diagram.split("legend:")[0].count("A") == 1


def test_the_service_answers_amazon_domination_independence_and_verify(client):
    gamma = client.post("/domination", json={"size": 5, "piece": "amazon"}).get_json()
    assert (gamma["value"], gamma["optimal"], gamma["verified"]) == (by_hand(Piece.AMAZON, 5, Objective.DOMINATION)[0],
                                                                     True, True)
    beta = client.post("/independence", json={"size": 5, "piece": "chancellor", "solver": "sat"}).get_json()
    assert beta["value"] == by_hand(Piece.CHANCELLOR, 5, Objective.INDEPENDENCE)[0]
    check = client.post("/verify", json={"size": 5, "piece": "archbishop", "placement": ["b2"]}).get_json()
    assert set(check["undominated"]) == set(square_names(Board.square(5), range(25))) - FROM_B2[Piece.ARCHBISHOP] - {"b2"}
    refused = client.post("/domination", json={"size": 5, "piece": "nightrider"})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "piece"


def test_the_service_documents_and_serves_every_declared_piece(client):
    enum = client.get("/openapi.json").get_json()["components"]["schemas"]["DominationRequest"]["properties"]["piece"]
    assert set(enum["enum"]) == {piece.value for piece in Piece}
    table = client.get("/lab/pieces.json").get_json()
    served = {piece["name"]: piece for piece in table["pieces"]}
    assert list(served) == [piece.value for piece in Piece]
    documented = client.get("/openapi.json").get_json()["paths"]["/lab/pieces.json"]["get"]["responses"]["200"]
    assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/PieceList")
    assert PieceList.model_validate(table).model_dump(exclude_unset=True) == table  # the table is what it says
    amazon = served["amazon"]
    assert (amazon["letter"], amazon["names"]["hu"]["instrumental"]) == ("A", "amazonnal")
    assert sorted(map(tuple, amazon["leaps"])) == sorted((dr, df) for dr in (-2, -1, 1, 2) for df in (-2, -1, 1, 2)
                                                         if abs(dr) != abs(df))
    assert len(amazon["slides"]) == 8 and served["knight"]["slides"] == []


def test_the_command_line_solves_five_amazons(capsys):
    assert main(["solve", "amazon", "5", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["optimal"]) == (by_hand(Piece.AMAZON, 5, Objective.DOMINATION)[0], True)


def test_the_library_solves_chancellors_and_names_the_new_pieces_when_refusing():
    result = solve_placement("chancellor", 5, variant="independent")
    assert result.value == by_hand(Piece.CHANCELLOR, 5, Objective.INDEPENDENT_DOMINATION)[0] and result.verified
    with pytest.raises(ValueError, match="amazon, chancellor, archbishop"):
        solve_placement("nightrider", 5)


@pytest.mark.parametrize("piece", COMPOUNDS, ids=lambda piece: piece.value)
def test_the_service_certifies_a_compound_piece_and_the_checker_accepts_it(client, piece):
    size = 6 if piece is Piece.AMAZON else 5  # one amazon dominates 5×5: no smaller bound to refute
    response = client.post("/domination", json={"size": size, "piece": piece.value, "certify": True, "time_limit": 30})
    answer = response.get_json()
    assert response.status_code == 200, answer
    assert answer["value"] == by_hand(piece, size, Objective.DOMINATION)[0]
    assert answer["certificate"]["checked"] is True, answer["certificate"]
