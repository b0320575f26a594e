"""``bench_models --rows``: a count row runs through a default server's job and prints the
count it computed beside the published one."""

import pytest

from chessdom.scripts.bench_models import main

pytestmark = pytest.mark.e2e


def test_count_rows_print_the_computed_count_beside_the_published_one(capsys):
    main(["--rows", "knight-count:5", "--rows", "queen-count:5", "--rows", "queen-independent-count:6", "--cap", "120",
          "--against", "none"])
    lines = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[1:-1]]
             for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "count:" in line}
    # γ(N_5) = 5 in 47 ways (8 up to symmetry); γ(Q_5) = 3 in 186 (37); i(Q_6) = 4 in 120:
    # OEIS A103315/A006076, A002564/A002563, A002568 (which gives no classes)
    assert lines["knight-count:5"][1] == "5" and lines["knight-count:5"][7:10] == ["47", "8", "47 (8)"]
    assert lines["queen-count:5"][1] == "3" and lines["queen-count:5"][7:10] == ["186", "37", "186 (37)"]
    independent = lines["queen-independent-count:6"]
    assert independent[1] == "4" and independent[7:10] == ["120", "17", "120"]
