"""A partial proof never survives its solve: a certificate is written beside its directory
and renamed into place whole; a run cut short deletes what it wrote, and a staging
directory left by a process that was killed is deleted by the next certificate."""

import subprocess
import sys

import pytest

from chessdom.library import solve_placement
from chessdom.models.certificates import (
    CertificateUnavailable, CertifyOptions, make_certificate, sweep_partial_directories,
)


def test_a_certificate_cut_short_leaves_nothing_beside_its_directory(tmp_path):
    with pytest.raises(CertificateUnavailable):
        make_certificate(solve_placement("queen", 8), tmp_path / "q8", CertifyOptions(time_limit=0.05))
    assert list(tmp_path.iterdir()) == []


def test_cubes_cut_short_leave_nothing_either(tmp_path):
    with pytest.raises(CertificateUnavailable, match="time limit"):
        # Measured: its 35 cubes take 1.6 s in all, and none is refuted by 0.5 s (1.0 s was
        # sometimes enough, and the test failed).
        make_certificate(solve_placement("queen", 8), tmp_path / "q8", CertifyOptions(time_limit=0.3, split="always"))
    assert list(tmp_path.iterdir()) == []


def test_the_staging_directory_of_a_killed_maker_is_swept_by_the_next_certificate(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    left = tmp_path / f".abc.{int(dead.stdout)}.partial"
    left.mkdir()
    (left / "proof.drat").write_text("1 0\n")
    make_certificate(solve_placement("queen", 4), tmp_path / "q4", CertifyOptions(time_limit=60))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["q4"]


def test_a_live_makers_staging_directory_is_left_alone(tmp_path):
    mine = tmp_path / ".abc.1.partial"  # pid 1 is always alive
    mine.mkdir()
    assert sweep_partial_directories(tmp_path) == 0 and mine.exists()
