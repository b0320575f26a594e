"""``bench_models`` options: a bad value is one line naming the option, exit status 2, and
nothing runs (no row runs with a cap its job could not have)."""

import pytest

from chessdom.scripts.bench_models import main

BAD = [
    (["--rows", "queen-domination:15", "--cap", "0"], "--cap", "a positive number"),
    (["--cap", "inf"], "--cap", "a positive number"),
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


@pytest.mark.e2e
def test_a_cap_past_the_services_job_limit_is_refused_before_any_row_runs(capsys):
    """The service's own limit, read from its OpenAPI document once it is up."""
    with pytest.raises(SystemExit) as exit:
        main(["--rows", "queen-domination:15", "--cap", "4200"])
    captured = capsys.readouterr()
    assert exit.value.code == 2
    assert "argument --cap: --rows runs jobs, whose time limit is at most 3600 s" in captured.err.splitlines()[-1]
    assert not [line for line in captured.err.splitlines() if line.startswith("{")], "no row may run"
