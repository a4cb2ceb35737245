"""PBN: read (streaming, lenient), validate, and write canonical export format.

>>> result = parse('[Board "1"]\\n[Dealer "N"]\\n[Contract "3NT"]\\n')
>>> str(result.boards[0].contract)
'3NT'
"""

from __future__ import annotations

import io
import re
import traceback
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO, cast

from pbntool.diagnostics import INT001, SRC004, SRC005, SRC006, SRC009, Diagnostic
from pbntool.formats.pbn.decode import FileContext, SourceMap, decode_game
from pbntool.formats.pbn.fast import LazySource, read_fast
from pbntool.formats.pbn.reader import (
    GameBlock,
    GameSplitter,
    RawGame,
    parse_block,
    split_games,
    split_run_on_games,
)
from pbntool.formats.pbn.writer import WriteOptions, dump, dumps, iter_dump
from pbntool.model import Board
from pbntool.records import ParseResult, Record, collect, place, strict_boards
from pbntool.text.source import (
    LINE_PIECE_BYTES,
    DecodedText,
    EncodingEvent,
    encoding_record,
    max_game_chars,
)

__all__ = [
    "GamePiece",
    "Piece",
    "RegionPiece",
    "WriteOptions",
    "dump",
    "dumps",
    "iter_dump",
    "iter_pieces",
    "iter_records",
    "iter_regions",
    "load",
    "loads",
    "parse",
    "read_file",
    "read_pieces",
]

# At most 255 characters per line, the line end included (CRLF in export format); tab and
# vertical tab are the only control characters PBN allows besides line ends.  One pass finds
# both (anchoring at line starts keeps the long-line search linear and quick).
_CONTROL = r"[\x00-\x08\x0c\x0e-\x1f\x7f]"
_TEXT_PROBLEMS_CRLF = re.compile(rf"(?m)^[^\n]{{254,}}|{_CONTROL}")
_TEXT_PROBLEMS_LF = re.compile(rf"(?m)^[^\n]{{255,}}|{_CONTROL}")
_CONTROL_CHARACTER = re.compile(_CONTROL)


def iter_records(stream: BinaryIO, name: str = "<stdin>", *, fast: bool = True) -> Iterator[Record]:
    """Read a PBN byte stream one game at a time (memory bounded by the game size limit).

    Yields a ``Record`` per game, in file order, plus records with ``board`` None for
    findings that belong to no game (encoding notes, text after the last game).  ``fast``
    False makes every game take the detailed path (the records are the same; tests compare).
    """
    yield from read_pieces(iter_pieces(stream, name), FileContext(name), fast=fast)


@dataclass(frozen=True, slots=True)
class GamePiece:
    """One game's text as the splitter found it, and whether the text read up to it had
    bare LF line ends (what the export check of that game is told)."""

    block: GameBlock
    lf_only: bool


@dataclass(frozen=True, slots=True)
class RegionPiece:
    """Consecutive games not yet split: ``split_games([text], first_line)`` gives them (see
    ``GameSplitter.regions``), each with ``lf_only``."""

    text: str
    first_line: int
    lf_only: bool

    def games(self) -> Iterator[GamePiece]:
        for block in split_games((self.text,), self.first_line):
            yield GamePiece(block, self.lf_only)


Piece = GamePiece | EncodingEvent
"""What the cheap first pass over a PBN stream yields, in file order: games and encoding notes.

``iter_pieces`` (decoding and splitting, at regex speed) and ``read_pieces`` (parsing and
decoding each game) are the two halves of ``iter_records``; a parallel reader runs the first
in one process and the second, on consecutive runs of pieces, in others."""


def iter_pieces(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Piece]:
    """Split a PBN byte stream into games; encoding notes come just before the game they
    fall in, so that findings stay in file order."""
    return cast("Iterator[Piece]", iter_regions(stream, name, 0))  # 0: no region comes


def iter_regions(
    stream: BinaryIO, name: str = "<stdin>", region_chars: int = 0
) -> Iterator[Piece | RegionPiece]:
    """``iter_pieces``, but plain text (no ``{``, no encoding note in it) comes as
    ``RegionPiece``s of ``region_chars`` characters or a game more, split into games only by
    whoever reads them: the planner of ``-j`` then costs a few operations per megabyte, not
    a few per game.  ``region_chars`` 0: every game is split here."""
    text = DecodedText(stream, piece_bytes=LINE_PIECE_BYTES)
    # A game over the limit is not parsed (SRC009): the splitter holds no more of it than
    # that.  One more character: the text held may end with a line end the game does not.
    splitter = GameSplitter(hold=max_game_chars() + 1)
    games = _Games(text)
    chunks = iter(text)
    while True:
        try:
            chunk = next(chunks, None)
        except Exception:
            # What was read before the failure is read, as when each game is split as soon
            # as it ends: the whole games a region left pending.
            yield from games.of(splitter.feed("", final=False))
            raise
        if chunk is None:
            break
        regions = None
        if region_chars and games.caught_up():
            regions = splitter.regions(chunk, region_chars)
        if regions is None:
            yield from games.of(splitter.feed(chunk, final=False))
        else:
            for region, first_line in regions:
                yield RegionPiece(region, first_line, text.lf_only)
    last = splitter.last_region() if region_chars and games.caught_up() else None
    if last is not None:
        yield RegionPiece(last[0], last[1], text.lf_only)
    yield from games.of(splitter.feed("", final=True))
    yield from text.events[games.reported :]


class _Games:
    """Games as pieces, each after the encoding notes that fall in or before it."""

    def __init__(self, text: DecodedText) -> None:
        self.text = text
        self.reported = 0

    def caught_up(self) -> bool:
        """Whether every encoding note found so far is reported (a region holds none)."""
        return self.reported == len(self.text.events)

    def of(self, blocks: Iterable[GameBlock]) -> Iterator[Piece]:
        events = self.text.events
        for block in blocks:
            last_line = block.last_line
            while self.reported < len(events) and events[self.reported].line <= last_line:
                yield events[self.reported]
                self.reported += 1
            yield GamePiece(block, self.text.lf_only)


def read_pieces(
    pieces: Iterable[Piece], context: FileContext, *, fast: bool = True
) -> Iterator[Record]:
    """The records of consecutive pieces of one file; ``context`` carries what one game
    passes on to the next (inheritance, version, export) and is updated in place.  A
    well-formed game takes the fast path (``fast.read_fast``) unless ``fast`` is False."""
    name = context.name
    limit = max_game_chars()
    for piece in pieces:
        if isinstance(piece, EncodingEvent):
            yield encoding_record(piece, name)
            continue
        context.lf_only = piece.lf_only
        block = piece.block
        if block.dropped_chars or len(block.text) > limit:
            yield _oversized(block, name, limit)
            continue
        board = read_fast(block, context) if fast else None
        if board is not None:
            yield Record(board, (), name, block.first_line, LazySource(block))
            continue
        try:
            records = _read_block(piece.block, context)
        except Exception as error:  # a bug of ours must cost one game, not the file
            records = [_internal_error(piece.block, name, error)]
        yield from records


def _oversized(block: GameBlock, name: str, limit: int) -> Record:
    """The finding that a game is too big to parse (SRC009); the games after it are read."""
    found = SRC009.at(what=f"game of {block.size} characters", limit=limit)
    return Record(None, (_place(found, name, block.first_line, 1),), name, block.first_line)


def _internal_error(block: GameBlock, name: str, error: Exception) -> Record:
    detail = traceback.format_exception_only(error)[-1].strip()
    diagnostic = _place(INT001.at(skipped="this game", error=detail), name, block.first_line, 1)
    return Record(None, (diagnostic,), name, block.first_line)


def _place(diagnostic: Diagnostic, name: str, line: int, column: int | None) -> Diagnostic:
    return Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column, None
    )


def _read_block(block: GameBlock, context: FileContext) -> list[Record]:
    """The records of one block: normally one game, more when games ran together."""
    records = []
    games = split_run_on_games(parse_block(block))
    for number, raw in enumerate(games):
        extra = _text_checks(block, context.lf_only) if number == 0 else []
        record = _read_game(raw, context, extra)
        if record is not None:
            records.append(record)
    return records


def _read_game(raw: RawGame, context: FileContext, extra: list[Diagnostic]) -> Record | None:
    block = raw.block
    decoded = decode_game(raw, context)
    if decoded is None:
        source, board, found = SourceMap(block), None, raw.diagnostics
    else:
        source, board, found = decoded.source, decoded.board, decoded.diagnostics
    found.extend(extra)
    if board is None and not found:
        return None
    line = source.position(raw.start)[0] if raw.start else block.first_line
    number = board.number if board is not None else None
    placed = sorted(
        (place(d, context.name, line, source, number) for d in _capped(found)),
        key=_position,
    )
    return Record(board, tuple(placed), context.name, line, source)


MAX_PER_CODE = 50
"""A game lists at most this many findings of one code (garbage input can make millions)."""


def _capped(found: list[Diagnostic]) -> list[Diagnostic]:
    """The findings, with any code past ``MAX_PER_CODE`` replaced by one SRC006 count."""
    if len(found) <= MAX_PER_CODE:
        return found
    counts = Counter(d.code for d in found)
    if max(counts.values()) <= MAX_PER_CODE:
        return found
    kept: list[Diagnostic] = []
    seen: Counter[str] = Counter()
    for diagnostic in found:
        seen[diagnostic.code] += 1
        if seen[diagnostic.code] <= MAX_PER_CODE:
            kept.append(diagnostic)
        elif seen[diagnostic.code] == MAX_PER_CODE + 1:
            extra = counts[diagnostic.code] - MAX_PER_CODE
            kept.append(SRC006.at(diagnostic.path, count=extra, code=diagnostic.code))
    return kept


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    return (diagnostic.line or 0, diagnostic.column or 0)


def _text_checks(block: GameBlock, lf_only: bool) -> list[Diagnostic]:
    """Line length and control characters, checked on the whole game at C speed."""
    found: list[Diagnostic] = []
    control_seen = False
    problems = _TEXT_PROBLEMS_LF if lf_only else _TEXT_PROBLEMS_CRLF
    for match in problems.finditer(block.text):
        text, start = match.group(), match.start()
        if len(text) > 1:
            found.append(SRC004.at(("offset", start), length=len(text)))
            control = _CONTROL_CHARACTER.search(text)  # a long line hides its own
            if control is None:
                continue
            text, start = control.group(), start + control.start()
        if not control_seen:  # the first control character is enough to report
            control_seen = True
            found.append(SRC005.at(("offset", start), char=f"U+{ord(text):04X}"))
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
