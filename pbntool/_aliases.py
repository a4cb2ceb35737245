"""Names that resolve when first asked for: old module paths, and a package's lazy names.

The package was regrouped into layered rooms (``docs/architecture.md``).  A program that
imports an old path (``import pbntool.pbn``, ``from pbntool.event import compute``) gets the
same module object as the new path, with a ``DeprecationWarning`` that names the new one.
Nothing here is imported until an old path is asked for: the finder only compares names.

``lazy_names`` makes the ``__getattr__`` of a package whose names load their submodule on
first use (a run that sniffs RBN or BWS, or checks a score, must not load the rest).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
    from importlib.abc import MetaPathFinder as _Finder
else:  # importlib.abc imports importlib.resources: a tenth of pbntool's start-up
    _Loader = _Finder = object

__all__ = ["MOVED", "install", "lazy_names"]

MOVED: dict[str, str] = {
    "pbntool.source": "pbntool.text.source",
    "pbntool.archives": "pbntool.text.archives",
    "pbntool.inputs": "pbntool.text.inputs",
    "pbntool.grammars": "pbntool.text.grammars",
    "pbntool.schemas": "pbntool.text.schemas",
    "pbntool.writers": "pbntool.formats.writing",
    "pbntool.pbn": "pbntool.formats.pbn",
    "pbntool.lin": "pbntool.formats.lin",
    "pbntool.jsonio": "pbntool.formats.json",
    "pbntool.xmlio": "pbntool.formats.xml",
    "pbntool.interchange.jsonread": "pbntool.formats.json.reader",
    "pbntool.interchange.xmlread": "pbntool.formats.xml.reader",
    "pbntool.interchange.xmlboard": "pbntool.formats.xml.board",
    "pbntool.interchange.xmlconvert": "pbntool.formats.xml.convert",
    "pbntool.interchange.xmlwrite": "pbntool.formats.xml.writer",
    "pbntool.interchange": "pbntool.formats.interchange",
    "pbntool.batch": "pbntool.run.batch",
    "pbntool.engine": "pbntool.run.engine",
    "pbntool.dask_engine": "pbntool.run.dask",
    "pbntool.tasks": "pbntool.run.tasks",
    "pbntool.outputs": "pbntool.run.outputs",
    "pbntool.progress": "pbntool.run.progress",
    "pbntool.units": "pbntool.run.units",
    "pbntool.cli.guard": "pbntool.run.guard",
    "pbntool.show": "pbntool.formats.text.diagram",
    "pbntool.stats": "pbntool.tools.stats",
    "pbntool.dedupe": "pbntool.tools.dedupe",
    "pbntool.query": "pbntool.tools.select",
    "pbntool.event": "pbntool.tools.score",
    "pbntool.scoring_report": "pbntool.tools.score.listing",
    "pbntool.fix": "pbntool.tools.fix",
    "pbntool.dd": "pbntool.tools.dd",
    "pbntool.outcome": "pbntool.rules.outcome",
    "pbntool.generate": "pbntool.dev.generate",
    "pbntool.docs_gen": "pbntool.dev.docs_gen",
}
"""Old dotted path -> new one; a package's submodules follow it (``pbntool.pbn.writer``)."""


def new_name(old: str) -> str | None:
    """Where the module once named ``old`` lives now (None if it did not move)."""
    for prefix in sorted(MOVED, key=len, reverse=True):
        if old == prefix or old.startswith(prefix + "."):
            return MOVED[prefix] + old[len(prefix) :]
    return None


class _AliasLoader(_Loader):
    def __init__(self, target: str) -> None:
        self.target = target
        self.target_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.target}; import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(self.target)
        self.target_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The target module ran already; the import system gave it the alias's spec, so it
        gets its own back (its name, loader and repr stay those of the new path)."""
        module.__spec__ = self.target_spec


class _AliasFinder(_Finder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        moved = new_name(fullname)
        if moved is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(moved))


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _AliasFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())  # before the path finder, which would load
        # an old submodule path (pbntool.pbn.writer) a second time from the new folder


def lazy_names(
    package: str, names: Mapping[str, str], modules: Iterable[str] = ()
) -> Callable[[str], object]:
    """A package's ``__getattr__`` (PEP 562): each of ``names`` is imported from its
    submodule (``names[name]``) when first asked for, and kept in the package; each of
    ``modules`` is a submodule reachable as an attribute."""
    submodules = frozenset(modules)

    def __getattr__(name: str) -> object:
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
        setattr(sys.modules[package], name, value)  # the next access is a plain attribute
        return value

    return __getattr__
