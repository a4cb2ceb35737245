"""The fast path of the PBN reader: a well-formed game read with a few regexes.

Most games in real files are well formed: one tag pair per line, section data only after
Auction and Play, no commentary (but the escape lines that open a file), and values the
decoders read without a problem.  For such a game the detailed path (``reader.parse_block``
with the Lark grammar, then ``decode.decode_game``) finds nothing, and building its token
stream, tag objects and source map is most of the cost of reading.  ``read_fast`` recognises
such a game and builds the ``Board`` directly with the same value decoders; the moment
anything would be a finding of the reader, it declines (returns None) and the game takes the
detailed path.  The board is then the one the detailed path builds and there is no finding to
differ, so both paths give identical records; ``tests/test_pbn_fast.py`` checks that over the
corpus, the fixtures, the fuzz seeds and mutations of them.

Positions are needed only when the Laws checks find something: the record's locator
(``LazySource``) runs the detailed path for that one game when first asked.
"""

from __future__ import annotations

import dataclasses
import functools
import re

from pbntool.diagnostics import Path
from pbntool.formats.pbn import values
from pbntool.formats.pbn.decode import (
    DATE_TAGS,
    SIDE_NUMBER_TAGS,
    FileContext,
    SourceMap,
    auction_of,
    decode_game,
    decode_side_number,
    is_end_position,
    play_of,
)
from pbntool.formats.pbn.exportcheck import export_board_problems, plain_export_lines
from pbntool.formats.pbn.reader import GameBlock, parse_block
from pbntool.formats.pbn.sections import decode_auction_data, decode_play_data
from pbntool.formats.pbn.supplemental import SUPPLEMENTAL_CHECKS, check_supplemental
from pbntool.formats.pbn.tags import (
    FORBIDDEN_INHERITANCE,
    KNOWN_TAGS,
    MANDATORY_TAGS,
    MANDATORY_TAGS_V1,
    TABLE_TAGS,
)
from pbntool.model import Auction, Board, Comment, CommentKind, Play, Result, Seat, Tag
from pbntool.rules import auction_outcome
from pbntool.text.source import LineIndex

__all__ = ["LazySource", "read_fast", "source_map"]

# A game is read here when every line of it is either a tag pair alone on its line (spaces,
# no tab, around its parts; a value with no escape and no control character) or, after such a
# line, section data (no character that starts anything else, no tab, not starting with a
# blank).  One findall does it all: each item is a tag with the data lines after it, and a
# line that is neither is caught by the last alternative as an item with no name, which no
# known tag is ("" is not in KNOWN_TAGS), so the game declines.
_ITEMS = re.compile(
    r'\[ *([A-Za-z0-9_]+) *"([^"\\\x00-\x1f\x7f]*)" *\] *(?:\n|\Z)'
    r'((?:[^\[\]{};"%\s\x00-\x1f\x7f][^\[\]{};"%\x00-\x1f\x7f]*(?:\n|\Z))*)'
    r"|[^\n]+\n?|\n"
)
_LONG_LINE = re.compile(r"(?m)^[^\n]{254,}")
_ESCAPE_LINES = re.compile(r"(?:%[^\x00-\x1f\x7f]*(?:\n|\Z))+")

_new_tag = functools.partial(tuple.__new__, Tag)
# Tags whose values have a checker of their own (the mandatory tags are decoded in _build;
# any other known tag is text; a table or a Note takes the detailed path).
_OTHER_CHECKED = frozenset(DATE_TAGS) | frozenset(SIDE_NUMBER_TAGS) | frozenset(SUPPLEMENTAL_CHECKS)
_MANDATORY = frozenset(MANDATORY_TAGS)
_MANDATORY_V1 = frozenset(MANDATORY_TAGS_V1)
_SECTIONS = {"Auction": ("Dealer",), "Play": ("Deal", "Contract", "Declarer")}
_DETAILED_TAGS = TABLE_TAGS | {"Note"}


class _Decline(Exception):
    """Something in this game would be a finding of the reader: take the detailed path."""


def read_fast(block: GameBlock, context: FileContext) -> Board | None:
    """The board of a well-formed game, or None when the detailed path must read it.

    ``context`` is updated as the detailed path would update it, and only when a board is
    returned."""
    text = block.text
    if block.unclosed_braces or block.runaway_comments or context.defaults:
        return None
    if context.pending_commentary:
        return None
    escapes = _ESCAPE_LINES.match(text)
    commentary: tuple[Comment, ...] = ()
    if escapes is not None:
        # "% PBN 2.1" and "% EXPORT" open a file: they are the first game's commentary and
        # set the version and export format before its checks (as decode_game does; doing
        # it again, if this game is declined, changes nothing).
        commentary = _escape_comments(escapes.group())
        context.note_escape_lines(list(commentary))
    if context.export and context.lf_only and not context.lf_reported:
        return None  # the export check reports LF line ends at this game
    body = escapes.end() if escapes is not None else 0
    if _LONG_LINE.search(text) is not None:
        return None
    try:
        tags, resolved, sections = _read_items(text[body:] if body else text, context)
        if not tags:
            return None
        board = _build(tags, resolved, sections, context)
    except _Decline:
        return None
    context.last_values.update(resolved)
    return dataclasses.replace(board, commentary=commentary) if commentary else board


def _escape_comments(lines: str) -> tuple[Comment, ...]:
    return tuple(Comment(line[1:], CommentKind.ESCAPE) for line in lines.splitlines())


def _read_items(
    text: str, context: FileContext
) -> tuple[list[Tag], dict[str, str], dict[str, tuple[int, str]]]:
    """The tags in order, their values by name (``#`` resolved to the previous game's value,
    PBN §6), and the position and data of the Auction and Play sections.

    Each step runs at C speed on all the tags at once (comprehensions, set operations): this
    is every tag of every game."""
    items = _ITEMS.findall(text)
    resolved = {name: value for name, value, _ in items}
    if len(resolved) != len(items) or not KNOWN_TAGS.issuperset(resolved):
        raise _Decline  # a line that is not a tag, a repeated tag, a tag we do not know
    if not _DETAILED_TAGS.isdisjoint(resolved):
        raise _Decline
    data = {name: lines for name, _, lines in items if lines}
    if not _SECTIONS.keys() >= data.keys():
        raise _Decline  # data after a tag that holds none (PBN004)
    order = list(resolved)
    sections = {
        name: (order.index(name), data.get(name, "")) for name in _SECTIONS if name in resolved
    }
    if '"#' not in text:
        tags = [_new_tag((name, value, (), None, False, False)) for name, value, _ in items]
    else:
        tags = [_inherited(name, value, resolved, context) for name, value, _ in items]
    return tags, resolved, sections


def _inherited(name: str, value: str, resolved: dict[str, str], context: FileContext) -> Tag:
    """The tag, with a ``#`` value replaced by the one it stands for (also in ``resolved``)."""
    if value[:1] != "#":
        return _new_tag((name, value, (), None, False, False))
    resolved[name] = previous = _previous_value(name, value, context)
    return _new_tag((name, previous, (), value, False, False))


def _previous_value(name: str, value: str, context: FileContext) -> str:
    """The value ``#`` stands for; a ``##`` default, or a ``#`` that is a finding, declines."""
    previous = context.last_values.get(name)
    if value != "#" or previous is None or name in FORBIDDEN_INHERITANCE:
        raise _Decline  # PBN113, PBN114, PBN132, or a default to remember
    return previous


def _build(
    tags: list[Tag],
    resolved: dict[str, str],
    sections: dict[str, tuple[int, str]],
    context: FileContext,
) -> Board:
    get = resolved.get
    number, problems = values.decode_board_number(get("Board", ""))
    dealer, problems2 = values.decode_seat(get("Dealer", ""), "Dealer")
    vulnerability, problems3 = values.decode_vulnerable(get("Vulnerable", ""))
    contract, problems4 = values.decode_contract(get("Contract", ""))
    declarer_text = get("Declarer", "").strip()
    declarer, problems5 = values.decode_seat(declarer_text.lstrip("^"), "Declarer")
    score, problems6 = values.decode_score("Score", get("Score", ""))
    if problems or problems2 or problems3 or problems4 or problems5 or problems6:
        raise _Decline
    deal = values.canonical_deal(get("Deal", ""))
    if deal is None:
        deal, deal_problems, _ = values.decode_deal(get("Deal", ""))
        if deal_problems:
            raise _Decline
    _check_other_values(resolved)
    version = context.version
    mandatory = _MANDATORY_V1 if version is not None and version < (2, 0) else _MANDATORY
    if not resolved.keys() >= mandatory:
        raise _Decline  # BRD003
    auction = _auction(tags, resolved, sections, dealer)
    if declarer is None and auction is not None and "Declarer" not in resolved:
        declarer_for_result = auction_outcome(auction).declarer
    else:
        declarer_for_result = declarer
    tricks, irregular, problems = values.decode_result(get("Result", ""), declarer_for_result)
    if problems:
        raise _Decline
    play = _play(tags, resolved, sections, is_end_position(deal, contract))
    board = Board(
        tags=tuple(tags),
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        auction=auction,
        play=play,
        contract=contract,
        declarer=declarer,
        declarer_irregular=declarer_text.startswith("^"),
        result=None if tricks is None else Result(tricks, irregular),
        score=score,
    )
    if context.export and (
        export_board_problems(board, resolved)
        or not all(plain_export_lines(data) for _, data in sections.values())
    ):
        raise _Decline
    return board


def _check_other_values(resolved: dict[str, str]) -> None:
    """The values of dates, side numbers and supplemental tags (each a finding if wrong)."""
    for name in resolved.keys() & _OTHER_CHECKED:
        value = resolved[name]
        if name in DATE_TAGS:
            problems = values.decode_date(name, value)
        elif name in SIDE_NUMBER_TAGS:
            problems = decode_side_number(name, value)
        else:
            problems = check_supplemental(name, value)
        if problems:
            raise _Decline


def _section_seat(resolved: dict[str, str], name: str) -> Seat:
    seat, problems = values.decode_seat(resolved[name], name)
    if problems or seat is None:
        raise _Decline
    return seat


def _after(tags: list[Tag], index: int, needed: tuple[str, ...]) -> None:
    """PBN124: the tags a section needs come before it."""
    before = {tag[0] for tag in tags[:index]}
    if not before.issuperset(needed):
        raise _Decline


def _auction(
    tags: list[Tag],
    resolved: dict[str, str],
    sections: dict[str, tuple[int, str]],
    dealer: Seat | None,
) -> Auction | None:
    if "Auction" not in resolved:
        return None
    first = _section_seat(resolved, "Auction")
    index, text = sections["Auction"]
    _after(tags, index, _SECTIONS["Auction"])
    data = decode_auction_data([("data", text, 0, None)] if text else [])
    if data.diagnostics or data.references or data.placeholders:
        raise _Decline
    if dealer is not None and first is not dealer:
        raise _Decline  # PBN123
    return auction_of(first, data)


def _play(
    tags: list[Tag],
    resolved: dict[str, str],
    sections: dict[str, tuple[int, str]],
    board_is_end_position: bool,
) -> Play | None:
    if "Play" not in resolved:
        return None
    first = _section_seat(resolved, "Play")
    index, text = sections["Play"]
    needed = _SECTIONS["Play"][:2] if board_is_end_position else _SECTIONS["Play"]
    _after(tags, index, needed)
    data = decode_play_data([("data", text, 0, None)] if text else [])
    if data.diagnostics or data.references or not data.slots:
        raise _Decline  # among them PBN139 and PBN131, a play with no card
    return play_of(first, data)


class LazySource:
    """The locator of a game read on the fast path: positions come from the detailed path's
    source map, built for this game only when a finding must be placed."""

    __slots__ = ("_block", "_lines", "_source")

    def __init__(self, block: GameBlock) -> None:
        self._block = block
        self._source: SourceMap | None = None
        self._lines: LineIndex | None = None

    def __reduce__(self) -> tuple[type[LazySource], tuple[GameBlock]]:
        # Compiled, the default reduction calls __init__ without arguments.
        return (LazySource, (self._block,))

    def resolve(self) -> SourceMap:
        """The detailed path's source map of this game."""
        if self._source is None:
            decoded = decode_game(parse_block(self._block), FileContext("<fast path>"))
            assert decoded is not None, "a game read on the fast path has tags"
            self._source = decoded.source
        return self._source

    def offset(self, path: Path | None) -> int | None:
        if path and path[0] == "offset":
            return int(path[1])  # no source map needed
        return self.resolve().offset(path)

    def position(self, offset: int) -> tuple[int, int]:
        if self._source is not None:
            return self._source.position(offset)
        if self._lines is None:
            self._lines = LineIndex(self._block.text, self._block.first_line)
        return self._lines.position(offset)


def source_map(locator: object) -> SourceMap | None:
    """The PBN source map behind a record's locator (None when it is not a PBN game's)."""
    if isinstance(locator, LazySource):
        return locator.resolve()
    return locator if isinstance(locator, SourceMap) else None
