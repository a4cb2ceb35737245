"""A ``Board`` as the lossless *model* object: plain dicts, lists, strings, numbers, booleans.

Every field of the board is present (``null`` when the board does not have it).  Inside tags,
annotations, notes and tables, keys whose value is the default (no comments, not inherited,
no NAGs ...) are left out, which keeps the lines short; the readers fill the defaults in.

>>> from pbntool.model import Board, Seat
>>> model_to_dict(Board(number=3, dealer=Seat.SOUTH))["dealer"]
'S'
"""

from __future__ import annotations

from collections.abc import Iterable

from pbntool.formats.interchange.vocabulary import (
    CALL_TEXT,
    CARD_TEXT,
    DOUBLING_TEXT,
    END_TEXT,
    SEAT_KEYS,
)
from pbntool.model import (
    Annotation,
    Auction,
    Board,
    Call,
    Comment,
    Contract,
    Deal,
    Note,
    Play,
    Result,
    Score,
    Seat,
    Slot,
    Table,
    Tag,
    Token,
)

__all__ = ["comment_to_dict", "model_to_dict", "model_with_tricks", "trick_dicts"]

JsonObject = dict[str, object]


def model_to_dict(board: Board) -> JsonObject:
    """The model object of one board (the ``model`` key of a JSON record)."""
    return _model(board, None)


def model_with_tricks(board: Board, tricks: list[JsonObject]) -> JsonObject:
    """``model_to_dict`` with the play's ``trick_dicts`` already made (when plain)."""
    return _model(board, tricks)


def _model(board: Board, tricks: list[JsonObject] | None) -> JsonObject:
    return {
        "number": board.number,
        "dealer": None if board.dealer is None else board.dealer.letter,
        "vulnerability": None if board.vulnerability is None else board.vulnerability.value,
        "deal": None if board.deal is None else _deal(board.deal),
        "auction": None if board.auction is None else _auction(board.auction),
        "play": None if board.play is None else _play(board.play, tricks),
        "contract": None if board.contract is None else _contract(board.contract),
        "declarer": None if board.declarer is None else board.declarer.letter,
        "declarer_irregular": board.declarer_irregular,
        "result": None if board.result is None else _result(board.result),
        "score": None if board.score is None else _score(board.score),
        "commentary": _comments(board.commentary),
        "tables": [_table(table) for table in board.tables],
        "tags": [_tag(tag) for tag in board.tags],
    }


def comment_to_dict(comment: Comment) -> JsonObject:
    """``{"kind": ..., "text": ...}``."""
    return {"kind": comment.kind.value, "text": comment.text}


def _comments(comments: Iterable[Comment]) -> list[JsonObject]:
    return [{"kind": comment.kind.value, "text": comment.text} for comment in comments]


def _deal(deal: Deal) -> JsonObject:
    return {
        key: None if hand is None else str(hand)
        for key, hand in zip(SEAT_KEYS, deal.hands, strict=True)
    }


def _call(call: Call | Token) -> object:
    if isinstance(call, Token):
        return {"token": call.text}
    return CALL_TEXT[call]


def _slot(slot: Slot) -> object:
    if slot is None:
        return None
    if isinstance(slot, Token):
        return {"token": slot.text}
    return CARD_TEXT[slot]


def _annotation(position: JsonObject, annotation: Annotation) -> JsonObject:
    """The position keys, then only the parts the annotation has."""
    found = position
    if annotation.note is not None:
        found["note"] = annotation.note
    if annotation.nags:
        found["nags"] = list(annotation.nags)
    if annotation.irregularity is not None:
        found["irregularity"] = annotation.irregularity
    if annotation.comments:
        found["comments"] = _comments(annotation.comments)
    return found


def _note(note: Note) -> JsonObject:
    found: JsonObject = {"index": note.index, "text": note.text}
    if note.comments:
        found["comments"] = _comments(note.comments)
    return found


def _auction(auction: Auction) -> JsonObject:
    return {
        "first": auction.first.letter,
        "calls": [_call(call) for call in auction.calls],
        "end": END_TEXT[auction.end],
        "annotations": [_annotation({"call": i}, a) for i, a in auction.annotations],
        "notes": [_note(note) for note in auction.notes],
        "comments": _comments(auction.comments),
    }


def trick_dicts(play: Play) -> tuple[list[JsonObject], bool]:
    """``{"N": card, ...}`` for each trick, and whether they hold only cards and unknowns
    (then the JSON record's ``tricks`` are the same objects)."""
    tricks: list[JsonObject] = []
    plain = True
    text = _PLAIN_SLOTS
    for trick in play.tricks:
        north, east, south, west = trick
        try:
            tricks.append({"N": text[north], "E": text[east], "S": text[south], "W": text[west]})
        except KeyError:  # a Token
            plain = False
            tricks.append({key: _slot(slot) for key, slot in zip(SEAT_KEYS, trick, strict=True)})
    return tricks, plain


_PLAIN_SLOTS: dict[Slot, str | None] = {None: None}
_PLAIN_SLOTS.update((card, text) for card, text in CARD_TEXT.items())


def _play(play: Play, tricks: list[JsonObject] | None) -> JsonObject:
    return {
        "first": play.first.letter,
        "tricks": trick_dicts(play)[0] if tricks is None else tricks,
        "end": END_TEXT[play.end],
        "annotations": [
            _annotation({"trick": trick, "seat": Seat(seat).letter}, a)
            for (trick, seat), a in play.annotations
        ],
        "notes": [_note(note) for note in play.notes],
        "comments": _comments(play.comments),
    }


def _contract(contract: Contract) -> JsonObject:
    return {
        "level": contract.level,
        "strain": None if contract.strain is None else contract.strain.letter,
        "doubling": DOUBLING_TEXT[contract.doubling],
    }


def _result(result: Result) -> JsonObject:
    return {"tricks": result.tricks, "irregular": result.irregular}


def _score(score: Score) -> JsonObject:
    return {"points": score.points, "side": None if score.side is None else score.side.letters}


def _table(table: Table) -> JsonObject:
    found: JsonObject = {"name": table.name, "header": table.header}
    found["columns"] = [
        {"name": c.name, "order": c.order, "width": c.width, "align": c.align}
        for c in table.columns
    ]
    found["rows"] = [list(row) for row in table.rows]
    found["leftover"] = list(table.leftover)
    found["comments"] = _comments(table.comments)
    return found


def _tag(tag: Tag) -> JsonObject:
    found: JsonObject = {"name": tag.name, "value": tag.value}
    if tag.comments:
        found["comments"] = _comments(tag.comments)
    if tag.written is not None:
        found["written"] = tag.written
    if tag.inherited:
        found["inherited"] = True
    if tag.duplicate:
        found["duplicate"] = True
    return found
