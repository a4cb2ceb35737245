"""Shared test configuration: fixture paths, the corpus, and ``--update-golden``.

``pytest --update-golden`` rewrites every generated expectation (the golden outputs of
``fixtures/pbn/valid``, the generated binary fixtures and ``docs/diagnostics.md``) instead of
comparing with it; review the result as a diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
PBN_VALID = FIXTURES / "pbn" / "valid"
PBN_INVALID = FIXTURES / "pbn" / "invalid"
DOCS = REPO / "docs"

CORPUS = Path(os.environ.get("PBNTOOL_CORPUS") or REPO.parent / "shared" / "corpus")
"""Real-world files (``$PBNTOOL_CORPUS``, else ``<repo>/../shared/corpus``); may be absent."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden files and generated fixtures instead of comparing with them.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: runs over ../shared/corpus (skipped when it is absent)"
    )
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


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
