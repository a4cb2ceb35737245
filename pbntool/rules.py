"""The Laws as pure functions over the model: what an auction and a play imply, and checks.

Nothing here knows about files; checks yield ``Diagnostic``s carrying a model ``path`` that
the reader's source map turns into a line and column.  ``check_board`` runs every check in a
fixed order: deal, auction, contract, play, result, score, board conventions.

Hot loops work on ints: a set of cards is a bit mask with bit ``suit * 16 + rank``, so a
suit's cards are one 16-bit field and "does this player still hold the suit led?" is a
mask test.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from pbntool.diagnostics import (
    AUC001,
    AUC002,
    AUC003,
    AUC004,
    AUC005,
    AUC006,
    BRD001,
    BRD002,
    CON001,
    CON002,
    CON003,
    CON004,
    CON005,
    CON006,
    CON007,
    CON008,
    HND001,
    HND002,
    HND003,
    PLY001,
    PLY002,
    PLY003,
    PLY004,
    PLY005,
    PLY006,
    PLY007,
    PLY008,
    SCO001,
    Diagnostic,
)
from pbntool.model import (
    Action,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Contract,
    Deal,
    Doubling,
    Play,
    Rank,
    Score,
    Seat,
    SectionEnd,
    Slot,
    Suit,
    Token,
)
from pbntool.scoring import board_dealer, board_vulnerability, duplicate_score

__all__ = [
    "AuctionOutcome",
    "PlayedTrick",
    "auction_outcome",
    "check_auction",
    "check_board",
    "check_contract",
    "check_conventions",
    "check_deal",
    "check_play",
    "check_result",
    "check_score",
    "is_slot_card",
    "sequence_play",
    "trick_winner",
    "trump_of",
]

_SEATS = tuple(Seat)
_ROTATIONS = tuple((seat, seat.next(1), seat.next(2), seat.next(3)) for seat in Seat)
"""The four seats in playing order, indexed by the seat that starts."""
_PASS, _DOUBLE = Action.PASS, Action.DOUBLE
_FOLLOWERS = tuple(rotation[1:] for rotation in _ROTATIONS)
_SUIT_MASKS = tuple(0xFFFF << (suit * 16) for suit in Suit)
_UNKNOWN_HANDS: tuple[int | None, ...] = (None, None, None, None)
_CARD_AT_BIT = {suit * 16 + rank: Card.of(suit, rank) for suit in Suit for rank in Rank}
_STRAIN_WORDS = ("clubs", "diamonds", "hearts", "spades", "notrump")
_LEAD_WORDS = ("club", "diamond", "heart", "spade")
_FULL_HAND = 13
_SKIP = "^S"
_CONTINUE = "+"


# --- Auction ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    """What an auction implies.

    ``complete`` is True once the auction has ended by the Laws (three passes after a call,
    or four initial passes).  ``contract``/``declarer`` describe the last bid so far (the final
    contract when complete); ``contract`` is ``Contract.PASSED_OUT`` for four passes and None
    when no bid has been made yet.  ``checked`` is the number of leading calls that could be
    interpreted (analysis stops at the first ``Token`` other than ``^S``).
    """

    complete: bool
    contract: Contract | None
    declarer: Seat | None
    checked: int
    end_index: int | None
    """Index of the call that completed the auction, if it is complete."""


def auction_outcome(auction: Auction) -> AuctionOutcome:
    """Final contract and declarer as the Laws derive them (no legality checks here).

    Declarer is the first player of the side that made the last bid who named its strain.

    >>> from pbntool.model import Auction, Bid, Action, Seat, Strain
    >>> one, three = Bid.of(1, Strain.NOTRUMP), Bid.of(3, Strain.NOTRUMP)
    >>> calls = (one, Action.PASS, three) + (Action.PASS,) * 3
    >>> outcome = auction_outcome(Auction(Seat.NORTH, calls))
    >>> str(outcome.contract), outcome.declarer.letter, outcome.complete
    ('3NT', 'N', True)
    """
    seat = int(auction.first)
    passes = 0
    last_bid: Bid | None = None
    last_bidder = 0
    doubling = Doubling.UNDOUBLED
    # Who first named each strain, per side: index side * 5 + strain.
    first_namer: list[int | None] = [None] * 10
    checked = 0
    for index, call in enumerate(auction.calls):
        if call is _PASS:
            passes += 1
        elif type(call) is Bid:
            passes = 0
            last_bid, last_bidder, doubling = call, seat, Doubling.UNDOUBLED
            slot = (seat & 1) * 5 + call.strain
            if first_namer[slot] is None:
                first_namer[slot] = seat
        elif type(call) is Token:
            if call.text.upper() != _SKIP:
                break
            seat = (seat + 1) & 3
            checked = index + 1
            continue
        else:
            passes = 0
            doubling = Doubling.DOUBLED if call is _DOUBLE else Doubling.REDOUBLED
        checked = index + 1
        seat = (seat + 1) & 3
        if passes == (3 if last_bid is not None else 4):
            return _outcome(True, last_bid, last_bidder, doubling, first_namer, checked, index)
    return _outcome(False, last_bid, last_bidder, doubling, first_namer, checked, None)


def _outcome(
    complete: bool,
    last_bid: Bid | None,
    last_bidder: int,
    doubling: Doubling,
    first_namer: list[int | None],
    checked: int,
    end_index: int | None,
) -> AuctionOutcome:
    if last_bid is None:
        contract = Contract.PASSED_OUT if complete else None
        return AuctionOutcome(complete, contract, None, checked, end_index)
    namer = first_namer[(last_bidder & 1) * 5 + last_bid.strain]
    declarer = _SEATS[last_bidder if namer is None else namer]
    contract = Contract(last_bid.level, last_bid.strain, doubling)
    return AuctionOutcome(complete, contract, declarer, checked, end_index)


class _Bidding:
    """The state of an auction being checked: the last bid, who made it, and its doubling."""

    __slots__ = ("bid", "bidder", "doubler", "doubling")

    def __init__(self) -> None:
        self.bid: Bid | None = None
        self.bidder = 0
        self.doubler = 0
        self.doubling = Doubling.UNDOUBLED

    def double_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not double now, or None when it may (Law 19A)."""
        if self.bid is None:
            return "no bid has been made"
        if (self.bidder ^ seat) & 1 == 0:
            name = _SEATS[seat].name_title
            if self.bidder == seat:
                return f"{self.bid} is {name}'s own bid"
            return f"{self.bid} was bid by {name}'s partner"
        if self.doubling is not Doubling.UNDOUBLED:
            done = "doubled" if self.doubling is Doubling.DOUBLED else "redoubled"
            return f"{self.bid} is already {done}"
        return None

    def redouble_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not redouble now, or None when it may (Law 19B)."""
        if self.bid is None:
            return "no bid has been made"
        if self.doubling is Doubling.UNDOUBLED:
            return f"{self.bid} has not been doubled"
        if self.doubling is Doubling.REDOUBLED:
            return f"{self.bid} is already redoubled"
        if (self.bidder ^ seat) & 1:
            return f"{self.bid} was bid by the opponents"
        if (self.doubler ^ seat) & 1 == 0:
            return f"{self.bid} was doubled by {_SEATS[seat].name_title}'s own side"
        return None


def check_auction(auction: Auction) -> Iterator[Diagnostic]:
    """Check that every call is legal and that the auction ends properly.

    Reports insufficient bids (AUC001; ``^I`` accepts one, and AUC006 flags ``^I`` on a
    sufficient bid), illegal doubles and redoubles (AUC002, AUC003), the first call after the
    auction ended (AUC004), and an auction that stops early without ``*`` or ``+`` (AUC005).
    Checking stops at the first unreadable token.

    Args:
        auction: The auction to check.

    Yields:
        One diagnostic per problem, in call order.
    """
    accepted = _irregular_calls(auction, "I")
    state = _Bidding()
    seat = int(auction.first)
    passes = 0
    calls = auction.calls
    for index, call in enumerate(calls):
        if isinstance(call, Token):
            if call.text.upper() != _SKIP:
                return  # unreadable text or "+": nothing after it can be checked
            seat = (seat + 1) & 3
            continue
        if call is _PASS:
            passes += 1
        elif isinstance(call, Bid):
            passes = 0
            problem = _bid_problem(call, index, state, index in accepted)
            if problem is not None:
                yield problem
            state.bid, state.bidder, state.doubling = call, seat, Doubling.UNDOUBLED
        else:
            passes = 0
            problem = _double_problem(call, index, seat, state)
            if problem is not None:
                yield problem
        seat = (seat + 1) & 3
        if passes == (3 if state.bid is not None else 4):
            yield from _check_after_end(calls, index + 1)
            return
    if auction.end is not SectionEnd.STOP and not _ends_with_continuation(calls):
        yield AUC005.at(("section", "Auction"), count=len(calls))


def _irregular_calls(auction: Auction, mark: str) -> frozenset[int]:
    if not auction.annotations:
        return frozenset()
    return frozenset(i for i, note in auction.annotations if note.irregularity == mark)


def _bid_problem(bid: Bid, index: int, state: _Bidding, accepted: bool) -> Diagnostic | None:
    insufficient = state.bid is not None and bid <= state.bid
    if insufficient and not accepted:
        return AUC001.at(("call", index), call=str(bid), previous=str(state.bid))
    if accepted and not insufficient:
        return AUC006.at(("call", index), call=str(bid))
    return None


def _double_problem(call: Action, index: int, seat: int, state: _Bidding) -> Diagnostic | None:
    """Check a double or redouble, then record it (an illegal one too, as the auction did)."""
    if call is _DOUBLE:
        reason = state.double_problem(seat)
        state.doubling, state.doubler = Doubling.DOUBLED, seat
        return None if reason is None else AUC002.at(("call", index), reason=reason)
    reason = state.redouble_problem(seat)
    state.doubling = Doubling.REDOUBLED
    return None if reason is None else AUC003.at(("call", index), reason=reason)


def _check_after_end(calls: tuple[Call | Token, ...], start: int) -> Iterator[Diagnostic]:
    """AUC004 for the first entry after the auction's end (the rest would only repeat it)."""
    if start >= len(calls):
        return
    extra = calls[start]
    if type(extra) is Token and extra.text.upper() not in (_SKIP, _CONTINUE):
        return  # unreadable text is the reader's to report
    yield AUC004.at(("call", start), call=str(extra))


def _ends_with_continuation(calls: tuple[Call | Token, ...]) -> bool:
    return bool(calls) and type(calls[-1]) is Token and calls[-1].text == _CONTINUE


# --- Deal ------------------------------------------------------------------------------------


def check_deal(deal: Deal) -> Iterator[Diagnostic]:
    """Check that no card is dealt twice and that the hands have consistent sizes.

    A deal with all four hands and any hand of 13 must be a full deal: every hand not of 13
    is HND002.  Otherwise it is a partial deal or an end position, where a hand of more than
    13 is HND002 and known hands of different sizes are HND003.

    Args:
        deal: The deal to check.

    Yields:
        HND001 for each card in two hands, then HND002/HND003.
    """
    yield from _check_deal(_hand_masks(deal))


def _hand_masks(deal: Deal) -> tuple[int | None, ...]:
    """Each hand as a card mask (None for an unknown hand)."""
    return tuple(
        None if hand is None else sum([1 << (card.suit * 16 + card.rank) for card in hand.cards])
        for hand in deal.hands
    )


def _check_deal(masks: tuple[int | None, ...]) -> Iterator[Diagnostic]:
    seen = 0
    for seat, mask in zip(_SEATS, masks, strict=True):
        if mask is not None:
            if seen & mask:
                for card in _cards_of(seen & mask):
                    yield HND001.at(("deal", seat), card=str(card))
            seen |= mask
    counts = [
        (seat, mask.bit_count())
        for seat, mask in zip(_SEATS, masks, strict=True)
        if mask is not None
    ]
    full = len(counts) == 4 and any(count >= _FULL_HAND for _, count in counts)
    for seat, count in counts:
        if count > _FULL_HAND or (full and count != _FULL_HAND):
            yield HND002.at(("deal", seat), seat=seat.name_title, count=count)
    sizes = {count for _, count in counts}
    if not full and len(sizes) > 1 and max(sizes) <= _FULL_HAND:
        listed = ", ".join(f"{seat.letter} {count}" for seat, count in counts)
        yield HND003.at(("tag", "Deal"), counts=listed)


def _cards_of(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield _CARD_AT_BIT[low.bit_length() - 1]
        mask ^= low


def _end_position_size(masks: tuple[int | None, ...] | None) -> int | None:
    """The common size of the known hands when it is below 13 (an end position), else None."""
    if masks is None:
        return None
    sizes = {mask.bit_count() for mask in masks if mask is not None}
    if len(sizes) == 1:
        size = sizes.pop()
        if size < _FULL_HAND:
            return size
    return None


# --- Stated contract, declarer and result ------------------------------------------------------


def check_contract(board: Board) -> Iterator[Diagnostic]:
    """Compare the stated Contract and Declarer with the auction; check Result's range.

    Reports CON001 (contract differs from a completed auction's), CON002 (declarer differs;
    skipped for ``^`` on Declarer), CON006 (a passed-out board with a Declarer or Result)
    and CON003 (a Result outside 0..13).

    Args:
        board: The board to check.

    Yields:
        Diagnostics pointing at the Contract, Declarer and Result tags.
    """
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    yield from _check_contract(board, outcome)


def _check_contract(board: Board, outcome: AuctionOutcome | None) -> Iterator[Diagnostic]:
    derived = outcome.contract if outcome is not None and outcome.complete else None
    stated = board.contract
    if (
        derived is not None
        and stated is not None
        and stated.level is not None
        and _contract_key(stated) != _contract_key(derived)
    ):
        yield CON001.at(("tag", "Contract"), stated=str(stated), derived=str(derived))
    if (
        derived is not None
        and outcome is not None
        and outcome.declarer is not None
        and board.declarer is not None
        and not board.declarer_irregular
        and board.declarer is not outcome.declarer
    ):
        strain = _STRAIN_WORDS[derived.strain] if derived.strain is not None else "it"
        yield CON002.at(
            ("tag", "Declarer"),
            stated=board.declarer.letter,
            derived=outcome.declarer.name_title,
            strain=strain,
        )
    if (
        derived is not None
        and outcome is not None
        and board.declarer_irregular
        and board.declarer is not None
        and board.declarer is outcome.declarer
    ):
        yield CON008.at(("tag", "Declarer"), seat=board.declarer.letter)
    passed_out = (derived is not None and derived.is_passed_out) or (
        stated is not None and stated.is_passed_out
    )
    if passed_out:
        if board.declarer is not None:
            yield CON006.at(("tag", "Declarer"), name="Declarer", value=board.declarer.letter)
        if board.result is not None:
            yield CON006.at(("tag", "Result"), name="Result", value=str(board.result))
    if board.result is not None and not 0 <= board.result.tricks <= _FULL_HAND:
        yield CON003.at(("tag", "Result"), value=str(board.result))


def _contract_key(contract: Contract) -> tuple[int, int, int]:
    if contract.is_passed_out:
        return (0, 0, 0)
    strain = -1 if contract.strain is None else int(contract.strain)
    return (contract.level or 0, strain, int(contract.doubling))


def _final_contract(board: Board, outcome: AuctionOutcome | None) -> Contract | None:
    """The stated contract, else the completed auction's."""
    if board.contract is not None:
        return board.contract
    if outcome is not None and outcome.complete:
        return outcome.contract
    return None


def _final_declarer(board: Board, outcome: AuctionOutcome | None) -> Seat | None:
    """The stated declarer (after ``^`` too: who actually declared), else the auction's."""
    if board.declarer is not None:
        return board.declarer
    if outcome is not None and outcome.complete:
        return outcome.declarer
    return None


# --- Play ------------------------------------------------------------------------------------


def trick_winner(cards: list[Card], trump: Suit | None) -> int:
    """Index (in played order) of the card that wins a trick of known cards.

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
    rows = min(len(play.tricks), _FULL_HAND if end_size is None else end_size)
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
            bit = 1 << (suit * 16 + card.rank)
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
) -> Diagnostic | None:
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
    return PLY001.at(
        ("card", number, seat),
        seat=name,
        card=str(card),
        seat_poss=f"{name}'s",
        holder=f" ({holders[0].name_title} holds it)" if holders else "",
    )


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
    if not 0 <= stated <= _FULL_HAND:
        return  # CON003 already
    decided = tally.won + tally.lost
    if decided == _FULL_HAND:
        if stated != tally.won:
            yield CON004.at(("tag", "Result"), stated=stated, derived=tally.won)
    elif play.end is SectionEnd.STOP:
        low, high = tally.won, _FULL_HAND - tally.lost
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


# --- Score -----------------------------------------------------------------------------------


def check_score(board: Board) -> Iterator[Diagnostic]:
    """Compare the stated Score with the duplicate score of the contract, declarer and result.

    Needs the contract (stated, else the auction's), declarer, Result and vulnerability; a
    passed-out board scores 0.

    Args:
        board: The board to check.

    Yields:
        SCO001 at the Score tag when the scores differ.
    """
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    yield from _check_score(board, outcome)


def _check_score(board: Board, outcome: AuctionOutcome | None) -> Iterator[Diagnostic]:
    score = board.score
    if score is None:
        return
    contract = _final_contract(board, outcome)
    if contract is None or contract.level is None:
        return
    if contract.is_passed_out:
        if score.points != 0:
            yield SCO001.at(
                ("tag", "Score"),
                stated=_score_text(score, score.points),
                contract="Pass",
                declarer="nobody",
                tricks="no",
                vul="",
                computed=_score_text(score, 0),
            )
        return
    declarer = _final_declarer(board, outcome)
    result, vulnerability = board.result, board.vulnerability
    if declarer is None or result is None or vulnerability is None:
        return
    if not 0 <= result.tricks <= _FULL_HAND:
        return
    vulnerable = vulnerability.is_vulnerable(declarer.side)
    computed = duplicate_score(contract, vulnerable, result.tricks)
    if score.side is not None and score.side is not declarer.side:
        computed = -computed
    if score.points != computed:
        yield SCO001.at(
            ("tag", "Score"),
            stated=_score_text(score, score.points),
            contract=str(contract),
            declarer=declarer.letter,
            tricks=result.tricks,
            vul=", vulnerable" if vulnerable else ", not vulnerable",
            computed=_score_text(score, computed),
        )


def _score_text(score: Score, points: int) -> str:
    """``points`` written from the same side's view as the stated score."""
    return str(points) if score.side is None else f"{score.side.letters} {points}"


# --- Board conventions -----------------------------------------------------------------------


def check_conventions(board: Board) -> Iterator[Diagnostic]:
    """Compare Dealer and Vulnerable with the standard 16-board cycle for the board number.

    Args:
        board: The board to check; nothing is reported without an integer board number.

    Yields:
        BRD001 (dealer) and BRD002 (vulnerability) warnings.
    """
    number = board.number
    if number is None or number < 1:
        return
    dealer = board_dealer(number)
    if board.dealer is not None and board.dealer is not dealer:
        yield BRD001.at(
            ("tag", "Dealer"), stated=board.dealer.letter, board=number, expected=dealer.letter
        )
    vulnerability = board_vulnerability(number)
    if board.vulnerability is not None and board.vulnerability is not vulnerability:
        yield BRD002.at(
            ("tag", "Vulnerable"),
            stated=str(board.vulnerability),
            board=number,
            expected=str(vulnerability),
        )


# --- Everything ------------------------------------------------------------------------------


def check_board(board: Board) -> Iterator[Diagnostic]:
    """Run every check on one board: deal, auction, contract, play, result, score, conventions.

    The auction's outcome and the hands' card masks are computed once and shared.

    Args:
        board: The board to check.

    Yields:
        Every diagnostic, grouped in the order above.
    """
    masks = None
    if board.deal is not None:
        masks = _hand_masks(board.deal)
        yield from _check_deal(masks)
    outcome = None
    if board.auction is not None:
        outcome = auction_outcome(board.auction)
        yield from check_auction(board.auction)
    yield from _check_contract(board, outcome)
    tally = None
    if board.play is not None:
        tally = yield from _check_play(board, board.play, outcome, masks)
    yield from _check_result(board, tally)
    yield from _check_score(board, outcome)
    yield from check_conventions(board)
