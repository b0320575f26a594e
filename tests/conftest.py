import contextlib
import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from chessdom.api import create_app


@pytest.fixture
def make_app(tmp_path):
    """Build an app on a fresh data directory; extra keywords override settings."""
    apps = []

    def build(**overrides):
        overrides.setdefault("data_dir", tmp_path / "data")
        app = create_app(**overrides)
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["chessdom"].shutdown()  # its job runner and its worker processes


@pytest.fixture
def client(make_app):
    return make_app(run_jobs=False).test_client()


@contextlib.contextmanager
def serving(app):
    """``app`` served on a free loopback port in this process: its test client and base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app.test_client(), f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture
def live_server(make_app):
    """An app (jobs off) served on a free loopback port, for what must fetch over HTTP
    (``chessdom certificate check URL``)."""
    with serving(make_app(run_jobs=False)) as served:
        yield served


@pytest.fixture
def live_server_with_tokens(make_app):
    """The same, on a service with the one token ``s3cret``."""
    with serving(make_app(run_jobs=False, tokens=frozenset({"s3cret"}))) as served:
        yield served


@pytest.fixture(scope="session")
def site(tmp_path_factory, worker_id):
    """The documentation site, built strictly once per test run: the xdist workers share one
    build under a lock on the run's base directory (a build runs every example the verify
    how-to shows; under the suite's load it took 44–53 s, and each worker built its own)."""
    root = Path(__file__).resolve().parent.parent
    shared = tmp_path_factory.getbasetemp()
    shared = shared if worker_id == "master" else shared.parent
    site_dir, built = shared / "site", shared / "site.built"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not built.exists():
            _build_site(root, site_dir)
            built.touch()
    return site_dir


def _build_site(root: Path, site_dir: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(root / "mkdocs.yml"),
         "--site-dir", str(site_dir)],
        cwd=root, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert "WARNING" not in build.stderr, build.stderr
