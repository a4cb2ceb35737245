"""Writing boards in any format, one board at a time, with what the format could not carry.

Every format has a ``BoardWriter``: ``write`` takes one board and returns the losses (warning
diagnostics naming what the target format dropped, never silent), ``close`` ends the output
(a closing XML element, a LIN segment).  ``open_writer`` finds the writer of a format from its
spec (``pbntool.formats.SPECS``); the modules are imported on first use.
"""

from __future__ import annotations

import io
from typing import IO, Any, Protocol, TextIO, runtime_checkable

from pbntool.diagnostics import Diagnostic
from pbntool.formats import Format, load, spec_of
from pbntool.model import Board

__all__ = [
    "BoardWriter",
    "FragmentWriter",
    "open_fragment_writer",
    "open_writer",
    "writes_fragments",
]


class BoardWriter(Protocol):
    """Writes boards to a text stream, one at a time."""

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        """Write one board (``file`` names where it was read); returns what was lost."""

    def close(self) -> None:
        """Finish the output (the stream itself stays open)."""


@runtime_checkable
class FragmentWriter(BoardWriter, Protocol):
    """A writer whose output is a header, one piece per board with nothing carried from one
    board to the next, and a footer: so parts of one output can be rendered in different
    processes (``-j``) and joined.  The main process calls ``begin`` (header) and ``close``
    (footer); workers write boards with writers on which ``resume`` was called."""

    def begin(self) -> None:
        """Write the header now, if it was not written yet."""

    def resume(self) -> None:
        """Continue an output whose header was written by another writer: write no header."""


def open_writer(form: Format, stream: IO[Any], options: object | None = None) -> BoardWriter:
    """A writer of ``form`` on ``stream`` (a text stream, or a binary one when the format's
    spec says ``binary``); ``options``, when given, are the writer's own (``render``'s
    ``RenderOptions`` for HTML); ``LookupError`` for a format pbntool does not write."""
    spec = spec_of(form)
    if spec.writer is None:
        raise LookupError(f"pbntool does not write {spec.title}")
    factory = load(spec.writer)
    assert callable(factory)
    writer: BoardWriter = factory(stream) if options is None else factory(stream, options)
    return writer


def writes_fragments(form: Format) -> bool:
    """Whether the writer of ``form`` can render parts of one output apart (see
    ``FragmentWriter``); formats whose writer cannot are converted in one process."""
    if spec_of(form).binary:
        return False  # parts travel between processes as text
    try:
        return isinstance(open_writer(form, io.StringIO()), FragmentWriter)
    except (ImportError, AttributeError, LookupError):
        return False  # no writer at all: the one-process path reports it


def open_fragment_writer(
    form: Format, stream: TextIO, options: object | None = None
) -> FragmentWriter:
    """A writer of ``form`` that writes boards only (no header, no footer)."""
    writer = open_writer(form, stream, options)
    if not isinstance(writer, FragmentWriter):
        raise TypeError(f"the {form} writer cannot write parts of an output")
    writer.resume()
    return writer
