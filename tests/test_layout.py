"""The rooms keep their walls: the independent checker imports nothing else of chessdom,
and the runtime imports nothing of the HTTP layer or of the request models."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path, package: str) -> set[str]:
    """Every chessdom module ``path`` imports, relative imports resolved against ``package``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found |= {f"{base}.{alias.name}" for alias in node.names} | {base}
    return {name for name in found if name.startswith("chessdom")}


def modules_under(folder: str, package: str):
    for path in sorted((ROOT / folder).rglob("*.py")):
        yield path, package


@pytest.mark.parametrize("path,package", list(modules_under("src/chessdom/certificates", "chessdom.certificates")),
                         ids=lambda value: getattr(value, "name", ""))
def test_the_certificate_checker_imports_nothing_else_of_chessdom(path, package):
    outside = {name for name in imported_modules(path, package) if not name.startswith("chessdom.certificates")}
    assert outside == set(), f"{path.name} imports {outside}: the checker must share no code with the solver"


@pytest.mark.parametrize("path,package", list(modules_under("api/runtime", "chessdom.api.runtime")),
                         ids=lambda value: getattr(value, "name", ""))
def test_the_runtime_does_not_reach_up_into_http(path, package):
    upward = {name for name in imported_modules(path, package)
              if name.startswith(("chessdom.api.http", "chessdom.api.kinds", "chessdom.api.requests",
                                  "chessdom.api.responses"))}
    assert upward == set(), f"{path.name} imports {upward}"


def test_every_package_folder_is_in_the_wheel():
    """A package missing from pyproject's list works in the editable checkout and is absent
    from the wheel (``chessdom.cli`` was, once: the installed command could not start)."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for package, folder in setuptools["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *relative)))
    assert found - listed == set()
