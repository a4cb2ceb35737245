"""LIN (Bridge Base Online): read every flavour leniently, write BBO-style LIN.

Reading accepts myhands and hand-record lines, handviewer links (a file of them, or one on
the command line), vugraph files (``vg``/``rs``/``pn`` header, ``qx`` rooms, ``nt``
commentary), tourney downloads and BBO-client output.  Boards are mapped onto the same model
as PBN (see ``pbntool.formats.lin.decode``), so the Laws checks and every writer apply unchanged.

>>> result = parse("pn|S,W,N,E|st||md|1SAKQJHAKQJDAKQCAK,,,|rh||ah|Board 1|sv|o|mb|7N|")
>>> board = result.boards[0]
>>> board.dealer.letter, str(board.auction.calls[0]), board.tag("South")
('S', '7NT', 'S')
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from pbntool.formats.lin.reader import iter_lin_records, lin_text
from pbntool.formats.lin.writer import LinWriter, WriteOptions, dumps_board
from pbntool.model import Board
from pbntool.records import ParseResult, Record, collect, strict_boards

__all__ = [
    "LinWriter",
    "WriteOptions",
    "dump",
    "dumps",
    "dumps_board",
    "iter_records",
    "load",
    "loads",
    "parse",
]


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """Read a LIN byte stream one table at a time (memory bounded by the largest table)."""
    yield from iter_lin_records(lin_text(stream), name)


def parse(text: str | bytes, name: str = "<string>", *, validate: bool = False) -> ParseResult:
    """Read LIN text leniently: every board and every diagnostic, never an exception."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return collect(iter_records(io.BytesIO(data), name), validate)


def loads(text: str | bytes, name: str = "<string>", *, validate: bool = False) -> list[Board]:
    """Read LIN text strictly: the boards, or ``DiagnosticError`` listing every error."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return strict_boards(iter_records(io.BytesIO(data), name), validate)


def load(fp: BinaryIO | TextIO, *, validate: bool = False) -> list[Board]:
    """``loads`` for an open file."""
    return loads(fp.read(), str(getattr(fp, "name", "<stream>")), validate=validate)


def dumps(boards: Iterable[Board], options: WriteOptions | None = None) -> str:
    """Boards as LIN text: one line per board, or a vugraph file for a match."""
    out = io.StringIO()
    writer = LinWriter(out, options)
    for board in boards:
        writer.write(board)
    writer.close()
    return out.getvalue()


def dump(boards: Iterable[Board], fp: TextIO, options: WriteOptions | None = None) -> None:
    """Write ``dumps(boards)`` to a text stream, board by board."""
    writer = LinWriter(fp, options)
    for board in boards:
        writer.write(board)
    writer.close()
