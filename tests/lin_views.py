"""What a LIN board carries, as comparable values, for the round-trip tests.

``pbn_to_lin_view`` is what PBN→LIN→PBN must keep (deal, dealer, vulnerability, board,
players, auction with alerts and explanations, play, claim/result, contract, declarer);
``lin_view`` adds what LIN→PBN→LIN must keep on top of that: commentary and kept LIN
commands at their places, rooms and the match header.
"""

from __future__ import annotations

from pbntool.model import Board, Card, Comment, CommentKind
from pbntool.rules import sequence_play, trump_of

_UNKNOWN = ("", "?", "-")


def played_cards(board: Board) -> tuple[tuple[str | None, ...], ...] | None:
    """The tricks, each as the cards of N, E, S, W (None where no card is known), up to the
    first unknown or unreadable card; trailing empty tricks do not count."""
    if board.play is None:
        return None
    rows: list[tuple[str | None, ...]] = []
    for row in board.play.tricks:
        if any(slot is not None and not isinstance(slot, Card) for slot in row):
            break
        rows.append(tuple(str(slot) if isinstance(slot, Card) else None for slot in row))
        if any(slot is None for slot in row):
            break  # the play in LIN stops at the first gap
    while rows and all(card is None for card in rows[-1]):
        rows.pop()
    return tuple(rows) or None


def _explanations(board: Board) -> tuple[tuple[int, str | None, bool], ...] | None:
    if board.auction is None or not board.auction.calls:
        return None
    notes = {note.index: note.text for note in board.auction.notes}
    found = tuple(
        (index, notes.get(annotation.note) if annotation.note is not None else None,
         15 in annotation.nags)
        for index, annotation in board.auction.annotations
        if annotation.note is not None or 15 in annotation.nags
    )  # fmt: skip
    return found or None


def pbn_to_lin_view(board: Board) -> dict[str, object]:
    """What PBN→LIN→PBN keeps."""
    players = tuple((board.tag(seat) or "").strip() for seat in ("North", "East", "South", "West"))
    calls = board.auction.calls if board.auction is not None else ()
    return {
        "board": board.number,
        "dealer": board.dealer,
        "vulnerable": board.vulnerability,
        "deal": board.deal,
        "players": tuple("" if name in _UNKNOWN else name for name in players),
        "calls": tuple(str(call) for call in calls) or None,
        "explanations": _explanations(board),
        "play": played_cards(board),
        "result": board.result.tricks if board.result is not None else None,
        "contract": str(board.contract) if board.contract is not None else None,
        "declarer": board.declarer,
    }


def _comments(board: Board) -> tuple[tuple[object, str, str], ...]:
    """Every comment with its anchor: before the auction, after call i, after card j."""
    found: list[tuple[object, Comment]] = [("board", c) for c in board.commentary]
    for tag in board.tags:
        found += [("board", c) for c in tag.comments]
    if board.auction is not None:
        found += [("board", c) for c in board.auction.comments]
        for index, annotation in board.auction.annotations:
            found += [(("call", index), c) for c in annotation.comments]
    if board.play is not None:
        order = _card_order(board)
        for (trick, seat), annotation in board.play.annotations:
            found += [(("card", order.get((trick, seat))), c) for c in annotation.comments]
    return tuple((anchor, c.kind.value, c.text) for anchor, c in found if _kept(c))


def _kept(comment: Comment) -> bool:
    return not (comment.kind is CommentKind.ESCAPE and not comment.text.startswith("lin "))


def _card_order(board: Board) -> dict[tuple[int, object], int]:
    assert board.play is not None
    known, trump = trump_of(board.contract)
    order: dict[tuple[int, object], int] = {}
    for trick in sequence_play(board.play, trump if known else None):
        for seat, slot in trick.cards:
            if isinstance(slot, Card):
                order[(trick.number, seat)] = len(order)
    return order


def lin_view(board: Board) -> dict[str, object]:
    """What LIN→PBN→LIN keeps: all of the above, commentary, commands, rooms, the header."""
    view = pbn_to_lin_view(board)
    # Stable: the order of comments at one anchor is kept and compared.
    view["comments"] = tuple(sorted(_comments(board), key=lambda item: repr(item[0])))
    for name in ("Room", "Event", "Stage", "Scoring", "HomeTeam", "VisitTeam"):
        view[name] = board.tag(name)
    return view
