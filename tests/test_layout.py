"""The rooms keep their walls. Dependencies point one way (DESIGN.md, and
docs/explanation/layout.md):

    chessboard ← native_search ← models ← library ← atlas ← api, scripts ← cli

with ``chessdom.processes`` below them all and the independent certificate checker
(``chessdom.certificates``) standing apart, importing nothing else of chessdom. Within the
service, rooms import downward too:

    runtime ← requests, responses ← kinds ← http ← serving

(so the runtime imports nothing of the HTTP layer or of the request models, and only the
service's entry point imports the serving plumbing). Nothing but the command imports the
command. No import cycles, no module importing another's private names, and every package
folder in the wheel.

Imports are read from the source (every ``import`` statement, inside functions and
``TYPE_CHECKING`` blocks too); a module loaded by name at run time (``importlib``, a
worker pool's module name, the command's delegates) is not an import here."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import networkx
import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]

RANKS = {"checker": 0, "processes": 0, "chessboard": 1, "native_search": 2, "models": 3, "library": 4,
         "atlas": 5, "api": 6, "scripts": 6, "cli": 7}
"""A module imports its own layer and layers of lower rank only: so peers of one rank
(``api`` and ``scripts``; the checker and ``processes``) import nothing of each other. A
script that needs the service starts it as a process (``scripts/live_server.py`` runs
``python -m chessdom.api``); it never imports it."""

LAYERS = {
    "chessdom.certificates": "checker",
    "chessdom.processes": "processes",
    "chessdom.chessboard": "chessboard",
    "chessdom.native_search": "native_search",
    "chessdom.models": "models",
    # The package's face: ``chessdom.solve_placement`` is the library's, loaded lazily.
    "chessdom": "library",
    "chessdom.library": "library",
    # The dataset of proved values (issue 50): placed before it exists, so it is checked
    # from its first module on.
    "chessdom.atlas": "atlas",
    "chessdom.api": "api",
    "chessdom.scripts": "scripts",
    "chessdom.cli": "cli",
    # ``python -m chessdom``: the command's own entry point.
    "chessdom.__main__": "cli",
}


SERVICE_RANKS = {"runtime": 0, "requests": 1, "responses": 1, "kinds": 2, "http": 3, "serving": 4}
"""Within the service, by rank: runtime/ runs calls and imports nothing of the rest; the
request and response models; the registry of kinds; the HTTP layer; the serving plumbing
on top, which only ``python -m chessdom.api`` imports (``chessdom serve`` loads it by name)."""

SERVICE_LAYERS = {**{f"chessdom.api.{room}": room for room in SERVICE_RANKS}, "chessdom.api.__main__": "serving"}
"""The package ``chessdom.api`` itself, which re-exports the app factory, is the service's
face: it stands on the dependency line as the whole service does."""


def layer(module: str, layers: dict[str, str] = LAYERS) -> str | None:
    """The layer of a chessdom module (or of a name imported from it): that of its longest
    prefix in ``layers``."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in layers:
            return layers[".".join(parts[:end])]
    return None


def against(names: set[str], module: str, layers: dict[str, str], ranks: dict[str, int]) -> set[str]:
    """The ``names`` that ``module`` may not import: of a layer above its own, of a peer of
    its rank, or of no layer at all."""
    own = ranks[layer(module, layers)]
    return {name for name in names if layer(name, layers) != layer(module, layers)
            and (layer(name, layers) is None or ranks[layer(name, layers)] >= own)}


def imports_in(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every chessdom name the source of ``module`` imports, relative imports resolved:
    ``from a.b import c`` is ``a.b.c`` (a submodule or a name of ``a.b``, of its layer either way)."""
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name == "chessdom" or name.startswith("chessdom.")}


def upward_imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """What ``module`` imports against the dependency line."""
    return against(imports_in(source, module, is_package), module, LAYERS, RANKS)


def upward_in_the_service(source: str, module: str, is_package: bool = False) -> set[str]:
    """What a module of ``chessdom.api`` imports against the service's order of rooms."""
    names = {name for name in imports_in(source, module, is_package) if name.startswith("chessdom.api.")}
    return against(names, module, SERVICE_LAYERS, SERVICE_RANKS)


def command_imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """What a module outside the command imports of it."""
    if layer(module) == "cli":
        return set()
    return {name for name in imports_in(source, module, is_package) if layer(name) == "cli"}


def all_modules() -> list[tuple[str, Path]]:
    """Every module of the wheel, by import name (pyproject's package-dir mapping)."""
    modules = []
    for package, folder in SETUPTOOLS["package-dir"].items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.append((".".join((package, *parts)), path))
    return modules


MODULES = all_modules()


def sources(prefix: str = "chessdom", itself: bool = True):
    """``(module, source, is_package)`` of each module under ``prefix`` (and of ``prefix``
    itself, unless not ``itself``), for parametrize."""
    return [pytest.param(module, path.read_text(encoding="utf-8"), path.name == "__init__.py", id=module)
            for module, path in MODULES if (itself and module == prefix) or module.startswith(prefix + ".")]


def test_every_module_has_a_layer():
    """A new room is placed on the line before its first import is checked."""
    assert [module for module, _ in MODULES if layer(module) is None] == []


@pytest.mark.parametrize("module,source,is_package", sources())
def test_no_module_imports_against_the_dependency_line(module, source, is_package):
    upward = upward_imports(source, module, is_package)
    assert upward == set(), f"{module} ({layer(module)}) imports {upward} against the dependency line"


@pytest.mark.parametrize("module,source,is_package", sources())
def test_nothing_but_the_command_imports_the_command(module, source, is_package):
    assert command_imports(source, module, is_package) == set(), f"{module} imports chessdom.cli: run the command"


@pytest.mark.parametrize("module,source,is_package", sources("chessdom.certificates"))
def test_the_certificate_checker_imports_nothing_else_of_chessdom(module, source, is_package):
    outside = {name for name in imports_in(source, module, is_package) if layer(name) != "checker"}
    assert outside == set(), f"{module} imports {outside}: the checker must share no code with the solver"


def test_every_module_of_the_service_has_a_room():
    assert [module for module, _ in MODULES if module.startswith("chessdom.api.")
            and layer(module, SERVICE_LAYERS) is None] == []


@pytest.mark.parametrize("module,source,is_package", sources("chessdom.api", itself=False))
def test_the_service_rooms_import_downward_only(module, source, is_package):
    upward = upward_in_the_service(source, module, is_package)
    assert upward == set(), f"{module} imports {upward} against the service's order of rooms"


AGAINST_THE_LINE = [
    ("chessdom.chessboard.attacks", "from chessdom.models import solve"),
    ("chessdom.chessboard.attacks", "from .. import native_search"),
    ("chessdom.native_search.tours", "import chessdom.models.dispatch"),
    ("chessdom.native_search.tours", "from chessdom import solve_placement"),
    ("chessdom.models.dispatch.solve", "def f():\n    from chessdom.library import solve_placement"),
    ("chessdom.models.encodings", "if TYPE_CHECKING:\n    from chessdom.api.runtime.calls import Call"),
    ("chessdom.library", "from chessdom.atlas import reader"),
    ("chessdom.atlas.builder", "from chessdom.api.http.app import create_app"),
    ("chessdom.scripts.bench_peers", "from chessdom.api.runtime.store import Store"),
    ("chessdom.api.http.routes", "from chessdom.scripts.live_server import ServerProcess"),
    ("chessdom.api.kinds", "from chessdom.cli.solve import add_solve"),
    ("chessdom.processes.pool", "from chessdom.chessboard import Board"),
    ("chessdom.processes.pool", "from chessdom.certificates import check_certificate"),
    ("chessdom.certificates.check", "from chessdom.processes import WorkerPool"),
    ("chessdom.chessboard.render", "from chessdom.unplaced import anything"),
]
ALONG_THE_LINE = [
    ("chessdom.native_search.tours", "from chessdom.chessboard import Board"),
    ("chessdom.models.dispatch.solve", "from chessdom.native_search.branch_and_bound import solve\n"
                                       "from chessdom.processes import WorkerPool"),
    ("chessdom.models.certificates.make", "from chessdom.certificates import FORMULA"),
    ("chessdom.library", "from chessdom import models, native_search"),
    ("chessdom.atlas.builder", "from chessdom.library import solve_placement"),
    ("chessdom.api.runtime.tasks", "from chessdom import models, solve_placement"),
    ("chessdom.scripts.compare", "from chessdom.atlas import reader"),
    ("chessdom.cli.solve", "from chessdom.api.serving.server import main\nimport chessdom.scripts.compare"),
    ("chessdom.__main__", "from chessdom.cli import main"),
]


@pytest.mark.parametrize("module,source", AGAINST_THE_LINE)
def test_an_import_against_the_line_is_caught(module, source):
    """The check above fails on an upward import added on purpose."""
    assert upward_imports(source, module) != set()


@pytest.mark.parametrize("module,source", ALONG_THE_LINE)
def test_an_import_along_the_line_passes(module, source):
    assert upward_imports(source, module) == set()


@pytest.mark.parametrize("module,source,caught", [
    ("chessdom.api.runtime.service", "from chessdom.api.http.answers import to_json", True),
    ("chessdom.api.runtime.tasks", "from chessdom.api.requests import DominationRequest", True),
    ("chessdom.api.requests.fields", "from chessdom.api.responses import Certificate", True),
    ("chessdom.api.kinds", "from chessdom.api.http.errors import ProblemDetail", True),
    ("chessdom.api.http.routes", "from chessdom.api.serving.response_socket import ResponseSocket", True),
    ("chessdom.api.kinds", "from chessdom.api.calls import Call", True),
    ("chessdom.api.serving.server", "from chessdom.api.http.app import create_app\n"
                                    "from chessdom.api.runtime.store import Store", False),
    ("chessdom.api.http.routes", "from chessdom.api import kinds, requests\nfrom chessdom.api.runtime import calls", False),
    ("chessdom.api.__main__", "from chessdom.api.serving.server import main", False),
    ("chessdom.api.runtime.tasks", "from chessdom import models\nfrom chessdom.api.runtime.answer import Answer", False),
])
def test_an_import_against_the_services_order_is_caught(module, source, caught):
    assert (upward_in_the_service(source, module) != set()) is caught


def test_a_module_importing_the_command_is_caught():
    # scripts/readme_examples.py did, once; now it runs ``python -m chessdom``.
    assert command_imports("from chessdom.cli import main", "chessdom.scripts.readme_examples") == {
        "chessdom.cli.main"}
    assert command_imports("from chessdom.cli import main", "chessdom.__main__") == set()


def import_graph() -> dict[str, set[str]]:
    """Each module's imports of other chessdom modules (a name imported from a module
    stands for that module)."""
    names = {module for module, _ in MODULES}

    def module_of(name: str) -> str:
        while name and name not in names:
            name = name.rpartition(".")[0]
        return name

    graph = {}
    for module, path in MODULES:
        imported = imports_in(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
        graph[module] = {module_of(name) for name in imported} - {"", module}
    return graph


def cycles(graph: dict[str, set[str]], packages: set[str]) -> list[list[str]]:
    """The import cycles of ``graph``, but for a package's ``__init__`` and the modules it
    re-exports (one idea, not a knot)."""
    def one_package(component: set[str]) -> bool:
        return any(all(module == package or module.startswith(package + ".") for module in component)
                   for package in component & packages)

    components = networkx.strongly_connected_components(networkx.DiGraph(
        [(module, imported) for module, imports in graph.items() for imported in imports]))
    return [sorted(component) for component in components if len(component) > 1 and not one_package(component)]


def test_no_import_cycle():
    packages = {module for module, path in MODULES if path.name == "__init__.py"}
    assert cycles(import_graph(), packages) == []


def test_a_cycle_is_caught_and_a_package_with_its_modules_is_not():
    graph = {"chessdom.models.a": {"chessdom.models.b"}, "chessdom.models.b": {"chessdom.models.a"},
             "chessdom.api": {"chessdom.api.app"}, "chessdom.api.app": {"chessdom.api"}}
    assert cycles(graph, {"chessdom.api"}) == [["chessdom.models.a", "chessdom.models.b"]]


def private_imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """The names starting with one underscore that ``module`` imports from another module."""
    return {name for name in imports_in(source, module, is_package)
            if name.rpartition(".")[2].startswith("_") and not name.rpartition(".")[2].startswith("__")
            and name.rpartition(".")[0] != module}


@pytest.mark.parametrize("module,source,is_package", sources())
def test_no_module_imports_another_modules_private_names(module, source, is_package):
    assert private_imports(source, module, is_package) == set()


def test_a_private_import_is_caught():
    assert private_imports("from chessdom.models.dispatch.solve import _backend", "chessdom.library") == {
        "chessdom.models.dispatch.solve._backend"}
    assert private_imports("from chessdom.chessboard import __version__", "chessdom.library") == set()


def test_every_package_folder_is_in_the_wheel():
    """A package missing from pyproject's list works in the editable checkout and is absent
    from the wheel (``chessdom.cli`` was, once: the installed command could not start)."""
    listed = set(SETUPTOOLS["packages"])
    found = set()
    for package, folder in SETUPTOOLS["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *relative)))
    assert found - listed == set()
