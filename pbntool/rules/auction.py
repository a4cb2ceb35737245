"""The auction: what it implies, and whether every call in it is legal.

``auction_outcome`` derives the contract, declarer and whether the auction has ended;
``check_auction`` checks each call against the Laws (insufficient bids, doubles and
redoubles, calls after the end, an auction that stops early).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pbntool.diagnostics import AUC001, AUC002, AUC003, AUC004, AUC005, AUC006, Diagnostic
from pbntool.model import (
    PASSED_OUT,
    Action,
    Auction,
    Bid,
    Call,
    Contract,
    Doubling,
    Seat,
    SectionEnd,
    Token,
    pickle_by_fields,
)
from pbntool.rules._common import _CONTINUE, _SEATS

__all__ = ["AuctionOutcome", "auction_outcome", "check_auction"]

_PASS, _DOUBLE = Action.PASS, Action.DOUBLE
_SKIP = "^S"


@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    """What an auction implies.

    ``complete`` is True once the auction has ended by the Laws (three passes after a call,
    or four initial passes).  ``contract``/``declarer`` describe the last bid so far (the final
    contract when complete); ``contract`` is ``PASSED_OUT`` for four passes and None
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
        contract = PASSED_OUT if complete else None
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


pickle_by_fields(AuctionOutcome)  # compiled, a frozen dataclass cannot unpickle itself
