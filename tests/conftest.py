"""Shared test configuration: fixture paths, the corpus, and ``--update-golden``.

``pytest --update-golden`` rewrites every generated expectation (the golden outputs of
``fixtures/pbn/valid``, the generated binary fixtures and ``docs/diagnostics.md``) instead of
comparing with it; review the result as a diff.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pbntool import _native
from pbntool.dev.bytecode import compile_package
from pbntool.diagnostics import UNREAD_CODES

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
PBN_VALID = FIXTURES / "pbn" / "valid"
PBN_INVALID = FIXTURES / "pbn" / "invalid"
DOCS = REPO / "docs"

CORPUS = Path(os.environ.get("PBNTOOL_CORPUS") or REPO.parent / "shared" / "corpus")
"""Real-world files (``$PBNTOOL_CORPUS``, else ``<repo>/../shared/corpus``); may be absent."""

UNREAD_INPUT = re.compile(rf"\b({'|'.join(sorted(UNREAD_CODES - {'INT001'}))})\b")
"""The codes of input that could not be read, for which exit code 2 is documented (INT001,
a bug of ours, is not accepted)."""


def exit_is_clean(code: int, output: str) -> bool:
    """0 or 1; or 2 when the output names an input that could not be read (random bytes can
    start like a zip or a gzip stream: a corrupt archive is documented as exit 2)."""
    return code in (0, 1) or (code == 2 and UNREAD_INPUT.search(output) is not None)


def run_doctests(module: ModuleType) -> doctest.TestResults:
    """``doctest.testmod`` on a module's source: doctest does not look into a compiled
    module's functions (``pbntool._native``), so their examples run from a source copy."""
    if (module.__file__ or "").endswith(".py"):
        return doctest.testmod(module)
    name = f"{module.__name__}__doctest_source"
    spec = importlib.util.spec_from_file_location(name, _native.source_path(module.__name__))
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    sys.modules[name] = source  # dataclasses look their module up while they are made
    try:
        spec.loader.exec_module(source)
        return doctest.testmod(source)
    finally:
        del sys.modules[name]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden files and generated fixtures instead of comparing with them.",
    )
    parser.addoption(
        "--all-dds",
        action="store_true",
        default=False,
        help="Solve all 1,421 deals of DDS's own lists (about 3 minutes on 2 cores), not a sample.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: runs over ../shared/corpus (skipped when it is absent)"
    )
    config.addinivalue_line("markers", "slow: takes more than a few seconds")
    if not hasattr(config, "workerinput"):  # once, in the controller, before xdist's workers
        compile_package()  # the CLI tests' hundreds of processes start from bytecode


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files (``--update-golden``)."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus directory; the test is skipped when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not present at {CORPUS} (set PBNTOOL_CORPUS)")
    return CORPUS
