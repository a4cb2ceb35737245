"""Random legal boards for tests and benchmarks.

Every board is legal by the Laws and consistent with itself: a shuffled deal, a plausible
auction that ends properly, the contract and declarer it implies, a legal play (all 13
tricks, or a claim after ``*``), the result, the duplicate score, and the mandatory tags in
export order.  The same seed always gives the same boards.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from pbntool.model import (
    ALL_CARDS,
    PASSED_OUT,
    Action,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    Play,
    Result,
    Score,
    Seat,
    SectionEnd,
    Slot,
    Strain,
    Suit,
    Tag,
    Vulnerability,
)
from pbntool.notation import CARDS_PER_HAND, TRICKS_PER_DEAL
from pbntool.rules import auction_outcome, trick_winner
from pbntool.scoring import board_dealer, board_vulnerability, duplicate_score

__all__ = ["random_board", "random_boards"]

_BIDS = tuple(Bid.of(level, strain) for level in range(1, 8) for strain in Strain)
"""All 35 bids in auction order."""
_BID_STEPS = (1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 7)
"""How far a new bid jumps over the last one, in bids; mostly small steps."""
_INITIAL_PASSES = (0, 0, 0, 0, 1, 1, 1, 2, 2, 3)
_DOUBLE_PROBABILITY = 0.07
_REDOUBLE_PROBABILITY = 0.2
_MID_TRICK_CLAIM_PROBABILITY = 0.25
_NAMES = (
    "Ada", "Bea", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal",
    "Ida", "Jo", "Kit", "Lou", "Max", "Ned", "Oz", "Pia",
)  # fmt: skip
_EVENTS = ("Club Pairs", "Spring Teams", "Practice Session", "Simultaneous Pairs")
_SITES = ("Utrecht", "Leeds", "Online", "Oslo", "Lyon")
_SCORINGS = ("MP", "IMP")


def random_boards(
    seed: int,
    count: int,
    *,
    play: bool = True,
    claim_probability: float = 0.2,
    passout_probability: float = 0.05,
) -> Iterator[Board]:
    """Boards 1 to ``count`` from one seeded generator.

    Args:
        seed: Seed for ``random.Random``; the same seed gives the same boards.
        count: Number of boards.
        play: Passed on to ``random_board``.
        claim_probability: Passed on to ``random_board``.
        passout_probability: Passed on to ``random_board``.

    Yields:
        Legal boards numbered 1, 2, ... ``count``.

    >>> [board.number for board in random_boards(7, 3)]
    [1, 2, 3]
    """
    rng = random.Random(seed)
    for number in range(1, count + 1):
        yield random_board(
            rng,
            number,
            play=play,
            claim_probability=claim_probability,
            passout_probability=passout_probability,
        )


def random_board(
    rng: random.Random,
    number: int,
    *,
    play: bool = True,
    claim_probability: float = 0.2,
    passout_probability: float = 0.05,
) -> Board:
    """One random legal board, dealt and scored by the 16-board cycle.

    Args:
        rng: The source of randomness.
        number: The board number (1 or more); fixes the dealer and vulnerability.
        play: Whether to play the board (otherwise the result is drawn at random).
        claim_probability: Chance that the play stops early with ``*`` and a claim.
        passout_probability: Chance that all four players pass.

    Returns:
        A board whose ``check_board`` diagnostics are empty.

    >>> board = random_board(random.Random(1), 5)
    >>> board.dealer.letter, str(board.vulnerability), board.tag("Board")
    ('N', 'NS', '5')
    """
    dealer = board_dealer(number)
    vulnerability = board_vulnerability(number)
    deal = _random_deal(rng)
    auction = _random_auction(rng, dealer, passout_probability)
    outcome = auction_outcome(auction)
    contract = outcome.contract or PASSED_OUT
    declarer = outcome.declarer
    record: Play | None = None
    tricks: int | None = None
    if declarer is not None and contract.level:
        if play:
            record, tricks = _random_play(rng, deal, contract, declarer, claim_probability)
        else:
            tricks = min(TRICKS_PER_DEAL, max(0, contract.level + 6 + rng.randint(-3, 2)))
    points = 0
    if declarer is not None and tricks is not None:
        vulnerable = vulnerability.is_vulnerable(declarer.side)
        points = duplicate_score(contract, vulnerable, tricks)
    board = Board(
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        auction=auction,
        play=record,
        contract=contract,
        declarer=declarer,
        result=None if tricks is None else Result(tricks),
        score=Score(points),
    )
    return _with_tags(board, rng)


def _random_deal(rng: random.Random) -> Deal:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    north, east, south, west = (
        Hand(cards[i : i + CARDS_PER_HAND]) for i in range(0, 4 * CARDS_PER_HAND, CARDS_PER_HAND)
    )
    return Deal((north, east, south, west))


def _random_auction(rng: random.Random, dealer: Seat, passout_probability: float) -> Auction:
    if rng.random() < passout_probability:
        return Auction(dealer, (Action.PASS,) * 4)
    calls: list[Call] = [Action.PASS] * rng.choice(_INITIAL_PASSES)
    last_bid_index = rng.choice(_BID_STEPS) - 1
    calls.append(_BIDS[last_bid_index])
    bidder = len(calls) - 1  # call index of the last bid: its parity gives the bidder's side
    doubling = Doubling.UNDOUBLED
    passes = 0
    while passes < 3:
        turn = len(calls)
        opponents = (turn - bidder) % 2 == 1
        call = _random_call(rng, last_bid_index, opponents, doubling, turn)
        if call is Action.PASS:
            passes += 1
        else:
            passes = 0
            if isinstance(call, Bid):
                last_bid_index, bidder, doubling = _BIDS.index(call), turn, Doubling.UNDOUBLED
            else:
                doubling = Doubling.DOUBLED if call is Action.DOUBLE else Doubling.REDOUBLED
        calls.append(call)
    return Auction(dealer, tuple(calls))


def _random_call(
    rng: random.Random, last_bid_index: int, opponents: bool, doubling: Doubling, turn: int
) -> Call:
    """Mostly passes and rising bids; doubles and redoubles only where the Laws allow them."""
    if opponents and doubling is Doubling.UNDOUBLED and rng.random() < _DOUBLE_PROBABILITY:
        return Action.DOUBLE
    if not opponents and doubling is Doubling.DOUBLED and rng.random() < _REDOUBLE_PROBABILITY:
        return Action.REDOUBLE
    # Passing grows likelier as the auction goes on, so auctions stay short.
    pass_probability = min(0.9, 0.45 + 0.03 * turn)
    highest = len(_BIDS) - 1
    if last_bid_index == highest or rng.random() < pass_probability:
        return Action.PASS
    return _BIDS[min(highest, last_bid_index + rng.choice(_BID_STEPS))]


def _random_play(
    rng: random.Random,
    deal: Deal,
    contract: Contract,
    declarer: Seat,
    claim_probability: float,
) -> tuple[Play, int]:
    """Follow suit when able, otherwise any card; maybe stop early with a claim."""
    trump = contract.strain.trump if contract.strain is not None else None
    hands = [sorted(hand.cards) if hand is not None else [] for hand in deal.hands]
    stop_after = TRICKS_PER_DEAL
    if rng.random() < claim_probability:
        stop_after = rng.randint(1, 12)
    leader = declarer.lho
    rows: list[tuple[Slot, Slot, Slot, Slot]] = []
    won = lost = 0
    while len(rows) < stop_after:
        order = [leader.next(step) for step in range(4)]
        cards = _play_trick(rng, hands, order)
        row: list[Slot] = [None] * 4
        for seat, card in zip(order, cards, strict=True):
            row[seat] = card
        rows.append((row[0], row[1], row[2], row[3]))
        leader = order[trick_winner(cards, trump)]
        if leader.side is declarer.side:
            won += 1
        else:
            lost += 1
    if stop_after == TRICKS_PER_DEAL:
        return Play(declarer.lho, tuple(rows)), won
    if rng.random() < _MID_TRICK_CLAIM_PROBABILITY:
        rows.append(_lead_only(rng, hands, leader))
    claimed = won + rng.randint(0, TRICKS_PER_DEAL - won - lost)
    return Play(declarer.lho, tuple(rows), end=SectionEnd.STOP), claimed


def _play_trick(rng: random.Random, hands: list[list[Card]], order: list[Seat]) -> list[Card]:
    lead = _take(rng, hands[order[0]], None)
    return [lead] + [_take(rng, hands[seat], lead.suit) for seat in order[1:]]


def _take(rng: random.Random, hand: list[Card], led: Suit | None) -> Card:
    """Remove and return a legal card: one of the suit led if the hand has any."""
    choices = [card for card in hand if card.suit is led] if led is not None else []
    card = rng.choice(choices or hand)
    hand.remove(card)
    return card


def _lead_only(
    rng: random.Random, hands: list[list[Card]], leader: Seat
) -> tuple[Slot, Slot, Slot, Slot]:
    """A trick in which only the lead was made before the claim; the others show ``-``."""
    row: list[Slot] = [None] * 4
    row[leader] = _take(rng, hands[leader], None)
    return (row[0], row[1], row[2], row[3])


def _with_tags(board: Board, rng: random.Random) -> Board:
    """The board with its mandatory tags (export order), then Score, Auction and Play."""
    assert board.dealer is not None and board.deal is not None
    players = rng.sample(_NAMES, 4)  # West, North, East, South
    contract = board.contract or PASSED_OUT
    values = [
        ("Event", rng.choice(_EVENTS)),
        ("Site", rng.choice(_SITES)),
        ("Date", f"2024.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"),
        ("Board", str(board.number)),
        ("West", players[0]),
        ("North", players[1]),
        ("East", players[2]),
        ("South", players[3]),
        ("Dealer", board.dealer.letter),
        ("Vulnerable", str(board.vulnerability or Vulnerability.NONE)),
        ("Deal", _deal_value(board.deal, board.dealer)),
        ("Scoring", rng.choice(_SCORINGS)),
        ("Declarer", board.declarer.letter if board.declarer is not None else ""),
        ("Contract", str(contract)),
        ("Result", str(board.result) if board.result is not None else ""),
        ("Score", str(board.score.points if board.score is not None else 0)),
        ("Auction", board.dealer.letter),
    ]
    if board.play is not None:
        values.append(("Play", board.play.first.letter))
    return dataclasses.replace(board, tags=tuple(Tag(name, value) for name, value in values))


def _deal_value(deal: Deal, dealer: Seat) -> str:
    """PBN's canonical Deal value: the dealer's hand first, then clockwise."""
    hands = (deal.hands[dealer.next(step)] for step in range(4))
    return f"{dealer.letter}:" + " ".join(str(hand) if hand else "-" for hand in hands)
