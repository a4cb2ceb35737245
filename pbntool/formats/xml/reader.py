"""Reading XML documents of the pbntool vocabulary, streamed, as untrusted input.

* The prolog is checked before the parser sees a byte: a document type declaration is
  refused (XML002), so no entity is ever declared (no billion laughs, no external entity,
  no file or network read) and no DTD is loaded.  The parser is configured the same way
  (``resolve_entities=False``, ``no_network``, no DTD loading, libxml2's limits on text
  size and depth kept), and the parser's own record of a DTD, whatever the prolog (a byte
  order mark, more than ``MAX_PROLOG_BYTES`` of comments), refuses the document when its
  root element starts, before any value is read.
* The document is fed to lxml's pull parser in chunks; each ``<board>`` is converted when it
  ends and detached from the tree when the next one starts (once the text after it is
  known), so memory holds the boards of one chunk at most.  A board of
  more than ``MAX_BOARD_ELEMENTS`` elements, or nested deeper than ``MAX_BOARD_DEPTH``, is
  skipped (XML011) and its children dropped as they end.
* A syntax error ends the input (XML001) at the line and column the parser gives; the boards
  before it have been read.  Findings about a board point at the element (and attribute)
  they are about: the line comes from the parser, the column from the text of that line.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from lxml import etree

from pbntool.diagnostics import (
    XML001,
    XML002,
    XML003,
    XML004,
    XML006,
    XML007,
    XML008,
    XML009,
    XML010,
    XML011,
    XML012,
    Diagnostic,
    Path,
)
from pbntool.formats.interchange.fromdict import Dialect, JsonPath, ModelDecoder, describe
from pbntool.formats.interchange.paths import model_path
from pbntool.formats.interchange.vocabulary import SCHEMA_ID
from pbntool.formats.xml.board import board_model
from pbntool.formats.xml.convert import TEXT_MARKER, Converter, Node, local_name, where
from pbntool.model import Board
from pbntool.records import Record, place

__all__ = [
    "CHUNK_SIZE",
    "MAX_BOARD_DEPTH",
    "MAX_BOARD_ELEMENTS",
    "MAX_LINE_CHARS",
    "XmlLocator",
    "iter_records",
    "safe_pull_parser",
]

CHUNK_SIZE = 1 << 16
MAX_BOARD_ELEMENTS = 50_000
"""A board with more elements inside it than this is skipped (the largest board of the corpus,
with a big score table, has about 3,000)."""
MAX_BOARD_DEPTH = 16
"""A board nesting elements deeper than this is skipped (the vocabulary needs 4 levels)."""
MAX_LINE_CHARS = 1 << 20
"""Only this much of a line is kept for finding columns (a document may be one line)."""
MAX_PROLOG_BYTES = 1 << 20

_PROLOG_ITEM = re.compile(r"\s+|<\?.*?\?>|<!--.*?-->", re.S)


@dataclass
class _Lines:
    """The text of the lines of the current board, for columns (each cut at MAX_LINE_CHARS)."""

    decoder: codecs.IncrementalDecoder
    lines: dict[int, str] = field(default_factory=dict)
    number: int = 1
    first: int = 1
    """The first line still kept."""
    pending: str = ""
    cut: bool = False
    """The current line is longer than MAX_LINE_CHARS: the rest of it is dropped."""

    def feed(self, data: bytes, final: bool = False) -> None:
        text = self.decoder.decode(data, final)
        if self.cut:
            end = text.find("\n")
            if end < 0:
                return
            text, self.cut = text[end:], False
        parts = (self.pending + text).split("\n")
        self.pending = parts.pop()
        if final:
            parts.append(self.pending)
            self.pending = ""
        elif len(self.pending) > MAX_LINE_CHARS:
            self.pending, self.cut = self.pending[:MAX_LINE_CHARS], True
        for part in parts:
            self.lines[self.number] = part[:MAX_LINE_CHARS]
            self.number += 1

    def text(self, number: int) -> str:
        if number == self.number:
            return self.pending
        return self.lines.get(number, "")

    def keep_from(self, number: int) -> None:
        for old in range(self.first, number):
            self.lines.pop(old, None)
        self.first = max(self.first, number)

    def copy(self, first: int, last: int) -> dict[int, str]:
        return {number: self.text(number) for number in range(first, last + 1)}


def _decoder_for(head: bytes) -> codecs.IncrementalDecoder:
    if head.startswith((codecs.BOM_UTF16_LE, b"<\x00")):
        return codecs.getincrementaldecoder("utf-16-le")(errors="replace")
    if head.startswith((codecs.BOM_UTF16_BE, b"\x00<")):
        return codecs.getincrementaldecoder("utf-16-be")(errors="replace")
    return codecs.getincrementaldecoder("utf-8-sig")(errors="replace")


def _refused(head: bytes) -> tuple[str | None, bool, tuple[int, int]]:
    """(what is refused, whether the prolog was seen whole, where) from the first bytes."""
    text = _decoder_for(head).decode(head).removeprefix("\ufeff")
    position = 0
    while True:
        match = _PROLOG_ITEM.match(text, position)
        if match is None:
            break
        position = match.end()
    rest = text[position:]
    line = text.count("\n", 0, position) + 1
    where = (line, position - text.rfind("\n", 0, position))
    if rest[:9].upper() == "<!DOCTYPE":
        return "document type declaration", True, where
    if rest.startswith("<!ENTITY"):
        return "entity declaration", True, where
    complete = bool(rest) and not rest.startswith(("<!--", "<?"))
    return None, complete, where


def safe_pull_parser() -> etree.XMLPullParser:
    """The locked-down pull parser of untrusted XML (also USEBIO's): no entity expansion, no
    DTD loading, no network, libxml2's size limits kept."""
    return _parser()


def _declares_a_dtd(root: etree._Element) -> bool:
    """Whether the parser met a document type declaration before the root element.

    The prolog check misses what it cannot see (a prolog longer than it reads, an encoding it
    does not decode) and libxml2 substitutes internal entities in attribute values whatever
    ``resolve_entities`` says, so the parser's own account of the document decides: no value
    read after a DTD is ever used."""
    info = root.getroottree().docinfo
    return bool(info.doctype) or info.internalDTD is not None or info.externalDTD is not None


def _parser() -> etree.XMLPullParser:
    return etree.XMLPullParser(
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
    )


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """Read the boards of an XML document, one ``Record`` per ``<board>``, never raising."""
    yield from _Document(name).read(stream)


_Event = tuple[str, etree._Element]

_SKIPPED_MARKUP = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.S)
_START_TAG = re.compile(
    r"""<[^\W\d][\w.:-]*(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(/?)(>?)"""
)
_END_TAG = re.compile(r"</[^>]*>")


def _real_events(
    events: Sequence[_Event],
    lines: _Lines,
    before: tuple[int, int, int],
    line: int,
    column: int,
) -> int:
    """How many of the events a parser gave up to a syntax error come from the text before
    the error.  Some libxml2 releases (lxml 6.2's) then invent events: a start for the tag
    the error cut (``<card`` with no attributes) and an end for every element still open, so
    that the board cut off by the error would end and be read as if it were whole.

    Invented events can only follow the last start tag read, so the text from the line of
    the last start event up to the error decides: whether the cut tag has an event (the
    start tags of that line against its start events; ``before`` is the line of the last
    start event before these events, how many started on it and how many elements ended
    after it), and how many elements end after the last whole start tag (its own ``/>`` and
    the end tags after it).  All events are taken as real when that text was not kept."""
    starts = [index for index, (event, _) in enumerate(events) if event == "start"]
    last_line, on_line, ends_read = before
    for index in starts:
        number = events[index][1].sourceline or 0
        last_line, on_line = number, (on_line + 1 if number == last_line else 1)
    text = _TextBeforeError.of(lines, last_line, line, column)
    if text is None:
        return len(events)
    if starts and text.cut_tag_on_first_line and text.tags_on_first_line == on_line:
        return starts[-1]  # the cut tag's own start, and every end after it, are made up
    if text.ends_after_last_whole_tag is None:
        return len(events)
    first_end = starts[-1] + 1 if starts else 0
    ended = text.ends_after_last_whole_tag - (0 if starts else ends_read)
    return first_end + max(0, min(ended, len(events) - first_end))


@dataclass(frozen=True)
class _TextBeforeError:
    tags_on_first_line: int
    cut_tag_on_first_line: bool
    ends_after_last_whole_tag: int | None

    @classmethod
    def of(cls, lines: _Lines, first: int, line: int, column: int) -> _TextBeforeError | None:
        """The start and end tags from line ``first`` to the error at ``line`` and
        ``column`` (libxml2 counts bytes); None when those lines were not kept whole."""
        if not lines.first <= first <= line <= lines.number or lines.cut:
            return None
        parts = [lines.text(number) for number in range(first, line + 1)]
        if any(len(part) >= MAX_LINE_CHARS for part in parts):
            return None
        cut = parts[-1].encode("utf-8")[: max(column - 1, 0)]
        parts[-1] = cut.decode("utf-8", errors="ignore")
        # Blanked out, not removed, so that the first line keeps its length.
        text = _SKIPPED_MARKUP.sub(lambda found: re.sub(r"[^\n]", " ", found[0]), "\n".join(parts))
        first_line_end = len(parts[0])
        tags = list(_START_TAG.finditer(text))
        whole = [tag for tag in tags if tag.group(2)]
        cut_tag = tags[-1] if tags and not tags[-1].group(2) else None
        ends: int | None = None
        if whole:
            last = whole[-1]
            until = cut_tag.start() if cut_tag is not None else len(text)
            ends = (1 if last.group(1) else 0) + len(_END_TAG.findall(text, last.end(), until))
        return cls(
            sum(1 for tag in tags if tag.start() < first_line_end),
            cut_tag is not None and cut_tag.start() < first_line_end,
            ends,
        )


@dataclass
class _Document:
    name: str
    depth: int = 0
    root: str | None = None
    board: etree._Element | None = None
    """The board being read (or an element of another name where boards are)."""
    board_elements: int = 0
    too_big: str | None = None
    """Why the board being read is skipped, once it is known."""
    previous: etree._Element | None = None
    """The board element read last, still in the tree until the next one starts."""
    stopped: bool = False
    last_start_line: int = 0
    starts_on_line: int = 0
    ends_since_start: int = 0
    """The line where the last element read started, how many started on it, and how many
    elements ended since (see ``_real_events``)."""

    def read(self, stream: BinaryIO) -> Iterator[Record]:
        head = b""
        while len(head) < MAX_PROLOG_BYTES:
            chunk = stream.read(CHUNK_SIZE)
            head += chunk
            refused, complete, (line, column) = _refused(head)
            if refused is not None:
                yield self._failure(XML002.at(what=refused), line, column)
                return
            if complete or not chunk:
                break
        lines = _Lines(_decoder_for(head))
        parser = _parser()
        data = head
        while not self.stopped:
            lines.feed(data, final=not data)
            try:
                if data:
                    parser.feed(data)
                else:
                    parser.close()
            except etree.XMLSyntaxError as error:
                line, column = error.position
                events = list(parser.read_events())
                before = (self.last_start_line, self.starts_on_line, self.ends_since_start)
                real = _real_events(events, lines, before, line, column)
                yield from self._handle(events[:real], lines)
                detail = re.sub(r",? line \d+, column \d+$", "", error.msg)
                yield self._failure(XML001.at(detail=detail), line or 1, max(column, 1))
                return
            yield from self._events(parser, lines)
            if not data:
                return
            data = stream.read(CHUNK_SIZE)

    def _failure(self, diagnostic: Diagnostic, line: int, column: int) -> Record:
        placed = Diagnostic(
            diagnostic.code, diagnostic.severity, diagnostic.message, self.name, line, column
        )
        return Record(None, (placed,), self.name, line)

    def _events(self, parser: etree.XMLPullParser, lines: _Lines) -> Iterator[Record]:
        yield from self._handle(parser.read_events(), lines)

    def _handle(self, events: Iterable[_Event], lines: _Lines) -> Iterator[Record]:
        for event, element in events:
            if self.stopped:
                return
            if event == "start":
                number = element.sourceline or 0
                same = number == self.last_start_line
                self.last_start_line = number
                self.starts_on_line = self.starts_on_line + 1 if same else 1
                self.ends_since_start = 0
                yield from self._start(element)
                self.depth += 1
            else:
                self.depth -= 1
                self.ends_since_start += 1
                yield from self._end(element, lines)

    def _start(self, element: etree._Element) -> Iterator[Record]:
        if self.depth == 0:
            if _declares_a_dtd(element):
                yield self._failure(XML002.at(what="document type declaration"), 1, 1)
                self.stopped = True
                return
            self.root = local_name(element)
            if self.root not in ("boards", "board"):
                found = f"{etree.QName(element).localname}" if self.root is None else self.root
                line = element.sourceline or 1
                yield self._failure(XML003.at(found=found), line, 1)
                self.stopped = True
                return
            version = element.get("version")
            if self.root == "boards" and version != SCHEMA_ID:
                found = "(none)" if version is None else describe(version)
                warning = XML010.at(found=found, expected=SCHEMA_ID)
                yield self._failure(warning, element.sourceline or 1, 1)
        if self._is_board_level():
            yield from self._drop_previous()
            self.board, self.board_elements, self.too_big = element, 0, None
        elif self.board is not None:
            self.board_elements += 1
            if self.too_big is not None:
                return
            if self.board_elements > MAX_BOARD_ELEMENTS:
                self.too_big = f"holds more than {MAX_BOARD_ELEMENTS} elements"
            elif self.depth - self._board_depth() > MAX_BOARD_DEPTH:
                self.too_big = f"nests elements more than {MAX_BOARD_DEPTH} levels deep"

    def _is_board_level(self) -> bool:
        return (self.depth == 0 and self.root == "board") or (
            self.depth == 1 and self.root == "boards"
        )

    def _end(self, element: etree._Element, lines: _Lines) -> Iterator[Record]:
        if self.board is not None and element is not self.board:
            if self.too_big is not None and self.depth == self._board_depth() + 1:
                self.board.remove(element)  # an oversized board: let nothing pile up
            return
        if element is self.board:
            self.board = None
            if local_name(element) == "board":
                record = self._board(element, lines)
            else:
                name = etree.QName(element).localname if isinstance(element.tag, str) else "?"
                found = XML004.at(name=name, parent="boards")
                record = self._failure(found, element.sourceline or 1, 1)
            self.previous = element  # dropped when the next one starts: its tail is read then
            yield record
            return
        if self.depth == 0 and self.root == "boards":
            yield from self._drop_previous()
            yield from self._root_leftovers(element)

    def _board_depth(self) -> int:
        return 0 if self.root == "board" else 1

    def _drop_previous(self) -> Iterator[Record]:
        """Detach the board read before (the document never holds more than two), after
        reporting any text that follows it."""
        previous, self.previous = self.previous, None
        if previous is None:
            return
        yield from self._stray(previous.tail, previous.getparent(), previous.sourceline)
        parent = previous.getparent()
        if parent is not None:
            parent.remove(previous)

    def _root_leftovers(self, root: etree._Element) -> Iterator[Record]:
        """Text in the root element before its first board."""
        yield from self._stray(root.text, root, root.sourceline)

    def _stray(
        self, text: str | None, owner: etree._Element | None, line: int | None
    ) -> Iterator[Record]:
        if text is not None and text.strip() and owner is not None:
            name = local_name(owner) or "?"
            warning = XML012.at(text=describe(text.strip()), owner=name)
            yield self._failure(warning, line or 1, 1)

    def _board(self, element: etree._Element, lines: _Lines) -> Record:
        line = element.sourceline or 1
        if self.too_big is not None:
            return self._failure(XML011.at(detail=self.too_big), line, 1)
        converter = Converter()
        model = board_model(converter, element)
        last = max((node.sourceline or line) for node in element.iter())
        locator = XmlLocator(converter, lines.copy(line, last))
        lines.keep_from(last)
        dialect = Dialect("xml", XML006, XML007, None, XML008, XML009, locator.where)
        decoder = ModelDecoder(dialect)
        board = decoder.board(model)
        locator.board = board
        found = [*converter.found, *decoder.found]
        found.sort(key=lambda d: locator.sort_key(d.path))
        number = board.number if board is not None else None
        placed = tuple(place(d, self.name, line, locator, number) for d in found)
        return Record(board, placed, self.name, line, locator)


# --- positions ------------------------------------------------------------------------------------


@dataclass
class XmlLocator:
    """Places findings at elements: an offset is an index into the positions found so far."""

    converter: Converter
    lines: dict[int, str]
    board: Board | None = None
    positions: list[tuple[int, int]] = field(default_factory=list)

    def node(self, path: Path | None) -> Node | None:
        if not path:
            return None
        if path[0] == "xml":
            if len(path) == 3 and path[1] == "#":
                return self.converter.nodes[int(path[2])]
            return self.converter.node(tuple(path[1:]))
        steps = model_path(path, self.board)
        return None if steps is None else self.converter.node(steps)

    def where(self, path: JsonPath) -> str:
        return where(self.converter.node(path))

    def sort_key(self, path: Path | None) -> tuple[int, int]:
        node = self.node(path)
        return (0, 0) if node is None else self._position(node)

    def offset(self, path: Path | None) -> int | None:
        node = self.node(path)
        if node is None:
            return None
        self.positions.append(self._position(node))
        return len(self.positions) - 1

    def position(self, offset: int) -> tuple[int, int]:
        return self.positions[offset]

    def _position(self, node: Node) -> tuple[int, int]:
        element, attribute = node
        line = element.sourceline or 1
        if attribute is not None and attribute.startswith(TEXT_MARKER):
            return self._text_position(line, attribute.removeprefix(TEXT_MARKER))
        text = self.lines.get(line, "")
        column = _element_column(element, text)
        if column is not None and attribute is not None:
            found = re.compile(rf"\s{re.escape(attribute)}\s*=").search(text, column)
            if found is not None:
                return line, found.start() + 2
        return line, (column + 1) if column is not None else 1

    def _text_position(self, line: int, text: str) -> tuple[int, int]:
        """The first place of ``text`` from ``line`` on (the line itself if not found)."""
        for number in sorted(found for found in self.lines if found >= line):
            column = self.lines[number].find(text)
            if column >= 0:
                return number, column + 1
        return line, 1


def _element_column(element: etree._Element, text: str) -> int | None:
    """Offset of the element's ``<`` in its line: the n-th start tag of its name there."""
    name = etree.QName(element).localname
    line = element.sourceline
    root = element
    while root.getparent() is not None:
        root = root.getparent()  # type: ignore[assignment]
    before = 0
    for other in root.iter(str(element.tag)):
        if other is element:
            break
        if other.sourceline == line:
            before += 1
    pattern = re.compile(rf"<(?:[\w.-]+:)?{re.escape(name)}(?=[\s/>])")
    for index, match in enumerate(pattern.finditer(text)):
        if index == before:
            return match.start()
    return None
