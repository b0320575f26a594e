"""MkDocs hook: the Python reference reads chessdom as it is installed.

setuptools maps the repository's top-level folders (``chessboard/``, ``models/``, …) into
the ``chessdom`` namespace (``package-dir`` in pyproject.toml), so no folder of the
checkout is the package the reference documents, and the import system alone knows where
each part lives. This hook asks it, lays the namespace out in a temporary folder of
symbolic links, and hands that folder to mkdocstrings' Python handler as its search path.
Nothing is imported but ``chessdom``'s own (lazy) ``__init__``."""

from __future__ import annotations

import atexit
import importlib.util
import shutil
import tempfile
import tomllib
from pathlib import Path

from mkdocs.plugins import event_priority

NAMESPACE = "chessdom"


def _package_folder(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"{name} is not installed: run `make venv` first")
    return Path(next(iter(spec.submodule_search_locations)))


def installed_namespace(pyproject: Path) -> Path:
    """A folder holding ``chessdom/`` as an installed wheel would: the root package's
    files, and every package the import system maps beside them."""
    packages = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    root = Path(tempfile.mkdtemp(prefix="chessdom-docs-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    namespace = root / NAMESPACE
    namespace.mkdir()
    for entry in _package_folder(NAMESPACE).iterdir():
        if entry.name != "__pycache__":
            (namespace / entry.name).symlink_to(entry)
    for name in packages:
        parent, _, child = name.rpartition(".")
        if parent == NAMESPACE and not (namespace / child).exists():
            (namespace / child).symlink_to(_package_folder(name))
    return root


# Before mkdocstrings' own on_config, which builds the handler with its search paths.
@event_priority(100)
def on_config(config):
    handlers = config.plugins["mkdocstrings"].config.handlers
    python = handlers.setdefault("python", {})
    python["paths"] = [str(installed_namespace(Path(config.config_file_path).parent / "pyproject.toml"))]
    return config
