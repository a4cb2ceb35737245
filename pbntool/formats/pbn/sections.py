"""Decoders for PBN section data: the Auction and Play sections, Notes, and tables.

Section data arrives as ``Piece``s (runs of data, quoted strings, comments, with their
offsets in the game text).  Calls and cards are looked up in tables of every spelling first
(the common case costs one dict lookup); anything else goes through the token splitter.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from pbntool.diagnostics import (
    PBN107,
    PBN115,
    PBN116,
    PBN117,
    PBN118,
    PBN119,
    PBN120,
    PBN125,
    PBN126,
    PBN127,
    PBN136,
    PBN140,
    PBN141,
    Diagnostic,
    Path,
)
from pbntool.formats.pbn.reader import Piece
from pbntool.model import (
    ALL_CARDS,
    Action,
    Annotation,
    Bid,
    Call,
    Card,
    Comment,
    Note,
    SectionEnd,
    Slot,
    Strain,
    Table,
    TableColumn,
    Token,
    pickle_by_fields,
    pickle_by_init,
)

__all__ = [
    "AuctionData",
    "PlayData",
    "decode_auction_data",
    "decode_note",
    "decode_play_data",
    "decode_table",
    "element_offsets",
    "note_references",
]


def _case_variants(text: str) -> set[str]:
    return {text, text.upper(), text.lower(), text.capitalize()}


_CALL_SPELLINGS: dict[str, Call] = {}
for _spelling in _case_variants("Pass"):
    _CALL_SPELLINGS[_spelling] = Action.PASS
for _spelling in _case_variants("X"):
    _CALL_SPELLINGS[_spelling] = Action.DOUBLE
for _spelling in _case_variants("XX") | {"Xx"}:
    _CALL_SPELLINGS[_spelling] = Action.REDOUBLE
for _level in range(1, 8):
    for _strain in Strain:
        for _spelling in _case_variants(f"{_level}{_strain.letter}") | {
            f"{_level}Nt",
            f"{_level}nT",
        }:
            _CALL_SPELLINGS[_spelling] = Bid.of(_level, _strain)

_NT_ALIASES = {f"{level}{n}": Bid.of(level, Strain.NOTRUMP) for level in range(1, 8) for n in "Nn"}

_CARD_SPELLINGS: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _spelling in _case_variants(str(_card)):
        _CARD_SPELLINGS[_spelling] = _card
    if _card.rank == 10:
        for _spelling in _case_variants(_card.suit.letter + "10"):
            _CARD_SPELLINGS[_spelling] = _card

# Note references and NAGs are small numbers; longer digit runs are not annotations.
_ANNOTATION = re.compile(r"=\d{1,9}=|\$\d{1,9}|[!?]{1,2}", re.ASCII)
_SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_PIECES = re.compile(
    r"=\d{1,9}=|\$\d{1,9}|[!?]{1,2}|\^[A-Za-z]?|[*+]|[A-Za-z0-9-]+|.", re.S | re.ASCII
)
_WORDS = re.compile(r"\S+")


class SectionWords:
    """The words of a section's data, with their offsets computed only when asked for.

    Decoding runs on ``str.split`` (fast); positions are needed only for diagnostics.
    """

    __slots__ = ("_offsets", "pieces")

    def __init__(self, pieces: list[Piece]) -> None:
        self.pieces = pieces
        self._offsets: list[int] | None = None

    def offset(self, word: int) -> int | None:
        """Offset in the game text of word number ``word`` (0-based, comments excluded)."""
        if self._offsets is None:
            offsets: list[int] = []
            for kind, text, offset, _ in self.pieces:
                if kind == "data":
                    offsets.extend(offset + match.start() for match in _WORDS.finditer(text))
                elif kind == "string":
                    offsets.append(offset)
            self._offsets = offsets
        return self._offsets[word] if 0 <= word < len(self._offsets) else None


def _iter_words(pieces: list[Piece]) -> Iterator[tuple[str | None, Comment | None]]:
    """``(word, None)`` for each word and ``(None, comment)`` for each comment, in order."""
    for kind, text, _offset, comment in pieces:
        if kind == "data":
            for word in text.split():
                yield word, None
        elif kind == "string":
            yield text, None
        else:
            yield None, comment


def element_offsets(pieces: list[Piece]) -> list[int]:
    """The offset of each element of section data, in the order ``decode_table`` reads them
    (a table cell's position is its row times the column count plus its column)."""
    offsets: list[int] = []
    for kind, text, offset, _comment in pieces:
        if kind == "data":
            offsets.extend(offset + match.start() for match in _WORD.finditer(text))
        elif kind == "string":
            offsets.append(offset)
    return offsets


_WORD = re.compile(r"\S+")


@dataclass(slots=True)
class _Annotations:
    """Collects annotations per position while decoding a section."""

    by_position: dict[int, Annotation] = field(default_factory=dict)
    suffixed: set[int] = field(default_factory=set)

    def get(self, position: int) -> Annotation:
        return self.by_position.get(position) or _NO_ANNOTATION

    def put(self, position: int, annotation: Annotation) -> None:
        self.by_position[position] = annotation


_NO_ANNOTATION = Annotation()


@dataclass(slots=True)
class AuctionData:
    """The decoded Auction section.  ``call_words[i]`` is the word number of call ``i``."""

    calls: list[Call | Token]
    call_words: list[int]
    words: SectionWords
    placeholders: int
    end: SectionEnd
    annotations: dict[int, Annotation]
    comments: list[Comment]
    diagnostics: list[Diagnostic]
    references: dict[int, int]
    """note index → offset of its first reference."""


def decode_auction_data(pieces: list[Piece]) -> AuctionData:
    """Calls, placeholders, annotations and the end marker of an Auction section."""
    plain = _plain_words(pieces)
    if plain is not None:
        calls = list(map(_CALL_SPELLINGS.get, plain[0], repeat(_MISSING)))
        if _MISSING not in calls:
            words = SectionWords(pieces)
            numbers = list(range(len(calls)))
            return AuctionData(calls, numbers, words, 0, plain[1], {}, [], [], {})  # type: ignore[arg-type]
    return _decode_auction_data(pieces)


def _decode_auction_data(pieces: list[Piece]) -> AuctionData:
    words = SectionWords(pieces)
    state = _SectionState("call", words)
    calls: list[Call | Token] = []
    call_words: list[int] = []
    placeholders = 0
    number = -1
    for word, comment in _iter_words(pieces):
        if word is None:
            state.add_comment(len(calls) - 1, comment)
            continue
        number += 1
        call = _CALL_SPELLINGS.get(word)
        if call is not None and state.end is None:
            state.add(calls, call_words, call, number)
            continue
        for piece, shift in _split_word(word):
            where = (number, shift)
            if state.end is not None:
                state.after_end(piece, where, "Auction")
                break
            if piece == "-" and not calls:
                placeholders += 1
            elif piece.upper() == "AP":
                for _ in range(_passes_to_end(calls)):
                    calls.append(Action.PASS)
                    call_words.append(number)
            elif piece == "*" and shift > 0 and calls and not isinstance(calls[-1], Token):
                # "4N*": bidding programs glue an alert mark to the call; an end marker is
                # a word of its own.  Read as the alert NAG, so no later call is lost.
                state.diagnostics.append(
                    PBN140.at(state.path(where), token=repr(word), reading="an alert ($15)")
                )
                state.annotation_token("$15", where, len(calls) - 1)
            elif piece == "*":
                state.end = SectionEnd.STOP
            elif piece == "+":
                calls.append(Token("+"))
                call_words.append(number)
                state.end = SectionEnd.OPEN
            elif piece.upper() == "^S":
                calls.append(Token("^S"))
                call_words.append(number)
            elif piece.upper() == "^I":
                state.mark("I", piece, where)
            elif state.annotation_token(piece, where, len(calls) - 1):
                continue
            else:
                state.add(calls, call_words, _read_call(piece, where, state), number)
    state.drop_pending()
    end = state.end if state.end is not None else SectionEnd.OPEN
    return AuctionData(
        calls,
        call_words,
        words,
        placeholders,
        end,
        state.annotations.by_position,
        state.section_comments,
        state.diagnostics,
        state.references,
    )


def _read_call(piece: str, where: tuple[int, int], state: _SectionState) -> Call | Token:
    """A call token that is not in its plain spelling: ``1N`` aliases, or unreadable text."""
    alias = _NT_ALIASES.get(piece)
    if alias is not None:
        state.diagnostics.append(PBN107.at(state.path(where), text=f"call {piece}"))
        return alias
    found = _CALL_SPELLINGS.get(piece)
    if found is not None:
        return found
    if piece in ("P", "p"):
        state.diagnostics.append(PBN140.at(state.path(where), token=repr(piece), reading="Pass"))
        return Action.PASS
    state.diagnostics.append(PBN115.at(state.path(where), token=repr(piece)))
    return Token(piece)


def _passes_to_end(calls: list[Call | Token]) -> int:
    """How many passes ``AP`` stands for: four on a passed-out board, else up to three."""
    if all(call is Action.PASS for call in calls):
        return 4 - len(calls)
    trailing = 0
    for call in reversed(calls):
        if call is not Action.PASS:
            break
        trailing += 1
    return max(0, 3 - trailing)


@dataclass(slots=True)
class PlayData:
    """The decoded Play section: slots in column order (the first column is the Play seat).

    ``slot_words`` maps slot number to word number, or is None when they are the same.
    """

    slots: list[Slot]
    slot_words: list[int] | None
    words: SectionWords
    end: SectionEnd
    annotations: dict[int, Annotation]
    comments: list[Comment]
    diagnostics: list[Diagnostic]
    references: dict[int, int]


_NO_TRICK_END = 1 << 30


_MISSING = object()
_SLOT_SPELLINGS: dict[str, Slot] = {**_CARD_SPELLINGS, "-": None}


def _plain_words(pieces: list[Piece]) -> tuple[list[str], SectionEnd] | None:
    """The words of a section that is one run of data, without a final ``*``; else None."""
    if len(pieces) != 1 or pieces[0][0] != "data":
        return None
    words = pieces[0][1].split()
    if words and words[-1] == "*":
        words.pop()
        return words, SectionEnd.STOP
    return words, SectionEnd.OPEN


def decode_play_data(pieces: list[Piece]) -> PlayData:
    """Cards (``-`` for unknown), annotations and the end marker of a Play section."""
    plain = _plain_words(pieces)
    if plain is not None:
        # The common case, plain cards and "-", costs one dict lookup per card at C speed.
        slots = list(map(_SLOT_SPELLINGS.get, plain[0], repeat(_MISSING)))
        if _MISSING not in slots:
            words = SectionWords(pieces)
            return PlayData(slots, None, words, plain[1], {}, [], [], {})  # type: ignore[arg-type]
    return _decode_play_data(pieces)


def _decode_play_data(pieces: list[Piece]) -> PlayData:
    words = SectionWords(pieces)
    state = _SectionState("card", words)
    slots: list[Slot] = []
    slot_words: list[int] | None = None
    # After "+" (the next card is still to be played) the rest of that trick may still hold
    # "-" fillers and cards already played by later columns; nothing may follow the trick.
    trick_end = _NO_TRICK_END
    number = -1
    for word, comment in _iter_words(pieces):
        if word is None:
            state.add_comment(len(slots) - 1, comment)
            continue
        number += 1
        card = _CARD_SPELLINGS.get(word)
        if card is not None and state.end is None and len(slots) < trick_end:
            state.add(slots, slot_words, card, number)
            continue
        if slot_words is None:
            slot_words = list(range(len(slots)))
        for piece, shift in _split_word(word):
            where = (number, shift)
            if state.end is not None or (len(slots) >= trick_end and piece != "*"):
                state.after_end(piece, where, "Play")
                break
            if piece == "-":
                # An unknown card takes a pending "^R"/"^L" too: left pending, the mark
                # moved to the next known card, in another trick or off the section's end.
                state.add(slots, slot_words, None, number)
            elif piece == "*":
                state.end = SectionEnd.STOP
            elif piece == "+":
                if trick_end != _NO_TRICK_END:
                    state.after_end(piece, where, "Play")
                    break
                state.add(slots, slot_words, Token("+"), number)
                trick_end = (len(slots) + 3) // 4 * 4
            elif piece.upper() in ("^R", "^L"):
                state.mark(piece[1].upper(), piece, where)
            elif state.annotation_token(piece, where, len(slots) - 1):
                continue
            else:
                found = _CARD_SPELLINGS.get(piece)
                if found is None:
                    state.diagnostics.append(PBN116.at(state.path(where), token=repr(piece)))
                state.add(slots, slot_words, found if found is not None else Token(piece), number)
    state.drop_pending()
    end = state.end if state.end is not None else SectionEnd.OPEN
    return PlayData(
        slots,
        slot_words,
        words,
        end,
        state.annotations.by_position,
        state.section_comments,
        state.diagnostics,
        state.references,
    )


# $15 on a call is an alert: how LIN→PBN converters (Søren Hein's, ours) write BBO's "!".
_CALL_NAGS = frozenset({1, 2, 3, 4, 5, 6, 13, 15, *range(20, 94)})
_CARD_NAGS = frozenset({7, 8, 9, 10, 11, 12, 14, *range(200, 239)})


@dataclass(slots=True)
class _SectionState:
    """What the auction and play decoders share: annotations, end marker, diagnostics."""

    item: str
    words: SectionWords
    end: SectionEnd | None = None
    annotations: _Annotations = field(default_factory=_Annotations)
    section_comments: list[Comment] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    references: dict[int, int] = field(default_factory=dict)
    ended_reported: bool = False
    pending: tuple[str, str, tuple[int, int]] | None = None
    """An irregularity mark (``I``, ``R``, ``L``) waiting for the call or card it marks, as
    written and where (for PBN141 if nothing takes it)."""

    def mark(self, irregularity: str, piece: str, where: tuple[int, int]) -> None:
        """An irregularity mark for the next call or card; one still pending is reported."""
        self.drop_pending()
        self.pending = (irregularity, piece, where)

    def drop_pending(self) -> None:
        """Report a mark that no call or card followed (another mark, or the section's end)."""
        if self.pending is not None:
            _, piece, where = self.pending
            self.diagnostics.append(PBN141.at(self.path(where), token=repr(piece), what=self.item))
            self.pending = None

    def add(self, items: list[Any], numbers: list[int] | None, item: object, number: int) -> None:
        """Append a call or card and its word number, with any pending irregularity mark."""
        items.append(item)
        if numbers is not None:
            numbers.append(number)
        if self.pending is not None:
            self.annotate(len(items) - 1, irregularity=self.pending[0])
            self.pending = None

    def path(self, where: tuple[int, int]) -> Path:
        """A diagnostic path for a piece of word ``where[0]`` at ``where[1]`` characters in."""
        offset = self.words.offset(where[0])
        return ("offset", (offset or 0) + where[1])

    def add_comment(self, index: int, comment: Comment | None) -> None:
        if comment is None:
            return
        if index < 0:
            self.section_comments.append(comment)
            return
        current = self.annotations.get(index)
        self.annotate(index, comments=(*current.comments, comment))

    def annotate(self, index: int, **changes: Any) -> None:
        current = self.annotations.get(index)
        self.annotations.put(index, dataclasses.replace(current, **changes))

    def after_end(self, piece: str, where: tuple[int, int], section: str) -> None:
        if not self.ended_reported:
            self.diagnostics.append(PBN125.at(self.path(where), token=repr(piece), section=section))
            self.ended_reported = True

    def annotation_token(self, piece: str, where: tuple[int, int], index: int) -> bool:
        """Handle a suffix, note reference or NAG for the item at ``index``; False if none."""
        first = piece[0]
        if first not in "=$!?" or not _ANNOTATION.fullmatch(piece):
            return False
        if index < 0:
            self.diagnostics.append(PBN117.at(self.path(where), token=repr(piece), what=self.item))
            return True
        current = self.annotations.get(index)
        if first == "=":
            number = int(piece[1:-1])
            if current.note is not None:
                self._second("note reference", piece, where)
                return True
            offset = self.words.offset(where[0])
            self.references.setdefault(number, (offset or 0) + where[1])
            self.annotate(index, note=number)
        elif first == "$":
            nag = int(piece[1:])
            allowed = _CALL_NAGS if self.item == "call" else _CARD_NAGS
            if nag not in allowed:
                self.diagnostics.append(PBN119.at(self.path(where), token=piece, item=self.item))
            elif nag in current.nags and index in self.annotations.suffixed:
                self.diagnostics.append(PBN136.at(self.path(where), token=piece, item=self.item))
            self.annotate(index, nags=tuple(sorted({*current.nags, nag})))
        else:
            nag = _SUFFIX_NAGS[piece] + (0 if self.item == "call" else 6)
            if index in self.annotations.suffixed:
                self._second("suffix", piece, where)
                return True
            if nag in current.nags:
                self.diagnostics.append(PBN136.at(self.path(where), token=piece, item=self.item))
            self.annotations.suffixed.add(index)
            self.annotate(index, nags=tuple(sorted({*current.nags, nag})))
        return True

    def _second(self, what: str, piece: str, where: tuple[int, int]) -> None:
        self.diagnostics.append(PBN118.at(self.path(where), what=what, token=piece, item=self.item))


def _split_word(word: str) -> Iterator[tuple[str, int]]:
    """Split a word into PBN tokens (``2NT?=1=`` → ``2NT``, ``?``, ``=1=``) with their
    positions in the word.

    A word holding characters that form no token (e.g. ``4NT/5D``) stays whole, so free text
    is kept as written.
    """
    if word[0] == '"':
        yield word, 0
        return
    pieces = [(m.group(), m.start()) for m in _PIECES.finditer(word)]
    if any(len(piece) == 1 and not _is_token_char(piece) for piece, _ in pieces):
        yield word, 0
        return
    yield from pieces


def note_references(pieces: list[Piece]) -> Iterator[tuple[int, int, int]]:
    """Every note reference token ``=n=`` of a section's data, as ``(n, offset, length)``:
    the offset in the game text of its digits and how many digits there are.

    Words are split into tokens as the decoder splits them, so a ``=1=`` inside free text
    (``4NT/5D=1=``) is not a reference.  Only ``pbntool fix`` needs this, so decoding does
    not pay for it.
    """
    for kind, text, offset, _ in pieces:
        if kind != "data" or "=" not in text:
            continue
        for word in _WORDS.finditer(text):
            if "=" not in word.group():
                continue
            for piece, shift in _split_word(word.group()):
                if len(piece) > 2 and piece[0] == "=" and _ANNOTATION.fullmatch(piece):
                    start = offset + word.start() + shift + 1
                    yield int(piece[1:-1]), start, len(piece) - 2


def _is_token_char(char: str) -> bool:
    return char.isalnum() or char in "-*+!?^"


_NOTE = re.compile(r" *(\d{1,9}) *:(.*)", re.S | re.ASCII)


def decode_note(value: str) -> tuple[Note | None, list[Diagnostic]]:
    """``"<index>:<text>"`` with index 1..32 (text kept as written, leading space included)."""
    match = _NOTE.fullmatch(value)
    if match is None:
        return None, [PBN120.at(("tag_value", "Note"), value=f'"{value[:40]}"')]
    index = int(match.group(1))
    problems = (
        [] if 1 <= index <= 32 else [PBN120.at(("tag_value", "Note"), value=f'"{value[:40]}"')]
    )
    return Note(index, match.group(2)), problems


_COLUMN = re.compile(r"([+-]?)([^;\\]*)(?:\\(\d{1,9})([LR]?))?", re.ASCII)


def decode_table(
    name: str, header: str, pieces: list[Piece], known: bool
) -> tuple[Table, list[Diagnostic]]:
    """A supplemental section.  Known tables get columns and rows; unknown sections keep
    their elements in ``leftover``."""
    diagnostics: list[Diagnostic] = []
    elements: list[str] = []
    comments: list[Comment] = []
    for word, comment in _iter_words(pieces):
        if word is None:
            if comment is not None:
                comments.append(comment)
        else:
            elements.append(word)
    columns: tuple[TableColumn, ...] = ()
    if known:
        columns, problem = _decode_header(header)
        if problem:
            diagnostics.append(PBN126.at(("tag_value", name), value=f'"{header}"', detail=problem))
    if not columns:
        return Table(name, header, (), (), tuple(elements), tuple(comments)), diagnostics
    width = len(columns)
    full = len(elements) - len(elements) % width
    rows = tuple(tuple(elements[i : i + width]) for i in range(0, full, width))
    leftover = tuple(elements[full:])
    if leftover:
        diagnostics.append(
            PBN127.at(("table", name), name=name, count=len(elements), columns=width)
        )
    return Table(name, header, columns, rows, leftover, tuple(comments)), diagnostics


def _decode_header(header: str) -> tuple[tuple[TableColumn, ...], str | None]:
    if header in ("", "?", "#") or header.startswith("##"):
        return (), None
    columns = []
    for part in header.split(";"):
        match = _COLUMN.fullmatch(part)
        if match is None or not match.group(2):
            return (), f"column {part!r} is not [+|-]Name[\\width[L|R]]"
        width = int(match.group(3)) if match.group(3) else None
        columns.append(TableColumn(match.group(2), match.group(1), width, match.group(4) or ""))
    return tuple(columns), None


# Compiled, these classes pickle only so (see pickle_by_fields): a record holds them.
pickle_by_fields(_Annotations, AuctionData, PlayData)
pickle_by_init(SectionWords, ("pieces",))
