from chessdom.chessboard import Board, Piece, parse_squares, render_svg, render_text


def test_text_diagram_shows_pieces_attacks_and_coordinates():
    board = Board.square(3)
    text = render_text(board, Piece.ROOK, parse_squares(board, ["a1"]))
    assert text.splitlines() == [
        "3 + . .",
        "2 + . .",
        "1 R + +",
        "  a b c",
        "legend: R rook; + attacked by a rook; . not attacked",
    ]


def test_text_diagram_numbers_a_path():
    board = Board(3, 4)
    path = parse_squares(board, ["a1", "c2", "a3", "b1"])
    assert render_text(board, path=path).splitlines()[0] == "3 3 . . ."


def test_wide_boards_label_files_past_z():
    text = render_text(Board(1, 28))
    assert text.splitlines()[-2].split()[-2:] == ["aa", "ab"]


def test_blocked_squares_enemies_and_what_they_attack_are_marked_and_explained():
    board = Board.square(3)
    text = render_text(board, path=parse_squares(board, ["a1", "c2"]), blocked=parse_squares(board, ["b2"]),
                       enemies=[(Piece.ROOK, parse_squares(board, ["a3"])[0])],
                       forbidden=parse_squares(board, ["b3", "c3"]))
    assert text.splitlines() == [
        "3 r x x",
        "2 . # 2",
        "1 1 . .",
        "  a b c",
        "legend: 1…2 the path in move order; r enemy rook; # blocked; x attacked by an enemy; . free",
    ]


def test_svg_has_a_square_per_cell_and_a_glyph_per_piece():
    board = Board.square(4)
    svg = render_svg(board, Piece.QUEEN, [0, 10])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="piece"') == 2
    assert svg.count("<rect") == 16 + svg.count('class="attacked"')
