"""Writing boards in any format, one board at a time, with what the format could not carry.

Every format has a ``BoardWriter``: ``write`` takes one board and returns the losses (warning
diagnostics naming what the target format dropped, never silent), ``close`` ends the output
(a closing XML element, a LIN segment).  ``open_writer`` finds the writer of a format; the
modules are imported on first use.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from typing import Protocol, TextIO, runtime_checkable

from pbntool.diagnostics import Diagnostic
from pbntool.formats import Format
from pbntool.model import Board

__all__ = [
    "WRITERS",
    "BoardWriter",
    "FragmentWriter",
    "JsonLinesWriter",
    "PbnWriter",
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


WriterFactory = Callable[[TextIO], BoardWriter]

WRITERS: dict[Format, str] = {
    Format.PBN: "pbntool.formats.writing:PbnWriter",
    Format.JSON: "pbntool.formats.writing:JsonLinesWriter",
    Format.LIN: "pbntool.formats.lin:LinWriter",
    Format.XML: "pbntool.formats.xml:XmlWriter",
}
"""``module:class`` of each format's writer (imported on first use)."""


def open_writer(form: Format, stream: TextIO) -> BoardWriter:
    """A writer of ``form`` on ``stream``."""
    module, _, name = WRITERS[form].partition(":")
    factory: WriterFactory = getattr(importlib.import_module(module), name)
    return factory(stream)


def writes_fragments(form: Format) -> bool:
    """Whether the writer of ``form`` can render parts of one output apart (see
    ``FragmentWriter``); formats whose writer cannot are converted in one process."""
    try:
        return isinstance(open_writer(form, io.StringIO()), FragmentWriter)
    except (ImportError, AttributeError):
        return False  # no writer at all: the one-process path reports it


def open_fragment_writer(form: Format, stream: TextIO) -> FragmentWriter:
    """A writer of ``form`` that writes boards only (no header, no footer)."""
    writer = open_writer(form, stream)
    if not isinstance(writer, FragmentWriter):
        raise TypeError(f"the {form} writer cannot write parts of an output")
    writer.resume()
    return writer


class PbnWriter:
    """Canonical PBN export format: the file header, then one game per board."""

    def __init__(self, stream: TextIO) -> None:
        from pbntool.formats.pbn.writer import WriteOptions

        self._stream = stream
        self._options = WriteOptions()
        self._started = False

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        from pbntool.formats.pbn.writer import dumps_board

        self._start()
        self._stream.write(dumps_board(board, self._options))
        return []

    def close(self) -> None:
        self._start()  # an empty conversion is still a PBN file

    def begin(self) -> None:
        self._start()

    def resume(self) -> None:
        self._started = True

    def _start(self) -> None:
        if not self._started:
            self._stream.write(self._options.header)
            self._started = True


class JsonLinesWriter:
    """JSON Lines: one object per board."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        from pbntool.formats.json import dumps_line

        self._stream.write(dumps_line(board, file=file))
        self._stream.write("\n")
        return []

    def close(self) -> None:
        """JSON Lines needs no ending."""

    def begin(self) -> None:
        """JSON Lines has no header."""

    def resume(self) -> None:
        """JSON Lines has no header."""
