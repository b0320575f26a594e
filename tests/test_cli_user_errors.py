"""What users trip on: a time limit of infinity, a port out of range or in use, a data
directory that cannot be, a board past the limit of the problem asked, an output whose
optional package is missing, a status line's first bound and a notebook board's legend.
Every mistake is one line on standard error with exit status 2 — never a traceback — and
the library says the same as a ValueError naming the argument."""

import fcntl
import os
import pty
import re
import socket
import struct
import subprocess
import sys
import termios

import pytest

from chessdom import library, models, native_search, solve_nqueens, solve_placement
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem, parse_squares, render_svg, render_text
from chessdom.chessboard.board import MAX_SIDE as BOARD_MAX_SIDE
from chessdom.cli.status import StatusWords
from chessdom.native_search.nqueens import MAX_KERNEL_SIZE
from chessdom.scripts.sweep.options import OptionError, sweep_options


def chessdom(*argv, hide: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """``python -m chessdom ARGV``; with ``hide``, as if those installed packages were missing."""
    if not hide:
        command = [sys.executable, "-m", "chessdom", *argv]
    else:
        missing = "".join(f"sys.modules[{name!r}] = None; " for name in hide)
        command = [sys.executable, "-c", f"import sys; {missing}from chessdom.cli import main; sys.exit(main())", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def assert_usage_error(completed: subprocess.CompletedProcess, *words: str) -> str:
    """Exit status 2, one line on stderr holding ``words``, no traceback; the line."""
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


# 1. Time limits: a positive number of seconds up to a year, or none at all.

@pytest.mark.parametrize(("command", "seconds"), [
    *((["solve", "queen", "8"], seconds) for seconds in ("inf", "1e12", "nan", "-1", str(library.MAX_TIME_LIMIT + 1))),
    (["nqueens", "8"], "inf"),
    (["nqueens", "8", "--method", "cpsat"], "1e12"),
    (["compare", "nqueens", "--sizes", "4"], "inf"),
])
def test_a_time_limit_of_infinity_or_past_a_year_is_one_line_naming_it(command, seconds, tmp_path):
    store = ["--data", str(tmp_path)] if command[0] == "compare" else []
    completed = chessdom(*command, "--time-limit", seconds, *store)
    assert_usage_error(completed, "--time-limit", str(library.MAX_TIME_LIMIT))


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), 1e12, -1, 0, "10", True])
def test_the_library_refuses_a_time_limit_it_cannot_keep_naming_time_limit(seconds):
    with pytest.raises(ValueError, match="^time_limit: "):
        solve_placement("queen", 8, time_limit=seconds)
    with pytest.raises(ValueError, match="^time_limit: "):
        solve_nqueens(8, time_limit=seconds)


def test_the_longest_time_limit_is_kept_by_every_solver_that_sets_a_timer():
    # A year must fit the timers that stop a solver child: the ones 1e12 overflowed.
    assert solve_placement("queen", 4, solver="sat", time_limit=library.MAX_TIME_LIMIT).value == 2
    assert solve_nqueens(8, time_limit=library.MAX_TIME_LIMIT).solution is not None


def test_a_sweep_refuses_the_time_limit_a_solve_refuses():
    with pytest.raises(OptionError, match="^time_limit: .*a year"):
        sweep_options("domination", time_limit=float("inf"))
    assert sweep_options("domination", time_limit=library.MAX_TIME_LIMIT).time_limit == library.MAX_TIME_LIMIT


def test_a_seed_past_cp_sats_32_bits_is_one_line_naming_it():
    assert_usage_error(chessdom("solve", "queen", "5", "--seed", str(library.MAX_SEED + 1)), "--seed")
    with pytest.raises(ValueError, match="^seed: "):
        solve_placement("queen", 5, seed=library.MAX_SEED + 1)


# 2. chessdom serve: a port it can listen on, a data directory it can write.

@pytest.fixture
def taken_port():
    """A loopback port something else listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


@pytest.mark.parametrize("option", ["--workers", "--threads", "--solver-slots"])
@pytest.mark.parametrize("number", ["0", "-2", "two"])
def test_no_server_processes_threads_or_slots_is_one_line_naming_the_option(option, number, tmp_path):
    # --workers 0 once started a server that never answered.
    assert_usage_error(chessdom("serve", option, number, "--data", str(tmp_path)), option, number)


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_a_port_out_of_range_is_one_line_naming_it(port, tmp_path):
    assert_usage_error(chessdom("serve", "--port", port, "--data", str(tmp_path)), "--port", "65535")


@pytest.mark.parametrize("data", ["/dev/null/x", "{file}", "{file}/inside"])
def test_a_data_directory_that_cannot_be_made_is_one_line_naming_it(data, tmp_path, taken_port):
    # On a port in use: were the directory taken, the server would still not start.
    file = tmp_path / "a-file"
    file.write_text("not a directory")
    completed = chessdom("serve", "--port", str(taken_port), "--data", data.format(file=file))
    assert_usage_error(completed, "--data", data.format(file=file).removesuffix("/inside"))


def test_a_port_in_use_is_said_at_once_as_a_failed_bind(tmp_path, taken_port):
    completed = chessdom("serve", "--port", str(taken_port), "--data", str(tmp_path / "data"))
    assert_usage_error(completed, f"chessdom serve: error: cannot listen on 127.0.0.1:{taken_port}", "--port")
    assert "Can't connect" not in completed.stdout + completed.stderr


# 3. Board sizes: the range each problem takes, from where its limit lives.

@pytest.mark.parametrize(("argv", "largest"), [
    (["solve", "queen", "0"], models.MAX_SIDE),
    (["solve", "queen", str(models.MAX_SIDE + 1)], models.MAX_SIDE),
    (["solve", "knight", f"8x{models.MAX_SIDE + 1}"], models.MAX_SIDE),
    (["tour", "0"], BOARD_MAX_SIDE),
    (["path", f"{BOARD_MAX_SIDE + 1}", "a1", "b3"], BOARD_MAX_SIDE),
    (["nqueens", "0"], BOARD_MAX_SIDE),
    (["nqueens", str(models.NQUEENS_MAX_SIZE + 1), "--method", "cpsat"], models.NQUEENS_MAX_SIZE),
    (["nqueens", str(MAX_KERNEL_SIZE + 1), "--mode", "count", "--time-limit", "1"], MAX_KERNEL_SIZE),
])
def test_a_size_out_of_range_states_the_range_that_problem_takes(argv, largest):
    line = assert_usage_error(chessdom(*argv), "argument SIZE" if argv[0] != "nqueens" else "argument N")
    assert re.search(rf"\b{largest}\b", line)
    if largest != BOARD_MAX_SIDE:
        assert str(BOARD_MAX_SIDE) not in line  # the board's own limit, which this problem never reaches


def test_the_library_states_the_models_range_too():
    for size in (0, models.MAX_SIDE + 1):
        with pytest.raises(ValueError, match=rf"^size: .*\b{models.MAX_SIDE}\b"):
            solve_placement("queen", size)


# 4. compare: a missing optional package is named before the sweep runs.

@pytest.mark.parametrize(("missing", "options", "named"), [
    ("matplotlib", ["--plot", "{tmp}/figure.png"], "--plot"),
    ("pandas", [], "--format"),
    ("jinja2", ["--format", "latex"], "--format"),
])
def test_a_missing_extra_is_exit_status_2_before_anything_runs(missing, options, named, tmp_path):
    store = tmp_path / "store"
    argv = ["compare", "nqueens", "--sizes", "4", "--data", str(store), *(o.format(tmp=tmp_path) for o in options)]
    completed = chessdom(*argv, hide=(missing,))
    assert_usage_error(completed, named, missing, "chessdom[compare]")
    assert completed.stdout == "" and not store.exists() and not (tmp_path / "figure.png").exists()


def test_json_needs_no_extra(tmp_path):
    completed = chessdom("compare", "nqueens", "--sizes", "4", "--format", "json", "--quiet", "--data", str(tmp_path),
                         hide=("pandas", "matplotlib"))
    assert completed.returncode == 0 and '"records"' in completed.stdout


# 5. The status line's first bound, and the notebook board's legend.

QUEENS_13 = PlacementProblem(Board.square(13), Piece.QUEEN, Objective.DOMINATION)


def test_the_first_placement_a_watcher_sees_is_the_greedy_baselines_and_none_is_worse():
    snapshots = []
    solve_placement("queen", 13, solver="sat", time_limit=3, on_progress=snapshots.append)
    greedy = native_search.greedy_placement(QUEENS_13).value
    uppers = [snapshot["upper_bound"] for snapshot in snapshots]
    assert uppers[0] == greedy and all(upper <= greedy for upper in uppers)


def test_a_bound_of_every_square_is_no_bound():
    words = StatusWords(QUEENS_13)
    assert words.update({"lower_bound": None, "upper_bound": 169}) == "bounds ?…?"
    independence = StatusWords(PlacementProblem(Board.square(8), Piece.QUEEN, Objective.INDEPENDENCE))
    assert independence.update({"lower_bound": 6, "upper_bound": 64, "cubes_total": 4, "cubes_done": 1}) == \
        "bounds 6…?, cubes 1/4"


def test_a_terminal_solve_of_thirteen_queens_shows_no_bound_worse_than_the_greedy_one():
    terminal, screen = pty.openpty()
    fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    command = [sys.executable, "-m", "chessdom", "solve", "queen", "13", "--time-limit", "2", "--json"]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=screen) as solving:
        os.close(screen)
        shown = bytearray()
        while chunk := _read_or_end(terminal):
            shown += chunk
    os.close(terminal)
    uppers = [int(upper) for upper in re.findall(r"bounds [?\d]+…(\d+)", shown.decode())]
    assert solving.returncode == 0 and uppers
    assert max(uppers) <= native_search.greedy_placement(QUEENS_13).value


def _read_or_end(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, 4096)
    except OSError:  # EIO: the child closed the terminal
        return b""


def test_the_notebook_board_has_the_legend_the_text_board_has():
    board = Board.square(3)
    rook = parse_squares(board, ["a1"])
    svg = render_svg(board, Piece.ROOK, rook)
    legend = svg[svg.index('<g class="legend">'):]
    text_legend = render_text(board, Piece.ROOK, rook).split("legend: ")[1]
    meanings = [entry.split(" ", 1)[1] for entry in text_legend.split("; ")]
    assert meanings == ["rook", "attacked by a rook", "not attacked"]
    assert re.findall(r">([a-z ]+)</text>", legend) == meanings


def test_a_result_in_jupyter_and_a_knights_path_say_what_they_show():
    assert "attacked by a king" in solve_placement("king", 3)._repr_svg_()
    board = Board(3, 4)
    assert "the path in move order" in render_svg(board, path=parse_squares(board, ["a1", "c2", "a3", "b1"]))
