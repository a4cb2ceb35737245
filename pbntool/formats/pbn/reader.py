"""PBN syntax: split a stream into games and parse each game with the Lark grammar.

The output of this module is a ``RawGame`` per game: tag pairs with their unescaped values,
the section data after each tag, commentary attached to what precedes it, and PBN0xx
diagnostics.  Meaning (what a Deal or a call is) is the decoder's job.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbntool.diagnostics import PBN001, PBN002, PBN003, PBN004, PBN137, PBN138, Diagnostic
from pbntool.formats.pbn.tags import KNOWN_TAGS, SECTION_TAGS
from pbntool.model import Comment, CommentKind, pickle_by_fields, pickle_by_init

if TYPE_CHECKING:
    from lark import Token

# The grammar (pbntool.text.grammars, with Lark) is imported when a game first needs it: a
# file of well-formed games is read on the fast path (fast.py) and never loads Lark, whose
# import and tables cost a fifth of a second of start-up.

__all__ = [
    "GameBlock",
    "GameSplitter",
    "Piece",
    "RawGame",
    "RawTag",
    "parse_block",
    "split_games",
    "split_run_on_games",
]

MAX_BRACE_CHARS = 16 << 20
"""A brace comment longer than this is taken to be unterminated (bounds memory)."""

# A line end followed by one or more semi-empty lines: the end of a game (PBN §3.1).
# "A semi-empty line is an empty line, or a line containing only spaces or tabs."
_SEPARATOR = re.compile(r"\n(?:[ \t]*\n)+")
_LEADING_BLANK_LINES = re.compile(r"(?:[ \t]*\n)+")
_BLANKS_TO_THE_END = re.compile(r"[ \t]*\Z")
# What can hide a "{" from the brace scanner: strings, ";" comments, escape lines.
_BRACE_SCAN = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?|;[^\n]*|\{[^}]*\}?|^%[^\n]*', re.M)
_DOS_EOF = "\x1a"
# A line that starts a game: a "{" comment whose "}" comes only after such a line ran away
# (e.g. "{par 7NT N]", closed by the wrong bracket) and would swallow the games in between.
# Only a line that is that tag pair alone counts: '[Board "9"] is only commentary' is text.
_GAME_START_LINE = re.compile(
    r'\n\[[ \t]*(?:Event|Board|Deal)[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*\][ \t]*(?=\n|$)'
)
# The parts of a malformed tag pair (a BAD_TAG token holds no newline, "[" or inner "]").
_BAD_TAG_PARTS = re.compile(r'\[[ \t]*([A-Za-z0-9_]*)[ \t]*("?)([^"\]]*)("?)[^\]]*(\]?)$')


@dataclass(frozen=True, slots=True)
class GameBlock:
    """The text of one game (line ends normalised to ``\\n``) and where it starts in the file."""

    text: str
    first_line: int
    unclosed_braces: tuple[int, ...] = ()
    """Offsets in ``text`` of ``{`` that were never closed (read as stray characters)."""
    runaway_comments: tuple[tuple[int, int, int], ...] = ()
    """``(start, end, gap)``: offsets in ``text`` of ``{`` comments whose ``}`` came only
    after a line that starts a game, which is ``gap`` lines after ``end``.  Each is read as
    ending at ``end`` (the line end after its last line of text, or the end of the text), so
    the game after it is read (PBN138)."""
    dropped_chars: int = 0
    """Characters of a game over the splitter's ``hold`` that were read and not kept (its
    start: ``text`` is the rest); such a game is too big to parse (SRC009) whatever it holds."""
    dropped_lines: int = 0
    """Line ends in the dropped characters."""

    @property
    def size(self) -> int:
        """The game's length in characters, the dropped ones included."""
        return self.dropped_chars + len(self.text)

    @property
    def last_line(self) -> int:
        return self.first_line + self.dropped_lines + self.text.count("\n")


def split_games(chunks: Iterable[str], first_line: int = 1) -> Iterator[GameBlock]:
    """Split text into games at semi-empty lines that are not inside a ``{ }`` comment.

    ``chunks`` are pieces of the decoded text, each ending at a line end.  Splitting runs at
    regex speed; only games that contain ``{`` are scanned for comments.  A ``{`` never closed
    (before the end of the input, or within ``MAX_BRACE_CHARS``) is read as a stray character,
    so one unclosed comment never swallows the games after it.
    """
    splitter = GameSplitter(line=first_line)
    for chunk in chunks:
        yield from splitter.feed(chunk, final=False)
    yield from splitter.feed("", final=True)


@dataclass(slots=True)
class GameSplitter:
    """``split_games``, fed a chunk at a time; ``regions`` leaves the splitting of plain text
    to whoever reads it (a worker of ``-j``)."""

    text: str = ""
    line: int = 1
    """File line number of ``text[0]``."""
    base: int = 0
    """File offset of ``text[0]`` (to remember stray braces across chunks)."""
    stray_braces: list[int] = field(default_factory=list)
    """File offsets of ``{`` read as stray characters, in increasing order."""
    stray_set: set[int] = field(default_factory=set)
    no_comments_from: float = float("inf")
    """File offset after which no ``}`` exists, so no ``{`` can open a comment."""
    runaways: dict[int, tuple[int, int]] = field(default_factory=dict)
    """File offsets of runaway ``{`` comments (see ``GameBlock.runaway_comments``) to their
    end's file offset and the lines from there to the game's first line."""
    hold: int | None = None
    """The most characters of one game held while waiting for its end (None: no limit).  A
    game longer than this is read on and dropped a line at a time (a long line in parts),
    and comes out with only its end as text (``GameBlock.dropped_chars``): a game of a
    gigabyte, even on one line, costs about the memory of one at the limit, and linear time.
    It ends where it would have ended held whole: only text whose reading nothing after it
    can change is dropped.  Held whole still: a ``{`` comment not yet closed (up to
    ``MAX_BRACE_CHARS``) and a line of nothing but blanks (a separator may start there)."""
    dropped: tuple[int, int, int] | None = None
    """For the game being dropped: its first line, the characters and line ends dropped."""
    long_line: int = 1 << 16
    """A game being dropped whose last line is longer than this is cut inside the line (see
    ``_line_cut``), so that one endless line costs no more memory than a game at the limit."""
    context: int = 0
    """While a game is dropped: 1 when ``text`` starts with a character standing for the
    scan's state where the text was cut inside a line (not part of the text)."""

    def feed(self, chunk: str, final: bool) -> Iterator[GameBlock]:
        text = self.text + chunk if self.text else chunk
        if final:
            # Ctrl-Z ends files written by DOS programs: a marker, not content.
            text = text.rstrip(_DOS_EOF)
        # A game being dropped goes on at the start of the text, and its scan re-reads the
        # character that stands for the state it was cut in; else blank lines come first.
        start = self.context if self.dropped else self._skip_blank_lines(text, 0)
        scan = 0 if self.dropped else start
        while start < len(text) or (final and self.dropped):
            end, resume, settled = self._game_end(text, start, final, scan)
            if end < 0:
                if self.dropped or (self.hold is not None and settled[0] - start > self.hold):
                    self._drop(text, start, *settled)
                    return
                break
            yield self._block(text, start, end)
            self.line += text.count("\n", start, resume)
            start = scan = self._skip_blank_lines(text, resume)
        if self.dropped:
            return  # no text came after what was kept: it stays as it is
        self.base += start
        self.text = text[start:]

    def _drop(self, text: str, start: int, settled: int, state: str) -> None:
        """Drop the game's text from ``start`` to ``settled`` (what no more input can change
        the reading of), keeping the rest after ``state`` (see ``_line_cut``)."""
        if settled <= start:  # nothing more can go yet: the text stays, with its state
            self.text = text
            return
        first_line, chars, lines = self.dropped or (self.line, 0, 0)
        line_ends = text.count("\n", start, settled)
        self.dropped = (first_line, chars + settled - start, lines + line_ends)
        self.line += line_ends
        self.base += settled - len(state)
        self.text = state + text[settled:]
        self.context = len(state)

    def regions(self, chunk: str, limit: int) -> list[tuple[str, int]] | None:
        """Games ``feed(chunk)`` would yield, as runs of text of at least ``limit``
        characters (cut at the first separator after that), each with its first line, for
        ``split_games([run], first_line)`` to split into exactly those games; the rest stays
        pending (``feed("")`` splits it).  None when the text pending or ``chunk`` holds a
        ``{``: then ``feed`` must split it (a comment can hold a separator, and unclosed
        braces are state)."""
        if not self._plain(chunk) or self.dropped or self._holding_too_much():
            return None  # ``feed`` drops a game over ``hold``
        text = self.text + chunk if self.text else chunk

        def ends() -> Iterator[int]:
            start = 0
            while (separator := _SEPARATOR.search(text, start + max(limit, 1))) is not None:
                start = separator.end()
                yield start

        return self._cut(text, ends())

    def last_region(self) -> tuple[str, int] | None:
        """At the end of the input, the whole games pending (see ``regions``) as one run;
        the last game, which no separator ends, stays for ``feed("", final=True)``."""
        if not self._plain(""):
            return None
        end = max((separator.end() for separator in _SEPARATOR.finditer(self.text)), default=0)
        return self._cut(self.text, [end])[0] if end else None

    def _holding_too_much(self) -> bool:
        return self.hold is not None and len(self.text) > self.hold

    def _plain(self, chunk: str) -> bool:
        return not self.runaways and "{" not in chunk and "{" not in self.text

    def _cut(self, text: str, ends: Iterable[int]) -> list[tuple[str, int]]:
        """The runs of ``text`` up to each of ``ends`` (increasing) with their first lines;
        what follows the last stays pending."""
        runs = []
        start = 0
        for end in ends:
            runs.append((text[start:end], self.line))
            self.line += text.count("\n", start, end)
            start = end
        self.base += start
        self.text = text[start:]
        return runs

    def _skip_blank_lines(self, text: str, position: int) -> int:
        match = _LEADING_BLANK_LINES.match(text, position)
        if match is None:
            return position
        self.line += text.count("\n", position, match.end())
        return match.end()

    def _game_end(
        self, text: str, start: int, final: bool, scan: int
    ) -> tuple[int, int, tuple[int, str]]:
        """(end of the game, start of what follows, _), or (-1, -1, (settled, state)) if more
        input is needed: the text before ``settled`` is read as it will be whatever comes
        next (see ``_settled``).  The scan for separators and braces starts at ``scan``."""
        position = scan
        while True:
            separator = _SEPARATOR.search(text, position)
            limit = separator.start() if separator else len(text)
            brace = self._open_brace(text, position, limit)
            if brace < 0:
                if separator is not None:
                    return separator.start(), separator.end(), _NOT_SETTLED
                if final:
                    return len(text), len(text), _NOT_SETTLED
                return -1, -1, self._settled(text, start, position)
            close = text.find("}", brace)
            if close >= 0:
                end, gap = _runaway_end(text, brace, close)
                if end >= 0:
                    self.runaways[self.base + brace] = (self.base + end, gap)
                    position = end
                    continue
                position = close + 1
                continue
            if not final and len(text) - brace <= MAX_BRACE_CHARS:
                return -1, -1, (brace, "")
            # Never closed: read this "{" as a stray character and go on after it.  With no
            # "}" anywhere after it, no later "{" can open a comment either (this keeps a file
            # of a million "{" linear).
            self._mark_stray(self.base + brace)
            if final:
                self.no_comments_from = min(self.no_comments_from, self.base + brace)
            position = brace + 1

    def _settled(self, text: str, start: int, position: int) -> tuple[int, str]:
        """Where the text of a game from ``start`` (with no separator and no open ``{`` from
        ``position``, where the scan is between tokens) can be cut without changing how the
        rest is read: at its last line end (a separator may start there, and strings, ``;``
        and ``%`` are scanned afresh on the next line), or at the ``{`` of a comment that
        goes on over it; in a last line longer than ``long_line``, inside it (``_line_cut``).
        With the state the text after the cut is to be scanned in ("" for none)."""
        cut = text.rfind("\n", position)
        if cut >= 0:
            spanning = self._open_brace(text, position, cut)  # a comment over the line end
            if spanning >= 0:
                return spanning, ""
            position = cut + 1
        at_line_end = (max(cut, start), "")
        if len(text) - position <= self.long_line:
            return at_line_end
        if _BLANKS_TO_THE_END.match(text, position):
            return at_line_end  # a semi-empty line yet: a separator may still start before it
        return self._line_cut(text, position, start) or at_line_end

    def _line_cut(self, text: str, position: int, start: int) -> tuple[int, str] | None:
        """A cut near the end of the last line (which starts at ``position``, between tokens)
        and the scan's state there, as the one character that puts a scan in that state:
        ``"`` inside a string, ``;`` inside the rest of a line (a ``;`` comment, a ``%``
        line), ``x`` between tokens (it is no line start, so a ``%`` after it is text).
        The line holds no open ``{``: a ``{`` not closed in it is read as a character.
        None when nothing after ``start`` would go (a Ctrl-Z run that may end the file ends
        the line: a line end before it would not be part of the game)."""
        end = len(text)
        state = "x"
        nearest: dict[str, int] = {}
        while (match := _next_token(text, position, end, nearest)) is not None:
            token = match.group()
            if token[0] == "{":
                closed = token.endswith("}") and self.base + match.start() not in self.stray_set
                position = match.end() if closed else match.start() + 1
            elif token[0] == '"' and not _string_closed(token):
                state = '"'  # to the end, or to a last backslash, whose escape is yet to come
                end = match.end()
                break
            elif token[0] in ";%":
                state = ";"
                break
            else:
                position = match.end()
        # Ctrl-Z at the very end may be the file's end mark, not part of the game: kept,
        # with a backslash that would escape the first of them.
        run = end
        while run > max(position, end - _EOF_RUN_HELD) and text[run - 1] == _DOS_EOF:
            run -= 1
        if run < end and state == '"':
            backslashes = run - len(text[position:run].rstrip("\\")) - position
            run -= backslashes % 2
        return (run, state) if run > max(position, start) else None

    def _mark_stray(self, offset: int) -> None:
        if offset not in self.stray_set:
            self.stray_set.add(offset)
            bisect.insort(self.stray_braces, offset)

    def _open_brace(self, text: str, position: int, limit: int) -> int:
        """Offset of a ``{`` between position and limit whose comment is not closed there, or
        is closed only after a line that starts a game."""
        stop = int(min(limit, self.no_comments_from - self.base))
        if stop <= position or text.find("{", position, stop) < 0:
            return -1
        while True:
            match = _BRACE_SCAN.search(text, position, stop)
            if match is None:
                return -1
            token = match.group()
            if token[0] == "{":
                if self.base + match.start() in self.stray_set:
                    position = match.start() + 1
                    continue
                if not token.endswith("}") or _GAME_START_LINE.search(token):
                    return match.start()  # unclosed here, or a runaway comment
            position = match.end()

    def _block(self, text: str, start: int, end: int) -> GameBlock:
        block = self._kept_block(text, start, end)
        if self.dropped is None:
            return block
        first_line, chars, lines = self.dropped
        self.dropped = None
        return GameBlock(block.text, first_line, dropped_chars=chars, dropped_lines=lines)

    def _kept_block(self, text: str, start: int, end: int) -> GameBlock:
        body = text[start:end].rstrip("\n")
        first = bisect.bisect_left(self.stray_braces, self.base + start)
        last = bisect.bisect_left(self.stray_braces, self.base + end)
        strays = tuple(offset - self.base - start for offset in self.stray_braces[first:last])
        runaways: tuple[tuple[int, int, int], ...] = ()
        if self.runaways:
            origin = self.base + start
            runaways = tuple(
                (brace - origin, min(close - origin, len(body)), gap)
                for brace, (close, gap) in sorted(self.runaways.items())
                if origin <= brace < self.base + end
            )
            for brace in [b for b in self.runaways if b < self.base + end]:
                del self.runaways[brace]
        return GameBlock(body, self.line, strays, runaways)


_TOKEN_STARTS = '";{%'


def _next_token(
    text: str, position: int, end: int, nearest: dict[str, int]
) -> re.Match[str] | None:
    """``_BRACE_SCAN.search(text, position, end)``, a hundred times faster on a long line of
    text: the match is tried only at the nearest of the characters that start a token,
    found with ``str.find``.  ``nearest`` remembers, across calls with increasing positions,
    where each was found (-1: nowhere after; start with an empty dict)."""
    while True:
        best = -1
        for char in _TOKEN_STARTS:
            index = nearest.get(char, -2)
            if index != -1 and index < position:
                index = nearest[char] = text.find(char, position, end)
            if index >= 0 and (best < 0 or index < best):
                best = index
        if best < 0:
            return None
        match = _BRACE_SCAN.match(text, best, end)
        if match is not None:
            return match
        position = best + 1  # a "%" that starts no line


def _string_closed(token: str) -> bool:
    """Whether a string token of ``_BRACE_SCAN`` ends with its closing quote (not with an
    escaped one, nor at the end of the text)."""
    if len(token) < 2 or not token.endswith('"'):
        return False
    inside = token[1:-1]
    return (len(inside) - len(inside.rstrip("\\"))) % 2 == 0


_NOT_SETTLED = (-1, "")
_EOF_RUN_HELD = 4096
"""The most Ctrl-Z characters at the end of a long line kept as a possible end-of-file mark
(a longer run is read as text)."""


def _runaway_end(text: str, brace: int, close: int) -> tuple[int, int]:
    """Where the ``{`` comment at ``brace`` closed by ``close`` is read to end, and how many
    lines after that the game starts.  (-1, 0) when no line between them starts a game (the
    usual case); else the end is the line end after the comment's last line of text before
    that line, so the blank lines before a game stay the separator of the games."""
    opener = _GAME_START_LINE.search(text, brace, close)
    if opener is None:
        return -1, 0
    last_text = len(text[brace : opener.start()].rstrip(" \t\n")) + brace
    end = text.find("\n", last_text, opener.start() + 1)
    return end, text.count("\n", end, opener.start() + 1)


Piece = tuple[str, str, int, Comment | None]
"""Section data as read: ``(kind, text, offset, comment)``, kind ``data``/``string``/``comment``."""


class RawTag:
    """A tag pair as parsed: name, unescaped value, offsets, and what follows it.

    A plain slotted class: twenty of these are built per game, so construction cost counts.
    """

    __slots__ = ("comments", "data", "name", "offset", "value", "value_offset")

    def __init__(self, name: str, value: str, offset: int, value_offset: int) -> None:
        self.name = name
        self.value = value
        self.offset = offset
        self.value_offset = value_offset
        self.comments: list[Comment] = []
        self.data: list[Piece] | None = None

    def __repr__(self) -> str:
        return f"RawTag({self.name!r}, {self.value!r}, {self.offset}, {self.value_offset})"


@dataclass(slots=True)
class RawGame:
    """A game's tag pairs and commentary, before decoding."""

    block: GameBlock
    tags: list[RawTag]
    commentary: list[Comment]
    diagnostics: list[Diagnostic]
    start: int = 0
    """Offset in the block's text where this game starts (0 unless a block held two games)."""


@functools.cache
def body_pattern() -> re.Pattern[str]:
    """The items of a BODY token: group ``name`` and ``value`` for a tag pair, ``data`` for
    section data.  Composed from the grammar's own TAG_NAME, STRING, DATA and blank
    terminals, in the shape of its TAG_PAIR."""
    from pbntool.text.grammars import build_parser

    parser = build_parser("pbn", "body_item")

    def pattern(name: str) -> str:
        return parser.get_terminal(name).pattern.to_regexp()

    blank = f"(?:{pattern('_BLANK')})?"
    pair = (
        rf"\[{blank}(?P<name>{pattern('TAG_NAME')}){blank}(?P<value>{pattern('STRING')}){blank}\]"
    )
    return re.compile(rf"{pair}|(?P<data>{pattern('DATA')})")


_UNESCAPE = re.compile(r'\\(["\\])')


def unescape(raw: str) -> str:
    """PBN string escapes: only ``\\"`` and ``\\\\``; other backslashes are kept as written."""
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


@dataclass(slots=True)
class _Builder:
    """Walks the token stream of one game and attaches each piece to its anchor."""

    block: GameBlock
    tags: list[RawTag] = field(default_factory=list)
    commentary: list[Comment] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    stray_start: int = -1

    def comment(self, comment: Comment, offset: int) -> None:
        self.flush_stray()
        if not self.tags:
            self.commentary.append(comment)
            return
        last = self.tags[-1]
        if last.data is not None:
            last.data.append(("comment", comment.text, offset, comment))
        else:
            last.comments.append(comment)

    def body(self, run: str, base: int) -> None:
        """The tag pairs and section data of a BODY token, in order."""
        tags = self.tags
        for match in body_pattern().finditer(run):
            name, string, data = match.group(1, 2, 3)  # the groups name, value, data
            if data is None:
                if self.stray_start >= 0:
                    self.flush_stray()
                value = string[1:-1]
                if "\\" in value:
                    value = unescape(value)
                tags.append(RawTag(name, value, base + match.start(), base + match.start(2) + 1))
            else:
                self.data("data", data, base + match.start())

    def data(self, kind: str, text: str, offset: int) -> None:
        if self.tags and self.tags[-1].data is not None:
            self.flush_stray()
            self.tags[-1].data.append((kind, text, offset, None))
        elif self.tags and _may_start_section(self.tags[-1]):
            self.flush_stray()
            self.tags[-1].data = [(kind, text, offset, None)]
        else:
            self.add_stray(text, offset)

    def add_stray(self, text: str, offset: int) -> None:
        if self.stray_start < 0:
            self.stray_start = offset
        self.stray.append(text)

    def flush_stray(self) -> None:
        if self.stray_start < 0:
            return
        text = " ".join(part.strip() for part in self.stray)
        shown = text if len(text) <= 60 else text[:57] + "..."
        self.diagnostics.append(PBN004.at(("offset", self.stray_start), text=repr(shown)))
        self.stray, self.stray_start = [], -1
        comment = Comment(text, CommentKind.STRAY)
        if not self.tags:
            self.commentary.append(comment)
        else:
            self.tags[-1].comments.append(comment)

    def bad_tag(self, text: str, offset: int) -> None:
        """Report a malformed tag pair and recover its name and value when we can."""
        self.flush_stray()
        shown = repr(text if len(text) <= 40 else text[:37] + "...")
        match = _BAD_TAG_PARTS.match(text)
        # A name and an opening quote, but no closing quote or no "]": keep the tag.
        if match and match.group(1) and match.group(2) and not (match.group(4) and match.group(5)):
            if not match.group(4):
                self.diagnostics.append(PBN001.at(("offset", offset), text=shown))
            else:
                detail = "expected ] after the value"
                self.diagnostics.append(PBN002.at(("offset", offset), text=shown, detail=detail))
            value = unescape(match.group(3))
            self.tags.append(RawTag(match.group(1), value, offset, offset + match.start(3)))
            return
        detail = _bad_tag_detail(text)
        self.diagnostics.append(PBN002.at(("offset", offset), text=shown, detail=detail))
        comment = Comment(text, CommentKind.STRAY)
        if self.tags:
            self.tags[-1].comments.append(comment)
        else:
            self.commentary.append(comment)


def _may_start_section(tag: RawTag) -> bool:
    """Data may follow section tags, tables, and tags we do not know (unknown sections)."""
    return tag.name in SECTION_TAGS or tag.name not in KNOWN_TAGS


def _bad_tag_detail(text: str) -> str:
    inner = text[1:].strip().rstrip("]").strip()
    if not inner:
        return "expected a tag name and a quoted value"
    name = re.match(r"[A-Za-z0-9_]*", inner)
    if name is None or not name.group():
        return "a tag name has only letters, digits and _"
    if '"' not in inner:
        return "expected a quoted value after the tag name"
    return 'expected [Name "value"]'


def parse_block(block: GameBlock) -> RawGame:
    """Parse one game into tags, section data and commentary; never raises on bad input."""
    from pbntool.text.grammars import load_parser

    text = block.text
    lexed = _without_unclosable_braces(_with_runaways_closed(block))
    tokens: list[Token] = load_parser("pbn").parse(lexed).children  # type: ignore[assignment]
    builder = _Builder(block)
    for offset in block.unclosed_braces:
        builder.diagnostics.append(PBN003.at(("offset", offset), where="the input"))
    runaways = {start: (end, gap) for start, end, gap in block.runaway_comments}
    for token in tokens:
        kind = token.type
        offset = token.start_pos or 0
        value = str(token) if lexed is text else text[offset : offset + len(token)]
        if kind == "BODY":
            builder.body(value, offset)
        elif kind == "STRING":
            builder.data("string", value, offset)
        elif kind == "BRACE_COMMENT":
            if offset in runaways:
                # Its text is what it held up to its end, which the lexer saw as a "}".
                end, gap = runaways[offset]
                value = text[offset:end] + "}"
                line = block.first_line + text.count("\n", 0, end) + gap
                builder.diagnostics.append(PBN138.at(("offset", offset), line=line))
            builder.comment(Comment(value[1:-1], CommentKind.BRACE), offset)
        elif kind == "LINE_COMMENT":
            builder.comment(Comment(value[1:], CommentKind.LINE), offset)
        elif kind == "ESCAPE_LINE":
            builder.comment(Comment(value[1:], CommentKind.ESCAPE), offset)
        elif kind == "BAD_TAG":
            builder.bad_tag(value, offset)
        else:
            builder.add_stray(value, offset)
    builder.flush_stray()
    return RawGame(block, builder.tags, builder.commentary, builder.diagnostics)


def _with_runaways_closed(block: GameBlock) -> str:
    """The block's text with a ``}`` in place of the line end at which each runaway comment is
    read to end (or after the text, when it runs to the end of the block).  Offsets before it
    are unchanged; the comment's own text is taken from the block."""
    text = block.text
    for _, end, _ in block.runaway_comments:
        text = text[:end] + "}" + text[end + 1 :]
    return text


def _without_unclosable_braces(text: str) -> str:
    """The text to lex: a "{" after the last "}" can open no comment, so it is replaced by a
    NUL, which the grammar reads as a stray character just like such a "{".  Without this,
    every such "{" would make the lexer look to the end of the game for a "}" (quadratic).
    Offsets are unchanged, and token values are taken from the original text."""
    last_close = text.rfind("}")
    if text.find("{", last_close + 1) < 0:
        return text
    return text[: last_close + 1] + text[last_close + 1 :].replace("{", "\x00")


_GAME_OPENERS = frozenset({"Event", "Board"})
_GAME_BODY = frozenset({"Deal", "Auction", "Play"})


def split_run_on_games(raw: RawGame) -> list[RawGame]:
    """Games that were written with no blank line between them (PBN137).

    A second Event or Board tag after the game already had its deal, auction or play cannot
    belong to it: it opens the next game.  Reading it that way keeps that game's values,
    which "first tag wins" would otherwise drop.
    """
    names = [raw_tag.name for raw_tag in raw.tags]
    if names.count("Event") < 2 and names.count("Board") < 2:
        return [raw]  # the usual case, decided at C speed
    seen: set[str] = set()
    body: str | None = None
    for index, raw_tag in enumerate(raw.tags):
        name = raw_tag.name
        if name in _GAME_OPENERS and name in seen and body is not None:
            return [_part(raw, 0, index, raw.start), *_rest(raw, index, name, body)]
        seen.add(name)
        if name in _GAME_BODY and body is None:
            body = {"Deal": "deal", "Auction": "auction", "Play": "play"}[name]
    return [raw]


def _rest(raw: RawGame, index: int, name: str, body: str) -> list[RawGame]:
    start = raw.tags[index].offset
    rest = _part(raw, index, len(raw.tags), start)
    rest.diagnostics.insert(0, PBN137.at(("offset", start), name=name, section=body))
    return split_run_on_games(rest)


def _part(raw: RawGame, first: int, last: int, start: int) -> RawGame:
    """Tags ``first:last`` of ``raw`` as a game of their own, with the findings inside it."""
    tags = raw.tags[first:last]
    end = raw.tags[last].offset if last < len(raw.tags) else len(raw.block.text) + 1
    inside = [d for d in raw.diagnostics if start <= _offset_of(d) < end]
    return RawGame(raw.block, tags, raw.commentary if first == 0 else [], inside, start)


def _offset_of(diagnostic: Diagnostic) -> int:
    path = diagnostic.path
    return int(path[1]) if path and path[0] == "offset" else 0


# Compiled, these classes pickle only so (see pickle_by_fields): a record holds them.
pickle_by_fields(GameBlock, RawGame)
pickle_by_init(RawTag, ("name", "value", "offset", "value_offset"))
