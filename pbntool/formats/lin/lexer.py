"""LIN text to pairs: the first layer of the LIN reader.

The text is read in chunks (``pbntool.text.source.DecodedText``: bounded memory, any encoding)
and each chunk is scanned with the terminals of ``grammars/lin.lark`` (``GRAMMAR_TERMINALS``);
a pair cut off at the end of a chunk is carried into the next one.  The output is a stream of
``Pair``s (tag lower-cased, raw value, offsets) and ``Stray`` pieces (text that is not a
pair), each with the ``Piece`` of text it came from, which turns an offset into a line and
column.  For the reader's fast path, a board on one line in BBO's usual shape comes whole, as
a ``BoardLine`` (``BOARD_LINE``).

A file of handviewer links (``…handviewer.html?lin=…``) is read link by link: the ``lin``
parameter is percent-decoded once, with form semantics, and every decoded character keeps
the position of the characters it came from, so diagnostics point into the link.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from pbntool.text import source
from pbntool.text.source import LineIndex

__all__ = [
    "BOARD_LINE",
    "GRAMMAR_TERMINALS",
    "IGNORED_TERMINALS",
    "PAIR",
    "BoardLine",
    "DocumentEnd",
    "Item",
    "Link",
    "LinkStart",
    "Pair",
    "Piece",
    "Stray",
    "decode_link_value",
    "find_links",
    "iter_items",
    "iter_link_items",
    "line_pairs",
    "pair_pattern",
    "parameters_to_lin",
]


@dataclass(eq=False)
class Piece:
    """A run of source text: where it starts in the file, and how to place an offset in it.

    ``offsets`` is set for decoded link text: the file offset of each decoded character.
    """

    text: str
    start: int
    """Offset of ``text[0]`` in the (decoded) file."""
    first_line: int
    first_column: int = 0
    """0-based column of ``text[0]`` on its line: a piece of text may start inside a line
    (a token carried from the end of one chunk, a piece of a long line)."""
    offsets: list[int] | None = None
    _lines: LineIndex | None = field(default=None, repr=False)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of an absolute offset inside this piece."""
        local = offset - self.start
        if self.offsets is not None:
            index = min(max(local, 0), len(self.offsets) - 1)
            return self.first_line, self.offsets[index] + 1
        if self._lines is None:
            self._lines = LineIndex(self.text, self.first_line)
        line, column = self._lines.position(local)
        return line, column + self.first_column if line == self.first_line else column


class Pair(NamedTuple):
    """One ``tag|value|``; ``closed`` is False for a last pair that lost its pipe."""

    tag: str
    value: str
    offset: int
    value_offset: int
    piece: Piece
    closed: bool = True


class Stray(NamedTuple):
    """Text that is not a pair: ``kind`` is ``pipe`` (stray pipes) or ``junk``."""

    text: str
    offset: int
    piece: Piece
    kind: str


class DocumentEnd(NamedTuple):
    """The end of one handviewer link: the board in progress ends with it."""

    offset: int
    piece: Piece


class BoardLine(NamedTuple):
    """A board on one line in BBO's usual shape (``BOARD_LINE``), as one PAIRS token not yet
    split into ``Pair``s: the reader's fast path reads the whole board from ``found``, and
    splits it (``line_pairs``) only when it must read it pair by pair."""

    found: re.Match[str]
    """The match of ``BOARD_LINE`` in ``piece.text``."""
    piece: Piece


Item = Pair | Stray | DocumentEnd | BoardLine


# The terminals of grammars/lin.lark, spelled as Lark spells them (``to_regexp``), so that
# reading LIN needs no Lark: test_lin_fast_path checks that Lark builds the very same ones.
_BLANK = "[ \t\f\\v\r\n]+"
_SPACE = "[ \t\f\\v]+"
_TAG = "[A-Za-z]{2}"
_PAIR = f"{_TAG}(?:{_BLANK})?\\|[^|]*\\|"
GRAMMAR_TERMINALS = (
    ("PAIRS", f"{_PAIR}(?:(?:{_SPACE})?{_PAIR})*(?:{_SPACE})?"),
    ("OPEN_PAIR", f"{_TAG}(?:{_BLANK})?\\|[^|]*\\Z"),
    ("STRAY_PIPE", "\\|+"),
    ("JUNK", "[^| \t\f\\v\r\n]+"),
    ("_BLANK", _BLANK),
)
"""The grammar's terminals in the order its lexer tries them (priority, then length)."""
IGNORED_TERMINALS = frozenset({"_BLANK"})
PAIR = f"(?:{_BLANK})?(?P<tag>{_TAG})(?:{_BLANK})?\\|(?P<value>[^|]*)\\|(?:{_BLANK})?"
"""One pair, with groups ``tag`` and ``value``: the grammar's TAG, VALUE and blank terminals
in the shape of its PAIR."""


@functools.cache
def pair_pattern() -> re.Pattern[str]:
    """``PAIR``, compiled."""
    return re.compile(PAIR)


def iter_items(
    chunks: Iterable[str],
    start: int = 0,
    line: int = 1,
    ending: list[str] | None = None,
    *,
    runs: bool = False,
) -> Iterator[Item]:
    """Pairs and stray text of LIN text given in chunks that end at line ends.

    ``start`` and ``line``: where the first chunk is in the file (a slice of a file starts at
    a line start).  ``ending``, when given, receives the kind of the last token of the final
    chunk (``""`` when it has none): a slice that ends in ``OPEN_PAIR`` or ``JUNK`` may be
    lexed otherwise when the text goes on.  ``runs``: a board on one line in BBO's usual
    shape comes as a ``BoardLine``, to be split by the reader if need be (``line_pairs``),
    rather than as its ``Pair``s.
    """
    pending = ""
    column = 0  # of ``start``: a slice starts at a line start
    chunk_list = iter(_bounded_chunks(chunks))
    chunk = next(chunk_list, None)
    while chunk is not None:
        following = next(chunk_list, None)
        text = pending + chunk
        final = following is None
        piece = Piece(text, start, line, column)
        tokens = _tokens(text)
        cut = len(text)
        if not final and tokens and _may_go_on(tokens[-1], len(text)):
            cut = tokens.pop().start()
        if cut < len(text) and not tokens and len(text) > _MAX_CARRY:
            # A run of text with no pair and no pipe in sight: give up waiting for one.
            tokens, cut = _tokens(text), len(text)
        if final and ending is not None:
            ending.append(_kind(tokens[-1]) if tokens else "")
        # A board line that ends where a piece of a long line ends may go on in the next
        # piece: its pairs are read one by one (a board line is a run of pairs).
        yield from _items(tokens, piece, runs, whole_to=len(text) + 1 if final else len(text))
        pending = text[cut:]
        newline = text.rfind("\n", 0, cut)
        column = cut - newline - 1 if newline >= 0 else column + cut
        line += text.count("\n", 0, cut)
        start += cut
        chunk = following
    if pending:
        yield from _items(_tokens(pending), Piece(pending, start, line, column), runs)


LEX_CHUNK = 1 << 20
"""The most text of one line the lexer is given at once (a caller may give a long line whole;
``lin_text`` gives a line over a megabyte in pieces)."""


def _bounded_chunks(chunks: Iterable[str]) -> Iterator[str]:
    """The chunks; one far longer than the decoder's chunks (one long line) is cut after a
    ``|`` every ``LEX_CHUNK`` characters (the lexer carries an unfinished pair over to the
    next piece, as at any chunk end).  Chunks of ordinary size are left whole: where the
    whole-file read cuts is where a parallel read's slices are cut too."""
    longest = max(LEX_CHUNK, 2 * source.CHUNK_SIZE)
    for chunk in chunks:
        if len(chunk) <= longest:
            yield chunk
            continue
        start = 0
        while len(chunk) - start > LEX_CHUNK:
            bar = chunk.rfind("|", start, start + LEX_CHUNK)
            end = bar + 1 if bar > start else start + LEX_CHUNK
            yield chunk[start:end]
            start = end
        yield chunk[start:]


_MAX_CARRY = 1 << 22
"""How much text without a complete pair is carried from chunk to chunk (4 MB)."""


_LOWER_TAGS = {tag: tag for tag in ("pn", "st", "md", "rh", "ah", "sv", "mb", "an", "pc", "mc")}
"""The tags every board has, already in lower case (most files write nothing else)."""


_VALUE = r"[^|\n]*+"
BOARD_LINE = (
    rf"pn\|(?P<names>{_VALUE})\|st\|\|md\|(?P<deal>{_VALUE})\|rh\|\|"
    rf"ah\|Board (?P<board>[0-9]{{1,6}})\|sv\|(?P<vulnerable>{_VALUE})\|"
    rf"(?P<auction>(?:mb\|{_VALUE}\|(?:an\|{_VALUE}\|)*+)*+)"
    rf"(?P<play>(?:pg\|\||pc\|{_VALUE}\|)*+)"
    rf"(?:mc\|(?P<claim>{_VALUE})\|)?(?:pg\|\|)?(?=\n|\Z)"
)
"""A whole board on one line in BBO's order (myhands and hand-record files): names, deal,
board, vulnerability, calls with their explanations, cards, claim; lower-case tags, no
blanks.  Where it matches, the grammar's PAIRS matches the very same text (a run of pairs
that ends at the line end), so the scanner tries it first and loses nothing."""


@functools.cache
def _scanner() -> tuple[re.Pattern[str], frozenset[str]]:
    """The grammar's terminals as one expression (``BOARD_LINE`` first), and the ones to skip.
    ``start: _item*`` accepts any sequence of tokens, so the parse tree's children are exactly
    the tokens this scan finds: the parser itself would add nothing but its cost."""
    terminals = (("BOARD", BOARD_LINE), *GRAMMAR_TERMINALS)
    union = "|".join(f"(?P<{name}>{_possessive(name, pattern)})" for name, pattern in terminals)
    return re.compile(union), IGNORED_TERMINALS


def _possessive(name: str, pattern: str) -> str:
    """``PAIRS`` with its run of pairs possessive (``*+``): the same match, since what follows
    the run is optional, but the greedy form keeps backtracking state for every pair, 130 MB
    for a megabyte of pairs on one line (and is five times slower)."""
    if name != "PAIRS":
        return pattern
    run = f"(?:(?:{_SPACE})?{_PAIR})*"
    assert run in pattern, "the grammar's PAIRS changed: make its run possessive again"
    return pattern.replace(run, run + "+", 1)


def _tokens(text: str) -> list[re.Match[str]]:
    """The tokens of ``text`` (every position matches a terminal: JUNK is the catch-all)."""
    pattern, ignored = _scanner()
    return [found for found in pattern.finditer(text) if found.lastgroup not in ignored]


def _kind(token: re.Match[str]) -> str:
    """The grammar's name for a token (a board line is a run of pairs)."""
    kind = token.lastgroup or ""
    return "PAIRS" if kind == "BOARD" else kind


def _may_go_on(token: re.Match[str], size: int) -> bool:
    """Whether the last token of a chunk that is not the last may be lexed otherwise once the
    text goes on: a pair not yet closed, a word, or a run of pipes that reaches the end (a
    chunk ends at a line end, or inside a long line: ``lin_text``)."""
    kind = token.lastgroup
    return kind in ("OPEN_PAIR", "JUNK") or (kind == "STRAY_PIPE" and token.end() == size)


def _items(
    tokens: list[re.Match[str]], piece: Piece, runs: bool = False, whole_to: int | None = None
) -> Iterator[Item]:
    """The items of ``tokens``; a board line that ends at ``whole_to`` or after (the end of a
    chunk that is not the last) comes as its pairs, not as a ``BoardLine``."""
    base = piece.start
    text = piece.text
    for token in tokens:
        kind = token.lastgroup
        offset, end = token.span()
        if kind == "BOARD" and runs and (whole_to is None or end < whole_to):
            yield BoardLine(token, piece)
        elif kind == "PAIRS" or kind == "BOARD":
            yield from _pairs(piece, offset, end)
        elif kind == "OPEN_PAIR":
            bar = text.index("|", offset)
            tag = text[offset:bar].strip()
            yield Pair(tag.lower(), text[bar + 1 : end], base + offset, base + bar + 1, piece,
                       closed=False)  # fmt: skip
        elif kind == "STRAY_PIPE":
            yield Stray(text[offset:end], base + offset, piece, "pipe")
        else:
            yield Stray(text[offset:end], base + offset, piece, "junk")


def line_pairs(line: BoardLine) -> Iterator[Pair]:
    """The pairs of a board line, as ``iter_items`` gives them without ``runs``."""
    start, end = line.found.span()
    return _pairs(line.piece, start, end)


def _pairs(piece: Piece, start: int, end: int) -> Iterator[Pair]:
    base = piece.start
    lower = _LOWER_TAGS
    for match in pair_pattern().finditer(piece.text, start, end):
        tag, value = match.group(1, 2)
        if tag == "pg" and not value:
            continue  # a page break for the viewer: nothing to read or keep
        yield Pair(
            lower.get(tag) or tag.lower(),
            value,
            base + match.start(1),
            base + match.start(2),
            piece,
        )


# --- handviewer links ------------------------------------------------------------------------

_LINK_PARAMETER = re.compile(r"[?&](lin|linurl)=([^&#\s\"'<>]*)", re.I)
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")


class Link(NamedTuple):
    """One handviewer link found on a line of the input."""

    line: int
    column: int
    """0-based column of the parameter's value on its line."""
    kind: str
    """``lin``, ``linurl`` or ``params`` (the board given as parameters)."""
    raw: str


_PARAMETER_LINK = re.compile(r"handviewer\.html\?([^#\s\"'<>]*)", re.I)
_HAND_PARAMETERS = frozenset({"n", "s", "e", "w"})


def find_links(text: str, first_line: int = 1) -> Iterator[Link]:
    """Every handviewer link in ``text``, in order: its ``lin=``/``linurl=`` parameter, or
    (kind ``params``) the query of a link that gives the board as parameters (``n=``,
    ``s=``, ``e=``, ``w=`` hands, ``d=`` dealer, ``v=``, ``b=``, ``a=`` auction, ``p=`` play,
    ``nn=``… names)."""
    for number, line in enumerate(text.split("\n")):
        found = False
        for match in _LINK_PARAMETER.finditer(line):
            found = True
            yield Link(first_line + number, match.start(2), match.group(1).lower(), match.group(2))
        if not found:
            for match in _PARAMETER_LINK.finditer(line):
                if _HAND_PARAMETERS & set(_query(match.group(1))):
                    yield Link(first_line + number, match.start(1), "params", match.group(1))


def _query(raw: str) -> dict[str, str]:
    """A link's query parameters, each value percent-decoded once (``+`` is a space)."""
    values: dict[str, str] = {}
    for part in raw.split("&"):
        key, _, value = part.partition("=")
        values.setdefault(key.lower(), _percent_decode(value, list(range(len(value))))[0])
    return values


_DEALER_DIGIT = {"s": "1", "w": "2", "n": "3", "e": "4"}


def parameters_to_lin(raw: str) -> str:
    """The LIN of a link that gives the board as parameters (as bridgebots reads them).

    >>> parameters_to_lin("s=SAKHQDJCT&d=s&v=n&b=3&a=1NPPP&sn=Sam")
    'pn|Sam,,,|md|1SAKHQDJCT,,,|ah|Board 3|sv|n|mb|1NPPP|'
    """
    query = _query(raw)
    parts = []
    names = [query.get(key, "") for key in ("sn", "wn", "nn", "en")]
    if any(names):
        parts.append("pn|" + ",".join(name.replace("|", "/") for name in names) + "|")
    hands = [query.get(key, "").replace("|", "") for key in ("s", "w", "n", "e")]
    dealer = _DEALER_DIGIT.get(query.get("d", "").strip().lower()[:1], "")
    parts.append(f"md|{dealer}{','.join(hands)}|")
    for key, tag, prefix in (
        ("b", "ah", "Board "),
        ("v", "sv", ""),
        ("a", "mb", ""),
        ("p", "pc", ""),
    ):
        if query.get(key, "").strip():
            parts.append(f"{tag}|{prefix}{query[key].strip().replace('|', '')}|")
    return "".join(parts)


def decode_link_value(raw: str, column: int) -> tuple[str, list[int], bool]:
    """Percent-decode a link parameter once, with form semantics (``+`` is a space).

    Returns the text, the column of the source character behind each decoded character,
    and whether a second pass was needed (the value was encoded twice: no ``|`` after one
    pass, but ``%7C`` still there).
    """
    text, offsets = _percent_decode(raw, [column + index for index in range(len(raw))])
    twice = "|" not in text and re.search("%7c", text, re.I) is not None
    if twice:
        text, offsets = _percent_decode(text, offsets, plus_is_space=False)
    return text, offsets, twice


def _percent_decode(
    raw: str, columns: list[int], plus_is_space: bool = True
) -> tuple[str, list[int]]:
    """Decode ``%xx`` escapes (a run of them as UTF-8, else Windows-1252); each decoded
    character takes the column of the first escape it came from."""
    out: list[str] = []
    out_columns: list[int] = []
    index = 0
    while index < len(raw):
        if raw[index] != "%" or not _PERCENT.match(raw, index):
            char = raw[index]
            out.append(" " if plus_is_space and char == "+" else char)
            out_columns.append(columns[index])
            index += 1
            continue
        data = bytearray()
        starts = []
        while index < len(raw) and raw[index] == "%" and _PERCENT.match(raw, index):
            starts.append(columns[index])
            data.append(int(raw[index + 1 : index + 3], 16))
            index += 3
        decoded = _decode_bytes(bytes(data))
        out.append(decoded)
        out_columns.extend(_spread(starts, decoded))
    return "".join(out), out_columns


def _decode_bytes(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _spread(starts: list[int], decoded: str) -> list[int]:
    """The column of the first escape behind each decoded character."""
    columns = []
    position = 0
    for char in decoded:
        columns.append(starts[min(position, len(starts) - 1)])
        position += len(char.encode("utf-8")) if ord(char) < 0xD800 or ord(char) > 0xDFFF else 1
    return columns


class LinkStart(NamedTuple):
    """A handviewer link begins; ``encoded_twice`` when it needed a second decoding pass."""

    link: Link
    encoded_twice: bool
    offset: int
    piece: Piece


def iter_link_items(text: str, first_line: int = 1) -> Iterator[Item | LinkStart]:
    """Items of every link in ``text``, each link its own document: a ``LinkStart``, then
    (for ``lin=``) the pairs of its decoded value, then a ``DocumentEnd``.  A ``linurl=``
    link points at a remote file and has no pairs."""
    base = 0
    for link in find_links(text, first_line):
        if link.kind == "lin":
            decoded, columns, twice = decode_link_value(link.raw, link.column)
        elif link.kind == "params":
            decoded, twice = parameters_to_lin(link.raw), False
            columns = [link.column] * len(decoded)  # positions: the start of the query
        else:
            decoded, columns, twice = "", [link.column], False
        piece = Piece(decoded, base, link.line, offsets=columns or [link.column])
        yield LinkStart(link, twice, base, piece)
        if decoded:
            yield from _items(_tokens(decoded), piece)
        yield DocumentEnd(base + len(decoded), piece)
        base += len(decoded) + 1
