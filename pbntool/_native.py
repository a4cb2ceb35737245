"""Which of pbntool's modules run compiled, and the switch back to pure Python.

The modules in ``COMPILED_MODULES`` (the model, the PBN fast path and decoders, the Laws
checks, the JSON writer) can be compiled with mypyc into C extensions that sit beside their
sources (``pbntool/model.cpython-311-x86_64-linux-gnu.so`` next to ``pbntool/model.py``);
Python then imports the extension instead of the source.  ``pbntool.dev.native_build``
compiles them, and the build hook (``hatch_build.py``) runs it on ``pip install``.

A compiled module that no longer matches its source would run old code, silently: an
editable install compiles once, then its sources are edited.  So the build records a
hash of every source it compiled (``_native.json``), and on import, before any compiled
module loads, ``select`` compares them.  When one differs (or ``PBNTOOL_PURE`` is set, or
nothing was compiled, or for another Python), every module of the list is imported from
its source instead: the modules of one compilation call each other directly in C, so they
run compiled all together or not at all.

This module imports nothing of pbntool's and only the standard library: the build hook
loads it by path, in a build environment without pbntool's dependencies.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = [
    "COMPILED_MODULES",
    "PURE_ENV",
    "STAMP_NAME",
    "STATE",
    "abi_tag",
    "source_hashes",
    "source_stats",
]

COMPILED_MODULES: tuple[str, ...] = (
    "pbntool.model",
    "pbntool.notation",
    "pbntool.diagnostics",
    "pbntool.records",
    "pbntool.rules._common",
    "pbntool.rules.auction",
    "pbntool.rules.board",
    "pbntool.rules.check",
    "pbntool.rules.deal",
    "pbntool.rules.outcome",
    "pbntool.rules.play",
    "pbntool.scoring.duplicate",
    "pbntool.formats.pbn.decode",
    "pbntool.formats.pbn.exportcheck",
    "pbntool.formats.pbn.fast",
    "pbntool.formats.pbn.reader",
    "pbntool.formats.pbn.sections",
    "pbntool.formats.pbn.supplemental",
    "pbntool.formats.pbn.tags",
    "pbntool.formats.pbn.values",
    "pbntool.formats.interchange.todict",
    "pbntool.formats.interchange.vocabulary",
    "pbntool.formats.json.writer",
)
"""The hot path of reading, checking and writing JSON, compiled together (one C library):
calls between them are C calls, and calls from a compiled module into an interpreted one
cost more than between two interpreted ones, so the model goes with its users.  No package
``__init__``: compiled, it has no ``__path__`` while it runs, so it cannot import the
package's own modules, and a later ``import package.module`` fails."""

GROUP_NAME = "pbntool._compiled"
"""The shared C library of the compiled modules: ``pbntool/_compiled__mypyc*.so``."""

STAMP_NAME = "_native.json"
"""In ``pbntool/``: the Python the modules were compiled for, and the hash, size and time of
each source (a source of the same size and time is taken as unchanged without reading it)."""

PURE_ENV = "PBNTOOL_PURE"
"""Set (to anything but empty or ``0``) to run pure Python although compiled modules exist."""

_PACKAGE = Path(__file__).resolve().parent


def abi_tag() -> str:
    """The interpreter a compiled module is built for (``cpython-311-x86_64-linux-gnu``)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return f"{sys.implementation.cache_tag}:{suffix}"


def source_path(module: str, package_dir: Path = _PACKAGE) -> Path:
    """The ``.py`` source of ``module`` (``pbntool.rules`` → ``pbntool/rules/__init__.py``)."""
    parts = module.split(".")[1:]
    folder = package_dir.joinpath(*parts)
    if folder.is_dir():
        return folder / "__init__.py"
    return package_dir.joinpath(*parts[:-1], parts[-1] + ".py")


def source_hashes(
    modules: Sequence[str] = COMPILED_MODULES, package_dir: Path = _PACKAGE
) -> dict[str, str]:
    """SHA-256 of each module's source, by module name."""
    import hashlib  # only when a source's size or time differs: hashlib costs 3 ms to import

    return {
        module: hashlib.sha256(source_path(module, package_dir).read_bytes()).hexdigest()
        for module in modules
    }


def source_stats(
    modules: Sequence[str] = COMPILED_MODULES, package_dir: Path = _PACKAGE
) -> dict[str, list[int]]:
    """The size and modification time (ns) of each module's source, by module name."""
    stats = {}
    for module in modules:
        found = source_path(module, package_dir).stat()
        stats[module] = [found.st_size, found.st_mtime_ns]
    return stats


def reason_for_pure(package_dir: Path = _PACKAGE, *, honour_env: bool = True) -> str | None:
    """Why the compiled modules must not run, or None when they match their sources."""
    if honour_env and os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV} is set"
    try:
        stamp = json.loads((package_dir / STAMP_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "not compiled"
    except (OSError, ValueError) as error:
        return f"unreadable {STAMP_NAME}: {error}"
    if not isinstance(stamp, dict) or stamp.get("abi") != abi_tag():
        return "compiled for another Python"
    recorded = stamp.get("sources")
    if not isinstance(recorded, dict) or list(recorded) != list(COMPILED_MODULES):
        return "compiled from another list of modules"
    try:
        if stamp.get("stats") == source_stats(COMPILED_MODULES, package_dir):
            return None  # the very files that were compiled: no need to read them
        current = source_hashes(COMPILED_MODULES, package_dir)
    except OSError as error:
        return f"a source cannot be read: {error}"
    for module, digest in current.items():
        if recorded[module] != digest:
            return f"{module} changed since it was compiled"
    return None


class _SourceFirst:
    """A meta-path finder that imports pbntool's modules from their ``.py`` sources, so that
    no extension in the tree (of this build or an older one) shadows a source."""

    def __init__(self, package_dir: Path) -> None:
        self._package_dir = package_dir

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("pbntool."):
            return None
        source = source_path(fullname, self._package_dir)
        if not source.is_file():
            return None  # not ours to find (a moved name, a missing module)
        search = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(
            fullname, source, submodule_search_locations=search
        )


def select() -> str:
    """Decide once per process; returns ``"compiled"`` or ``"pure Python (reason)"``."""
    reason = reason_for_pure()
    if reason is None:
        return "compiled"
    # Even with no stamp: a build that failed half-way may have left some extensions.
    sys.meta_path.insert(0, _SourceFirst(_PACKAGE))
    return f"pure Python ({reason})"


# Loaded by path (the build hook, under another name), this module only answers questions.
STATE = select() if __name__ == "pbntool._native" else "not selected"
"""``"compiled"``, or ``"pure Python (why)"``: ``pbntool --version`` says which."""
