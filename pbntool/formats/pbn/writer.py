"""Canonical PBN export format (PBN 2.1 §15.3): pure, canonical and stable.

Every game is written the same way whatever its source looked like: the 15 mandatory tags in
their fixed order, the other identification tags sorted by name, the auction, the play, then
the tables.  Values the reader could decode are written in their canonical form; values it
could not decode are written back exactly as given, so nothing the user wrote is lost.  The
output read back and written again is byte-identical (``dumps(read(dumps(x))) == dumps(x)``).

>>> from pbntool.model import Board, Seat
>>> dumps_board(Board(number=1, dealer=Seat.NORTH)).splitlines()[3:5]
['[Board "1"]', '[West "?"]']
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import IO, TextIO, cast

from pbntool.diagnostics import OUT030, OUT031, Diagnostic, Severity
from pbntool.formats.pbn.reader import _GAME_START_LINE
from pbntool.formats.pbn.sections import decode_note
from pbntool.formats.pbn.tags import MANDATORY_TAGS
from pbntool.formats.pbn.values import decode_deal
from pbntool.model import (
    ALL_CARDS,
    Action,
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Comment,
    CommentKind,
    Deal,
    Hand,
    Note,
    Play,
    Score,
    Seat,
    SectionEnd,
    Slot,
    Strain,
    Table,
    TableColumn,
    Tag,
    Token,
)

__all__ = [
    "MANDATORY_TAGS",
    "PbnWriter",
    "WriteOptions",
    "dump",
    "dumps",
    "dumps_board",
    "format_deal",
    "format_hand",
    "is_header_escape",
    "iter_dump",
    "writable_board",
]

_CHARSETS = ("UTF-8", "ISO-8859-1")
_MAX_LINE = 255
"""PBN's line limit: a wider column width cannot be meant, and is not padded to."""
_LINE_ENDINGS = ("\r\n", "\n", "\r")


@dataclass(frozen=True, slots=True)
class WriteOptions:
    """How to write: line ending (export format: CRLF) and the declared character set."""

    line_ending: str = "\r\n"
    charset: str = "UTF-8"
    """``UTF-8`` or ``ISO-8859-1``; named in the ``%Content-type`` header line."""

    def __post_init__(self) -> None:
        if self.line_ending not in _LINE_ENDINGS:
            raise ValueError(f"line_ending must be one of {_LINE_ENDINGS!r}")
        if self.charset.upper() not in _CHARSETS:
            raise ValueError(f"charset must be one of {_CHARSETS!r}, not {self.charset!r}")

    @property
    def header(self) -> str:
        """The file header: version, export marker and content type, one per line."""
        lines = ("% PBN 2.1", "% EXPORT", f"%Content-type: text/x-pbn; charset={self.encoding}")
        return "".join(line + self.line_ending for line in lines)

    @property
    def encoding(self) -> str:
        """The canonical charset name, usable as a Python codec name."""
        return self.charset.upper()


# --- public API ----------------------------------------------------------------------------


def iter_dump(boards: Iterable[Board], options: WriteOptions = WriteOptions()) -> Iterator[str]:
    """Yield the file header, then one string per game (each ending with its blank line)."""
    yield options.header
    for board in boards:
        yield dumps_board(board, options)


def dumps(boards: Iterable[Board], options: WriteOptions = WriteOptions()) -> str:
    """The whole file as one string."""
    return "".join(iter_dump(boards, options))


def dump(
    boards: Iterable[Board], fp: IO[str] | IO[bytes], options: WriteOptions = WriteOptions()
) -> None:
    """Write the file to ``fp``, streaming game by game.

    A binary stream receives bytes in ``options.charset`` (characters it cannot represent
    become ``?``).  A text stream should be opened with ``newline=""`` so that the line
    endings are written as given.
    """
    if _is_binary(fp):
        binary = cast(IO[bytes], fp)
        for chunk in iter_dump(boards, options):
            binary.write(chunk.encode(options.encoding, errors="replace"))
    else:
        text = cast(IO[str], fp)
        for chunk in iter_dump(boards, options):
            text.write(chunk)


def dumps_board(board: Board, options: WriteOptions = WriteOptions()) -> str:
    """One game in export format, followed by the blank line that ends it (no file header).

    What PBN's grammar cannot hold is left out or changed first (``writable_board``), so the
    text always reads back as this one game."""
    return _render(writable_board(board)[0], options)


def _render(board: Board, options: WriteOptions) -> str:
    game = _Game.of(board)
    out = _Lines()
    _write_commentary(out, board.commentary)
    _write_identification(out, game)
    _write_auction_section(out, game)
    _write_play_section(out, game)
    _write_tables(out, game)
    text = "\n".join(out.finish()) + "\n\n"
    return text if options.line_ending == "\n" else text.replace("\n", options.line_ending)


def format_hand(hand: Hand | None) -> str:
    """A hand as PBN writes it: ``AKQ..T98765.2``, ranks descending; ``-`` when unknown."""
    return "-" if hand is None else str(hand)


def format_deal(deal: Deal, first: Seat) -> str:
    """A PBN deal string starting with ``first``'s hand and going clockwise.

    >>> from pbntool.model import Deal, Hand
    >>> format_deal(Deal((None, Hand.parse_suits("AKQ", "", "T98765", "2"), None, None)), Seat.EAST)
    'E:AKQ..T98765.2 - - -'
    """
    hands = " ".join(format_hand(deal.hands[first.next(step)]) for step in range(4))
    return f"{first.letter}:{hands}"


_HEADER_ESCAPES = re.compile(r"\s*(?:pbn\s+\d+(?:\.\d+)?|export|content-type\s*:.*)\s*", re.I)


def is_header_escape(comment: Comment) -> bool:
    """True for the escape lines the writer's header regenerates (``% PBN``, ``% EXPORT``,
    ``%Content-type``), which must not be repeated from the game commentary."""
    return (
        comment.kind is CommentKind.ESCAPE and _HEADER_ESCAPES.fullmatch(comment.text) is not None
    )


# --- lines and text --------------------------------------------------------------------------

# Spellings looked up rather than formatted: the writer runs over millions of boards.
_SLOT_TEXT: dict[Slot, str] = {None: "-", **{card: str(card) for card in ALL_CARDS}}
_CALL_TEXT: dict[Call | Token, str] = {
    call: str(call)
    for call in (*Action, *(Bid.of(level, strain) for level in range(1, 8) for strain in Strain))
}

_LINE_BREAK = re.compile(r"\r\n?|\n")
# Export format forbids tabs; the other blank controls would be as confusing in a value.
_BLANKS_TO_SPACE = str.maketrans({"\t": " ", "\v": " ", "\f": " "})
_WHITESPACE_TO_SPACE = str.maketrans({"\t": " ", "\v": " ", "\f": " ", "\r": " ", "\n": " "})
_ESCAPED_BACKSLASH = re.compile(r'\\(?=[\\"]|$)')
_NEEDS_ESCAPING = re.compile(r'[\\"\t\n\r\v\f]')


class _Lines:
    """The physical lines of one game; items on a line are separated by one space.

    Texts may contain ``\\n`` (multi-line brace comments); they are joined with ``\\n`` and
    converted to the requested line ending at the end.
    """

    __slots__ = ("_current", "_lines")

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._current: list[str] = []

    def add(self, item: str) -> None:
        """Append an item to the current line."""
        self._current.append(item)

    def end_line(self) -> None:
        """Finish the current line, if it holds anything."""
        if self._current:
            self._append(" ".join(self._current))
            self._current = []

    def own_line(self, text: str) -> None:
        """Write ``text`` as a line of its own."""
        self.end_line()
        self._append(text)

    def _append(self, line: str) -> None:
        # A semi-empty line would end the game (PBN 2.1 §2.5), so none is ever written.
        if line and not line.isspace():
            self._lines.append(line)

    def finish(self) -> list[str]:
        """All lines, the current one included."""
        self.end_line()
        return self._lines


def _clean_lines(text: str, *, keep_last_end: bool = False) -> list[str]:
    """Split text into physical lines, tabs made spaces and trailing spaces removed.

    With ``keep_last_end`` the last line keeps its trailing spaces (something follows it).
    """
    lines = [line.translate(_BLANKS_TO_SPACE).rstrip(" ") for line in _LINE_BREAK.split(text)]
    if keep_last_end:
        lines[-1] = _LINE_BREAK.split(text)[-1].translate(_BLANKS_TO_SPACE)
    return lines


def _quote(value: str) -> str:
    """A tag value as a PBN string.

    ``"`` is always escaped.  A backslash is doubled only where a reader could mistake it for
    an escape (before ``\\``, before ``"`` or at the end): PBN keeps any other backslash
    literally, and table headers such as ``Score_NS\\5R`` are written that way by convention.
    """
    if _NEEDS_ESCAPING.search(value) is None:
        return f'"{value}"'
    value = value.translate(_WHITESPACE_TO_SPACE)
    return '"' + _ESCAPED_BACKSLASH.sub(r"\\\\", value).replace('"', '\\"') + '"'


def _tag_line(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


# --- comments --------------------------------------------------------------------------------


def _add_comment(out: _Lines, comment: Comment) -> None:
    """Add a comment where it is anchored: brace comments stay inline, ``;`` comments end
    their line, escape lines stand on their own line."""
    kind, text = comment.kind, comment.text
    if kind is CommentKind.STRAY or (kind is CommentKind.BRACE and _ends_a_brace(text)):
        # A brace comment cannot hold "}" (nor a line that starts a game, where the reader
        # ends a runaway comment), so such text becomes rest-of-line comments.
        kind = CommentKind.LINE if _ends_a_brace(text) else CommentKind.BRACE
    if kind is CommentKind.BRACE:
        # The last line is closed by "}", so its trailing spaces stay part of the text.
        out.add("{" + "\n".join(_clean_lines(text, keep_last_end=True)) + "}")
        return
    if kind is CommentKind.ESCAPE:
        out.end_line()
    prefix = ";" if kind is CommentKind.LINE else "%"
    for line in _clean_lines(text):
        out.add(prefix + line)
        out.end_line()


def _ends_a_brace(text: str) -> bool:
    return "}" in text or _GAME_START_LINE.search("\n" + "\n".join(_clean_lines(text))) is not None


def _write_comments_on_own_lines(out: _Lines, comments: Sequence[Comment]) -> None:
    """Comments after a tag: each starts a new line (export format, §2.7)."""
    for comment in comments:
        out.end_line()
        _add_comment(out, comment)
        out.end_line()


def _write_commentary(out: _Lines, commentary: Sequence[Comment]) -> None:
    """The game's leading commentary, without the header lines the file header repeats."""
    _write_comments_on_own_lines(out, [c for c in commentary if not is_header_escape(c)])


# --- identification section ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Game:
    """What the writer needs to look up more than once while writing one board."""

    board: Board
    tags: dict[str, Tag]
    """The first occurrence of every tag name (duplicates are dropped: the first one wins)."""
    attached: dict[str, Table]
    """Tables named like a tag written outside the table block: their data follows that tag."""
    tables: list[Table]
    """The table block, sorted case-insensitively by name."""
    adopted_notes: tuple[Note, ...]
    """Note tags no decoded section holds, written with the first section there is."""
    orphan_note_tags: tuple[Tag, ...]
    """Note tags no section can take (no section, or no ``n:`` index): identification tags."""

    @classmethod
    def of(cls, board: Board) -> _Game:
        tags: dict[str, Tag] = {}
        for tag in board.tags:
            if not tag.duplicate:
                tags.setdefault(tag.name, tag)
        by_name: dict[str, Table] = {}
        for table in board.tables:
            by_name.setdefault(table.name, table)
        outside = set(MANDATORY_TAGS)
        if board.auction is None:
            outside.add("Auction")
        if board.play is None:
            outside.add("Play")
        attached = {name: table for name, table in by_name.items() if name in outside}
        block = [table for name, table in by_name.items() if name not in outside]
        block.sort(key=lambda table: table.name.lower())
        adopted, orphans = _place_stray_notes(board, "Note" in tags)
        return cls(board, tags, attached, block, adopted, orphans)


def _passed_out(board: Board) -> bool:
    return board.contract is not None and board.contract.is_passed_out


def _canonical_declarer(board: Board) -> str | None:
    if _passed_out(board):
        return ""
    if board.declarer is None:
        return None
    return ("^" if board.declarer_irregular else "") + board.declarer.letter


def _canonical_result(board: Board) -> str | None:
    if _passed_out(board):
        return ""
    return None if board.result is None else str(board.result)


def _canonical_deal(board: Board) -> str | None:
    # With no hand known there is nothing canonical to say: keep what was written, else "?"
    # (as the reference exporter does).
    deal = board.deal
    if deal is None or all(hand is None for hand in deal.hands):
        return None
    if _deal_text_kept(board.tag("Deal"), deal):
        return None
    return format_deal(deal, board.dealer or Seat.NORTH)


def _deal_text_kept(value: str | None, deal: Deal) -> bool:
    """Whether the Deal is written as given: ``deal`` is what ``value`` gave, with an error
    in it (a hand or a card it could not read, a card twice, hands not one space apart).
    The canonical text would write "-" for the unread hand, or drop the bad card, and so
    lose what was written, and the finding with it (found by atheris: a Deal with tabs
    between its hands, read back with spaces, lost three hands)."""
    if value is None or _DEAL_TEXT.fullmatch(value):
        return False  # the common case: four plain hands, nothing to lose
    decoded, problems, _offsets = decode_deal(value)
    return decoded == deal and any(p.code.severity is Severity.ERROR for p in problems)


_DEAL_TEXT = re.compile(r"[NESW]:[AKQJT2-9.]+(?: [AKQJT2-9.]+){3}")
"""A Deal value of four hands in rank letters, one space apart (the bad ones go to decode)."""


_CANONICAL: dict[str, Callable[[Board], str | None]] = {
    "Board": lambda board: None if board.number is None else str(board.number),
    "Dealer": lambda board: None if board.dealer is None else board.dealer.letter,
    "Vulnerable": lambda board: None if board.vulnerability is None else str(board.vulnerability),
    "Deal": _canonical_deal,
    "Declarer": _canonical_declarer,
    "Contract": lambda board: None if board.contract is None else str(board.contract),
    "Result": _canonical_result,
}


def _mandatory_value(board: Board, name: str, tag: Tag | None) -> str:
    """Canonical value when decoded, else the value as given, else ``?`` (unknown)."""
    canonical = _CANONICAL.get(name)
    value = canonical(board) if canonical is not None else None
    if value is not None:
        return value
    return "?" if tag is None else tag.value


def _format_score(score: Score) -> str:
    return str(score.points) if score.side is None else f"{score.side.letters} {score.points}"


def _place_stray_notes(board: Board, has_notes: bool) -> tuple[tuple[Note, ...], tuple[Tag, ...]]:
    """Note tags that no decoded section holds: a section adopts them when there is one and
    their index can be read (where the reader would put them back), else they stay tags."""
    stray = _stray_note_tags(board) if has_notes else []
    if not stray:
        return (), ()
    if board.auction is None and board.play is None:
        return (), tuple(stray)
    adopted, orphans = [], []
    for tag in stray:
        note, _ = decode_note(tag.value)
        if note is not None:
            adopted.append(Note(note.index, note.text, tag.comments))
        else:
            orphans.append(tag)
    return tuple(adopted), tuple(orphans)


def _stray_note_tags(board: Board) -> list[Tag]:
    """Note tags that belong to no decoded section, so they would otherwise be lost."""
    placed = Counter(
        (note.index, note.text.strip())
        for section in (board.auction, board.play)
        if section is not None
        for note in section.notes
    )
    orphans = []
    for tag in board.tags:
        if tag.name != "Note" or tag.duplicate:
            continue
        note, _ = decode_note(tag.value)
        key = (note.index, note.text.strip()) if note is not None else (-1, tag.value)
        if placed[key] > 0:
            placed[key] -= 1
        else:
            orphans.append(tag)
    return orphans


def _supplemental_tags(game: _Game) -> list[Tag]:
    """Identification tags outside the MTS, sorted case-insensitively (stable)."""
    excluded = {*MANDATORY_TAGS, "Auction", "Play", "Note"}
    excluded.update(game.attached)
    excluded.update(table.name for table in game.tables)
    tags = [tag for name, tag in game.tags.items() if name not in excluded]
    tags.extend(game.orphan_note_tags)
    if game.board.score is not None and "Score" not in game.tags:
        tags.append(Tag("Score", _format_score(game.board.score)))
    return sorted(tags, key=lambda tag: tag.name.lower())


def _write_tag(
    out: _Lines, name: str, value: str, comments: Sequence[Comment], game: _Game
) -> None:
    """A tag line, its comments, then any section data that followed it in the source."""
    out.own_line(_tag_line(name, value))
    if comments:
        _write_comments_on_own_lines(out, comments)
    table = game.attached.get(name) if game.attached else None
    if table is not None:
        _write_table_data(out, table)


def _write_identification(out: _Lines, game: _Game) -> None:
    for name in MANDATORY_TAGS:
        tag = game.tags.get(name)
        value = _mandatory_value(game.board, name, tag)
        comments = () if tag is None else tag.comments
        _write_tag(out, name, value, comments, game)
    for tag in _supplemental_tags(game):
        _write_tag(out, tag.name, tag.value, tag.comments, game)


# --- auction and play ------------------------------------------------------------------------


def _token_text(token: Token) -> str:
    """A token verbatim, except that tabs and blank lines (which would end the game) go."""
    return "\n".join(line for line in _clean_lines(token.text) if line)


def _add_move(out: _Lines, text: str, annotation: Annotation | None) -> None:
    """A call or card with its annotation: ``^X`` prefix, note reference, NAGs, comments."""
    if annotation is None:
        out.add(text)
        return
    if annotation.irregularity:
        text = f"^{annotation.irregularity} {text}"
    if annotation.note is not None:
        text += f" ={annotation.note}="
    for nag in sorted(annotation.nags):
        text += f" ${nag}"
    out.add(text)
    for comment in annotation.comments:
        _add_comment(out, comment)


def _write_notes(out: _Lines, notes: Sequence[Note]) -> None:
    for note in sorted(notes, key=lambda note: note.index):
        out.own_line(_tag_line("Note", f"{note.index}:{note.text}"))
        _write_comments_on_own_lines(out, note.comments)


def _write_section_end(out: _Lines, end: SectionEnd) -> None:
    if end is SectionEnd.STOP:
        out.own_line("*")


def _call_text(call: Call | Token) -> str:
    text = _CALL_TEXT.get(call)
    return text if text is not None else _token_text(cast(Token, call))


def _section_comments(game: _Game, name: str, comments: tuple[Comment, ...]) -> tuple[Comment, ...]:
    """Comments after a section tag: the reader may anchor them on the section or on its tag."""
    tag = game.tags.get(name)
    return comments or (() if tag is None else tag.comments)


def _write_auction(
    out: _Lines, auction: Auction, comments: Sequence[Comment], notes: Sequence[Note]
) -> None:
    """Four calls per line from the dealer.  A ``;`` comment may end a line early, but every
    row of four still starts a new line, so the columns stay with their seats."""
    out.own_line(_tag_line("Auction", auction.first.letter))
    _write_comments_on_own_lines(out, comments)
    annotations = dict(auction.annotations)
    for index, call in enumerate(auction.calls):
        if index % 4 == 0:
            out.end_line()
        _add_move(out, _call_text(call), annotations.get(index))
    _write_section_end(out, auction.end)
    _write_notes(out, notes)


def _write_auction_section(out: _Lines, game: _Game) -> None:
    auction = game.board.auction
    if auction is not None:
        comments = _section_comments(game, "Auction", auction.comments)
        _write_auction(out, auction, comments, (*auction.notes, *game.adopted_notes))
    else:
        _write_undecoded_section_tag(out, game, "Auction")


def _write_undecoded_section_tag(out: _Lines, game: _Game, name: str) -> None:
    """An Auction or Play tag whose value could not be decoded: written back as given."""
    tag = game.tags.get(name)
    if tag is not None:
        _write_tag(out, tag.name, tag.value, tag.comments, game)


def _slot_text(slot: Slot) -> str:
    text = _SLOT_TEXT.get(slot)
    return text if text is not None else _token_text(cast(Token, slot))


_PlayAnnotations = dict[tuple[int, Seat], Annotation]


def _is_blank_trick(play: Play, number: int, annotations: _PlayAnnotations) -> bool:
    trick = play.tricks[number]
    return all(trick[seat] is None and (number, seat) not in annotations for seat in Seat)


def _written_trick_count(play: Play, annotations: _PlayAnnotations) -> int:
    """Trailing tricks with nothing known are not written (the last line stops early)."""
    count = len(play.tricks)
    while count and _is_blank_trick(play, count - 1, annotations):
        count -= 1
    return count


def _write_play(
    out: _Lines, play: Play, comments: Sequence[Comment], notes: Sequence[Note]
) -> None:
    """One trick per line in the fixed column order starting with ``play.first``."""
    out.own_line(_tag_line("Play", play.first.letter))
    _write_comments_on_own_lines(out, comments)
    annotations = dict(play.annotations)
    count = _written_trick_count(play, annotations)
    for number in range(count):
        out.end_line()
        # Every line has its four columns, the last one too ("- DQ - -", not "- DQ"): §15.3
        # lets the last line stop after its last known card, but many readers need the four
        # columns of a trick, and "-" for an unknown card is legal PBN everywhere.
        for step in range(4):
            seat = play.first.next(step)
            _add_move(out, _slot_text(play.tricks[number][seat]), annotations.get((number, seat)))
    _write_section_end(out, play.end)
    _write_notes(out, notes)


def _write_play_section(out: _Lines, game: _Game) -> None:
    play = game.board.play
    if play is not None:
        comments = _section_comments(game, "Play", play.comments)
        # Stray notes go with the auction when there is one (see _place_stray_notes).
        adopted = game.adopted_notes if game.board.auction is None else ()
        _write_play(out, play, comments, (*play.notes, *adopted))
    else:
        _write_undecoded_section_tag(out, game, "Play")


# --- tables ----------------------------------------------------------------------------------


def _table_header(table: Table) -> str:
    if table.columns:
        return ";".join(str(column) for column in table.columns)
    return table.header


def _pad(element: str, column: TableColumn | None) -> str:
    """Pad to the column width: ``R`` pads before, ``L`` or nothing pads after."""
    if column is None or column.width is None or column.width > _MAX_LINE:
        return element
    if column.align == "R":
        return element.rjust(column.width)
    return element.ljust(column.width)


def _table_row(elements: Sequence[str], columns: Sequence[TableColumn]) -> str:
    padded = (
        _pad(element.translate(_WHITESPACE_TO_SPACE), columns[i] if i < len(columns) else None)
        for i, element in enumerate(elements)
    )
    return " ".join(padded).rstrip()


def _write_table_data(out: _Lines, table: Table) -> None:
    """One row per line, then the elements of an incomplete last row on one line."""
    for row in table.rows:
        out.own_line(_table_row(row, table.columns))
    if table.leftover:
        out.own_line(_table_row(table.leftover, table.columns))


def _write_tables(out: _Lines, game: _Game) -> None:
    for table in game.tables:
        out.own_line(_tag_line(table.name, _table_header(table)))
        tag = game.tags.get(table.name)
        # The reader may anchor the comments on the Table or only on its tag.
        comments = table.comments or (() if tag is None else tag.comments)
        _write_comments_on_own_lines(out, comments)
        _write_table_data(out, table)


def _is_binary(fp: IO[str] | IO[bytes]) -> bool:
    if isinstance(fp, io.TextIOBase):
        return False
    if isinstance(fp, io.RawIOBase | io.BufferedIOBase):
        return True
    return "b" in getattr(fp, "mode", "")


# --- what PBN's grammar can hold --------------------------------------------------------------

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_NAMES = re.compile(r"[A-Za-z0-9_]+(?:\x00[A-Za-z0-9_]+)*")
"""A tag name: letters, digits and ``_`` (PBN §3.4); anything else would end the tag pair."""
_TOKEN_TEXT = re.compile(r'[^\s\[\]{};"%\x00]+')
"""What a call or card token may hold: no space or line break, and nothing that starts a tag,
a comment or a string."""


def writable_board(board: Board) -> tuple[Board, list[Diagnostic]]:
    """The board as PBN can write it, and what that took (OUT030) or changed (OUT031).

    A tag or table whose name is not a PBN name (``]``, ``"``, a space, a line break …) is
    left out, not written where it would close the tag pair and start another game; a call or
    card token that the PBN reader would not read back as that same token (a space, ``[``,
    ``{``, ``*`` …) is left out (a card becomes unknown, ``-``); a line break or tab in a
    value (a tag, a note) is written as a space, which a PBN string needs.  A board with
    none of these is returned as it is.
    """
    tags, tables, auction, play = board.tags, board.tables, board.auction, board.play
    names = "\x00".join([tag.name for tag in tags] + [table.name for table in tables])
    values = "\x00".join([tag.value for tag in tags])
    notes = [n.text for section in (auction, play) if section is not None for n in section.notes]
    tokens = (auction is not None and Token in set(map(type, auction.calls))) or (
        play is not None and any(Token in set(map(type, trick)) for trick in play.tricks)
    )
    if (
        (_NAMES.fullmatch(names) or not (tags or tables))
        and _WHITESPACE_IN_VALUE.search(values) is None
        and "#" not in values
        and not tokens
        and not any(_WHITESPACE_IN_VALUE.search(text) for text in notes)
    ):
        return board, []  # the common case: nothing PBN cannot hold
    dropped: list[str] = []
    changed: list[str] = []
    if any(_TAG_NAME.fullmatch(tag.name) is None for tag in tags):
        dropped.extend(
            f"the tag name {tag.name!r}" for tag in tags if not _TAG_NAME.fullmatch(tag.name)
        )
        tags = tuple(tag for tag in tags if _TAG_NAME.fullmatch(tag.name))
    changed.extend(
        f"the value of {tag.name}" for tag in tags if _WHITESPACE_IN_VALUE.search(tag.value)
    )
    if any(_INHERITING.match(tag.value) for tag in tags):
        # "#" and "##…" are PBN's inheritance marks: such a value cannot be written as itself.
        dropped.extend(f"the value {tag.value!r} of {tag.name} (PBN reads it as inherited)"
                       for tag in tags if _INHERITING.match(tag.value))  # fmt: skip
        tags = tuple(
            tag._replace(value="") if _INHERITING.match(tag.value) else tag for tag in tags
        )
    if any(_TAG_NAME.fullmatch(table.name) is None for table in tables):
        dropped.extend(
            f"the table name {t.name!r}" for t in tables if not _TAG_NAME.fullmatch(t.name)
        )
        tables = tuple(table for table in tables if _TAG_NAME.fullmatch(table.name))
    changed.extend("a note" for text in notes if _WHITESPACE_IN_VALUE.search(text))
    if auction is not None:
        auction = _writable_auction(auction, dropped)
    if play is not None:
        play = _writable_play(play, dropped)
    losses = []
    if dropped:
        losses.append(OUT030.at(("tag", "Board"), what=", ".join(dict.fromkeys(dropped))))
    if changed:
        losses.append(OUT031.at(("tag", "Board"), what=", ".join(dict.fromkeys(changed))))
    if not dropped:
        return board, losses
    return replace(board, tags=tags, tables=tables, auction=auction, play=play), losses


_WHITESPACE_IN_VALUE = re.compile(r"[\t\n\r\v\f]")
_INHERITING = re.compile(r"#$|##")


def _token_survives(token: Token, section: str, followed: bool) -> bool:
    """Whether the PBN reader reads the token back as that same token, alone or (``followed``)
    with a call or a trick after it."""
    if _TOKEN_TEXT.fullmatch(token.text) is None:
        return False
    return _reads_back(token.text, section, followed)


_NEXT_CALL = "Pass"
_NEXT_TRICK = "- - -\nSA - - -"


@lru_cache(maxsize=1024)
def _reads_back(text: str, section: str, followed: bool) -> bool:
    """The reader itself decides, on the token in its section: a model of its lexer here
    would drift from it (a NUL, which the grammar reads as stray text outside any section,
    once made ``dumps(read(dumps(board)))`` differ from ``dumps(board)``).  What follows
    matters: ``+`` ends a section, so a stand-in ``+`` before other calls lost them."""
    from pbntool.formats.pbn import parse  # the package imports this module

    after = (_NEXT_CALL if section == "Auction" else _NEXT_TRICK) if followed else ""
    boards = parse(f'[{section} "N"]\n{text} {after}\n').boards
    if len(boards) != 1:
        return False
    board = boards[0]
    found: Auction | Play | None
    if section == "Auction":
        found = board.auction
        expected: tuple[object, ...] = (Token(text), *((Action.PASS,) if followed else ()))
        read: tuple[object, ...] = () if found is None else found.calls
    else:
        found = board.play
        next_trick = ((Card.parse("SA"), None, None, None),) if followed else ()
        expected = ((Token(text), None, None, None), *next_trick)
        read = () if found is None else found.tricks
    return (
        found is not None
        and read == expected
        and not found.annotations
        and found.end is SectionEnd.OPEN
    )


_UNWRITABLE = re.compile(r'[\s\[\]{};"%\x00]+')
_STAND_IN = "unwritable"
"""What an unrecognised call PBN cannot hold is written as when nothing of its text can be
kept: a word no reader takes for a call."""


def _writable_auction(auction: Auction, dropped: list[str]) -> Auction:
    """Unrecognised calls PBN cannot hold are written as a word that holds their place:
    dropped, the calls after one would be checked as if it had never been there (a double
    of nothing), errors the board did not have."""
    last = len(auction.calls) - 1
    bad = [
        (index, call)
        for index, call in enumerate(auction.calls)
        if isinstance(call, Token) and not _token_survives(call, "Auction", index < last)
    ]
    if not bad:
        return auction
    calls = list(auction.calls)
    for index, call in bad:
        stand_in = Token(_UNWRITABLE.sub("", call.text))
        if not stand_in.text or not _token_survives(stand_in, "Auction", index < last):
            stand_in = Token(_STAND_IN)
        dropped.append(f"the call {call.text!r} (its place kept by {stand_in.text!r})")
        calls[index] = stand_in
    return replace(auction, calls=tuple(calls))


def _writable_play(play: Play, dropped: list[str]) -> Play:
    if not any(isinstance(slot, Token) for trick in play.tricks for slot in trick):
        return play
    tricks = []
    # A trick written after this one follows it (trailing blank tricks are not written).
    last = _written_trick_count(play, dict(play.annotations)) - 1
    for number, trick in enumerate(play.tricks):
        row = list(trick)
        for seat, slot in enumerate(row):
            if isinstance(slot, Token) and not _token_survives(slot, "Play", number < last):
                dropped.append(f"the card {slot.text!r}")
                row[seat] = None
        tricks.append((row[0], row[1], row[2], row[3]))
    return replace(play, tricks=tuple(tricks))


class PbnWriter:
    """Canonical PBN export format: the file header, then one game per board."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._options = WriteOptions()
        self._started = False

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        self._start()
        board, losses = writable_board(board)
        self._stream.write(_render(board, self._options))
        return losses

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
