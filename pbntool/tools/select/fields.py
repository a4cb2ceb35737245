"""The fields a ``--where`` expression can name, read from a parsed board.

``BoardView`` wraps one record and computes what an expression asks for, once: the outcome
(contract, declarer, tricks), the calls of the auction, and, only when ``has_error`` or a
sibling is used, the Laws checks.  ``FIELDS`` lists the plain names and ``FAMILIES`` the
dotted ones (``hcp.N``, ``shape.S``, ``tag.Room``); ``docs/select.md`` documents each.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

from pbntool.deals import is_full_deal
from pbntool.diagnostics import Diagnostic
from pbntool.model import Action, Bid, Board, Call, Doubling, Hand, Seat, SectionEnd, Side, Suit
from pbntool.notation import CARDS_PER_DEAL
from pbntool.records import Record, validate_record
from pbntool.rules.outcome import BoardOutcome, board_outcome, stated_score_ns
from pbntool.tools.select.kinds import Kind

__all__ = ["FAMILIES", "FIELDS", "BoardView", "Family", "FieldSpec", "lookup_field"]


class BoardView:
    """One record as an expression sees it; every derived value is computed on first use."""

    __slots__ = ("_calls", "_diagnostics", "_outcome", "board", "record")

    def __init__(self, record: Record) -> None:
        assert record.board is not None
        self.record = record
        self.board: Board = record.board
        self._outcome: BoardOutcome | None = None
        self._diagnostics: tuple[Diagnostic, ...] | None = None
        self._calls: tuple[Call, ...] | None = None

    @property
    def outcome(self) -> BoardOutcome:
        if self._outcome is None:
            self._outcome = board_outcome(self.board)
        return self._outcome

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Reader findings and the Laws checks (computed only if an expression asks)."""
        if self._diagnostics is None:
            self._diagnostics = validate_record(self.record)
        return self._diagnostics

    @property
    def calls(self) -> tuple[Call, ...]:
        """The calls of the auction, up to the first text that is not a call."""
        if self._calls is None:
            calls: list[Call] = []
            auction = self.board.auction
            for call in auction.calls if auction is not None else ():
                if not isinstance(call, (Bid, Action)):
                    break
                calls.append(call)
            self._calls = tuple(calls)
        return self._calls

    def hand(self, seat: Seat) -> Hand | None:
        deal = self.board.deal
        return None if deal is None else deal.hands[seat]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """A field: its kind, how to read it, and one line of documentation."""

    name: str
    kind: Kind
    get: Callable[[BoardView], object]
    help: str


@dataclass(frozen=True, slots=True)
class Family:
    """Dotted fields ``prefix.qualifier`` (``hcp.N``): ``resolve`` gives the reader of a
    qualifier, or None when the qualifier is not one of ``qualifiers``."""

    prefix: str
    kind: Kind
    qualifiers: str
    resolve: Callable[[str], Callable[[BoardView], object] | None]
    help: str


def _tag(name: str) -> Callable[[BoardView], object]:
    return lambda view: view.board.tag(name)


def _level(view: BoardView) -> int | None:
    contract = view.outcome.contract
    return None if contract is None else contract.level


def _made(view: BoardView) -> bool:
    margin = view.outcome.margin
    return margin is not None and margin >= 0


def _down(view: BoardView) -> bool:
    margin = view.outcome.margin
    return margin is not None and margin < 0


def _overtricks(view: BoardView) -> int | None:
    margin = view.outcome.margin
    return None if margin is None else max(margin, 0)


def _undertricks(view: BoardView) -> int | None:
    margin = view.outcome.margin
    return None if margin is None else max(-margin, 0)


def _doubling(view: BoardView) -> Doubling | None:
    contract = view.outcome.contract
    return None if contract is None or contract.is_passed_out else contract.doubling


def _opening_index(view: BoardView) -> int | None:
    for index, call in enumerate(view.calls):
        if isinstance(call, Bid):
            return index
    return None


def _opening(view: BoardView) -> Bid | None:
    index = _opening_index(view)
    call = None if index is None else view.calls[index]
    return call if isinstance(call, Bid) else None


def _opener(view: BoardView) -> Seat | None:
    index = _opening_index(view)
    auction = view.board.auction
    return None if index is None or auction is None else auction.seat_of(index)


def _has_deal(view: BoardView) -> bool:
    return view.board.deal is not None and is_full_deal(view.board.deal)


def _claimed(view: BoardView) -> bool:
    """A play that stops before the last trick, with a stated result or ``*``."""
    play = view.board.play
    if play is None or play.card_count >= CARDS_PER_DEAL:
        return False
    return play.end is SectionEnd.STOP or view.board.result is not None


def _players(view: BoardView) -> tuple[str, ...]:
    names = (view.board.tag(name) for name in ("North", "East", "South", "West"))
    return tuple(name for name in names if name)


def _stated_score(view: BoardView) -> int | None:
    return stated_score_ns(view.board, view.outcome.declarer)


FIELDS: dict[str, FieldSpec] = {
    spec.name: spec
    for spec in (
        FieldSpec("file", Kind.STRING, lambda v: v.record.file, "the file the board was read from"),
        FieldSpec("line", Kind.NUMBER, lambda v: v.record.line, "the line where the board starts"),
        FieldSpec("board", Kind.NUMBER, lambda v: v.board.number, "the board number"),
        FieldSpec("event", Kind.STRING, _tag("Event"), "the Event tag"),
        FieldSpec("site", Kind.STRING, _tag("Site"), "the Site tag"),
        FieldSpec("date", Kind.STRING, _tag("Date"), 'the Date tag ("2024.04.12")'),
        FieldSpec("scoring", Kind.STRING, _tag("Scoring"), "the Scoring tag"),
        FieldSpec("dealer", Kind.SEAT, lambda v: v.board.dealer, "the dealer"),
        FieldSpec("vul", Kind.VUL, lambda v: v.board.vulnerability, "the vulnerability"),
        FieldSpec("declarer", Kind.SEAT, lambda v: v.outcome.declarer, "the declarer"),
        FieldSpec("contract", Kind.CONTRACT, lambda v: v.outcome.contract, "the final contract"),
        FieldSpec("level", Kind.NUMBER, _level, "the contract's level (0 when passed out)"),
        FieldSpec(
            "strain",
            Kind.STRAIN,
            lambda v: v.outcome.contract.strain if v.outcome.contract is not None else None,
            "the contract's strain",
        ),
        FieldSpec(
            "doubled",
            Kind.BOOL,
            lambda v: (_doubling(v) or Doubling.UNDOUBLED) >= Doubling.DOUBLED,
            "doubled or redoubled",
        ),
        FieldSpec(
            "redoubled",
            Kind.BOOL,
            lambda v: _doubling(v) is Doubling.REDOUBLED,
            "redoubled",
        ),
        FieldSpec("passed_out", Kind.BOOL, lambda v: v.outcome.passed_out, "passed out"),
        FieldSpec("result", Kind.NUMBER, lambda v: v.outcome.tricks, "tricks taken by declarer"),
        FieldSpec("made", Kind.BOOL, _made, "the contract made (false when unknown)"),
        FieldSpec("down", Kind.BOOL, _down, "the contract went down (false when unknown)"),
        FieldSpec("overtricks", Kind.NUMBER, _overtricks, "tricks over the contract (0 if not)"),
        FieldSpec("undertricks", Kind.NUMBER, _undertricks, "tricks short (0 if made)"),
        FieldSpec(
            "score_ns",
            Kind.NUMBER,
            lambda v: v.outcome.score_ns(v.board),
            "the duplicate score for North-South, computed",
        ),
        FieldSpec(
            "stated_score_ns",
            Kind.NUMBER,
            _stated_score,
            "the Score tag, for North-South",
        ),
        FieldSpec(
            "auction",
            Kind.CALLS,
            lambda v: tuple(str(call) for call in v.calls),
            "the calls, dealer first",
        ),
        FieldSpec("opening", Kind.BID, _opening, "the first bid of the auction"),
        FieldSpec("opener", Kind.SEAT, _opener, "who made the first bid"),
        FieldSpec("has_deal", Kind.BOOL, _has_deal, "all 52 cards are known"),
        FieldSpec(
            "has_auction", Kind.BOOL, lambda v: v.board.auction is not None, "an Auction section"
        ),
        FieldSpec("has_play", Kind.BOOL, lambda v: v.board.play is not None, "a Play section"),
        FieldSpec("claimed", Kind.BOOL, _claimed, "the play stops early (a claim)"),
        FieldSpec("north", Kind.STRING, _tag("North"), "North's name"),
        FieldSpec("east", Kind.STRING, _tag("East"), "East's name"),
        FieldSpec("south", Kind.STRING, _tag("South"), "South's name"),
        FieldSpec("west", Kind.STRING, _tag("West"), "West's name"),
        FieldSpec("players", Kind.LIST, _players, "the four names that are given"),
    )
}
"""Plain fields by name."""

_SEAT_QUALIFIERS = {seat.letter: seat for seat in Seat}
_SIDE_QUALIFIERS = {side.letters: side for side in Side}
_SUIT_FAMILIES = {
    "spades": Suit.SPADES,
    "hearts": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS,
    "clubs": Suit.CLUBS,
}


def _per_hand(
    measure: Callable[[Hand], int],
) -> Callable[[str], Callable[[BoardView], object] | None]:
    """Readers of ``measure`` for a seat (``N``) or a partnership (``NS``, the sum)."""

    def resolve(qualifier: str) -> Callable[[BoardView], object] | None:
        upper = qualifier.upper()
        seat = _SEAT_QUALIFIERS.get(upper)
        if seat is not None:
            return lambda view: _measure(view.hand(seat), measure)
        side = _SIDE_QUALIFIERS.get(upper)
        if side is None:
            return None
        first, second = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)

        def both(view: BoardView) -> int | None:
            one, two = _measure(view.hand(first), measure), _measure(view.hand(second), measure)
            return None if one is None or two is None else one + two

        return both

    return resolve


def _measure(hand: Hand | None, measure: Callable[[Hand], int]) -> int | None:
    return None if hand is None else measure(hand)


def _shape_of(hand: Hand) -> tuple[int, int, int, int]:
    return (
        hand.length(Suit.SPADES),
        hand.length(Suit.HEARTS),
        hand.length(Suit.DIAMONDS),
        hand.length(Suit.CLUBS),
    )


def _resolve_shape(qualifier: str) -> Callable[[BoardView], object] | None:
    seat = _SEAT_QUALIFIERS.get(qualifier.upper())
    if seat is None:
        return None
    return lambda view: None if (hand := view.hand(seat)) is None else _shape_of(hand)


def _resolve_tag(qualifier: str) -> Callable[[BoardView], object] | None:
    return _tag(qualifier)


def _suit_length(suit: Suit) -> Callable[[Hand], int]:
    return lambda hand: hand.length(suit)


FAMILIES: dict[str, Family] = {
    family.prefix: family
    for family in (
        Family(
            "hcp",
            Kind.NUMBER,
            "N, E, S, W, NS or EW",
            _per_hand(lambda hand: hand.hcp),
            "high-card points of a hand or a partnership",
        ),
        Family(
            "shape",
            Kind.SHAPE,
            "N, E, S or W",
            _resolve_shape,
            "suit lengths of a hand, compared with 5-4-2-2 (S-H-D-C) or 5422 (any order)",
        ),
        *(
            Family(
                name,
                Kind.NUMBER,
                "N, E, S, W, NS or EW",
                _per_hand(_suit_length(suit)),
                f"the number of {name} in a hand or a partnership",
            )
            for name, suit in _SUIT_FAMILIES.items()
        ),
        Family("tag", Kind.STRING, "any tag name", _resolve_tag, "the value of any tag"),
    )
}
"""Dotted fields by prefix."""


def lookup_field(parts: tuple[str, ...]) -> tuple[Kind, Callable[[BoardView], object]]:
    """The kind and reader of a field name; ``LookupError`` with a helpful message.

    Field names and qualifiers are case-insensitive; the name after ``tag.`` is not (PBN tag
    names are case-sensitive)."""
    parts = (parts[0].lower(), *parts[1:])
    if len(parts) == 1:
        spec = FIELDS.get(parts[0])
        if spec is not None:
            return spec.kind, spec.get
        if parts[0] in FAMILIES:
            qualifiers = FAMILIES[parts[0]].qualifiers
            raise LookupError(f"{parts[0]} needs a qualifier: {parts[0]}.X, X one of {qualifiers}")
        raise LookupError(f"unknown field {parts[0]!r}{_suggestion(parts[0])}")
    family = FAMILIES.get(parts[0])
    if family is None or len(parts) != 2:
        name = ".".join(parts)
        raise LookupError(f"unknown field {name!r}{_suggestion(name)}")
    reader = family.resolve(parts[1])
    if reader is None:
        raise LookupError(
            f"{parts[0]}.{parts[1]}: the qualifier must be one of {family.qualifiers}"
        )
    return family.kind, reader


def _suggestion(name: str) -> str:
    candidates = [*FIELDS, *(f"{prefix}.N" for prefix in FAMILIES if prefix != "tag")]
    close = difflib.get_close_matches(name, candidates, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
