"""``bench_models`` options: a bad value is one line naming the option, exit status 2, and
nothing runs (no server is started for rows a job could not run)."""

import pytest

from chessdom.api.requests import JOB_MAX_TIME_LIMIT
from chessdom.scripts.bench_models import main

BAD = [
    (["--rows", "queen-domination:15", "--cap", str(JOB_MAX_TIME_LIMIT + 600)], "--cap", "at most"),
    (["--rows", "queen-domination:15", "--cap", "0"], "--cap", "above 0"),
    (["--rows", "rook-domination:8"], "--rows", "expected FAMILY:N"),
    (["--engines", "fast"], None, "unknown engine 'fast'"),
    (["--scaling", "rook-domination:8"], "--scaling", "expected N or FAMILY:N"),
    (["--scaling", "queen-independent:"], "--scaling", "expected N or FAMILY:N"),
    (["--scaling", "0"], "--scaling", "expected N or FAMILY:N"),
]


@pytest.mark.parametrize(("argv", "option", "message"), BAD, ids=[" ".join(argv) for argv, _, _ in BAD])
def test_a_bad_option_is_one_line_and_exit_2(capsys, argv, option, message):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    captured = capsys.readouterr()
    error = captured.err.splitlines()[-1]
    assert exit.value.code == 2 and message in error
    assert option is None or f"argument {option}: " in error
    assert "Traceback" not in captured.err and "load average" not in captured.out, "nothing may run first"
