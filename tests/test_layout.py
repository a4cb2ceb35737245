"""The house rules of docs/architecture.md, checked on the source: rooms import only downward,
no module imports itself round a cycle, the model imports nothing of ours, and importing
``pbntool.model`` (or ``pbntool``) loads neither lark, typer, lxml nor the rest of the package.
"""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from pbntool import _native

PACKAGE = Path(__file__).resolve().parent.parent / "pbntool"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("pbntool.model", "pbntool.notation", "pbntool._aliases", "pbntool._native"),
    ("pbntool.diagnostics",),
    ("pbntool.scoring",),
    ("pbntool.rules",),
    ("pbntool.records", "pbntool.deals"),
    ("pbntool.text",),
    ("pbntool.formats",),
    ("pbntool.tools",),
    ("pbntool.run",),
    ("pbntool.cli", "pbntool.dev", "pbntool.__main__"),
)
"""Rooms from the ground up: a module may import its own room and the rooms below it."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, bool]]:
    """The pbntool modules a file imports, each with whether it is imported at module level
    (not inside a function or under ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            here = top
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                here = False
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                here = False
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                if child.module.startswith("pbntool"):
                    found.append((child.module, top))
                    for alias in child.names:
                        found.append((f"{child.module}.{alias.name}", top))
            elif isinstance(child, ast.Import):
                found.extend((a.name, top) for a in child.names if a.name.startswith("pbntool"))
            visit(child, here)

    visit(tree, True)
    return found


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _known(name: str) -> str | None:
    """The module an imported name is (``pbntool.formats.pbn.parse`` is ``pbntool.formats.pbn``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _layer(module: str) -> int:
    for index, rooms in enumerate(LAYERS):
        if any(module == room or module.startswith(room + ".") for room in rooms):
            return index
    raise AssertionError(f"{module} is in no room of LAYERS (docs/architecture.md)")


def _graph(top_level_only: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        targets = set()
        for name, top in _imports(path):
            target = _known(name)
            if target and target != module and target != "pbntool" and (top or not top_level_only):
                targets.add(target)
        graph[module] = targets
    return graph


def test_every_module_is_in_a_room() -> None:
    for module in MODULES:
        if module != "pbntool":
            _layer(module)


def test_no_import_runs_up_a_layer() -> None:
    upward = [
        f"{module} imports {target}"
        for module, targets in _graph(top_level_only=False).items()
        if module != "pbntool"
        for target in targets
        if _layer(target) > _layer(module)
    ]
    assert upward == []


def test_no_library_module_imports_the_cli() -> None:
    offenders = [
        module
        for module, targets in _graph(top_level_only=False).items()
        if not module.startswith(("pbntool.cli", "pbntool.__main__"))
        and any(target.startswith("pbntool.cli") for target in targets)
    ]
    assert offenders == []


def test_no_import_cycle_between_modules() -> None:
    graph = _graph(top_level_only=True)
    # Packages import their submodules and submodules their package's siblings: a package's
    # own __init__ importing a child is not a cycle of the child's making.
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if target.startswith(module + "."):
                continue
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target] if target in path else [target]
                if not any(a.startswith(b + ".") for a, b in itertools.pairwise(cycle)):
                    cycles.append(" -> ".join(cycle))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_model_imports_nothing_of_ours() -> None:
    assert [name for name, _ in _imports(MODULES["pbntool.model"])] == []


@pytest.mark.parametrize("statement", ["import pbntool.model", "import pbntool"])
def test_importing_the_model_loads_nothing_else(statement: str) -> None:
    code = (
        f"{statement}; import sys; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pbntool', 'lark', 'typer', 'lxml', 'click', 'rich')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # pbntool._native decides whether the compiled modules load; compiled, the model's
    # code is in their one C library.
    start = ["pbntool", "pbntool._aliases", "pbntool._native"]
    model = ["pbntool.model"]
    if _native.STATE == "compiled":
        model.append("pbntool._compiled__mypyc")
    loaded = done.stdout.strip()
    assert loaded == str(sorted(start + model)) or (
        statement == "import pbntool" and loaded == str(sorted(start))
    )


def test_old_module_paths_still_import_with_a_warning() -> None:
    code = (
        "import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "try:\n    import pbntool.pbn.writer\nexcept DeprecationWarning as w: print(w)\n"
        "warnings.simplefilter('ignore')\n"
        "import pbntool.pbn.writer as old, pbntool.formats.pbn.writer as new\n"
        "from pbntool.event import compute\n"
        "print(old is new, new.__name__, compute.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "pbntool.pbn moved to pbntool.formats.pbn; import it from there"
    assert lines[1] == "True pbntool.formats.pbn.writer pbntool.tools.score.compute"


def test_the_public_api_is_reachable() -> None:
    import pbntool

    for name in pbntool.__all__:
        assert getattr(pbntool, name) is not None, name
    assert pbntool.pbn.parse is not None and pbntool.event.compute is not None


def test_detecting_a_format_imports_no_reader() -> None:
    """Every sniffer lives in a light module: detecting PBN must not import lxml or a BWS
    library (the readers are imported when an input of their format is read)."""
    code = (
        "import sys; from pbntool.formats import detect_format; "
        "print(detect_format(b'[Event \"x\"]'), "
        "sorted(m for m in sys.modules if m.split('.')[0] in ('lxml', 'access_parser')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "pbn []"


# What existed two or three times before the layout issue, and must stay defined once.
DEFINED_ONCE = {
    # constants
    "ALERT_NAG": "pbntool.notation",
    "CARDS_PER_HAND": "pbntool.notation",
    "TRICKS_PER_DEAL": "pbntool.notation",
    "EXIT_OK": "pbntool.run.report",
    "EXIT_FINDINGS": "pbntool.run.report",
    "EXIT_UNREADABLE": "pbntool.run.report",
    "UNREAD_CODES": "pbntool.diagnostics",
    # one codec rule, one line index, one write path, one minimal-edit engine, one tally
    "line_codec": "pbntool.text.source",
    "LineIndex": "pbntool.text.source",
    "encoding_record": "pbntool.text.source",
    "AtomicFile": "pbntool.text.edit",
    "atomic_write": "pbntool.text.edit",
    "LineEditor": "pbntool.text.lines",
    "Tally": "pbntool.run.report",
}


def _definitions() -> dict[str, list[str]]:
    """Every top-level name a module defines (a class, a function, an assignment), by the
    modules that define it."""
    found: dict[str, list[str]] = {}
    for module, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names: list[str] = []
            if isinstance(node, ast.ClassDef | ast.FunctionDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                targets = [
                    name
                    for target in node.targets
                    for name in (target.elts if isinstance(target, ast.Tuple) else [target])
                ]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            for name in names:
                # A private copy of a constant (_ALERT_NAG) is still a copy.
                key = name.lstrip("_") if name.lstrip("_").isupper() else name
                found.setdefault(key, []).append(module)
    return found


def test_what_was_copied_is_defined_once() -> None:
    definitions = _definitions()
    for name, owner in DEFINED_ONCE.items():
        assert definitions.get(name) == [owner], (name, definitions.get(name))


def test_no_module_spells_out_thirteen() -> None:
    """Cards per hand and tricks per deal come from pbntool.notation (the model's Rank.KING
    and PBN's list of call NAGs are not counts)."""
    allowed = {"pbntool.notation", "pbntool.model", "pbntool.formats.pbn.sections"}
    found = []
    for module, path in MODULES.items():
        if module in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and type(node.value) is int and node.value == 13:
                found.append(f"{module}:{node.lineno}")
    assert found == [], found
