"""The play: trick winners, the play in played order, and its checks.

``trick_winner``, ``sequence_play`` and ``trump_of`` follow the play trick by trick;
``check_play`` checks the cards against the deal and the Laws of play (who holds each card,
repeats, revokes, the opening lead), and ``check_result`` the stated Result against the
tricks won.  Hands are card masks (see ``pbntool.rules.deal``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from pbntool.diagnostics import (
    CON004,
    CON005,
    CON007,
    PLY001,
    PLY002,
    PLY003,
    PLY004,
    PLY005,
    PLY006,
    PLY007,
    PLY008,
    Diagnostic,
    Severity,
)
from pbntool.model import (
    Board,
    Card,
    Contract,
    Play,
    Seat,
    SectionEnd,
    Slot,
    Suit,
    Token,
    pickle_by_fields,
)
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.rules._common import _CONTINUE, _SEATS
from pbntool.rules.auction import AuctionOutcome, auction_outcome
from pbntool.rules.board import _final_contract, _final_declarer
from pbntool.rules.deal import _SUIT_MASKS, _cards_of, _end_position_size, _hand_masks

__all__ = [
    "PlayedTrick",
    "check_play",
    "check_result",
    "is_slot_card",
    "played_order",
    "seated_tricks",
    "sequence_play",
    "trick_winner",
    "tricks_decided",
    "trump_of",
]

_ROTATIONS = tuple((seat, seat.next(1), seat.next(2), seat.next(3)) for seat in Seat)
"""The four seats in playing order, indexed by the seat that starts."""
_FOLLOWERS = tuple(rotation[1:] for rotation in _ROTATIONS)
_UNKNOWN_HANDS: tuple[int | None, ...] = (None, None, None, None)
_LEAD_WORDS = ("club", "diamond", "heart", "spade")


# --- Play ------------------------------------------------------------------------------------


def trick_winner(cards: list[Card], trump: Suit | None) -> int:
    """Index (in played order) of the card that wins a trick of known cards.

    >>> from pbntool.model import Card, Suit
    >>> cards = [Card.parse(text) for text in ("SA", "S2", "H2", "SK")]
    >>> trick_winner(cards, Suit.HEARTS)
    2
    """
    best = 0
    for index in range(1, len(cards)):
        card, top = cards[index], cards[best]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best = index
        elif card.suit is trump:
            # Only the led suit or a trump can be on top, so a trump beats a card of another suit.
            best = index
    return best


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """A trick in played order: ``cards`` pairs each seat with its slot, leader first.

    ``winner`` is None when it cannot be known (an unknown card, or fewer than four cards).
    """

    number: int
    leader: Seat
    cards: tuple[tuple[Seat, Slot], ...]
    winner: Seat | None


_Sequenced = tuple[Seat, Seat | None]
"""One trick's leader and winner (None when a card is unknown or missing)."""


def sequence_play(play: Play, trump: Suit | None) -> list[PlayedTrick]:
    """Put the play in played order, following trick winners from ``play.first``.

    Sequencing stops before a trick whose leader cannot be known (the previous trick had an
    unknown card or was incomplete).  ``trump`` None means notrump.
    """
    played = []
    for number, (leader, winner) in enumerate(_sequence(play, trump)):
        row = play.tricks[number]
        first, second, third, fourth = _ROTATIONS[leader]
        order = (
            (first, row[first]),
            (second, row[second]),
            (third, row[third]),
            (fourth, row[fourth]),
        )
        played.append(PlayedTrick(number, leader, order, winner))
    return played


def played_order(play: Play, trump: Suit | None, limit: int | None = None) -> list[Slot]:
    """The slots of the tricks whose leaders are known (the first ``limit`` of them), in
    played order: ``sequence_play``'s cards without its objects, for the writers."""
    slots: list[Slot] = []
    tricks = play.tricks
    for number, (leader, _) in enumerate(_sequence(play, trump)[:limit]):
        row = tricks[number]
        first, second, third, fourth = _ROTATIONS[leader]
        slots += (row[first], row[second], row[third], row[fourth])
    return slots


def seated_tricks(
    tricks: list[PlayedTrick], first: Seat, trump: Suit | None, *, trump_known: bool = True
) -> int:
    """How many of ``tricks`` (in played order) a record that gives no seat per card puts on
    the seats they were played from.

    Such a record (LIN, RBN) lists the cards in played order; its reader takes ``first`` as
    the opening leader and the winner of each trick (by ``trump``, None for notrump) as the
    next one's, or, when ``trump_known`` is False, the holder of the next trick's first card.
    A lead out of turn (``^L``, or a play that does not start from ``first``) is where the
    two part: the tricks from there on would be read on the wrong seats.
    """
    leader = first
    for index, trick in enumerate(tricks):
        if trick.leader is not leader:
            return index
        if trump_known:
            row: list[Slot] = [None, None, None, None]
            for seat, slot in trick.cards:
                row[seat] = slot
            winner = _winner((row[0], row[1], row[2], row[3]), leader, trump)
            if winner is None:
                return index + 1  # an unknown card: no later trick is written
            leader = winner
        elif index + 1 < len(tricks):
            leader = tricks[index + 1].leader
    return len(tricks)


def _sequence(play: Play, trump: Suit | None) -> list[_Sequenced]:
    """Leader and winner of each trick, as far as the leaders can be known.

    This is ``sequence_play`` without building a tuple per card; the checks use it directly.
    """
    out_of_turn = _out_of_turn_leads(play) if play.annotations else None
    sequenced: list[_Sequenced] = []
    leader: Seat | None = play.first
    for number, row in enumerate(play.tricks):
        if out_of_turn:
            leader = out_of_turn.get(number, leader)
        if leader is None:
            break
        winner = _winner(row, leader, trump)
        sequenced.append((leader, winner))
        leader = winner
    return sequenced


def _winner(row: tuple[Slot, Slot, Slot, Slot], leader: Seat, trump: Suit | None) -> Seat | None:
    """The seat that wins a trick led by ``leader``, or None if a card is not known."""
    best = row[leader]
    if type(best) is not Card:
        return None
    best_seat = leader
    for seat in _FOLLOWERS[leader]:
        card = row[seat]
        if type(card) is not Card:
            return None
        if card.suit is best.suit:
            if card.rank > best.rank:
                best, best_seat = card, seat
        elif card.suit is trump:
            best, best_seat = card, seat
    return best_seat


def _out_of_turn_leads(play: Play) -> dict[int, Seat]:
    """Trick index → the seat whose card carries ``^L`` (it led that trick, out of turn)."""
    return {trick: seat for (trick, seat), note in play.annotations if note.irregularity == "L"}


def trump_of(contract: Contract | None) -> tuple[bool, Suit | None]:
    """``(known, trump)``: whether the contract gives a strain, and its trump suit."""
    if contract is None or contract.strain is None:
        return False, None
    return True, contract.strain.trump


def is_slot_card(slot: Slot) -> bool:
    """True when the slot holds a real card."""
    return isinstance(slot, Card)


class _Tally(NamedTuple):
    """Tricks decided so far, from a play that could be followed trick by trick."""

    won: int
    """Tricks won by declarer's side."""
    lost: int
    """Tricks won by the defenders."""
    rows: int
    """Trick rows in the record (at most 13)."""


def check_play(board: Board) -> Iterator[Diagnostic]:
    """Check the play against the deal and the Laws of play.

    Reports cards not in the player's hand (PLY001), cards played twice (PLY002), revokes
    (PLY003; ``^R`` accepts one, PLY007 flags ``^R`` on a legal card), an opening lead not by
    declarer's left-hand opponent (PLY004; ``^L`` accepts one, PLY008 flags ``^L`` on the
    rightful leader), cards after the last trick (PLY005) and, once, what could not be checked
    for want of the contract or declarer (PLY006).  Unknown cards and hands suspend only the
    checks that need them.  The contract and declarer are the stated ones, else the auction's.

    Args:
        board: The board whose play to check.

    Yields:
        Diagnostics in played order.
    """
    if board.play is None:
        return
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    masks = _hand_masks(board.deal) if board.deal is not None else None
    yield from _check_play(board, board.play, outcome, masks)


def _check_play(
    board: Board,
    play: Play,
    outcome: AuctionOutcome | None,
    masks: tuple[int | None, ...] | None,
) -> Generator[Diagnostic, None, _Tally | None]:
    """The play checks; returns the tricks won when the result can be checked against them."""
    contract = _final_contract(board, outcome)
    declarer = _final_declarer(board, outcome)
    end_size = _end_position_size(masks)
    end_position = end_size is not None or (contract is not None and contract.level is None)
    strain_known, trump = trump_of(contract)
    reason = _unchecked_reason(contract, strain_known, declarer is not None or end_position)
    if reason is not None and play.card_count:
        yield PLY006.at(("section", "Play"), reason=reason)
    sequenced = _sequence(play, trump) if strain_known else []
    rows = min(len(play.tricks), TRICKS_PER_DEAL if end_size is None else end_size)
    if rows and declarer is not None and not end_position:
        yield from _check_opening_lead(play, declarer)
    yield from _check_cards(play, masks or _UNKNOWN_HANDS, sequenced, rows)
    if len(play.tricks) > rows:
        yield from _check_after_last_trick(play, rows)
    if not strain_known or declarer is None or end_position:
        return None
    return _tally(sequenced[:rows], declarer, rows)


def _unchecked_reason(
    contract: Contract | None, strain_known: bool, seat_known: bool
) -> str | None:
    if contract is None:
        missing = "contract" if seat_known else "contract and declarer"
        return f"{missing} unknown; only who holds each card is checked"
    if contract.is_passed_out:
        return "the board was passed out; only who holds each card is checked"
    if not strain_known:
        return "contract strain unknown; only who holds each card is checked"
    if not seat_known:
        return "declarer unknown; the opening lead and the tricks won are not checked"
    return None


def _check_opening_lead(play: Play, declarer: Seat) -> Iterator[Diagnostic]:
    rightful = declarer.lho
    out_of_turn = _out_of_turn_leads(play).get(0) if play.annotations else None
    if out_of_turn is not None:
        if out_of_turn is rightful:
            yield _rightful_lead_marked(play, 0, rightful)
    elif play.first is not rightful:
        yield PLY004.at(
            ("card", 0, play.first),
            seat=play.first.name_title,
            declarer=declarer.name_title,
            lho=rightful.name_title,
        )


def _rightful_lead_marked(play: Play, number: int, seat: Seat) -> Diagnostic:
    card = _slot_text(play.tricks[number][seat])
    return PLY008.at(("card", number, seat), card=card, seat=seat.name_title)


def _slot_text(slot: Slot) -> str:
    return "-" if slot is None else str(slot)


def _check_after_last_trick(play: Play, start: int) -> Iterator[Diagnostic]:
    """PLY005 at the first card after the deal's last trick (the rest would only repeat it)."""
    for number in range(start, len(play.tricks)):
        for seat in _ROTATIONS[play.first]:
            card = play.tricks[number][seat]
            if type(card) is Card:
                yield PLY005.at(("card", number, seat), card=str(card))
                return


def _tally(sequenced: list[_Sequenced], declarer: Seat, rows: int) -> _Tally:
    side = declarer & 1
    won = lost = 0
    for _, winner in sequenced:
        if winner is None:
            break
        if winner & 1 == side:
            won += 1
        else:
            lost += 1
    return _Tally(won, lost, rows)


def _check_cards(
    play: Play, dealt: tuple[int | None, ...], sequenced: list[_Sequenced], rows: int
) -> Iterator[Diagnostic]:
    """Follow the cards trick by trick: who holds each one, repeats, revokes, ``^R``/``^L``.

    One PLY001 per play, at the first card not in its player's hand, counting the later ones
    (a play written a seat out would otherwise give one for each of its 52 cards).
    """
    later: _NotHeld | None = None
    held: list[Diagnostic] = []  # findings after the first PLY001 wait for its final message
    for found in _follow_cards(play, dealt, sequenced, rows):
        if isinstance(found, _NotHeld):
            if later is None:
                later = found
                held.append(found.diagnostic)
            else:
                later.add(found)
        elif later is None:
            yield found
        else:
            held.append(found)
    if later is not None:
        held[0] = later.finished()
    yield from held


class _NotHeld:
    """The cards of a play not in their player's hands: the first is reported, the others
    are counted in its message (a Deal or Play tag a seat out gives one for every card)."""

    def __init__(self, place: tuple[int, Seat], arguments: dict[str, str], offset: int | None):
        self.place = place
        self.arguments = arguments
        self.offsets = {offset}
        self.count = 0
        self.tricks: list[int] = []
        """The tricks of the later cards (in played order, each once)."""

    @property
    def diagnostic(self) -> Diagnostic:
        return PLY001.at(("card", *self.place), **self.arguments, later="")

    def add(self, other: _NotHeld) -> None:
        self.count += 1
        if not self.tricks or self.tricks[-1] != other.place[0]:
            self.tricks.append(other.place[0])
        self.offsets |= other.offsets

    def finished(self) -> Diagnostic:
        if not self.count:
            return self.diagnostic
        cards = "1 later card is" if self.count == 1 else f"{self.count} later cards are"
        later = f"; {cards} not in its player's hand either ({_trick_span(self.tricks)})"
        (offset, *others) = self.offsets
        holder = None if others or offset is None else _HOLDERS.get(offset)
        if self.count >= 3 and holder is not None:
            later += f"; each one is held by the player's {holder}"
        return PLY001.at(("card", *self.place), **self.arguments, later=later)


_HOLDERS = {
    1: "left-hand opponent: is the Play tag's first seat or the Deal one seat out?",
    2: "partner: is the Play tag's first seat or the Deal two seats out?",
    3: "right-hand opponent: is the Play tag's first seat or the Deal one seat out?",
}
"""Where a misplaced card is, as seats clockwise from its player."""


def _trick_span(tricks: list[int]) -> str:
    """``trick 3``, ``tricks 3, 9`` or ``tricks 2-13`` (tricks counted from 1)."""
    shown = [number + 1 for number in tricks]
    if len(shown) == 1:
        return f"trick {shown[0]}"
    if shown == list(range(shown[0], shown[-1] + 1)) and len(shown) > 2:
        return f"tricks {shown[0]}-{shown[-1]}"
    return "tricks " + ", ".join(map(str, shown))


def _follow_cards(
    play: Play, dealt: tuple[int | None, ...], sequenced: list[_Sequenced], rows: int
) -> Iterator[Diagnostic | _NotHeld]:
    """The checks of ``_check_cards``, each card not held as a ``_NotHeld``.

    ``remaining[seat]`` is the seat's hand less the cards it has played, and ``unseen[seat]``
    counts its plays that could not be taken from its hand (unknown cards, or cards it did
    not hold): any of those might have been of a suit led later, so a revoke is certain only
    when the seat still holds more cards of the suit led than that.
    """
    remaining = list(dealt)
    unseen = [0, 0, 0, 0]
    strays = 0  # cards played from hands that are not known
    marks = {place: note.irregularity for place, note in play.annotations if note.irregularity}
    leads_out_of_turn = {trick: seat for (trick, seat), mark in marks.items() if mark == "L"}
    known = len(sequenced)
    for number, row in enumerate(play.tricks[:rows]):
        leader = sequenced[number][0] if number < known else None
        lead = row[leader] if leader is not None else None
        led = lead.suit if type(lead) is Card else None
        if leads_out_of_turn and 0 < number <= known:
            actual = leads_out_of_turn.get(number)
            if actual is not None and actual is sequenced[number - 1][1]:
                yield _rightful_lead_marked(play, number, actual)
        for seat in _ROTATIONS[play.first if leader is None else leader]:
            card = row[seat]
            if type(card) is not Card:
                unseen[seat] += 1
                continue
            suit = card.suit
            bit = card.bit
            holding = remaining[seat]
            if holding is not None and holding & bit:
                remaining[seat] = holding ^ bit
            else:
                problem = _misplaced(play, dealt, remaining, strays, (number, seat), card, bit)
                if problem is not None:
                    yield problem
                    unseen[seat] += 1
                    continue
                strays |= bit  # from an unknown hand, and no known hand holds it
            if marks and marks.get((number, seat)) == "R":
                if _is_legal(card, led, holding):
                    yield PLY007.at(("card", number, seat), card=str(card), seat=seat.name_title)
            elif (
                suit is not led
                and led is not None
                and holding is not None
                and (holding & _SUIT_MASKS[led]).bit_count() > unseen[seat]
            ):
                yield _revoke(number, seat, card, led, holding)


def _is_legal(card: Card, led: Suit | None, holding: int | None) -> bool:
    """True when the card certainly did not revoke: it follows suit (a lead always does), or
    its player is void in the suit led."""
    if card.suit is led:
        return True
    return led is not None and holding is not None and not holding & _SUIT_MASKS[led]


def _misplaced(
    play: Play,
    dealt: tuple[int | None, ...],
    remaining: list[int | None],
    strays: int,
    place: tuple[int, Seat],
    card: Card,
    bit: int,
) -> Diagnostic | _NotHeld | None:
    """PLY002 or PLY001 for a card not in the player's remaining hand (None if it may be)."""
    number, seat = place
    played = strays
    for hand, rest in zip(dealt, remaining, strict=True):
        if hand is not None and rest is not None:
            played |= hand & ~rest
    if played & bit:
        first = _first_trick_with(play, card)
        return PLY002.at(("card", number, seat), card=str(card), first=first + 1)
    holders = [other for other in _SEATS if (dealt[other] or 0) & bit]
    if not holders and dealt[seat] is None:
        return None
    name = seat.name_title
    arguments = {
        "seat": name,
        "card": str(card),
        "seat_poss": f"{name}'s",
        "holder": f" ({holders[0].name_title} holds it)" if holders else "",
    }
    return _NotHeld(place, arguments, (holders[0] - seat) % 4 if holders else None)


def _revoke(number: int, seat: Seat, card: Card, led: Suit, holding: int) -> Diagnostic:
    held = ", ".join(str(c) for c in reversed(list(_cards_of(holding & _SUIT_MASKS[led]))))
    return PLY003.at(
        ("card", number, seat),
        seat=seat.name_title,
        card=str(card),
        led=_LEAD_WORDS[led],
        held=held,
    )


def _first_trick_with(play: Play, card: Card) -> int:
    for number, row in enumerate(play.tricks):
        if card in row:
            return number
    return 0


# --- Result against the play --------------------------------------------------------------------


def check_result(board: Board) -> Iterator[Diagnostic]:
    """Compare the stated Result with the tricks declarer's side won in the play.

    Reports CON004 (13 tricks complete and a different Result), CON005 (after ``*``, a Result
    outside what the claim could give) and CON007 (a partial play without ``*`` or ``+`` whose
    Result is not the tricks won so far).  ``^`` on the Result skips these checks, and so do
    end positions (their Result does not count the tricks before the ending).

    CON007 follows PBN 2.1 §4.15 literally, as a warning.  It could be noisy if files often
    cut the play short at a claim without ``*``, but in the shared corpus of about 24,500 play
    records only 21 partial plays lack ``*``: 20 of them have no Result, and one (a converter's
    output) states the claimed total.  Claims are written with ``*`` in practice, so the
    warning is kept; readers of formats with an explicit claim (LIN ``mc``) should set
    ``SectionEnd.STOP``.

    Args:
        board: The board to check.

    Yields:
        Diagnostics pointing at the Result tag.
    """
    if board.play is None:
        return
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    masks = _hand_masks(board.deal) if board.deal is not None else None
    tally = _drain(_check_play(board, board.play, outcome, masks))
    yield from _check_result(board, tally)


def tricks_decided(board: Board, *, legal_only: bool = False) -> tuple[int, int] | None:
    """``(won, lost)``: the tricks declarer's side and the defenders won in the play, counted
    exactly as ``check_result`` counts them (the stated contract and declarer, else the
    auction's; tricks in order until one whose winner cannot be known).

    None when the play cannot be followed: no play, no strain or declarer, an end position;
    with ``legal_only``, also when the play checks find an error (a card not held, played
    twice, a revoke, a lead out of turn), as the play is then no evidence.
    """
    if board.play is None:
        return None
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    masks = _hand_masks(board.deal) if board.deal is not None else None
    checks = _check_play(board, board.play, outcome, masks)
    while True:
        try:
            finding = next(checks)
        except StopIteration as stop:
            tally: _Tally | None = stop.value
            return None if tally is None else (tally.won, tally.lost)
        if legal_only and finding.severity >= Severity.ERROR:
            return None


def _drain(checks: Generator[Diagnostic, None, _Tally | None]) -> _Tally | None:
    while True:
        try:
            next(checks)
        except StopIteration as stop:
            tally: _Tally | None = stop.value
            return tally


def _check_result(board: Board, tally: _Tally | None) -> Iterator[Diagnostic]:
    result, play = board.result, board.play
    if tally is None or play is None or result is None or result.irregular:
        return
    stated = result.tricks
    if not 0 <= stated <= TRICKS_PER_DEAL:
        return  # CON003 already
    decided = tally.won + tally.lost
    if decided == TRICKS_PER_DEAL:
        if stated != tally.won:
            yield CON004.at(("tag", "Result"), stated=stated, derived=tally.won)
    elif play.end is SectionEnd.STOP:
        low, high = tally.won, TRICKS_PER_DEAL - tally.lost
        if not low <= stated <= high:
            yield CON005.at(
                ("tag", "Result"), stated=stated, won=tally.won, played=decided, low=low, high=high
            )
    elif _is_unfinished(play, tally) and stated != tally.won:
        yield CON007.at(("tag", "Result"), stated=stated, played=decided, won=tally.won)


def _is_unfinished(play: Play, tally: _Tally) -> bool:
    """A play cut short without ``*`` or ``+`` whose every trick but the last is decided.

    PBN 2.1 §4.15 makes the Result of such a play the tricks won so far.
    """
    if tally.rows == 0 or tally.won + tally.lost < tally.rows - 1:
        return False
    return not any(type(slot) is Token and slot.text == _CONTINUE for slot in play.tricks[-1])


pickle_by_fields(PlayedTrick)  # compiled, a frozen dataclass cannot unpickle itself
