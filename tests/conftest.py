import pytest

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
