"""Compiling pbntool's modules to bytecode, as installing a wheel does.

An editable install under ``PYTHONDONTWRITEBYTECODE`` (set on this project's machines) never
caches its bytecode, so every ``python -m pbntool`` compiles the whole package again (about
0.15 s of its start-up).  The benchmarks call this before timing (endplay, installed by pip,
starts from its bytecode) and the test suite before its many CLI processes.
"""

from __future__ import annotations

import compileall
from pathlib import Path

__all__ = ["compile_package"]


def compile_package() -> bool:
    """Write ``__pycache__`` for every module of pbntool (git-ignored); False if some
    module could not be compiled or written (a read-only tree: nothing is lost)."""
    return bool(compileall.compile_dir(Path(__file__).resolve().parent.parent, quiet=2))
