"""What the atheris harnesses share: the finding they raise, the check of a read's
diagnostics, and libFuzzer's entry (run as ``python fuzz/atheris_<format>.py``, which puts
this directory on ``sys.path``).  Nothing of pbntool is imported here at import time: a
harness imports it under ``atheris.instrument_imports``, and a module loaded before that
would give libFuzzer no coverage."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

if TYPE_CHECKING:
    from pbntool.records import ParseResult


class FuzzFinding(Exception):
    """Something that must never happen; raised so that atheris records the input."""


def check(result: ParseResult, name: str) -> None:
    """No internal failure, no unknown code, every diagnostic placed in ``name``."""
    from pbntool.diagnostics import CATALOGUE  # loaded (instrumented) by the harness by now

    for diagnostic in result.diagnostics:
        if diagnostic.code == "INT001" or diagnostic.code not in CATALOGUE:
            raise FuzzFinding(str(diagnostic))
        if diagnostic.file != name or diagnostic.line is None or diagnostic.line < 1:
            raise FuzzFinding(f"badly placed: {diagnostic!r}")


def fuzz(test_one_input: Callable[[bytes], None]) -> None:
    """Hand ``test_one_input`` to libFuzzer with the command line's options."""
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
