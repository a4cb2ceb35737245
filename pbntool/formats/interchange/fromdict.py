"""The model object back into a ``Board``, checking every type and value on the way.

Input is untrusted (a JSON line, or what the XML reader made of a ``<board>`` element), so
nothing is assumed: a value of the wrong type or an unknown spelling is reported and left out,
an unknown key is reported and ignored, and an item that lacks what it cannot do without (a
tag without a name) is reported and dropped.  The rest of the board is still built.  A call
or card that is not one is kept as a ``Token`` with a warning, so that the positions of the
calls and cards after it do not move.

Problems carry the path of the offending value inside the model object (``("auction",
"calls", 3)``), prefixed with the dialect's name; the reader turns it into a line and column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from pbntool.diagnostics import Code, Diagnostic
from pbntool.formats.interchange.problems import Dialect, JsonPath, describe
from pbntool.formats.interchange.vocabulary import (
    CALL_BY_TEXT,
    CARD_BY_TEXT,
    COMMENT_KIND_BY_TEXT,
    DOUBLING_BY_TEXT,
    END_BY_TEXT,
    SEAT_BY_TEXT,
    SEAT_KEYS,
    SIDE_BY_TEXT,
    STRAIN_BY_TEXT,
    VULNERABILITY_BY_TEXT,
    expected,
)
from pbntool.model import (
    Annotation,
    Auction,
    Board,
    Call,
    Card,
    Comment,
    Contract,
    Deal,
    Doubling,
    Hand,
    Note,
    Play,
    Rank,
    Result,
    Score,
    Seat,
    SectionEnd,
    Slot,
    Suit,
    Table,
    TableColumn,
    Tag,
    Token,
)

__all__ = ["Dialect", "JsonPath", "ModelDecoder", "describe"]

T = TypeVar("T")


_MEMBERS: dict[str, frozenset[str]] = {
    kind: frozenset(keys.split())
    for kind, keys in {
        "model": "number dealer vulnerability deal auction play contract declarer "
        "declarer_irregular result score commentary tables tags",
        "auction": "first calls end annotations notes comments",
        "play": "first tricks end annotations notes comments",
        "call_annotation": "call note nags irregularity comments",
        "card_annotation": "trick seat note nags irregularity comments",
        "note": "index text comments",
        "comment": "kind text",
        "token": "token",
        "deal": "N E S W",
        "trick": "N E S W",
        "contract": "level strain doubling",
        "result": "tricks irregular",
        "score": "points side",
        "table": "name header columns rows leftover comments",
        "column": "name order width align",
        "tag": "name value comments written inherited duplicate",
    }.items()
}
"""The keys each kind of object may have."""


@dataclass
class ModelDecoder:
    """Builds boards from model objects; ``found`` collects the problems of the last board."""

    dialect: Dialect
    found: list[Diagnostic] = field(default_factory=list)

    # --- reporting --------------------------------------------------------------------------

    def report(
        self, code: Code, path: JsonPath, named: JsonPath | None = None, **arguments: object
    ) -> None:
        """Report at ``path``; the message names ``named`` (default: the same place)."""
        where = self.dialect.where(path if named is None else named)
        self.found.append(code.at((self.dialect.prefix, *path), where=where, **arguments))

    def wrong_type(self, path: JsonPath, value: object, wanted: str) -> None:
        """Report a value of the wrong type (it is ignored)."""
        self.report(self.dialect.wrong_type, path, expected=wanted, found=describe(value))

    def bad_value(self, path: JsonPath, value: object, wanted: str) -> None:
        """Report a value of the right type but no known meaning (it is ignored)."""
        self.report(self.dialect.bad_value, path, expected=wanted, found=describe(value))

    def missing(self, path: JsonPath, key: str, consequence: str) -> None:
        """Report an object without a key it cannot do without."""
        self.report(self.dialect.missing, path, key=key, consequence=consequence)

    def members(self, path: JsonPath, value: object, kind: str) -> Mapping[str, object] | None:
        """``value`` as an object whose unknown keys have been reported, or None."""
        if not isinstance(value, Mapping):
            self.wrong_type(path, value, "an object")
            return None
        known, code = _MEMBERS[kind], self.dialect.unknown_key
        for key in value:
            if key not in known and code is not None:
                self.report(code, (*path, key), path, key=describe(key))
        return value

    # --- typed access -----------------------------------------------------------------------

    def optional(
        self, obj: Mapping[str, object], path: JsonPath, key: str, read: Reader[T]
    ) -> T | None:
        """``obj[key]`` read by ``read``; None when absent, null or unusable."""
        value = obj.get(key)
        if value is None:
            return None
        return read(self, (*path, key), value)

    def text(self, obj: Mapping[str, object], path: JsonPath, key: str, default: str = "") -> str:
        value = obj.get(key, default)
        if isinstance(value, str):
            return value
        self.wrong_type((*path, key), value, "a string")
        return default

    def flag(self, obj: Mapping[str, object], path: JsonPath, key: str) -> bool:
        value = obj.get(key, False)
        if isinstance(value, bool):
            return value
        self.wrong_type((*path, key), value, "true or false")
        return False

    def items(
        self, obj: Mapping[str, object], path: JsonPath, key: str
    ) -> Iterator[tuple[JsonPath, object]]:
        """The elements of the array ``obj[key]`` with their paths (none when absent)."""
        value = obj.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            self.wrong_type((*path, key), value, "an array")
            return
        for index, item in enumerate(value):
            yield (*path, key, index), item

    def listed(
        self, obj: Mapping[str, object], path: JsonPath, key: str, read: Reader[T]
    ) -> tuple[T, ...]:
        """The usable elements of the array ``obj[key]``, each read by ``read``."""
        found = []
        for where, item in self.items(obj, path, key):
            value = read(self, where, item)
            if value is not None:
                found.append(value)
        return tuple(found)

    # --- the board --------------------------------------------------------------------------

    def board(self, value: object, path: JsonPath = ()) -> Board | None:
        """The board of a model object (None if it is not an object); problems in ``found``."""
        obj = self.members(path, value, "model")
        if obj is None:
            return None
        return Board(
            tags=self.listed(obj, path, "tags", _tag),
            number=self.optional(obj, path, "number", _integer),
            dealer=self.optional(obj, path, "dealer", _seat),
            vulnerability=self.optional(
                obj, path, "vulnerability", _choice(VULNERABILITY_BY_TEXT, "a vulnerability")
            ),
            deal=self.optional(obj, path, "deal", _deal),
            auction=self.optional(obj, path, "auction", _auction),
            play=self.optional(obj, path, "play", _play),
            contract=self.optional(obj, path, "contract", _contract),
            declarer=self.optional(obj, path, "declarer", _seat),
            declarer_irregular=self.flag(obj, path, "declarer_irregular"),
            result=self.optional(obj, path, "result", _result),
            score=self.optional(obj, path, "score", _score),
            commentary=self.listed(obj, path, "commentary", _comment),
            tables=self.listed(obj, path, "tables", _table),
        )


Reader = Callable[[ModelDecoder, JsonPath, object], T | None]
"""Reads one value at a path: the model value, or None after reporting why not."""


# --- scalars -----------------------------------------------------------------------------------


def _integer(decoder: ModelDecoder, path: JsonPath, value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)  # 7.0 is the number 7 (as JSON Schema's "integer" says)
    decoder.wrong_type(path, value, "an integer")
    return None


def _natural(decoder: ModelDecoder, path: JsonPath, value: object) -> int | None:
    number = _integer(decoder, path, value)
    if number is not None and number < 0:
        decoder.bad_value(path, value, "a number of 0 or more")
        return None
    return number


def _string(decoder: ModelDecoder, path: JsonPath, value: object) -> str | None:
    if isinstance(value, str):
        return value
    decoder.wrong_type(path, value, "a string")
    return None


def _choice(table: Mapping[str, T], what: str, fold: bool = False) -> Reader[T]:
    """A reader of one of the spellings of ``table`` (upper-cased first when ``fold``)."""
    wanted = f"{what} ({expected(dict(table))})"

    def read(decoder: ModelDecoder, path: JsonPath, value: object) -> T | None:
        if not isinstance(value, str):
            decoder.wrong_type(path, value, f"a string, {wanted}")
            return None
        found = table.get(value.upper() if fold else value)
        if found is None:
            decoder.bad_value(path, value, wanted)
        return found

    return read


_seat = _choice(SEAT_BY_TEXT, "a seat", fold=True)
_end = _choice(END_BY_TEXT, "a section end")
_kind = _choice(COMMENT_KIND_BY_TEXT, "a comment kind")
_strain = _choice(STRAIN_BY_TEXT, "a strain", fold=True)
_doubling = _choice(DOUBLING_BY_TEXT, "a doubling")
_side = _choice(SIDE_BY_TEXT, "a side", fold=True)


# --- comments, annotations, notes --------------------------------------------------------------


def _comment(decoder: ModelDecoder, path: JsonPath, value: object) -> Comment | None:
    obj = decoder.members(path, value, "comment")
    if obj is None:
        return None
    if "text" not in obj:
        decoder.missing(path, "text", "the comment is not read")
        return None
    text = decoder.optional(obj, path, "text", _string)
    if text is None:
        return None
    kind = decoder.optional(obj, path, "kind", _kind)
    return Comment(text, kind) if kind is not None else Comment(text)


def _comments(
    decoder: ModelDecoder, obj: Mapping[str, object], path: JsonPath
) -> tuple[Comment, ...]:
    return decoder.listed(obj, path, "comments", _comment)


def _annotation_of(decoder: ModelDecoder, obj: Mapping[str, object], path: JsonPath) -> Annotation:
    irregularity = decoder.optional(obj, path, "irregularity", _string)
    return Annotation(
        note=decoder.optional(obj, path, "note", _natural),
        nags=decoder.listed(obj, path, "nags", _natural),
        irregularity=irregularity,
        comments=_comments(decoder, obj, path),
    )


def _note(decoder: ModelDecoder, path: JsonPath, value: object) -> Note | None:
    obj = decoder.members(path, value, "note")
    if obj is None:
        return None
    index = decoder.optional(obj, path, "index", _integer)
    if index is None:
        if "index" not in obj:
            decoder.missing(path, "index", "the note is not read")
        return None
    return Note(index, decoder.text(obj, path, "text"), _comments(decoder, obj, path))


# --- deal ----------------------------------------------------------------------------------------

_RANKS = {rank.letter: rank for rank in Rank}
_HAND_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_HAND_WANTED = "a hand (e.g. AKQ.T98.7654.32: spades, hearts, diamonds, clubs)"


def _hand(decoder: ModelDecoder, path: JsonPath, value: object) -> Hand | None:
    if not isinstance(value, str):
        decoder.wrong_type(path, value, "a string, " + _HAND_WANTED)
        return None
    if value == "-":
        return None  # PBN's spelling of an unknown hand
    holdings = value.upper().split(".")
    if len(holdings) != 4:
        decoder.bad_value(path, value, _HAND_WANTED)
        return None
    mask = 0
    for suit, ranks in zip(_HAND_SUITS, holdings, strict=True):
        for letter in ranks:
            rank = _RANKS.get(letter)
            bit = 0 if rank is None else Card.of(suit, rank).bit
            if not bit or mask & bit:
                decoder.bad_value(path, value, _HAND_WANTED + ", no card twice")
                return None
            mask |= bit
    return Hand.from_mask(mask)


def _deal(decoder: ModelDecoder, path: JsonPath, value: object) -> Deal | None:
    obj = decoder.members(path, value, "deal")
    if obj is None:
        return None
    north, east, south, west = (decoder.optional(obj, path, key, _hand) for key in SEAT_KEYS)
    return Deal((north, east, south, west))


# --- auction and play ------------------------------------------------------------------------


def _token(decoder: ModelDecoder, path: JsonPath, value: Mapping[str, object]) -> Token | None:
    obj = decoder.members(path, value, "token")
    if obj is None:
        return None
    text = decoder.optional(obj, path, "token", _string)
    if text is None:
        if "token" not in obj:
            decoder.missing(path, "token", "read as an empty token")
        return Token("")
    return Token(text)


def _kept(decoder: ModelDecoder, path: JsonPath, value: str, what: str) -> Token:
    decoder.report(decoder.dialect.kept_as_text, path, found=describe(value), what=what)
    return Token(value)


def _call(decoder: ModelDecoder, path: JsonPath, value: object) -> Call | Token:
    if isinstance(value, str):
        call = CALL_BY_TEXT.get(value.upper())
        return call if call is not None else _kept(decoder, path, value, "call")
    if isinstance(value, Mapping):
        return _token(decoder, path, value) or Token("")
    decoder.wrong_type(path, value, 'a call (e.g. "1S", "Pass", "X") or {"token": text}')
    return Token("")  # keeps the place of the calls after it


def _slot(decoder: ModelDecoder, path: JsonPath, value: object) -> Slot:
    if value is None:
        return None
    if isinstance(value, str):
        card = CARD_BY_TEXT.get(value.upper())
        return card if card is not None else _kept(decoder, path, value, "card")
    if isinstance(value, Mapping):
        return _token(decoder, path, value)
    decoder.wrong_type(path, value, 'a card (e.g. "SA"), null or {"token": text}')
    return None


def _trick(decoder: ModelDecoder, path: JsonPath, value: object) -> tuple[Slot, Slot, Slot, Slot]:
    obj = decoder.members(path, value, "trick")
    if obj is None:
        return (None, None, None, None)
    north, east, south, west = (_slot(decoder, (*path, key), obj.get(key)) for key in SEAT_KEYS)
    return (north, east, south, west)


def _section_parts(
    decoder: ModelDecoder, obj: Mapping[str, object], path: JsonPath
) -> tuple[SectionEnd, tuple[Note, ...], tuple[Comment, ...]]:
    end = decoder.optional(obj, path, "end", _end)
    notes = decoder.listed(obj, path, "notes", _note)
    return end or SectionEnd.OPEN, notes, _comments(decoder, obj, path)


def _first(
    decoder: ModelDecoder, obj: Mapping[str, object], path: JsonPath, what: str
) -> Seat | None:
    if "first" not in obj or obj["first"] is None:
        decoder.missing(path, "first", f"the {what} is not read")
        return None
    return decoder.optional(obj, path, "first", _seat)


def _call_annotation(
    decoder: ModelDecoder, path: JsonPath, value: object
) -> tuple[int, Annotation] | None:
    obj = decoder.members(path, value, "call_annotation")
    if obj is None:
        return None
    index = decoder.optional(obj, path, "call", _natural)
    if index is None:
        if "call" not in obj:
            decoder.missing(path, "call", "the annotation is not read")
        return None
    return index, _annotation_of(decoder, obj, path)


def _auction(decoder: ModelDecoder, path: JsonPath, value: object) -> Auction | None:
    obj = decoder.members(path, value, "auction")
    if obj is None:
        return None
    first = _first(decoder, obj, path, "auction")
    if first is None:
        return None
    calls = tuple(_call(decoder, where, item) for where, item in decoder.items(obj, path, "calls"))
    annotations = decoder.listed(obj, path, "annotations", _call_annotation)
    end, notes, comments = _section_parts(decoder, obj, path)
    return Auction(first, calls, end, annotations, notes, comments)


def _card_annotation(
    decoder: ModelDecoder, path: JsonPath, value: object
) -> tuple[tuple[int, Seat], Annotation] | None:
    obj = decoder.members(path, value, "card_annotation")
    if obj is None:
        return None
    for key in ("trick", "seat"):
        if obj.get(key) is None:
            decoder.missing(path, key, "the annotation is not read")
            return None
    trick = decoder.optional(obj, path, "trick", _natural)
    seat = decoder.optional(obj, path, "seat", _seat)
    if trick is None or seat is None:
        return None
    return (trick, seat), _annotation_of(decoder, obj, path)


def _play(decoder: ModelDecoder, path: JsonPath, value: object) -> Play | None:
    obj = decoder.members(path, value, "play")
    if obj is None:
        return None
    first = _first(decoder, obj, path, "play")
    if first is None:
        return None
    tricks = tuple(
        _trick(decoder, where, item) for where, item in decoder.items(obj, path, "tricks")
    )
    annotations = decoder.listed(obj, path, "annotations", _card_annotation)
    end, notes, comments = _section_parts(decoder, obj, path)
    return Play(first, tricks, end, annotations, notes, comments)


# --- contract, result, score ---------------------------------------------------------------------


def _contract(decoder: ModelDecoder, path: JsonPath, value: object) -> Contract | None:
    obj = decoder.members(path, value, "contract")
    if obj is None:
        return None
    level = decoder.optional(obj, path, "level", _integer)
    if level is not None and not 0 <= level <= 7:
        decoder.bad_value((*path, "level"), level, "a level 1-7 (0 for passed out)")
        return None
    if level is None and obj.get("level") is not None:
        return None  # a level that cannot be read: the contract is not known
    strain = decoder.optional(obj, path, "strain", _strain)
    doubling = decoder.optional(obj, path, "doubling", _doubling) or Doubling.UNDOUBLED
    return Contract(level, strain, doubling)


def _result(decoder: ModelDecoder, path: JsonPath, value: object) -> Result | None:
    obj = decoder.members(path, value, "result")
    if obj is None:
        return None
    tricks = decoder.optional(obj, path, "tricks", _integer)
    if tricks is None:
        if obj.get("tricks") is None:
            decoder.missing(path, "tricks", "the result is not read")
        return None
    return Result(tricks, decoder.flag(obj, path, "irregular"))


def _score(decoder: ModelDecoder, path: JsonPath, value: object) -> Score | None:
    obj = decoder.members(path, value, "score")
    if obj is None:
        return None
    points = decoder.optional(obj, path, "points", _integer)
    if points is None:
        if obj.get("points") is None:
            decoder.missing(path, "points", "the score is not read")
        return None
    return Score(points, decoder.optional(obj, path, "side", _side))


# --- tables and tags ------------------------------------------------------------------------------


def _column(decoder: ModelDecoder, path: JsonPath, value: object) -> TableColumn | None:
    obj = decoder.members(path, value, "column")
    if obj is None:
        return None
    if not isinstance(obj.get("name"), str):
        if "name" not in obj:
            decoder.missing(path, "name", "the column is not read")
        else:
            decoder.wrong_type((*path, "name"), obj.get("name"), "a string")
        return None
    return TableColumn(
        decoder.text(obj, path, "name"),
        decoder.text(obj, path, "order"),
        decoder.optional(obj, path, "width", _natural),
        decoder.text(obj, path, "align"),
    )


def _strings(decoder: ModelDecoder, path: JsonPath, value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        decoder.wrong_type(path, value, "an array of strings")
        return None
    found = (_string(decoder, (*path, index), item) for index, item in enumerate(value))
    return tuple(item for item in found if item is not None)


def _named(
    decoder: ModelDecoder, obj: Mapping[str, object], path: JsonPath, what: str
) -> str | None:
    if "name" not in obj:
        decoder.missing(path, "name", f"the {what} is not read")
        return None
    return decoder.optional(obj, path, "name", _string)


def _table(decoder: ModelDecoder, path: JsonPath, value: object) -> Table | None:
    obj = decoder.members(path, value, "table")
    if obj is None:
        return None
    name = _named(decoder, obj, path, "table")
    if name is None:
        return None
    return Table(
        name,
        decoder.text(obj, path, "header"),
        decoder.listed(obj, path, "columns", _column),
        decoder.listed(obj, path, "rows", _strings),
        decoder.optional(obj, path, "leftover", _strings) or (),
        _comments(decoder, obj, path),
    )


def _tag(decoder: ModelDecoder, path: JsonPath, value: object) -> Tag | None:
    obj = decoder.members(path, value, "tag")
    if obj is None:
        return None
    name = _named(decoder, obj, path, "tag")
    if name is None:
        return None
    return Tag(
        name,
        decoder.text(obj, path, "value"),
        _comments(decoder, obj, path),
        decoder.optional(obj, path, "written", _string),
        decoder.flag(obj, path, "inherited"),
        decoder.flag(obj, path, "duplicate"),
    )
