"""Compile pbntool's hot modules with mypyc, in place, beside their sources.

``python -m pbntool.dev.native_build`` compiles the modules of
``pbntool._native.COMPILED_MODULES`` into one C library and writes ``pbntool/_native.json``
(the hash of each source), so that Python imports the extensions while, and only while,
they match the sources.  ``--clean`` removes them (pure Python again); ``--force``
compiles even when the extensions are up to date.  ``pip install`` runs the same code
through the build hook (``hatch_build.py``); ``PBNTOOL_COMPILE=0`` skips it there.

Needs mypy (mypyc), setuptools and a C compiler with Python's headers; it imports nothing
of pbntool (the build hook runs it where pbntool's dependencies are not installed), so it
loads ``pbntool/_native.py`` by path.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

__all__ = ["build", "clean", "ensure_built", "extension_paths", "main"]

_TYPE_CHECK_CONFIG = """\
[mypy]
ignore_missing_imports = True
follow_imports = silent
"""
"""mypyc's own type check: the project's strict settings are the gate's business (``mypy
--strict`` runs in CI).  The build environment has none of pbntool's dependencies, so an
import of lark, lxml or orjson is ``Any`` here, not an error; and a module that is only
followed, not compiled, reports nothing (without lxml's stubs, ``formats/xml`` reads
differently, which concerns no compiled code)."""


def _native(root: Path) -> ModuleType:
    """``pbntool/_native.py`` of the tree at ``root``, loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "_pbntool_native_build", root / "pbntool" / "_native.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extension_paths(root: Path) -> list[Path]:
    """The extension files a build of the tree at ``root`` leaves, existing or not."""
    native = _native(root)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    package = root / "pbntool"
    paths = [native.source_path(module, package) for module in native.COMPILED_MODULES]
    extensions = [path.with_name(path.stem + suffix) for path in paths]
    group = native.GROUP_NAME.split(".")
    extensions.append(root.joinpath(*group[:-1], group[-1] + "__mypyc" + suffix))
    return extensions


def clean(root: Path) -> list[Path]:
    """Remove the stamp, then every extension beside a source of ours and every compiled
    library (of this list of modules or an older one); returns what was removed."""
    native = _native(root)
    package = root / "pbntool"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    stale = [
        path
        for path in package.rglob("*" + suffix)
        if "__mypyc" in path.name or path.with_name(path.name[: -len(suffix)] + ".py").exists()
    ]
    removed = []
    for path in [package / native.STAMP_NAME, *stale]:
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


def ensure_built(root: Path) -> list[Path]:
    """Compile unless the extensions in place match the sources; returns the built files
    (the extensions and the stamp)."""
    native = _native(root)
    stamp = root / "pbntool" / native.STAMP_NAME
    extensions = extension_paths(root)
    fresh = native.reason_for_pure(root / "pbntool", honour_env=False) is None
    if fresh and all(path.exists() for path in extensions):
        return [*extensions, stamp]
    return build(root)


def build(root: Path) -> list[Path]:
    """Compile the modules in place and write the stamp; returns the built files."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    native = _native(root)
    clean(root)  # the stamp goes first: a build that fails leaves pure Python
    package = root / "pbntool"
    modules = native.COMPILED_MODULES
    hashes = native.source_hashes(modules, package)  # what is compiled, read before compiling
    stats = native.source_stats(modules, package)
    sources = [str(native.source_path(module, package).relative_to(root)) for module in modules]
    packages = [source for source in sources if source.endswith("__init__.py")]
    if packages:  # see COMPILED_MODULES
        raise ValueError(f"a package __init__ cannot be compiled: {', '.join(packages)}")
    with _inside(root), tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "mypy.ini"
        config.write_text(_TYPE_CHECK_CONFIG, encoding="utf-8")
        extensions = mypycify(
            ["--config-file", str(config), *sources],
            opt_level="3",
            group_name=native.GROUP_NAME,
            target_dir=str(Path("build") / "mypyc"),
        )
        # A bare Distribution reads no setup.cfg or pyproject.toml (setuptools' reading of
        # the project table is not the build backend's business).
        distribution = Distribution({"name": "pbntool", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.inplace = True
        command.build_temp = str(Path("build") / "mypyc-temp")
        command.parallel = os.cpu_count() or 1
        distribution.run_command("build_ext")
    built = extension_paths(root)
    missing = [str(path) for path in built if not path.exists()]
    if missing:
        raise RuntimeError(f"the build did not leave {', '.join(missing)}")
    stamp = package / native.STAMP_NAME
    record = {"abi": native.abi_tag(), "sources": hashes, "stats": stats}
    temporary = stamp.with_suffix(".tmp")
    temporary.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    temporary.replace(stamp)
    return [*built, stamp]


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    """mypycify and build_ext work with paths relative to the current directory."""
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def main(argv: list[str] | None = None) -> int:
    """The command line: compile (if needed), ``--force`` or ``--clean``."""
    parser = argparse.ArgumentParser(prog="python -m pbntool.dev.native_build")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--force", action="store_true", help="compile even when up to date")
    action.add_argument("--clean", action="store_true", help="remove the compiled modules")
    options = parser.parse_args(argv)
    root = options.root.resolve()
    if options.clean:
        for path in clean(root):
            print(f"removed {path}")
        return 0
    built = build(root) if options.force else ensure_built(root)
    print(f"compiled: {len(built) - 1} files beside the sources under {root / 'pbntool'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
