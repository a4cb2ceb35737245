"""Boards as XML: the pbntool vocabulary (``docs/xml.md``), with an XSD (``schemas/boards.xsd``).

``XmlWriter`` streams a document board by board (the whole document is never built in
memory); ``iter_records`` reads one back, as untrusted input (see
``pbntool.formats.xml.reader``).  Writing and reading back gives an equal ``Board``.

>>> from pbntool.model import Board, Seat
>>> print(dumps([Board(number=1, dealer=Seat.NORTH)]), end="")
<?xml version="1.0" encoding="UTF-8"?>
<boards xmlns="urn:x-pbntool:boards:1" version="pbntool/1">
<board number="1" dealer="N"/>
</boards>
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TextIO

from lxml import etree

from pbntool.diagnostics import Diagnostic
from pbntool.formats.xml.reader import iter_records
from pbntool.formats.xml.writer import NAMESPACE, board_element, closing, document_start
from pbntool.model import Board

__all__ = ["NAMESPACE", "XmlWriter", "dumps", "dumps_board", "iter_records"]


def dumps_board(board: Board, file: str | None = None) -> str:
    """The ``<board>`` element of one board, indented, ending with a line end."""
    return etree.tostring(board_element(board, file), encoding="unicode", pretty_print=True)


class XmlWriter:
    """Writes a ``<boards>`` document to a text stream, one board at a time."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._started = False

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        """Write one board; XML carries the whole model, so nothing is ever lost."""
        self._start()
        self._stream.write(dumps_board(board, file))
        return []

    def close(self) -> None:
        """End the document (an empty conversion is still a document)."""
        self._start()
        self._stream.write(closing())

    def begin(self) -> None:
        """Write the document's start now (``FragmentWriter``: ``convert -j``, ``-o DIR``)."""
        self._start()

    def resume(self) -> None:
        """Write boards only: another writer wrote the document's start."""
        self._started = True

    def _start(self) -> None:
        if not self._started:
            self._stream.write(document_start())
            self._started = True


def dumps(boards: Iterable[Board], file: str | None = None) -> str:
    """A whole document as one string."""
    out = io.StringIO()
    writer = XmlWriter(out)
    for board in boards:
        writer.write(board, file)
    writer.close()
    return out.getvalue()
