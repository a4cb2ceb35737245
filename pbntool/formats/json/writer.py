"""The JSON Lines writer: a board to its record (``model`` and the summary), one line each.

Apart from the package's ``__init__`` so that it can be compiled (``pbntool._native``): a
compiled package ``__init__`` cannot import the package's other modules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TextIO

import orjson

from pbntool.diagnostics import Diagnostic
from pbntool.formats.interchange.todict import (
    JsonObject,
    model_to_dict,
    model_with_tricks,
    trick_dicts,
)
from pbntool.formats.interchange.vocabulary import SCHEMA_ID
from pbntool.formats.pbn.writer import format_deal, is_header_escape
from pbntool.model import (
    Action,
    Bid,
    Board,
    Call,
    Card,
    Note,
    Play,
    Rank,
    Seat,
    SectionEnd,
    Slot,
    Strain,
    Suit,
    Token,
)
from pbntool.notation import ALERT_NAG, TRICKS_PER_DEAL
from pbntool.rules import auction_outcome, played_order, trump_of

__all__ = [
    "JsonLinesWriter",
    "board_to_dict",
    "compact_json",
    "dumps_line",
    "iter_json_lines",
]

# Spellings looked up rather than formatted: this runs over millions of boards.
_CARD_TEXT: dict[Slot, str] = {
    card: str(card) for card in (Card.of(suit, rank) for suit in Suit for rank in Rank)
}
_CALL_TEXT: dict[Call | Token, str] = {
    call: str(call)
    for call in (*Action, *(Bid.of(level, strain) for level in range(1, 8) for strain in Strain))
}


def board_to_dict(board: Board, *, file: str | None = None) -> dict[str, object]:
    """The JSON record of one board; every key is always present (``null`` when unknown).

    ``play`` lists the cards in the order they were played.  When that order cannot be
    derived for every trick (an unknown card, or no known trump suit), the cards of the
    remaining tricks follow in the record's column order and ``play_order_complete`` is false.
    """
    play, order_complete = _played_cards(board)
    tricks, model = _tricks_and_model(board)
    return {
        "schema": SCHEMA_ID,
        "file": file,
        "board": board.number,
        "dealer": None if board.dealer is None else board.dealer.letter,
        "vulnerable": None if board.vulnerability is None else board.vulnerability.value,
        "deal": None if board.deal is None else format_deal(board.deal, board.dealer or Seat.NORTH),
        "auction": None if board.auction is None else [_call(call) for call in board.auction.calls],
        "declarer": None if board.declarer is None else board.declarer.letter,
        "contract": None if board.contract is None else str(board.contract),
        "result": None if board.result is None else board.result.tricks,
        "play": play,
        "play_order_complete": order_complete,
        "tricks": tricks,
        "claimed": board.play is not None and _claimed(board.play),
        "score": _score(board),
        "notes": {
            "auction": _notes(board.auction.notes if board.auction is not None else ()),
            "play": _notes(board.play.notes if board.play is not None else ()),
        },
        "commentary": [c.text for c in board.commentary if not is_header_escape(c)],
        "tags": _tags(board),
        "players": _players(board),
        "event": board.tag("Event"),
        "room": board.tag("Room"),
        "alerts": _alerts(board),
        "claim": _claim(board),
        "model": model,
    }


def _tricks_and_model(board: Board) -> tuple[object, JsonObject]:
    """The record's ``tricks`` and its ``model``: one list of trick objects serves both when
    the play holds only cards and unknowns (a Token is spelled differently in each)."""
    if board.play is None:
        return None, model_to_dict(board)
    tricks, plain = trick_dicts(board.play)
    if not plain:
        return [_trick(trick) for trick in board.play.tricks], model_to_dict(board)
    return tricks, model_with_tricks(board, tricks)


def dumps_line(board: Board, file: str | None = None) -> str:
    """One board as one compact JSON line (no line terminator); non-ASCII kept as is.

    Text that holds an unpaired surrogate (no character: no encoding can write it) is the
    exception: that line is written with ``\\u`` escapes, which JSON readers can read.
    """
    record = board_to_dict(board, file=file)
    try:
        line: str = orjson.dumps(record).decode("utf-8")
        return line
    except orjson.JSONEncodeError:
        return compact_json(record)  # a surrogate, or an integer past 64 bits


def compact_json(record: object) -> str:
    """``dumps_line``'s text by the json module (what orjson writes too, three times faster;
    tests/test_jsonio.py compares the two)."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(record, separators=(",", ":"))
    return text


def iter_json_lines(boards: Iterable[Board], file: str | None = None) -> Iterator[str]:
    """JSON Lines: one ``dumps_line`` per board, each ending with ``\\n``."""
    for board in boards:
        yield dumps_line(board, file) + "\n"


def _trump(board: Board) -> tuple[bool, Suit | None]:
    """The trump suit of the stated contract, else of the contract the auction reached."""
    known, trump = trump_of(board.contract)
    if not known and board.auction is not None:
        known, trump = trump_of(auction_outcome(board.auction).contract)
    return known, trump


def _played_cards(board: Board) -> tuple[list[str] | None, bool | None]:
    """Cards in played order, and whether that order could be derived for every trick."""
    play = board.play
    if play is None:
        return None, None
    known, trump = _trump(board)
    # Without a trump suit only the first trick's leader is certain.
    ordered = played_order(play, trump, None if known else 1)
    cards = [_CARD_TEXT[slot] for slot in ordered if isinstance(slot, Card)]
    sequenced = len(ordered) // 4
    columns = [play.first.next(step) for step in range(4)]
    for trick in play.tricks[sequenced:]:
        column_slots = (trick[seat] for seat in columns)
        cards.extend(_CARD_TEXT[slot] for slot in column_slots if isinstance(slot, Card))
    return cards, sequenced == len(play.tricks)


def _call(call: Call | Token) -> str:
    text = _CALL_TEXT.get(call)
    return text if text is not None else str(call)


def _slot(slot: Slot) -> str | None:
    text = _CARD_TEXT.get(slot)
    return text if text is not None or slot is None else str(slot)


def _trick(trick: tuple[Slot, Slot, Slot, Slot]) -> dict[str, str | None]:
    north, east, south, west = trick
    return {"N": _slot(north), "E": _slot(east), "S": _slot(south), "W": _slot(west)}


def _claimed(play: Play) -> bool:
    """True when the play stops with ``*`` before all 13 tricks were played out."""
    if play.end is not SectionEnd.STOP:
        return False
    complete = sum(1 for trick in play.tricks if all(slot is not None for slot in trick))
    return complete < TRICKS_PER_DEAL


def _score(board: Board) -> dict[str, object] | None:
    score = board.score
    if score is None:
        return None
    return {"points": score.points, "side": None if score.side is None else score.side.letters}


def _notes(notes: Iterable[Note]) -> list[dict[str, object]]:
    return [{"index": note.index, "text": note.text} for note in notes]


def _players(board: Board) -> dict[str, str | None]:
    return {seat.letter: board.tag(seat.name_title) for seat in Seat}


def _alerts(board: Board) -> list[dict[str, object]]:
    """Calls that are alerted (NAG 15) or explained by a note, in auction order."""
    auction = board.auction
    if auction is None:
        return []
    notes = {note.index: note.text for note in auction.notes}
    alerts: list[dict[str, object]] = []
    for index, annotation in sorted(auction.annotations, key=lambda item: item[0]):
        alerted = ALERT_NAG in annotation.nags
        if not alerted and annotation.note is None:
            continue
        call = auction.calls[index] if 0 <= index < len(auction.calls) else None
        alerts.append(
            {
                "call": index,
                "seat": auction.seat_of(index).letter,
                "text": None if call is None else _call(call),
                "alerted": alerted,
                "explanation": None if annotation.note is None else notes.get(annotation.note),
            }
        )
    return alerts


def _claim(board: Board) -> dict[str, object] | None:
    """A claim (the play stops with ``*`` before 13 tricks): the tricks declarer ends with (the
    stated Result, as LIN's ``mc``) and the tricks played in full before it."""
    if board.play is None or not _claimed(board.play):
        return None
    played = sum(1 for trick in board.play.tricks if all(slot is not None for slot in trick))
    return {"tricks": None if board.result is None else board.result.tricks, "played": played}


def _tags(board: Board) -> dict[str, str]:
    """Every tag but Note, first occurrence wins, in source order."""
    tags: dict[str, str] = {}
    for tag in board.tags:
        if not tag.duplicate and tag.name != "Note" and tag.name not in tags:
            tags[tag.name] = tag.value
    return tags


class JsonLinesWriter:
    """JSON Lines: one object per board."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        self._stream.write(dumps_line(board, file=file))
        self._stream.write("\n")
        return []

    def close(self) -> None:
        """JSON Lines needs no ending."""

    def begin(self) -> None:
        """JSON Lines has no header."""

    def resume(self) -> None:
        """JSON Lines has no header."""
