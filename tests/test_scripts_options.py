"""``chessdom compare`` options: every bad value and every option a kind does not read is
one line on standard error naming the option, exit status 2, and nothing runs."""

import pytest

from chessdom.chessboard import Board, Piece
from chessdom.scripts.compare import main
from chessdom.scripts.sweep.options import OptionError, parse_sizes, sweep_options

BAD = [
    (["domination", "--sizes", "4-x"], "--sizes", "'4-x' is not a size"),
    (["domination", "--sizes", "9-4"], "--sizes", "runs backwards"),
    (["domination", "--sizes", "0"], "--sizes", "between 1 and"),
    (["domination", "--sizes", ","], "--sizes", "no board sizes"),
    (["domination", "--pieces", "quen"], "--pieces", "'quen' is not a piece"),
    (["domination", "--variants", "plain,perfect"], "--variants", "'perfect' is not a variant"),
    (["domination", "--time-limit", "-1"], "--time-limit", "positive"),
    (["domination", "--time-limit", "nan"], "--time-limit", "positive"),
    (["nqueens", "--time-limit", "soon"], "--time-limit", "'soon' is not a number"),
    (["tours", "--node-limit", "1.5"], "--node-limit", "not a whole number"),
    (["paths", "--instances", "0"], "--instances", "at least 1"),
    (["nqueens", "--seed", "-3"], "--seed", "between 0 and"),
    (["domination", "--jobs", "0"], "--jobs", "at least 1"),
    (["tours", "--pieces", "queen"], "--pieces", "does not apply to tours (only to domination)"),
    (["paths", "--time-limit", "5"], "--time-limit", "does not apply to paths (only to domination and nqueens)"),
    (["domination", "--starts", "a1"], "--starts", "does not apply to domination"),
    (["nqueens", "--closed"], "--closed", "does not apply to nqueens"),
    (["domination", "--columns", "cpsat,speed"], "--columns", "'speed' is neither a method nor a measure"),
    (["domination", "--columns", "mip"], "--columns", "'mip' is a method this sweep does not run: add it to --methods"),
    (["domination", "--methods", "cpsat,scip"], "--methods", "'scip' is not a method of domination"),
    (["domination", "--methods", ","], "--methods", "is empty"),
    (["tours", "--methods", "dfs"], "--methods", "does not apply to tours, which runs every method"),
    (["domination", "--format", "json", "--columns", "cpsat"], "--columns", "json has every field"),
    (["domination", "--caption", "Queens"], "--caption", "latex only"),
    (["domination", "--style", "ggplot"], "--style", "--plot only"),
    (["domination", "--plot", "figure.jpg"], "--plot", "must end in .png, .pdf, .svg"),
    (["domination", "--plot", "{tmp}/a-file/figure.png"], "--plot", "cannot create the folder"),
    (["domination", "--plot", "figure.png", "--style", "no-such-style"], "--style", "neither a matplotlib style"),
    (["tours", "--sizes", "5", "--starts", "a1,f6"], "--starts", "f6"),
    (["nqueens", "--sizes", "5x6"], "--sizes", "square boards"),
    (["paths", "--sizes", "1x5"], "--sizes", "two ranks"),
]


@pytest.mark.parametrize(("argv", "option", "message"), BAD, ids=[" ".join(argv) for argv, _, _ in BAD])
def test_a_bad_option_is_one_line_naming_it_and_exit_2(tmp_path, capsys, argv, option, message):
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(SystemExit) as exit:
        main([*(arg.format(tmp=tmp_path) for arg in argv), "--data", str(tmp_path / "var")])
    error = capsys.readouterr().err
    assert exit.value.code == 2
    assert error.count("\n") == 1 and f"argument {option}: " in error and message in error
    assert f"{option}: {option[2:].replace('-', '_')}:" not in error, "the option is named once"
    assert "Traceback" not in error and "invalid literal" not in error
    assert not (tmp_path / "var").exists(), "nothing may run before the options are checked"


def test_sizes_read_like_ranges_lists_and_rectangles():
    assert parse_sizes("4-6") == (Board(4, 4), Board(5, 5), Board(6, 6))
    assert parse_sizes("8, 4,8,3x4,3×4") == (Board(8, 8), Board(4, 4), Board(3, 4))
    assert parse_sizes(range(4, 6)) == parse_sizes([4, "5"]) == (Board(4, 4), Board(5, 5))
    assert parse_sizes([(5, 6)]) == (Board(5, 6),)


def test_python_values_and_command_line_text_give_the_same_options():
    assert sweep_options("domination", sizes=range(4, 9), pieces=["queen", "knight"], time_limit=20) == \
        sweep_options("domination", sizes="4-8", pieces="queen,knight", time_limit="20")
    options = sweep_options("tours", starts="a1,c3", closed=True, node_limit=1000)
    assert options.starts == ("a1", "c3") and options.closed and options.node_limit == 1000
    assert sweep_options("domination", pieces="queen,queen").pieces == (Piece.QUEEN,)


def test_defaults_apply_only_to_the_options_a_kind_reads():
    options = sweep_options("domination")
    assert options.pieces == (Piece.QUEEN,) and options.variants == ("plain",) and options.time_limit == 60
    assert options.to_dict() == {"kind": "domination", "boards": ["4x4", "5x5", "6x6", "7x7", "8x8"],
                                 "pieces": ["queen"], "variants": ["plain"], "time_limit": 60.0, "seed": 0}


def test_an_option_error_names_the_option_by_its_python_name():
    with pytest.raises(OptionError) as error:
        sweep_options("nqueens", instances=3)
    assert error.value.option == "instances" and str(error.value).startswith("instances: does not apply")


def test_the_folders_for_the_table_and_the_figure_are_made(tmp_path):
    out, plot = tmp_path / "tables" / "q.md", tmp_path / "figures" / "q.svg"
    assert main(["nqueens", "--sizes", "4", "--data", str(tmp_path / "var"), "--quiet", "--out", str(out),
                 "--plot", str(plot)]) == 0
    assert out.read_text().count("| 4 ") == 1 and plot.read_bytes().startswith(b"<?xml")
