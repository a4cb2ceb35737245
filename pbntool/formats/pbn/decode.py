"""PBN meaning: turn a ``RawGame`` into a ``Board``, with a ``SourceMap`` for positions.

Inheritance (``#``, ``##``) is resolved here with the reference implementation's semantics
(PBN §6), which needs state carried from game to game: ``FileContext``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field

from pbntool.diagnostics import (
    BRD003,
    PBN005,
    PBN006,
    PBN007,
    PBN008,
    PBN009,
    PBN110,
    PBN111,
    PBN113,
    PBN114,
    PBN121,
    PBN122,
    PBN123,
    PBN124,
    PBN128,
    PBN129,
    PBN130,
    PBN131,
    PBN132,
    PBN135,
    PBN139,
    Diagnostic,
    Path,
)
from pbntool.formats.pbn import values
from pbntool.formats.pbn.exportcheck import check_export
from pbntool.formats.pbn.reader import GameBlock, RawGame, RawTag
from pbntool.formats.pbn.sections import (
    AuctionData,
    PlayData,
    decode_auction_data,
    decode_note,
    decode_play_data,
    decode_table,
    element_offsets,
)
from pbntool.formats.pbn.supplemental import SUPPLEMENTAL_CHECKS, check_supplemental
from pbntool.formats.pbn.tags import (
    FORBIDDEN_INHERITANCE,
    KNOWN_TAGS,
    MANDATORY_TAGS,
    MANDATORY_TAGS_V1,
    TABLE_TAGS,
)
from pbntool.model import (
    Auction,
    Board,
    Comment,
    CommentKind,
    Contract,
    Deal,
    Note,
    Play,
    Result,
    Seat,
    Slot,
    Table,
    Tag,
    pickle_by_fields,
)
from pbntool.notation import CARDS_PER_HAND
from pbntool.rules import auction_outcome
from pbntool.text.source import LineIndex

__all__ = [
    "DATE_TAGS",
    "SIDE_NUMBER_TAGS",
    "DecodedGame",
    "FileContext",
    "SourceMap",
    "auction_of",
    "decode_game",
    "decode_side_number",
    "is_end_position",
    "play_of",
]

# Tag(...) costs a Python-level __new__; the hot loop builds the tuple directly.
_new_tag = functools.partial(tuple.__new__, Tag)
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_SIDE_NUMBER = re.compile(
    rf"(?:{_NUMBER}|(?:NS|EW)\s*{_NUMBER}(?:\s*(?:NS|EW)\s*{_NUMBER})?)", re.I | re.ASCII
)
DATE_TAGS = ("Date", "EventDate", "UTCDate")
SIDE_NUMBER_TAGS = ("ScoreIMP", "ScoreMP", "ScorePercentage", "OptimumScore")
"""Tags whose values are side scores with decimals allowed (``decode_side_number``)."""
_VERSION_LINE = re.compile(r"\s*PBN\s+(\d+)\.(\d+)", re.I | re.ASCII)
_EXPORT_LINE = re.compile(r"\s*EXPORT\s*$", re.I)


@dataclass
class FileContext:
    """What carries over from one game to the next in a file."""

    name: str
    version: tuple[int, int] | None = None
    export: bool = False
    last_values: MutableMapping[str, str] = field(default_factory=dict)
    """A mapping, not a dict: a slice read in parallel passes one that records its reads
    (``split._Recording``), and compiled code would write a dict without asking it."""
    defaults: dict[str, str] = field(default_factory=dict)
    previous_deal: tuple[str, str] | None = None
    pending_commentary: list[Comment] = field(default_factory=list)
    lf_only: bool = False
    """Whether the text read so far had LF line ends (the reader keeps this up to date)."""
    lf_reported: bool = False

    def take_lf_report(self) -> bool:
        """True once, the first time LF line ends are seen in an export file."""
        if self.lf_only and not self.lf_reported:
            self.lf_reported = True
            return True
        return False

    def note_escape_lines(self, comments: list[Comment]) -> None:
        """Pick up ``% PBN x.y`` and ``% EXPORT`` from escape lines."""
        for comment in comments:
            if comment.kind is not CommentKind.ESCAPE:
                continue
            version = _VERSION_LINE.match(comment.text)
            if version:
                self.version = (int(version.group(1)), int(version.group(2)))
            elif _EXPORT_LINE.match(comment.text):
                self.export = True


@dataclass
class SourceMap:
    """Offsets of a board's parts in its game text, resolved to lines and columns on demand."""

    block: GameBlock
    tags: dict[str, RawTag] = field(default_factory=dict)
    """The first tag pair of each name."""
    auction: AuctionData | None = None
    play: PlayData | None = None
    play_first: Seat | None = None
    notes: dict[tuple[str, int], int] = field(default_factory=dict)
    hands: dict[Seat, int] = field(default_factory=dict)
    tables: dict[str, int] = field(default_factory=dict)
    cells: dict[str, list[int]] = field(default_factory=dict)
    """The offset of each element of a table's data, by table name."""
    raw: RawGame | None = None
    """The game as parsed: every tag pair in source order with its offsets and section data
    (for edits in place, ``pbntool fix``)."""
    _lines: LineIndex | None = None

    def offset(self, path: Path | None) -> int | None:
        """Where ``path`` points in the game text (None if unknown)."""
        if not path:
            return None
        kind = path[0]
        found: int | None = None
        if kind == "offset":
            found = int(path[1])
        elif kind == "call":
            found = self._call(int(path[1]))
        elif kind == "card":
            found = self._card(int(path[1]), Seat(path[2]))
        elif kind in ("tag", "tag_value"):  # the value ("section" points at the "[")
            found = self._tag(str(path[1]), value=True)
            if found is not None and len(path) > 2:
                found += int(path[2])
        elif kind == "deal":
            found = self.hands.get(Seat(path[1]), self._tag("Deal", True))
        elif kind == "note":
            found = self.notes.get((str(path[1]), int(path[2])))
        elif kind == "section":
            found = self._section(str(path[1]))
        elif kind == "table":
            found = self.tables.get(str(path[1]))
        elif kind == "cell":
            found = self._cell(str(path[1]), int(path[2]))
        return found

    def _cell(self, table: str, index: int) -> int | None:
        cells = self.cells.get(table)
        if cells is None or not 0 <= index < len(cells):
            return self.tables.get(table)
        return cells[index]

    def _call(self, index: int) -> int | None:
        data = self.auction
        if data is None or not 0 <= index < len(data.call_words):
            return self._section("Auction")
        return data.words.offset(data.call_words[index])

    def _card(self, trick: int, seat: Seat) -> int | None:
        data, first = self.play, self.play_first
        if data is None or first is None:
            return self._section("Play")
        slot = trick * 4 + first.distance_to(seat)
        if not 0 <= slot < len(data.slots):
            return self._section("Play")
        word = data.slot_words[slot] if data.slot_words is not None else slot
        return data.words.offset(word)

    def _tag(self, name: str, value: bool) -> int | None:
        found = self.tags.get(name)
        if found is None:
            return None
        return found.value_offset if value else found.offset

    def _section(self, name: str) -> int | None:
        return self._tag(name, False)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) in the file of a text offset."""
        if self._lines is None:
            self._lines = LineIndex(self.block.text, self.block.first_line)
        return self._lines.position(offset)


@dataclass
class DecodedGame:
    """A board with its diagnostics (paths not yet resolved) and source map."""

    board: Board
    diagnostics: list[Diagnostic]
    source: SourceMap


@dataclass
class _Game:
    """Working state while decoding one game."""

    raw: RawGame
    context: FileContext
    source: SourceMap
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    resolved: dict[str, str] = field(default_factory=dict)
    """Tag values after inheritance, first occurrence of each name."""
    auction_data: AuctionData | None = None
    play_data: PlayData | None = None

    @property
    def first(self) -> dict[str, RawTag]:
        """The first tag pair of each name (the source map keeps them for positions)."""
        return self.source.tags

    def problem(self, problem: values.Problem, tag: str) -> None:
        self.diagnostics.append(
            problem.code.at(("tag_value", tag, problem.index), **problem.arguments)
        )


def decode_game(raw: RawGame, context: FileContext) -> DecodedGame | None:
    """Decode one game; None when the block holds no tag (its commentary moves on to the next)."""
    context.note_escape_lines(raw.commentary)
    if not raw.tags:
        context.pending_commentary.extend(raw.commentary)
        return None
    game = _Game(raw, context, SourceMap(raw.block, raw=raw), list(raw.diagnostics))
    commentary = tuple(context.pending_commentary) + tuple(raw.commentary)
    context.pending_commentary = []
    _read_tags(game)
    board = _build_board(game, commentary)
    _check_tag_set(game, board)
    return DecodedGame(board, game.diagnostics, game.source)


def _read_tags(game: _Game) -> None:
    """Tags in source order: the first of each name wins (only Note repeats), ``#``/``##``
    inheritance is resolved (PBN §6), names and values get their syntax checks.

    This runs for every tag of every game, so the common case (a known tag with a plain value)
    takes the shortest path.
    """
    context = game.context
    first, resolved, tags = game.first, game.resolved, game.tags
    diagnostics = game.diagnostics
    for raw_tag in game.raw.tags:
        name, value = raw_tag.name, raw_tag.value
        comments = tuple(raw_tag.comments) if raw_tag.comments else ()
        if name == "Note":
            first.setdefault(name, raw_tag)
            tags.append(_new_tag((name, value, comments, None, False, False)))
            continue
        if name in first:
            diagnostics.append(PBN006.at(("offset", raw_tag.offset), name=name))
            tags.append(_new_tag((name, value, comments, None, False, True)))
            continue
        first[name] = raw_tag
        if name not in KNOWN_TAGS:
            code = PBN007 if name[0].isupper() else PBN005
            diagnostics.append(code.at(("offset", raw_tag.offset), name=name))
        elif name in TABLE_TAGS and ("\\n" in value or "\\t" in value):
            diagnostics.append(PBN130.at(("offset", raw_tag.value_offset), name=name))
        if "\t" in value:
            diagnostics.append(PBN008.at(("offset", raw_tag.value_offset), name=name))
        written: str | None = None
        if value[:1] == "#":
            written = value
            value = _inherit(game, raw_tag)
        elif context.defaults:
            context.defaults.pop(name, None)
        resolved[name] = value
        tags.append(_new_tag((name, value, comments, written, False, False)))
    context.last_values.update(resolved)
    for name, default in context.defaults.items():
        if name not in first:
            tags.append(Tag(name, default, inherited=True))
            resolved[name] = default
            context.last_values[name] = default


def _inherit(game: _Game, raw_tag: RawTag) -> str:
    context, name, value = game.context, raw_tag.name, raw_tag.value
    where = ("offset", raw_tag.value_offset)
    if name in FORBIDDEN_INHERITANCE:
        if name == "Deal" and value == "#":
            game.diagnostics.append(PBN132.at(where))
        elif value.startswith("##"):
            action = "the value is used for this game only"
            game.diagnostics.append(PBN113.at(where, name=name, value=f'"{value}"', action=action))
            return value[2:]
        else:
            action = "the previous game's value is used"
            game.diagnostics.append(PBN113.at(where, name=name, value=f'"{value}"', action=action))
    if value.startswith("##"):
        context.defaults[name] = value[2:]
        return value[2:]
    context.defaults.pop(name, None)
    if value == "#":
        previous = context.last_values.get(name)
        if previous is None:
            game.diagnostics.append(PBN114.at(where, name=name))
            return ""
        return previous
    return value


def _build_board(game: _Game, commentary: tuple[Comment, ...]) -> Board:
    get = game.resolved.get
    number, problems = values.decode_board_number(get("Board", ""))
    _report(game, problems, "Board")
    dealer, problems = values.decode_seat(get("Dealer", ""), "Dealer")
    _report(game, problems, "Dealer")
    vulnerability, problems = values.decode_vulnerable(get("Vulnerable", ""))
    _report(game, problems, "Vulnerable")
    deal, deal_problems, hands = values.decode_deal(get("Deal", ""))
    _report(game, deal_problems, "Deal")
    deal_tag = game.first.get("Deal")
    if deal_tag is not None:
        game.source.hands = {seat: deal_tag.value_offset + index for seat, index in hands.items()}
    contract, problems = values.decode_contract(get("Contract", ""))
    _report(game, problems, "Contract")
    declarer_text = get("Declarer", "").strip()
    declarer_irregular = declarer_text.startswith("^")
    declarer, problems = values.decode_seat(declarer_text.lstrip("^"), "Declarer")
    _report(game, problems, "Declarer")
    for name in DATE_TAGS:
        if name in game.resolved:
            _report(game, values.decode_date(name, game.resolved[name]), name)
    auction = _decode_auction(game, dealer)
    if declarer is None and auction is not None and "Declarer" not in game.resolved:
        declarer_for_result = auction_outcome(auction).declarer
    else:
        declarer_for_result = declarer
    tricks, irregular, problems = values.decode_result(get("Result", ""), declarer_for_result)
    _report(game, problems, "Result")
    score, problems = values.decode_score("Score", get("Score", ""))
    _report(game, problems, "Score")
    for name in SIDE_NUMBER_TAGS:
        if name in game.resolved:
            _report(game, decode_side_number(name, game.resolved[name]), name)
    for name in SUPPLEMENTAL_CHECKS.keys() & game.resolved.keys():
        _report(game, check_supplemental(name, game.resolved[name]), name)
    play = _decode_play(game, is_end_position(deal, contract))
    auction_notes, play_notes = _attach_notes(game, auction, play)
    if auction is not None and auction_notes:
        auction = dataclasses.replace(auction, notes=tuple(auction_notes))
    if play is not None and play_notes:
        play = dataclasses.replace(play, notes=tuple(play_notes))
    return Board(
        tags=tuple(game.tags),
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        auction=auction,
        play=play,
        contract=contract,
        declarer=declarer,
        declarer_irregular=declarer_irregular,
        result=None if tricks is None else Result(tricks, irregular),
        score=score,
        commentary=commentary,
        tables=_decode_tables(game),
    )


def is_end_position(deal: Deal | None, contract: Contract | None) -> bool:
    """Fewer than 13 cards in each known hand, or a denomination-only contract (PBN §11)."""
    if contract is not None and contract.level is None and contract.strain is not None:
        return True
    if deal is None:
        return False
    sizes = {len(hand) for hand in deal.hands if hand is not None}
    return len(sizes) == 1 and sizes.pop() < CARDS_PER_HAND


@functools.lru_cache(maxsize=1024)
def decode_side_number(name: str, value: str) -> values.Problems:
    """ScoreIMP/ScoreMP/ScorePercentage/OptimumScore: side-score forms, decimals allowed."""
    text = value.strip()
    if text in values.UNKNOWN_VALUES:
        return ()
    if len(text) > 40 or _SIDE_NUMBER.fullmatch(text) is None:
        return (values.Problem(PBN110, {"name": name, "value": f'"{value}"'}),)
    if "+" in value:
        return (values.Problem(PBN111, {"name": name, "value": f'"{value}"'}),)
    return ()


def _report(game: _Game, problems: Iterable[values.Problem], tag: str) -> None:
    for problem in problems:
        game.problem(problem, tag)


def _section_seat(game: _Game, name: str) -> Seat | None:
    raw_tag = game.first[name]
    # "#" inherits the previous game's seat (PBN113 says it is used): read the resolved
    # value, or the section would go undecoded and its notes be written before its tag.
    seat, problems = values.decode_seat(game.resolved.get(name, raw_tag.value), name)
    if problems or seat is None:
        game.diagnostics.append(
            PBN128.at(("offset", raw_tag.value_offset), name=name, value=f'"{raw_tag.value}"')
        )
    return seat


def _decode_auction(game: _Game, dealer: Seat | None) -> Auction | None:
    raw_tag = game.first.get("Auction")
    if raw_tag is None:
        return None
    first = _section_seat(game, "Auction")
    if first is None:
        return None
    _check_prerequisites(game, raw_tag, ("Dealer",))
    data = decode_auction_data(raw_tag.data or [])
    game.diagnostics.extend(data.diagnostics)
    start = first.next(data.placeholders)
    if dealer is not None and start != dealer:
        game.diagnostics.append(
            PBN123.at(
                ("offset", raw_tag.value_offset),
                first=first.letter,
                count=data.placeholders,
                dealer=dealer.letter,
            )
        )
    game.source.auction = data
    game.auction_data = data
    return auction_of(start, data)


def auction_of(start: Seat, data: AuctionData) -> Auction:
    """The Auction of a decoded section, before its notes are attached (both reading paths)."""
    return Auction(
        start,
        tuple(data.calls),
        data.end,
        tuple(sorted(data.annotations.items())),
        (),
        tuple(data.comments),
    )


def _check_prerequisites(game: _Game, section: RawTag, needed: tuple[str, ...]) -> None:
    """PBN124: tags a section needs must come before it (a ``##`` default counts as given)."""
    seen, defaults = game.source.tags, game.context.defaults
    missing = [
        name
        for name in needed
        if name not in defaults and not (name in seen and seen[name].offset < section.offset)
    ]
    if missing:
        game.diagnostics.append(
            PBN124.at(
                ("offset", section.offset), section=section.name, needed=" and ".join(missing)
            )
        )


def _decode_play(game: _Game, board_is_end_position: bool) -> Play | None:
    raw_tag = game.first.get("Play")
    if raw_tag is None:
        return None
    if not raw_tag.value.strip() and not decode_play_data(raw_tag.data or []).slots:
        # [Play ""] with no card: real files write it for "not played"; no play, not an error.
        game.diagnostics.append(PBN139.at(("offset", raw_tag.offset)))
        return None
    first = _section_seat(game, "Play")
    if first is None:
        return None
    # An end position (PBN §11) has a denomination-only contract and needs no declarer.
    needed = ("Deal", "Contract") if board_is_end_position else ("Deal", "Contract", "Declarer")
    _check_prerequisites(game, raw_tag, needed)
    data = decode_play_data(raw_tag.data or [])
    game.diagnostics.extend(data.diagnostics)
    if not data.slots:
        game.diagnostics.append(PBN131.at(("offset", raw_tag.offset)))
    game.source.play, game.source.play_first = data, first
    game.play_data = data
    return play_of(first, data)


def play_of(first: Seat, data: PlayData) -> Play:
    """The Play of a decoded section, before its notes are attached (both reading paths)."""
    tricks = _tricks_by_seat(data.slots, first)
    seats = [first.next(step) for step in range(4)]
    annotations = tuple(
        sorted(
            ((index // 4, seats[index % 4]), annotation)
            for index, annotation in data.annotations.items()
        )
    )
    return Play(first, tuple(tricks), data.end, annotations, (), tuple(data.comments))


def _tricks_by_seat(slots: list[Slot], first: Seat) -> list[tuple[Slot, Slot, Slot, Slot]]:
    """Cut column-ordered slots into tricks of four, re-indexed by seat (N, E, S, W)."""
    padded = slots + [None] * (-len(slots) % 4)
    # Column j holds seat first+j, so seat s is column (s - first) mod 4.
    n, e, s, w = (
        first.distance_to(seat) for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
    )
    return [
        (padded[i + n], padded[i + e], padded[i + s], padded[i + w])
        for i in range(0, len(padded), 4)
    ]


def _attach_notes(
    game: _Game, auction: Auction | None, play: Play | None
) -> tuple[list[Note], list[Note]]:
    """Decode Note tags and record which section each belongs to.

    A note belongs to the section it is written in (after Auction → auction, after Play →
    play).  A note written in the other section, or before both, goes where it is referenced
    (a real-world deviation, warned about).
    """
    notes: dict[str, list[Note]] = {"auction": [], "play": []}
    referenced = (game.auction_data and game.auction_data.references) or (
        game.play_data and game.play_data.references
    )
    if "Note" not in game.first and not referenced:
        return notes["auction"], notes["play"]
    section = "identification"
    indices: dict[str, set[int]] = {"auction": set(), "play": set()}
    used_auction = game.auction_data.references if game.auction_data else {}
    used_play = game.play_data.references if game.play_data else {}
    for raw_tag in game.raw.tags:
        if raw_tag.name == "Auction":
            section = "auction"
        elif raw_tag.name == "Play":
            section = "play"
        elif raw_tag.name in TABLE_TAGS:
            section = "table"
        if raw_tag.name != "Note":
            continue
        note, problems = decode_note(raw_tag.value)
        for problem in problems:
            game.diagnostics.append(
                dataclasses.replace(problem, path=("offset", raw_tag.value_offset))
            )
        if note is None:
            continue
        note = dataclasses.replace(note, comments=tuple(raw_tag.comments))
        target = section if section in ("auction", "play") else None
        in_auction, in_play = note.index in used_auction, note.index in used_play
        if target == "auction" and in_play and not in_auction:
            target = "play"
        elif target == "play" and in_auction and not in_play:
            target = "auction"
        elif target is None:
            target = "play" if in_play and not in_auction else "auction"
        if target != section and section in ("auction", "play"):
            game.diagnostics.append(
                PBN129.at(("offset", raw_tag.offset), index=note.index, found=section, used=target)
            )
        if target == "auction" and auction is None and play is not None:
            target = "play"
        if note.index in indices[target]:
            game.diagnostics.append(
                PBN135.at(("offset", raw_tag.offset), index=note.index, section=target)
            )
        notes[target].append(note)
        indices[target].add(note.index)
        game.source.notes.setdefault((target, note.index), raw_tag.offset)
    for section_name, used, given in (
        ("auction", used_auction, notes["auction"]),
        ("play", used_play, notes["play"]),
    ):
        for index, offset in used.items():
            if index not in indices[section_name]:
                game.diagnostics.append(PBN121.at(("offset", offset), index=index))
        for note in given:
            if note.index not in used:
                game.diagnostics.append(
                    PBN122.at(("note", section_name, note.index), index=note.index)
                )
    return notes["auction"], notes["play"]


def _decode_tables(game: _Game) -> tuple[Table, ...]:
    tables: list[Table] = [
        Table(tag.name, tag.value)  # a table header supplied by a "##" default, no rows
        for tag in game.tags
        if tag.inherited and tag.name in TABLE_TAGS
    ]
    for raw_tag in game.raw.tags:
        if raw_tag.data is None and raw_tag.name not in TABLE_TAGS:
            continue
        known = raw_tag.name in TABLE_TAGS
        if game.first.get(raw_tag.name) is not raw_tag:
            continue
        if not known and raw_tag.data is None:
            continue
        if raw_tag.name in ("Auction", "Play"):
            continue
        header = game.resolved.get(raw_tag.name, raw_tag.value)
        # A whole table squeezed into the value (PBN130) is kept as written, not decoded.
        encoded = "\\n" in header or "\\t" in header
        table, problems = decode_table(
            raw_tag.name, header, raw_tag.data or [], known and not encoded
        )
        game.source.tables[raw_tag.name] = raw_tag.offset
        if known and table.rows:
            game.source.cells[raw_tag.name] = element_offsets(raw_tag.data or [])
        game.diagnostics.extend(problems)
        if any(piece[0] == "comment" for piece in raw_tag.data or []):
            game.diagnostics.append(PBN009.at(("offset", raw_tag.offset), name=raw_tag.name))
        tables.append(dataclasses.replace(table, comments=tuple(raw_tag.comments) + table.comments))
    return tuple(tables)


FIXED_MANDATORY_TAGS = frozenset({"Dealer", "Vulnerable", "Declarer", "Contract", "Result"})
"""The mandatory tags ``pbntool fix`` fills in when the rest of the record determines them
(``tools/fix``; tests/test_checklist.py checks it against ``VALUE_TAGS``)."""


def missing_tags_advice(missing: list[str]) -> str:
    """What to do about missing mandatory tags (BRD003's ``{advice}``): ``fix`` fills in those
    the record determines, the others only the file's author knows (``?`` when unknown)."""
    fixable = [name for name in missing if name in FIXED_MANDATORY_TAGS]
    others = len(missing) - len(fixable)
    advice = ""
    if fixable:
        them = "it" if len(fixable) == 1 else "them"
        advice += f"; pbntool fix fills {them} in where the record determines {them}"
    if others:
        which = "the others" if fixable else "a value"
        advice += f'; write "?" for {which} not known (pbntool convert --to pbn does)'
    return advice


def _check_tag_set(game: _Game, board: Board) -> None:
    """Missing mandatory tags (BRD003) and, in ``% EXPORT`` files, export-format rules."""
    version = game.context.version
    mandatory = MANDATORY_TAGS_V1 if version is not None and version < (2, 0) else MANDATORY_TAGS
    missing = [name for name in mandatory if name not in game.resolved]
    if missing:
        where = ("offset", game.raw.tags[0].offset)
        names, advice = ", ".join(missing), missing_tags_advice(missing)
        game.diagnostics.append(BRD003.at(where, names=names, advice=advice))
    if game.context.export:
        game.diagnostics.extend(
            check_export(game.raw, board, game.resolved, report_lf=game.context.take_lf_report())
        )


# Compiled, these classes pickle only so (see pickle_by_fields): a record holds them.
pickle_by_fields(FileContext, SourceMap, DecodedGame)
