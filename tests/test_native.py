"""The compiled modules (mypyc) and the pure-Python fallback.

``pbntool._native`` lets the compiled modules load only while they match their sources;
``pbntool.dev.native_build`` builds and removes them.  The comparison at the end runs the
real CLI over the corpus both ways (compiled, and ``PBNTOOL_PURE=1``) and asks for the same
bytes: the findings of every board and every converted record.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import importlib.machinery
import importlib.util
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS, REPO

from pbntool import _native
from pbntool.dev import native_build
from pbntool.formats import read_input
from pbntool.records import validate_record
from pbntool.text.inputs import Input

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
COMPILED = _native.STATE == "compiled"


def _copy_sources(tmp_path: Path) -> Path:
    """The sources of the compiled modules, in a package folder of their own."""
    package = tmp_path / "pbntool"
    for module in _native.COMPILED_MODULES:
        source = _native.source_path(module)
        target = package / source.relative_to(REPO / "pbntool")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return package


def _stamp(package: Path, **changes: object) -> None:
    record = {
        "abi": _native.abi_tag(),
        "sources": _native.source_hashes(package_dir=package),
        "stats": _native.source_stats(package_dir=package),
    }
    record.update(changes)
    (package / _native.STAMP_NAME).write_text(json.dumps(record), encoding="utf-8")


def test_a_stamp_that_matches_the_sources_lets_the_compiled_modules_run(tmp_path: Path) -> None:
    package = _copy_sources(tmp_path)
    assert _native.reason_for_pure(package, honour_env=False) == "not compiled"
    _stamp(package)
    assert _native.reason_for_pure(package, honour_env=False) is None


def test_an_edited_source_sends_every_module_to_its_source(tmp_path: Path) -> None:
    package = _copy_sources(tmp_path)
    _stamp(package)
    rules = package / "rules" / "play.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    reason = _native.reason_for_pure(package, honour_env=False)
    assert reason == "pbntool.rules.play changed since it was compiled"


def test_sources_as_compiled_are_not_read_and_a_touched_one_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up compares each source's size and time with the stamp's and reads (hashes) the
    sources only when one differs: a file touched but not changed still runs compiled."""
    package = _copy_sources(tmp_path)
    _stamp(package)
    with monkeypatch.context() as patch:
        patch.setattr(_native, "source_hashes", lambda *args: pytest.fail("sources read"))
        assert _native.reason_for_pure(package, honour_env=False) is None
    model = package / "model.py"
    os.utime(model, ns=(model.stat().st_atime_ns, model.stat().st_mtime_ns + 10**9))
    assert _native.reason_for_pure(package, honour_env=False) is None
    model.write_text(model.read_text(encoding="utf-8").replace("Hand", "Hanz"), encoding="utf-8")
    assert _native.reason_for_pure(package, honour_env=False) == (
        "pbntool.model changed since it was compiled"
    )


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"abi": "cpython-310:.so"}, "compiled for another Python"),
        ({"sources": {"pbntool.model": "0"}}, "compiled from another list of modules"),
    ],
)
def test_a_stamp_for_something_else_is_not_trusted(
    tmp_path: Path, changes: dict[str, object], reason: str
) -> None:
    package = _copy_sources(tmp_path)
    _stamp(package, **changes)
    assert _native.reason_for_pure(package, honour_env=False) == reason


def test_an_unreadable_stamp_is_not_trusted(tmp_path: Path) -> None:
    package = _copy_sources(tmp_path)
    (package / _native.STAMP_NAME).write_text("{not json", encoding="utf-8")
    reason = _native.reason_for_pure(package, honour_env=False)
    assert (reason or "").startswith("unreadable _native.json")


def test_the_environment_switch_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _copy_sources(tmp_path)
    _stamp(package)
    monkeypatch.setenv(_native.PURE_ENV, "1")
    assert _native.reason_for_pure(package) == "PBNTOOL_PURE is set"
    monkeypatch.setenv(_native.PURE_ENV, "0")
    assert _native.reason_for_pure(package) is None


def test_clean_removes_the_stamp_and_every_extension_beside_a_source(tmp_path: Path) -> None:
    package = _copy_sources(tmp_path)
    shutil.copyfile(REPO / "pbntool" / "_native.py", package / "_native.py")
    _stamp(package)
    ours = [
        package / f"model{SUFFIX}",
        package / "rules" / f"play{SUFFIX}",
        package / f"_compiled__mypyc{SUFFIX}",
        package / f"old_group__mypyc{SUFFIX}",  # an older build's library
    ]
    foreign = package / f"vendored{SUFFIX}"  # no source of ours beside it: not ours
    for path in [*ours, foreign]:
        path.write_bytes(b"")
    removed = native_build.clean(tmp_path)
    assert set(removed) == {*ours, package / _native.STAMP_NAME}
    assert foreign.exists() and not any(path.exists() for path in ours)


def _run(*args: str, pure: bool) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), _native.PURE_ENV: "1" if pure else "0"}
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *args],
        capture_output=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_pure_python_imports_every_module_from_its_source() -> None:
    probe = (
        "import importlib, pbntool._native as n;"
        "print(n.STATE);"
        "print(*(importlib.import_module(m).__file__ for m in n.COMPILED_MODULES), sep='\\n')"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), _native.PURE_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    state, *files = done.stdout.splitlines()
    assert state == "pure Python (PBNTOOL_PURE is set)"
    assert len(files) == len(_native.COMPILED_MODULES)
    assert all(file.endswith(".py") for file in files), files


@pytest.mark.skipif(not COMPILED, reason=f"not compiled here: {_native.STATE}")
def test_compiled_every_listed_module_is_an_extension() -> None:
    for module in _native.COMPILED_MODULES:
        file = importlib.import_module(module).__file__ or ""
        assert file.endswith(SUFFIX), (module, file)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason=f"not compiled here: {_native.STATE}")
@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
@pytest.mark.parametrize(
    "command",
    [
        ("validate", "--format", "json", "-j", "2"),
        ("convert", "--to", "json", "--validate", "-j", "2"),
    ],
    ids=["validate", "convert"],
)
def test_compiled_and_pure_python_say_the_same_about_the_corpus(
    command: tuple[str, ...],
) -> None:
    compiled = _run(*command, str(CORPUS), pure=False)
    pure = _run(*command, str(CORPUS), pure=True)
    assert compiled.returncode == pure.returncode
    assert len(compiled.stdout) > 1_000_000  # the corpus's findings or records, not nothing
    assert compiled.stdout == pure.stdout
    assert b"Traceback" not in compiled.stderr + pure.stderr


def test_no_package_init_is_compiled() -> None:
    """Compiled, a package ``__init__`` has no ``__path__`` while it runs: importing the
    package's other modules from it, or later, fails."""
    inits = [m for m in _native.COMPILED_MODULES if _native.source_path(m).name == "__init__.py"]
    assert inits == []


def _frozen_dataclasses() -> list[type]:
    found = []
    for module in _native.COMPILED_MODULES:
        for value in vars(importlib.import_module(module)).values():
            if (
                isinstance(value, type)
                and value.__module__ == module
                and dataclasses.is_dataclass(value)
                and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
            ):
                found.append(value)
    return found


def test_every_frozen_dataclass_of_a_compiled_module_says_how_it_pickles() -> None:
    """Compiled, a frozen dataclass with slots unpickles through its own ``__setattr__``,
    which refuses (a worker of ``-j`` died on the first record sent to it): each one is
    registered with ``copyreg`` (``model.pickle_by_fields``) or has its own ``__reduce__``."""
    classes = _frozen_dataclasses()
    assert len(classes) >= 20
    unsaid = [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in classes
        if cls not in copyreg.dispatch_table and "__reduce__" not in vars(cls)
    ]
    assert unsaid == []


def test_records_of_every_fixture_cross_a_process_boundary_unchanged() -> None:
    files = sorted((REPO / "fixtures").rglob("*.pbn")) + sorted((REPO / "fixtures").rglob("*.lin"))
    records = [record for path in files for record in read_input(Input(str(path), path), None)]
    assert len(records) > 200
    assert sum(len(record.diagnostics) for record in records) > 100
    for record in records:
        copy = pickle.loads(pickle.dumps(record))
        assert copy == record, record.file
        # The locator came across too: the Laws' findings are placed as in the original.
        assert list(map(str, validate_record(copy))) == list(map(str, validate_record(record)))


def test_a_compile_that_fails_leaves_a_pure_python_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build hook (``hatch_build.py``) installs pure Python whatever the compile does:
    mypyc exits (``SystemExit``) on a type error, which once failed ``pip install`` in CI."""
    import types

    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    interface = types.ModuleType("hatchling.builders.hooks.plugin.interface")

    class BuildHookInterface:
        def __init__(self, root: str, app: object) -> None:
            self.root, self.app = root, app

        def __class_getitem__(cls, item: object) -> type:
            return cls

    interface.BuildHookInterface = BuildHookInterface  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hatchling.builders.hooks.plugin", types.ModuleType("p"))
    monkeypatch.setitem(sys.modules, interface.__name__, interface)
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", REPO / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_module)

    cleaned: list[Path] = []

    class FailingBuilder:
        def ensure_built(self, root: Path) -> list[Path]:
            raise SystemExit(1)

        def clean(self, root: Path) -> list[Path]:
            cleaned.append(root)
            return []

    monkeypatch.setattr(hook_module, "_builder", lambda root: FailingBuilder())
    said: list[str] = []
    app = types.SimpleNamespace(display_warning=said.append, display_info=said.append)
    monkeypatch.delenv(hook_module.SKIP_ENV, raising=False)
    build_data: dict[str, object] = {"force_include": {}}
    hook_module.NativeBuildHook(str(tmp_path), app).initialize("standard", build_data)
    assert build_data == {"force_include": {}}  # a pure wheel: nothing compiled is included
    assert cleaned == [tmp_path]
    assert len(said) == 1 and said[0].startswith("pbntool: not compiled (SystemExit(1))")
