import threading

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


@pytest.fixture
def live_server(make_app):
    """An app (jobs off) served on a free loopback port in this process: its test client
    and its base URL, for what must fetch over HTTP (``chessdom certificate check URL``)."""
    app = make_app(run_jobs=False)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app.test_client(), f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
