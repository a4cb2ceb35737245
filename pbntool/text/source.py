"""Bytes to text: encoding detection and streaming line reading with bounded memory.

PBN is Latin-1 by the standard, but real files are UTF-8, UTF-8 with a BOM, UTF-16, or
Windows-1252.  We read in chunks: a chunk that is valid UTF-8 is decoded as such, otherwise
it is decoded line by line, each line as UTF-8 when it can be and Windows-1252 (then
Latin-1 for the five bytes Windows-1252 leaves undefined) when not.  Decoding never fails.
"""

from __future__ import annotations

import bisect
import codecs
import os
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import AnyStr, BinaryIO

from pbntool.diagnostics import SRC001, SRC002, Diagnostic
from pbntool.records import Record

__all__ = [
    "DEFAULT_MAX_GAME_CHARS",
    "DEFAULT_MAX_RECORD_CHARS",
    "LINE_PIECE_BYTES",
    "MAX_GAME_ENV",
    "MAX_RECORD_ENV",
    "DecodedText",
    "EncodingEvent",
    "LineIndex",
    "LongLine",
    "decode_bytes_line",
    "encoding_record",
    "line_codec",
    "max_game_chars",
    "max_record_chars",
    "sniff_utf16",
]

CHUNK_SIZE = 1 << 20

DEFAULT_MAX_GAME_CHARS = 1 << 20
"""The largest game (or table) a reader parses: far above any real one, low enough that the
memory its parse takes stays small."""
MAX_GAME_ENV = "PBNTOOL_MAX_GAME_SIZE"
"""Where ``--max-game-size`` puts its value (in characters), so that the worker processes a
run starts see it too."""


DEFAULT_MAX_RECORD_CHARS = 16 << 20
"""The largest JSON record (or JSON line, in bytes) the JSON reader holds: a JSON array of
boards written on one line by another tool is one such line."""
MAX_RECORD_ENV = "PBNTOOL_MAX_RECORD_SIZE"
"""Where ``--max-record-size`` puts its value, so that worker processes see it too."""


def max_record_chars() -> int:
    """The JSON record size limit of this process (``--max-record-size``, else the default)."""
    value = os.environ.get(MAX_RECORD_ENV, "")
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_MAX_RECORD_CHARS


def max_game_chars() -> int:
    """The game size limit of this process (``--max-game-size``, else the default)."""
    value = os.environ.get(MAX_GAME_ENV, "")
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_MAX_GAME_CHARS


@dataclass(frozen=True, slots=True)
class EncodingEvent:
    """A fact about the encoding worth reporting: which one, and from which line."""

    encoding: str
    line: int
    from_bom: bool


LINE_PIECE_BYTES = CHUNK_SIZE
"""``DecodedText.piece_bytes`` for a reader that takes a long line in pieces (PBN)."""

DECODE_WINDOW = 8 << 10
"""About this many bytes of whole lines are decoded at a time in a chunk that is not all
UTF-8 (``DecodedText._decode_mixed``)."""


def line_codec(raw: bytes) -> str:
    """The codec of one line, the one rule every reader and editor uses: UTF-8 when valid,
    else Windows-1252, else Latin-1 (for the five bytes Windows-1252 leaves undefined)."""
    for codec in ("utf-8", "cp1252"):
        try:
            raw.decode(codec)
        except UnicodeDecodeError:
            continue
        return codec
    return "latin-1"


def decode_bytes_line(raw: bytes) -> tuple[str, bool]:
    """Decode one line by ``line_codec``.  Returns (text, fell_back)."""
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode(line_codec(raw)), True


class LineIndex:
    """Where the lines of a text start, so an offset becomes a 1-based (line, column);
    built on first use (most texts are never asked: they have no finding)."""

    __slots__ = ("_starts", "_text", "first_line")

    def __init__(self, text: str, first_line: int = 1) -> None:
        self._text = text
        self._starts: list[int] | None = None
        self.first_line = first_line

    def position(self, offset: int) -> tuple[int, int]:
        """The line (counted from ``first_line``) and 1-based column of ``offset``."""
        if self._starts is None:
            starts, index = [0], self._text.find("\n")
            while index >= 0:
                starts.append(index + 1)
                index = self._text.find("\n", index + 1)
            self._starts = starts
        line = bisect.bisect_right(self._starts, offset) - 1
        return self.first_line + line, offset - self._starts[line] + 1


def encoding_record(event: EncodingEvent, name: str) -> Record:
    """The record that reports how an input was decoded (SRC001 or SRC002, no board)."""
    code = SRC002 if event.from_bom or event.encoding.startswith("UTF-16") else SRC001
    found = code.at(encoding=event.encoding)
    diagnostic = Diagnostic(found.code, found.severity, found.message, name, event.line, 1)
    return Record(None, (diagnostic,), name, event.line)


def _line_end(chunk: AnyStr, lf: AnyStr, cr: AnyStr) -> int:
    """Where the last complete line of ``chunk`` (bytes, or UTF-16 text decoded) ends: its
    last LF, else (old Mac line ends) its last CR, but not a CR that ends the chunk: the
    next chunk may start with its LF, and a CR LF cut in two would count as two line ends.
    -1 when the chunk ends no line."""
    cut = chunk.rfind(lf)
    if cut >= 0:
        return cut
    return chunk.rfind(cr, 0, len(chunk) - 1)


def _to_line_end(
    read: Callable[[], AnyStr | None], lf: AnyStr, cr: AnyStr, after_cr: bool
) -> tuple[int, AnyStr | None]:
    """Read on (``read``: the next piece, None at the end of the input) to the end of the
    line being read: its length from here with its line end, and what was read after it
    (None: the input ended first).  ``after_cr``: what was read before ended with a CR."""
    length = 0
    while (piece := read()) is not None:
        if not piece:
            continue  # a decoder's piece may be empty: it tells nothing of the line end
        end = _first_line_end(piece, lf, cr, after_cr)
        if end >= 0:
            return length + end, piece[end:]
        length += len(piece)
        after_cr = piece.endswith(cr)
    return length, None


def _first_line_end(data: AnyStr, lf: AnyStr, cr: AnyStr, after_cr: bool) -> int:
    """Where the first line of ``data`` ends (after its CR LF, LF or CR), or -1 when it does
    not end in ``data``; ``after_cr``: what came before ``data`` ended with a CR, which
    ended the line (taking a LF that starts ``data`` with it).  A CR that ends ``data``
    ends no line yet: its LF may come next."""
    if after_cr:
        return 1 if data[:1] == lf else 0
    ends = [index for index in (data.find(lf), data.find(cr)) if index >= 0]
    if not ends:
        return -1
    first = min(ends)
    if data[first : first + 1] == cr:
        if first == len(data) - 1:
            return -1
        if data[first + 1 : first + 2] == lf:
            first += 1
    return first + 1


def _line_piece(data: bytes) -> tuple[bytes, bytes]:
    """A long line's bytes read so far, cut where decoding a piece cannot go wrong: before a
    final CR (its LF may come next) and before a UTF-8 character not yet complete."""
    end = len(data) - 1 if data.endswith(b"\r") else len(data)
    for back in range(1, min(4, end + 1)):
        byte = data[end - back]
        if byte < 0x80:
            break  # ASCII: no character is unfinished
        if byte >= 0xC0:  # the first byte of a character of this many bytes
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            if back < needed:
                end -= back
            break
    return data[:end], data[end:]


def _normalise_newlines(text: str) -> str:
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


@dataclass
class DecodedText:
    """Iterate over a byte stream as decoded text chunks with line ends normalised to ``\\n``.

    Every chunk but the last ends with a newline, so no line is split between chunks.  After
    (or during) iteration, ``events`` lists encoding facts (BOM, UTF-16, fallback to
    Windows-1252) and ``lf_only`` tells whether any line ended in a bare LF (for the export
    format's CRLF rule).
    """

    stream: BinaryIO
    events: list[EncodingEvent] = field(default_factory=list)
    lf_only: bool = False
    line_count: int = 0
    max_line: int | None = None
    """A line longer than this (in bytes) is not held: its bytes are read and dropped, and a
    ``LongLine`` chunk stands for it (the JSON reader skips such a record).  None: no limit
    (the other readers cut long lines themselves, or bound the games they are in)."""
    piece_bytes: int | None = None
    """A line longer than this comes in pieces of about this size (a chunk then ends with
    no line end; a UTF-8 character or a CR LF is never cut in two), for a reader that holds
    no more of a game than a limit however long its lines (PBN's splitter).  Each piece is
    decoded alone: in a line over this size whose bytes are not all UTF-8, the pieces that
    are UTF-8 are read as such.  None: every chunk but the last ends with a line end."""
    _fell_back: bool = field(default=False, init=False, repr=False)

    def __iter__(self) -> Iterator[str]:
        head = self.stream.read(4)
        encoding = _sniff_utf16(head)
        if encoding is not None:
            yield from self._iter_utf16(head, encoding)
            return
        if head.startswith(codecs.BOM_UTF8):
            self.events.append(EncodingEvent("UTF-8 with BOM", 1, True))
            head = head[3:]
        yield from self._iter_bytes(head)

    def _iter_bytes(self, pending: bytes) -> Iterator[str]:
        # The unfinished line, in pieces: joined once at its end, so a line of many chunks
        # costs linear time (concatenating as we go would copy it once per chunk).
        unfinished = [pending]
        held = len(pending)
        limit = self.max_line
        while True:
            chunk = self.stream.read(CHUNK_SIZE)
            if not chunk:
                data = b"".join(unfinished)
            else:
                cut = _line_end(chunk, b"\n", b"\r")
                if cut < 0:
                    unfinished.append(chunk)
                    held += len(chunk)
                    if limit is not None and held > limit:
                        rest = yield from self._drop_long_line(unfinished)
                        unfinished, held = [rest], len(rest) - rest.rfind(b"\n") - 1
                    elif self.piece_bytes is not None and held >= self.piece_bytes:
                        data, rest = _line_piece(b"".join(unfinished))
                        unfinished, held = [rest], len(rest)
                        yield self._decoded(data)
                    continue
                held = len(chunk) - cut - 1
                unfinished.append(chunk[: cut + 1])
                data = b"".join(unfinished)
                unfinished = [chunk[cut + 1 :]]
            if data:
                yield self._decoded(data)
            if not chunk:
                return

    def _decoded(self, data: bytes) -> str:
        data, lines = self._normalised(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = self._decode_mixed(data, self._fell_back)
            self._fell_back = True
        self.line_count += lines
        return text

    def _normalised(self, data: bytes) -> tuple[bytes, int]:
        """``data`` with its line ends made LF (before decoding: no byte of a multi-byte
        UTF-8 character, nor any Windows-1252 letter, is a CR or an LF), and its number of
        lines; notes a bare LF in ``lf_only``.  A run of a CRLF file (the export format's)
        loses its CRs by ``translate``, a single pass: two ``replace`` passes on the decoded
        text, and counting its lines again, were a third of the planner's time on a
        big file."""
        lines = data.count(b"\n")
        if b"\r" not in data:
            self.lf_only = self.lf_only or lines > 0
            return data, lines
        crlf = data.count(b"\r\n")
        cr = data.count(b"\r")
        self.lf_only = self.lf_only or lines != crlf
        if cr == crlf:  # every CR ends a line with the LF after it
            return data.translate(None, b"\r"), lines
        return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n"), lines + cr - crlf

    def _drop_long_line(self, unfinished: list[bytes]) -> Generator[str, None, bytes]:
        """The lines before an over-long one, then a ``LongLine`` for it, its bytes read up
        to its end and dropped; returns the bytes read after its end."""
        data = b"".join(unfinished)
        start = _line_end(data, b"\n", b"\r") + 1
        if start:
            yield from self._split(data[:start].decode("utf-8", errors="replace"))
        rest_of_line, after = _to_line_end(
            lambda: self.stream.read(CHUNK_SIZE) or None, b"\n", b"\r", data.endswith(b"\r")
        )
        self.line_count += 1
        yield LongLine(self.line_count, len(data) - start + rest_of_line)
        return b"" if after is None else after

    def _decode_mixed(self, data: bytes, reported: bool) -> str:
        """Decode a chunk that is not valid UTF-8 by the one-line rule (``decode_bytes_line``),
        noting the first fallback.  The valid lines between those that fall back are
        decoded in runs (a UTF-8 sequence never holds a line end, so a run's first error is
        in the line that falls back, and the lines before it are valid): line by line, a
        Latin-1 file cost the planner of ``-j`` a Python call per line, three times this.
        A run is decoded whole lines of a window at a time, because an error copies what
        was being decoded into the exception: in a binary file, with an error a line, each
        would copy the rest of its chunk."""
        out: list[str] = []
        view = memoryview(data)
        start, end = 0, len(data)
        while start < end:
            stop = data.rfind(b"\n", start, start + DECODE_WINDOW) + 1  # whole lines
            if stop <= start:  # a line longer than the window: all of it
                stop = data.find(b"\n", start + DECODE_WINDOW) + 1 or end
            try:
                out.append(codecs.utf_8_decode(view[start:stop], "strict", True)[0])
            except UnicodeDecodeError as error:
                bad = start + error.start
            else:
                start = stop
                continue
            line_start = data.rfind(b"\n", start, bad) + 1 or start
            line_end = data.find(b"\n", bad)
            line_end = end if line_end < 0 else line_end
            out.append(codecs.utf_8_decode(view[start:line_start], "strict", True)[0])
            raw = data[line_start:line_end]
            out.append(decode_bytes_line(raw)[0])
            if not reported:
                encoding = "Windows-1252" if _is_cp1252(raw) else "Latin-1"
                line = self.line_count + data.count(b"\n", 0, line_start) + 1
                self.events.append(EncodingEvent(encoding, line, False))
                reported = True
            start = line_end
        return "".join(out)

    def _iter_utf16(self, head: bytes, encoding: str) -> Iterator[str]:
        bom = head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
        label = "UTF-16 LE" if encoding.endswith("le") else "UTF-16 BE"
        self.events.append(EncodingEvent(label, 1, bom))
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        unfinished = [decoder.decode(head[2:] if bom else head)]
        held = len(unfinished[0])  # characters; a UTF-16 code unit is two bytes
        while True:
            chunk = self.stream.read(CHUNK_SIZE)
            decoded = decoder.decode(chunk, final=not chunk)
            if not chunk:
                text = "".join(unfinished) + decoded
            else:
                cut = _line_end(decoded, "\n", "\r")
                if cut < 0:
                    unfinished.append(decoded)
                    held += len(decoded)
                    if self.max_line is not None and 2 * held > self.max_line:
                        rest = yield from self._drop_long_utf16_line(decoder, unfinished)
                        unfinished, held = [rest], len(rest) - _line_end(rest, "\n", "\r") - 1
                    elif self.piece_bytes is not None and 2 * held >= self.piece_bytes:
                        text = "".join(unfinished)
                        keep = len(text) - 1 if text.endswith("\r") else len(text)
                        unfinished, held = [text[keep:]], len(text) - keep
                        yield from self._utf16_text(text[:keep])
                    continue
                unfinished.append(decoded[: cut + 1])
                text = "".join(unfinished)
                unfinished = [decoded[cut + 1 :]]
                held = len(unfinished[0])
            yield from self._utf16_text(text)
            if not chunk:
                return

    def _utf16_text(self, text: str) -> Iterator[str]:
        if text:
            if not self.lf_only and text.count("\n") != text.count("\r\n"):
                self.lf_only = True
            yield from self._split(text)

    def _drop_long_utf16_line(
        self, decoder: codecs.IncrementalDecoder, unfinished: list[str]
    ) -> Generator[str, None, str]:
        """``_drop_long_line`` for UTF-16: the lines before the long one, then a ``LongLine``
        for it, read up to its end and dropped; returns the text read after its end."""
        text = "".join(unfinished)
        start = _line_end(text, "\n", "\r") + 1
        if start:
            yield from self._utf16_text(text[:start])

        def read() -> str | None:
            chunk = self.stream.read(CHUNK_SIZE)
            return decoder.decode(chunk) if chunk else None

        rest_of_line, after = _to_line_end(read, "\n", "\r", text.endswith("\r"))
        self.line_count += 1
        yield LongLine(self.line_count, 2 * (len(text) - start + rest_of_line))  # bytes
        return decoder.decode(b"", final=True) if after is None else after

    def _split(self, text: str) -> Iterator[str]:
        text = _normalise_newlines(text)
        self.line_count += text.count("\n")
        yield text


class LongLine(str):
    """A line over ``DecodedText.max_line``: its number and length in bytes (the text is a
    bare line end, so counting lines still works)."""

    line: int
    length: int

    def __new__(cls, line: int, length: int) -> LongLine:
        made = super().__new__(cls, "\n")
        made.line, made.length = line, length
        return made


def _is_cp1252(raw: bytes) -> bool:
    try:
        raw.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return True


def sniff_utf16(head: bytes) -> str | None:
    """The UTF-16 codec (``utf-16-le``/``utf-16-be``) of a stream's first 4 bytes, by BOM or
    by the NUL pattern of ASCII text in UTF-16 without one; None for a byte encoding."""
    return _sniff_utf16(head)


def _sniff_utf16(head: bytes) -> str | None:
    """UTF-16 by BOM, or by the NUL pattern of ASCII text in UTF-16 without one."""
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le"
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be"
    if len(head) == 4 and head[1] == 0 and head[3] == 0 and head[0] and head[2]:
        return "utf-16-le"
    if len(head) == 4 and head[0] == 0 and head[2] == 0 and head[1] and head[3]:
        return "utf-16-be"
    return None
