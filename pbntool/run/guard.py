"""A bug of ours in per-board work costs that board, not the batch (INT001, then go on)."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from pbntool.diagnostics import INT001, Diagnostic
from pbntool.records import Record

__all__ = ["guarded"]

T = TypeVar("T")
P = ParamSpec("P")


def guarded(
    record: Record, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> tuple[T | None, Diagnostic | None]:
    """``(work(*args, **kwargs), None)``, or ``(None, INT001 placed at the record)`` when
    ``work`` raised: the command reports it and goes on with the next board."""
    try:
        return work(*args, **kwargs), None
    except Exception as error:  # any bug: report it, skip this board, carry on
        detail = traceback.format_exception_only(error)[-1].strip()
        return None, record.locate(INT001.at(skipped="this board", error=detail))
