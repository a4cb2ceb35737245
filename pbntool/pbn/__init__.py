"""PBN: read (streaming, lenient), validate, and write canonical export format.

>>> result = parse('[Board "1"]\\n[Dealer "N"]\\n[Contract "3NT"]\\n')
>>> str(result.boards[0].contract)
'3NT'
"""

from __future__ import annotations

import dataclasses
import io
import re
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from pbntool.diagnostics import INT001, SRC001, SRC002, SRC004, SRC005, Diagnostic
from pbntool.model import Board
from pbntool.pbn.decode import FileContext, SourceMap, decode_game
from pbntool.pbn.reader import GameBlock, parse_block, split_games
from pbntool.pbn.writer import WriteOptions, dump, dumps, iter_dump
from pbntool.records import ParseResult, Record, collect, place, strict_boards
from pbntool.source import DecodedText, EncodingEvent

__all__ = [
    "WriteOptions",
    "dump",
    "dumps",
    "iter_dump",
    "iter_records",
    "load",
    "loads",
    "parse",
    "read_file",
]

_DOS_EOF = "\x1a"
# At most 255 characters per line, the line end included (CRLF in export format).
_LONG_LINE_CRLF = re.compile(r"[^\n]{254,}")
_LONG_LINE_LF = re.compile(r"[^\n]{255,}")
# Tab and vertical tab are the only control characters PBN allows besides line ends.
_CONTROL = re.compile(r"[\x00-\x08\x0c\x0e-\x1f\x7f]")


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """Read a PBN byte stream one game at a time (memory bounded by the largest game).

    Yields a ``Record`` per game, in file order, plus records with ``board`` None for
    findings that belong to no game (encoding notes, text after the last game).
    """
    text = DecodedText(stream)
    context = FileContext(name)
    reported = 0
    for block in split_games(text):
        # Encoding notes are known per chunk; report each just before the game it falls in,
        # so that findings come out in file order.
        last_line = block.first_line + block.text.count("\n")
        while reported < len(text.events) and text.events[reported].line <= last_line:
            yield _encoding_record(text.events[reported], name)
            reported += 1
        try:
            context.lf_only = text.lf_only
            record = _read_block(block, context)
        except Exception as error:  # a bug of ours must cost one game, not the file
            record = _internal_error(block, name, error)
        if record is not None:
            yield record
    for event in text.events[reported:]:
        yield _encoding_record(event, name)


def _encoding_record(event: EncodingEvent, name: str) -> Record:
    code = SRC002 if event.from_bom or event.encoding.startswith("UTF-16") else SRC001
    diagnostic = _place(code.at(encoding=event.encoding), name, event.line, 1)
    return Record(None, (diagnostic,), name, event.line)


def _internal_error(block: GameBlock, name: str, error: Exception) -> Record:
    detail = traceback.format_exception_only(error)[-1].strip()
    diagnostic = _place(INT001.at(error=detail), name, block.first_line, 1)
    return Record(None, (diagnostic,), name, block.first_line)


def _place(diagnostic: Diagnostic, name: str, line: int, column: int | None) -> Diagnostic:
    return Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column, None
    )


def _read_block(block: GameBlock, context: FileContext) -> Record | None:
    if block.text.endswith(_DOS_EOF):
        # Ctrl-Z ends files written by DOS programs: a marker, not content.
        block = dataclasses.replace(block, text=block.text.rstrip(_DOS_EOF))
        if not block.text.strip():
            return None
    raw = parse_block(block)
    decoded = decode_game(raw, context)
    if decoded is None:
        source, board, found = SourceMap(block), None, raw.diagnostics
    else:
        source, board, found = decoded.source, decoded.board, decoded.diagnostics
    found.extend(_text_checks(block, context.lf_only))
    if board is None and not found:
        return None
    number = board.number if board is not None else None
    placed = sorted(
        (place(d, context.name, block.first_line, source, number) for d in found),
        key=_position,
    )
    return Record(board, tuple(placed), context.name, block.first_line, source)


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    return (diagnostic.line or 0, diagnostic.column or 0)


def _text_checks(block: GameBlock, lf_only: bool) -> list[Diagnostic]:
    """Line length and control characters, checked on the whole game at C speed."""
    found: list[Diagnostic] = []
    text = block.text
    long_line = _LONG_LINE_LF if lf_only else _LONG_LINE_CRLF
    for match in long_line.finditer(text):
        found.append(SRC004.at(("offset", match.start()), length=len(match.group())))
    control = _CONTROL.search(text)
    if control:
        char = f"U+{ord(control.group()):04X}"
        found.append(SRC005.at(("offset", control.start()), char=char))
    return found


def read_file(path: str | Path, name: str | None = None) -> Iterator[Record]:
    """Records of a PBN file on disk, streamed."""
    with open(path, "rb") as stream:
        yield from iter_records(stream, str(path) if name is None else name)


def parse(text: str | bytes, name: str = "<string>", *, validate: bool = False) -> ParseResult:
    """Read PBN text leniently: every board and every diagnostic, never an exception."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return collect(iter_records(io.BytesIO(data), name), validate)


def loads(text: str | bytes, name: str = "<string>", *, validate: bool = False) -> list[Board]:
    """Read PBN text strictly: the boards, or ``DiagnosticError`` listing every error."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return strict_boards(iter_records(io.BytesIO(data), name), validate)


def load(fp: BinaryIO | TextIO, *, validate: bool = False) -> list[Board]:
    """``loads`` for an open file (binary preferred; text is re-encoded as UTF-8)."""
    name = getattr(fp, "name", "<stream>")
    data = fp.read()
    return loads(data, str(name), validate=validate)
