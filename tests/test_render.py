from chessdom.chessboard import Board, Piece, parse_squares, render_svg, render_text


def test_text_diagram_shows_pieces_attacks_and_coordinates():
    board = Board.square(3)
    text = render_text(board, Piece.ROOK, parse_squares(board, ["a1"]))
    assert text.splitlines() == [
        "3 + . .",
        "2 + . .",
        "1 R + +",
        "  a b c",
    ]


def test_text_diagram_numbers_a_path():
    board = Board(3, 4)
    path = parse_squares(board, ["a1", "c2", "a3", "b1"])
    assert render_text(board, path=path).splitlines()[0] == "3 3 . . ."


def test_wide_boards_label_files_past_z():
    text = render_text(Board(1, 28))
    assert text.splitlines()[-1].split()[-2:] == ["aa", "ab"]


def test_svg_has_a_square_per_cell_and_a_glyph_per_piece():
    board = Board.square(4)
    svg = render_svg(board, Piece.QUEEN, [0, 10])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="piece"') == 2
    assert svg.count("<rect") == 16 + svg.count('class="attacked"')
