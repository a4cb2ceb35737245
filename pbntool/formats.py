"""Reading any supported input: pick the reader, and never let one input stop the batch."""

from __future__ import annotations

import traceback
from collections.abc import Iterator

from pbntool import pbn
from pbntool.diagnostics import INT001, SRC003, Diagnostic
from pbntool.inputs import Input
from pbntool.records import Record

__all__ = ["read_input"]


def read_input(source: Input) -> Iterator[Record]:
    """Records of one input.  Unreadable inputs and internal failures become diagnostics."""
    if source.problem is not None:
        yield Record(None, (source.problem,), source.name, 0)
        return
    try:
        stream = source.open()
    except OSError as error:
        yield _failure(source.name, SRC003.at(reason=error.strerror or str(error)))
        return
    try:
        yield from pbn.iter_records(stream, source.name)
    except OSError as error:
        yield _failure(source.name, SRC003.at(reason=error.strerror or str(error)))
    except Exception as error:  # a bug of ours must cost one file, not the batch
        detail = traceback.format_exception_only(error)[-1].strip()
        yield _failure(source.name, INT001.at(skipped="the rest of this input", error=detail))
    finally:
        if source.path is not None:
            stream.close()


def _failure(name: str, diagnostic: Diagnostic) -> Record:
    placed = Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, name)
    return Record(None, (placed,), name, 0)
