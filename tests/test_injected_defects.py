"""Generated legal boards validate clean; each kind of defect injected into their PBN text is
reported with the right code, at the line and column of the change, for the right board.

The boards come from ``random_boards`` and are written with the canonical writer.  Defects are
injected into the written TEXT, never into the model: this file reads the export format itself
(one tag per line, four calls per line from the dealer, one trick per line in fixed columns
from the Play seat; PBN 2.1 §7, §8, §15.3) and edits lines it has located.

What is expected is computed here, independently of ``pbntool.rules``: trick winners, revokes,
the tricks declarer's side won and the duplicate score each have a small reference
implementation below.  Every test compares the EXACT set of findings of a defective game,
errors and warnings alike, as ``(code, line, column)``; mutations are chosen (or constrained)
so that the consequences of the defect are known, and when a defect legitimately implies a
second finding (a card missing from the deal is also a card its holder cannot play) the
second finding is part of the expectation.  Each defective game is followed in the file by an
untouched game, which must stay clean (findings must not leak across games).
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import pytest

from pbntool.dev.generate import random_boards
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats.pbn import parse
from pbntool.formats.pbn.writer import dumps, dumps_board
from pbntool.model import (
    Action,
    Bid,
    Board,
    Call,
    Card,
    Contract,
    Doubling,
    Seat,
    SectionEnd,
    Strain,
    Suit,
    Token,
    Vulnerability,
)

SEED = 20240917
POOL_SIZE = 3000
PER_KIND = 50
"""Defective games per kind of defect."""

HEADER = dumps([])
HEADER_LINES = HEADER.count("\r\n")
_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_ALL_BIDS = tuple(Bid.of(level, strain) for level in range(1, 8) for strain in Strain)


# --- The written game, located line by line ----------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A generated board and its export-format text, with where every tag, call and card is."""

    board: Board
    lines: tuple[str, ...]
    """The game's lines, without line endings and without the blank line that ends it."""
    tags: dict[str, int]
    """Tag name → line index."""
    calls: tuple[tuple[int, int], ...]
    """Per call: (line index, 1-based column)."""
    cards: dict[tuple[int, Seat], tuple[int, int]]
    """(trick, seat) → (line index, column) of every written card or ``-``."""
    auction_lines: tuple[int, ...]
    play_lines: tuple[int, ...]

    @property
    def number(self) -> int:
        assert self.board.number is not None
        return self.board.number

    def value(self, name: str) -> str:
        match = _TAG.match(self.lines[self.tags[name]])
        assert match is not None
        return match.group(2)

    def value_column(self, name: str) -> int:
        """Column of the first character of a tag's value (after the opening quote)."""
        return len(f'[{name} "') + 1


def _columns(line: str) -> list[tuple[int, str]]:
    """Tokens of a line separated by single spaces, with their 1-based columns."""
    found, column = [], 1
    for token in line.split(" "):
        found.append((column, token))
        column += len(token) + 1
    return found


def locate(board: Board) -> Game:
    """Read the export-format text of one board: tags, auction calls and play cards."""
    text = dumps_board(board)
    assert text.endswith("\r\n\r\n")
    lines = tuple(text[: -len("\r\n\r\n")].split("\r\n"))
    tags: dict[str, int] = {}
    calls: list[tuple[int, int]] = []
    cards: dict[tuple[int, Seat], tuple[int, int]] = {}
    auction_lines: list[int] = []
    play_lines: list[int] = []
    section = ""
    play_first = Seat.NORTH
    for index, line in enumerate(lines):
        match = _TAG.match(line)
        if match is not None:
            tags[match.group(1)] = index
            section = match.group(1)
            if section == "Play":
                play_first = Seat.from_letter(match.group(2))
            continue
        if line == "*":
            continue
        if section == "Auction":
            auction_lines.append(index)
            calls.extend((index, column) for column, _ in _columns(line))
        elif section == "Play":
            trick = len(play_lines)
            play_lines.append(index)
            for step, (column, _) in enumerate(_columns(line)):
                cards[(trick, play_first.next(step))] = (index, column)
        else:
            raise AssertionError(f"unexpected line in export format: {line!r}")
    return Game(board, lines, tags, tuple(calls), cards, tuple(auction_lines), tuple(play_lines))


@cache
def pool() -> tuple[Game, ...]:
    return tuple(locate(board) for board in random_boards(SEED, POOL_SIZE))


# --- Reference implementations (independent of pbntool.rules and pbntool.scoring) --------------


def winner(played: Sequence[tuple[Seat, Card]], trump: Suit | None) -> Seat:
    """The seat that wins a trick given in played order: highest trump, else highest of the
    suit led."""
    led = played[0][1].suit

    def strength(pair: tuple[Seat, Card]) -> tuple[bool, bool, int]:
        card = pair[1]
        return (card.suit is trump, card.suit is led, card.rank)

    return max(played, key=strength)[0]


def trump_of(board: Board) -> Suit | None:
    assert board.contract is not None and board.contract.strain is not None
    return board.contract.strain.trump


@dataclass(frozen=True)
class Trick:
    """A trick in played order; ``winner`` None when it is incomplete (a lead before a claim)."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat | None

    def card_of(self, seat: Seat) -> Card | None:
        return dict(self.cards).get(seat)

    @property
    def led(self) -> Suit:
        return self.cards[0][1].suit


def tricks_of(board: Board, rows: Sequence[Sequence[Card | None]] | None = None) -> list[Trick]:
    """The play in played order (``rows``, indexed by seat, replace the board's tricks)."""
    assert board.play is not None
    trump = trump_of(board)
    source = rows if rows is not None else board.play.tricks
    leader = board.play.first
    tricks = []
    for row in source:
        played = []
        for step in range(4):
            seat = leader.next(step)
            card = row[seat]
            if isinstance(card, Card):
                played.append((seat, card))
        won = winner(played, trump) if len(played) == 4 else None
        tricks.append(Trick(leader, tuple(played), won))
        if won is None:
            break
        leader = won
    return tricks


def hands_of(board: Board) -> dict[Seat, set[Card]]:
    assert board.deal is not None
    hands = {}
    for seat in Seat:
        hand = board.deal.hand(seat)
        assert hand is not None
        hands[seat] = set(hand.cards)
    return hands


def revokes(board: Board, tricks: Sequence[Trick]) -> list[tuple[int, Seat]]:
    """Where a player who held the suit led played another suit (every card held)."""
    remaining = hands_of(board)
    found = []
    for number, trick in enumerate(tricks):
        for seat, card in trick.cards:
            if card.suit is not trick.led and any(c.suit is trick.led for c in remaining[seat]):
                found.append((number, seat))
            remaining[seat].discard(card)
    return found


def won_lost(board: Board, tricks: Sequence[Trick]) -> tuple[int, int]:
    """Tricks won by declarer's side and by the defenders among the decided ones."""
    assert board.declarer is not None
    side = board.declarer.side
    won = sum(1 for t in tricks if t.winner is not None and t.winner.side is side)
    lost = sum(1 for t in tricks if t.winner is not None and t.winner.side is not side)
    return won, lost


def reference_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Duplicate score for declarer's side, written out from the scoring table of the Laws."""
    if contract.is_passed_out:
        return 0
    assert contract.level is not None and contract.strain is not None
    level, strain, doubling = contract.level, contract.strain, contract.doubling
    per_trick = {Strain.CLUBS: 20, Strain.DIAMONDS: 20, Strain.HEARTS: 30, Strain.SPADES: 30}
    overtrick_value = per_trick.get(strain, 30)
    if tricks >= level + 6:
        base = 40 + 30 * (level - 1) if strain is Strain.NOTRUMP else per_trick[strain] * level
        base *= {Doubling.UNDOUBLED: 1, Doubling.DOUBLED: 2, Doubling.REDOUBLED: 4}[doubling]
        score = base + ((500 if vulnerable else 300) if base >= 100 else 50)
        if level == 6:
            score += 750 if vulnerable else 500
        if level == 7:
            score += 1500 if vulnerable else 1000
        over = tricks - level - 6
        if doubling is Doubling.UNDOUBLED:
            score += over * overtrick_value
        else:
            factor = 1 if doubling is Doubling.DOUBLED else 2
            score += 50 * factor + over * (200 if vulnerable else 100) * factor
        return score
    down = level + 6 - tricks
    if doubling is Doubling.UNDOUBLED:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = sum((100, 200, 200)[: min(down, 3)]) + 300 * max(down - 3, 0)
    return -penalty * (2 if doubling is Doubling.REDOUBLED else 1)


def stated_contract_score(
    board: Board,
    *,
    contract: Contract | None = None,
    declarer: Seat | None = None,
    vulnerability: Vulnerability | None = None,
    tricks: int | None = None,
) -> int:
    """The score of the board for the declaring side, with any of its parts replaced."""
    # Not ``or``: Seat.NORTH is 0, so it is falsy.
    contract = board.contract if contract is None else contract
    declarer = board.declarer if declarer is None else declarer
    vulnerability = board.vulnerability if vulnerability is None else vulnerability
    if tricks is None:
        assert board.result is not None
        tricks = board.result.tricks
    assert contract is not None and declarer is not None and vulnerability is not None
    vulnerable = vulnerability in (Vulnerability.ALL, Vulnerability(declarer.side.letters))
    return reference_score(contract, vulnerable, tricks)


def stated_score(game: Game) -> int:
    return int(game.value("Score"))


def complete_play(board: Board) -> bool:
    play = board.play
    return play is not None and len(play.tricks) == 13 and play.end is not SectionEnd.STOP


def claimed(board: Board) -> bool:
    return board.play is not None and board.play.end is SectionEnd.STOP


def passed_out(board: Board) -> bool:
    return board.contract is not None and board.contract.is_passed_out


# --- Mutations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """A finding the defective game must have: code, line index in the game, column."""

    code: str
    line: int
    column: int
    message: str = ""
    """A fragment the message must contain."""


@dataclass
class Injected:
    lines: list[str]
    expected: list[Expect]
    board_missing: bool = False
    """The Board tag was removed: diagnostics carry no board number."""


Mutation = Callable[[Game, random.Random], Injected | None]


def set_tag(lines: list[str], game: Game, name: str, value: str) -> None:
    lines[game.tags[name]] = f'[{name} "{value}"]'


def tag_expect(game: Game, name: str, code: str, message: str = "") -> Expect:
    return Expect(code, game.tags[name], game.value_column(name), message)


def replace_token(line: str, column: int, new: str) -> str:
    """Replace the space-separated token that starts at ``column``."""
    start = column - 1
    end = line.find(" ", start)
    end = len(line) if end < 0 else end
    return line[:start] + new + line[end:]


def card_expect(game: Game, trick: int, seat: Seat, code: str, message: str = "") -> Expect:
    line, column = game.cards[(trick, seat)]
    return Expect(code, line, column, message)


def find_card(board: Board, card: Card) -> tuple[int, Seat] | None:
    assert board.play is not None
    for number, row in enumerate(board.play.tricks):
        for seat in Seat:
            if row[seat] is card:
                return number, seat
    return None


# Deal ------------------------------------------------------------------------------------------


def _hand_text(cards: Iterable[Card], *, keep_duplicates: Sequence[Card] = ()) -> str:
    """A hand in PBN order: spades first, ranks descending; ``keep_duplicates`` are added again."""
    every = [*cards, *keep_duplicates]
    return ".".join(
        "".join(c.rank.letter for c in sorted((c for c in every if c.suit is suit), reverse=True))
        for suit in _SUIT_ORDER
    )


def _deal_with(game: Game, texts: dict[Seat, str]) -> tuple[str, dict[Seat, int]]:
    """The Deal value (first seat as written) with some hands replaced, and each hand's column."""
    value = game.value("Deal")
    first = Seat.from_letter(value[0])
    hands = value[2:].split(" ")
    column = game.value_column("Deal") + 2
    columns: dict[Seat, int] = {}
    parts = []
    for step in range(4):
        seat = first.next(step)
        text = texts.get(seat, hands[step])
        columns[seat] = column
        parts.append(text)
        column += len(text) + 1
    return f"{first.letter}:" + " ".join(parts), columns


def _card_not_held_expect(game: Game, card: Card, seat: Seat) -> list[Expect]:
    """PLY001 where ``seat`` plays ``card`` (a card that the edited deal no longer gives it)."""
    if game.board.play is None:
        return []
    place = find_card(game.board, card)
    if place is None:
        return []  # not played before the claim
    assert place[1] is seat
    return [card_expect(game, *place, "PLY001", f"{seat.name_title} plays {card}")]


def deal_card_from_other_hand(game: Game, rng: random.Random) -> Injected | None:
    """One card of a hand replaced by a card of the same suit from another hand.

    HND001 is reported at the hand, of the two holding the card, that comes later in the seat
    order N, E, S, W.  The card taken out is held by nobody now, so its play is PLY001.
    """
    hands = hands_of(game.board)
    seat = rng.choice(list(Seat))
    removed = rng.choice(sorted(hands[seat]))
    others = [
        (other, card)
        for other in Seat
        if other is not seat
        for card in sorted(hands[other])
        if card.suit is removed.suit
    ]
    if not others:
        return None
    other, added = rng.choice(others)
    text = _hand_text((hands[seat] - {removed}) | {added})
    value, columns = _deal_with(game, {seat: text})
    lines = list(game.lines)
    set_tag(lines, game, "Deal", value)
    later = max(seat, other)
    expected = [Expect("HND001", game.tags["Deal"], columns[later], f"card {added} appears")]
    expected += _card_not_held_expect(game, removed, seat)
    return Injected(lines, expected)


def deal_card_twice_in_hand(game: Game, rng: random.Random) -> Injected | None:
    """A rank written twice in one suit of one hand (``Q8542`` → ``Q8552``): 13 card symbols,
    12 distinct cards.  Expected: HND001 for the repeated card and HND002 (the hand holds 12
    cards) at that hand, and PLY001 where the player plays the card that was overwritten."""
    hands = hands_of(game.board)
    seat = rng.choice(list(Seat))
    suits = [s for s in Suit if sum(1 for c in hands[seat] if c.suit is s) >= 2]
    if not suits:
        return None
    suit = rng.choice(suits)
    removed, repeated = rng.sample(sorted(c for c in hands[seat] if c.suit is suit), 2)
    text = _hand_text(hands[seat] - {removed}, keep_duplicates=[repeated])
    value, columns = _deal_with(game, {seat: text})
    lines = list(game.lines)
    set_tag(lines, game, "Deal", value)
    line = game.tags["Deal"]
    expected = [
        Expect("HND001", line, columns[seat], f"card {repeated} appears more than once"),
        Expect("HND002", line, columns[seat], "has 12 cards"),
        *_card_not_held_expect(game, removed, seat),
    ]
    return Injected(lines, expected)


def deal_hand_of_twelve(game: Game, rng: random.Random) -> Injected | None:
    """A card removed from one hand: HND002 at that hand, PLY001 where the card is played."""
    hands = hands_of(game.board)
    seat = rng.choice(list(Seat))
    removed = rng.choice(sorted(hands[seat]))
    value, columns = _deal_with(game, {seat: _hand_text(hands[seat] - {removed})})
    lines = list(game.lines)
    set_tag(lines, game, "Deal", value)
    expected = [
        Expect("HND002", game.tags["Deal"], columns[seat], f"{seat.name_title} hand has 12"),
        *_card_not_held_expect(game, removed, seat),
    ]
    return Injected(lines, expected)


# Play ------------------------------------------------------------------------------------------


def _rows(board: Board) -> list[list[Card | None]]:
    assert board.play is not None
    return [[c if isinstance(c, Card) else None for c in row] for row in board.play.tricks]


def _same_course(board: Board, rows: list[list[Card | None]]) -> bool:
    """True when the edited play has the same leaders and trick winners as the original."""
    before = tricks_of(board)
    after = tricks_of(board, rows)
    return len(before) == len(after) and all(
        a.leader is b.leader and a.winner is b.winner for a, b in zip(before, after, strict=True)
    )


def _edit_card(game: Game, trick: int, seat: Seat, card: Card) -> list[str]:
    lines = list(game.lines)
    line, column = game.cards[(trick, seat)]
    lines[line] = replace_token(lines[line], column, str(card))
    return lines


def _played_tricks(game: Game) -> list[Trick] | None:
    board = game.board
    if board.play is None:
        return None
    return [t for t in tricks_of(board) if t.winner is not None]


def play_card_of_another_hand(game: Game, rng: random.Random) -> Injected | None:
    """A card replaced by one that another player holds and plays only in a later trick (or
    never, before a claim).  The replacement keeps the trick's winner (and the suit led, when
    it is the lead), so nothing else changes: exactly one PLY001.  The player's own card stays
    in its hand unplayed; the checker knows one play of that hand was unaccounted for, so a
    later discard is not a revoke."""
    tricks = _played_tricks(game)
    if not tricks:
        return None
    board = game.board
    hands = hands_of(board)
    number = rng.randrange(len(tricks))
    seat, card = rng.choice(tricks[number].cards)
    later: list[Card] = []
    for other in Seat:
        if other is seat:
            continue
        for candidate in sorted(hands[other]):
            place = find_card(board, candidate)
            if place is None or place[0] > number:
                later.append(candidate)
    rng.shuffle(later)
    for candidate in later:
        if seat is tricks[number].leader and candidate.suit is not card.suit:
            continue
        rows = _rows(board)
        rows[number][seat] = candidate
        if not _same_course(board, rows):
            continue
        holder = next(s for s in Seat if candidate in hands[s])
        name = seat.name_title
        message = f"{name} plays {candidate}, which is not in {name}'s hand ({holder.name_title}"
        expected = [card_expect(game, number, seat, "PLY001", message)]
        return Injected(_edit_card(game, number, seat, candidate), expected)
    return None


def play_card_twice(game: Game, rng: random.Random) -> Injected | None:
    """A card replaced by a card already played in an earlier trick: exactly one PLY002 (same
    constraints as above, so the course of the play is unchanged)."""
    tricks = _played_tricks(game)
    if tricks is None or len(tricks) < 2:
        return None
    board = game.board
    number = rng.randrange(1, len(tricks))
    seat, card = rng.choice(tricks[number].cards)
    earlier = [(n, c) for n in range(number) for _, c in tricks[n].cards]
    rng.shuffle(earlier)
    for first, candidate in earlier:
        if seat is tricks[number].leader and candidate.suit is not card.suit:
            continue
        rows = _rows(board)
        rows[number][seat] = candidate
        if not _same_course(board, rows):
            continue
        message = f"{candidate} played a second time (first in trick {first + 1})"
        return Injected(
            _edit_card(game, number, seat, candidate),
            [card_expect(game, number, seat, "PLY002", message)],
        )
    return None


def play_revoke(game: Game, rng: random.Random) -> Injected | None:
    """A player who follows suit plays instead a card of another suit from its hand, and plays
    the card it followed with where it had played that other card (or never, before a claim).
    The deal and the cards played stay consistent; the swap is kept only when the reference
    checker finds exactly one revoke (the injected one) and every trick keeps its winner."""
    tricks = _played_tricks(game)
    if not tricks:
        return None
    board = game.board
    hands = hands_of(board)
    followers = [
        (n, seat, card)
        for n, trick in enumerate(tricks)
        for seat, card in trick.cards[1:]
        if card.suit is trick.led
    ]
    rng.shuffle(followers)
    for number, seat, card in followers[:12]:
        played_before = {tricks[n].card_of(seat) for n in range(number)}
        holding = sorted(hands[seat] - played_before - {card})
        swaps = [c for c in holding if c.suit is not tricks[number].led]
        rng.shuffle(swaps)
        for other in swaps:
            rows = _rows(board)
            rows[number][seat] = other
            place = find_card(board, other)
            if place is not None:
                rows[place[0]][seat] = card
            if not _same_course(board, rows):
                continue
            if revokes(board, tricks_of(board, rows)) != [(number, seat)]:
                continue
            lines = _edit_card(game, number, seat, other)
            if place is not None:
                line, column = game.cards[place]
                lines[line] = replace_token(lines[line], column, str(card))
            led = tricks[number].led.name.lower()[:-1]
            message = f"revoke: {seat.name_title} plays {other} on a {led} lead while holding"
            return Injected(lines, [card_expect(game, number, seat, "PLY003", message)])
    return None


def play_wrong_opening_leader(game: Game, rng: random.Random) -> Injected | None:
    """``[Play "X"]`` names another seat and the columns are rotated so that every card stays
    with its player: the new first column leads.  Only seats whose first card is of the suit
    led qualify, so every trick has the same suit led and winner.  Expected: PLY004 at the
    first card of the first trick (the opening lead, which the new seat now makes)."""
    board = game.board
    if board.play is None or not complete_play(board):
        return None
    first = board.play.first
    lead = board.play.tricks[0][first]
    assert isinstance(lead, Card)
    seats = [
        s
        for s in Seat
        if s is not first and isinstance(c := board.play.tricks[0][s], Card) and c.suit is lead.suit
    ]
    if not seats:
        return None
    new = rng.choice(seats)
    lines = list(game.lines)
    set_tag(lines, game, "Play", new.letter)
    for number, line in enumerate(game.play_lines):
        lines[line] = " ".join(str(board.play.tricks[number][new.next(j)]) for j in range(4))
    assert board.declarer is not None
    message = (
        f"opening lead by {new.name_title}; declarer {board.declarer.name_title}'s left-hand "
        f"opponent is {first.name_title}"
    )
    return Injected(lines, [Expect("PLY004", game.play_lines[0], 1, message)])


# Auction ---------------------------------------------------------------------------------------


def _calls(board: Board) -> list[Call]:
    assert board.auction is not None
    calls = []
    for call in board.auction.calls:
        assert not isinstance(call, Token)
        calls.append(call)
    return calls


def _edit_call(game: Game, index: int, text: str) -> list[str]:
    lines = list(game.lines)
    line, column = game.calls[index]
    lines[line] = replace_token(lines[line], column, text)
    return lines


def _call_expect(game: Game, index: int, code: str, message: str = "") -> Expect:
    line, column = game.calls[index]
    return Expect(code, line, column, message)


def _last_bid_before(calls: Sequence[Call], index: int) -> tuple[int, Bid] | None:
    """The index and value of the last bid before call ``index``."""
    for earlier in range(index - 1, -1, -1):
        call = calls[earlier]
        if isinstance(call, Bid):
            return earlier, call
    return None


def _next_non_pass_is_bid(calls: Sequence[Call], index: int) -> bool:
    for call in calls[index + 1 :]:
        if call is not Action.PASS:
            return isinstance(call, Bid)
    return False


def auction_insufficient_bid(game: Game, rng: random.Random) -> Injected | None:
    """A bid that is not the last one lowered, in its own strain, to at most the bid before it.

    Keeping the strain keeps the first namer of each strain, and a later bid exists, so the
    final contract and declarer do not change: exactly one AUC001."""
    calls = _calls(game.board)
    candidates = []
    for index, call in enumerate(calls):
        if not isinstance(call, Bid) or not any(isinstance(c, Bid) for c in calls[index + 1 :]):
            continue
        previous = _last_bid_before(calls, index)
        if previous is None:
            continue
        lower = [b for b in _ALL_BIDS if b.strain is call.strain and b <= previous[1]]
        if lower:
            candidates.append((index, lower[-1], previous[1]))
    if not candidates:
        return None
    index, lowered, before = rng.choice(candidates)
    message = f"insufficient bid {lowered} after {before}"
    return Injected(
        _edit_call(game, index, str(lowered)), [_call_expect(game, index, "AUC001", message)]
    )


@dataclass(frozen=True)
class Bidding:
    """The auction's state before a call: last bid, its bidder, doubling and doubler."""

    bid: Bid | None = None
    bidder: Seat = Seat.NORTH
    doubling: Doubling = Doubling.UNDOUBLED
    doubler: Seat = Seat.NORTH

    def double_problem(self, seat: Seat) -> str | None:
        """Why ``seat`` may not double (Law 19A), in the words of AUC002; None if it may."""
        if self.bid is None:
            return "no bid has been made"
        if self.bidder is seat:
            return f"{self.bid} is {seat.name_title}'s own bid"
        if self.bidder is seat.partner:
            return f"{self.bid} was bid by {seat.name_title}'s partner"
        if self.doubling is not Doubling.UNDOUBLED:
            return f"{self.bid} is already {'re' if self.doubling > 1 else ''}doubled"
        return None

    def redouble_problem(self, seat: Seat) -> str | None:
        """Why ``seat`` may not redouble (Law 19B), in the words of AUC003; None if it may."""
        if self.bid is None:
            return "no bid has been made"
        if self.doubling is Doubling.UNDOUBLED:
            return f"{self.bid} has not been doubled"
        if self.doubling is Doubling.REDOUBLED:
            return f"{self.bid} is already redoubled"
        if self.bidder.side is not seat.side:
            return f"{self.bid} was bid by the opponents"
        return None  # in a legal auction the double was the opponents'


def biddings(board: Board) -> list[tuple[Seat, Bidding]]:
    """Each call's seat and the state of the (legal) auction before it."""
    assert board.auction is not None
    state = Bidding()
    found = []
    for index, call in enumerate(_calls(board)):
        seat = board.auction.first.next(index)
        found.append((seat, state))
        if isinstance(call, Bid):
            state = Bidding(call, seat)
        elif call is Action.DOUBLE:
            state = Bidding(state.bid, state.bidder, Doubling.DOUBLED, seat)
        elif call is Action.REDOUBLE:
            state = Bidding(state.bid, state.bidder, Doubling.REDOUBLED, state.doubler)
    return found


_COMMON_REASONS = ("no bid", "not been doubled", "partner")
"""Reasons most auctions offer, most common last; rarer ones are picked when present."""


def _illegal_instead_of_a_pass(
    game: Game, rng: random.Random, call: str, code: str, what: str
) -> Injected | None:
    """A pass replaced by a double or redouble the Laws do not allow there.

    Only passes with a bid somewhere after them qualify: the bid resets the doubling and the
    run of passes, so the auction ends where it did with the same contract, and the one
    finding is the injected call."""
    calls = _calls(game.board)
    groups: dict[str, list[tuple[int, str]]] = {}
    for index, (seat, state) in enumerate(biddings(game.board)):
        if calls[index] is not Action.PASS or not _next_non_pass_is_bid(calls, index):
            continue
        reason = state.double_problem(seat) if call == "X" else state.redouble_problem(seat)
        if reason is not None:
            key = re.sub(r"\d[A-Z]+|North|East|South|West", "", reason)
            groups.setdefault(key, []).append((index, reason))
    if not groups:
        return None
    # The rarest kind of reason the auction offers, so that every kind gets tried.
    key = min(groups, key=lambda k: [word in k for word in _COMMON_REASONS])
    if any(word in key for word in _COMMON_REASONS) and rng.random() < 0.8:
        return None  # leave room for the rarer reasons among the games picked
    index, reason = rng.choice(groups[key])
    message = f"{what} not allowed here: {reason}"
    return Injected(_edit_call(game, index, call), [_call_expect(game, index, code, message)])


def auction_illegal_double(game: Game, rng: random.Random) -> Injected | None:
    """Doubling partner's or one's own bid, an already doubled bid, or before any bid: AUC002."""
    return _illegal_instead_of_a_pass(game, rng, "X", "AUC002", "double")


def auction_illegal_redouble(game: Game, rng: random.Random) -> Injected | None:
    """Redoubling an undoubled bid, the opponents' doubled bid, or before any bid: AUC003."""
    return _illegal_instead_of_a_pass(game, rng, "XX", "AUC003", "redouble")


def auction_call_after_end(game: Game, rng: random.Random) -> Injected | None:
    """A call appended after the final passes: on the last auction line, or on a new line when
    that one holds four calls.  Only the first call after the end is reported (AUC004)."""
    extra = rng.choice(["Pass", "X", "XX", str(rng.choice(_ALL_BIDS))])
    lines = list(game.lines)
    last = game.auction_lines[-1]
    count = len(game.calls) % 4 or 4
    if count == 4:
        lines.insert(last + 1, extra)
        where = Expect("AUC004", last + 1, 1, f"call {extra} after the auction ended")
    else:
        where = Expect("AUC004", last, len(lines[last]) + 2, f"call {extra} after the auction")
        lines[last] += " " + extra
    shifted = Injected(lines, [where])
    return shifted


# Contract, declarer, result, score -------------------------------------------------------------


def _score_expect(game: Game, computed: int) -> list[Expect]:
    """SCO001 at the Score tag when the stated score differs from ``computed``."""
    if stated_score(game) == computed:
        return []
    return [tag_expect(game, "Score", "SCO001", f"which scores {computed}")]


def contract_level_or_doubling(game: Game, rng: random.Random) -> Injected | None:
    """Contract restated with another level and/or doubling in the same strain (the strain
    decides the trumps, so the play is unchanged).  CON001; and since the score is checked
    against the stated contract, SCO001 too when the stated contract scores differently."""
    board = game.board
    if passed_out(board) or board.contract is None or board.result is None:
        return None
    assert board.contract.strain is not None
    options = [
        Contract(level, board.contract.strain, doubling)
        for level in range(1, 8)
        for doubling in Doubling
        if (level, doubling) != (board.contract.level, board.contract.doubling)
    ]
    contract = rng.choice(options)
    lines = list(game.lines)
    set_tag(lines, game, "Contract", str(contract))
    expected = [tag_expect(game, "Contract", "CON001", f"Contract {contract} contradicts")]
    expected += _score_expect(game, stated_contract_score(board, contract=contract))
    return Injected(lines, expected)


def contract_on_passed_out_board(game: Game, rng: random.Random) -> Injected | None:
    """A passed-out auction with a Contract that names a bid: CON001 only (the score cannot be
    checked without a declarer)."""
    if not passed_out(game.board):
        return None
    contract = str(rng.choice(_ALL_BIDS)) + rng.choice(["", "X", "XX"])
    lines = list(game.lines)
    set_tag(lines, game, "Contract", contract)
    message = f"Contract {contract} contradicts the auction, which ends in Pass"
    return Injected(lines, [tag_expect(game, "Contract", "CON001", message)])


def declarer_partner(game: Game, rng: random.Random) -> Injected | None:
    """Declarer restated as dummy.  CON002; the play is checked against the stated declarer,
    whose left-hand opponent did not lead, so PLY004 at the opening lead too.  Same side, so
    the tricks and the score stay right."""
    board = game.board
    if passed_out(board) or board.declarer is None:
        return None
    stated = board.declarer.partner
    lines = list(game.lines)
    set_tag(lines, game, "Declarer", stated.letter)
    expected = [tag_expect(game, "Declarer", "CON002", f"Declarer {stated.letter} contradicts")]
    if board.play is not None:
        expected.append(Expect("PLY004", game.play_lines[0], 1, f"declarer {stated.name_title}"))
    return Injected(lines, expected)


def declarer_opponent(game: Game, rng: random.Random) -> Injected | None:
    """Declarer restated as a defender.  CON002 and PLY004 as above; the tricks now count for
    the other side, so a complete play contradicts the Result (13 is odd: CON004 always), a
    claim may (CON005), and the score follows the other side's vulnerability (SCO001 when it
    differs from the stated one)."""
    board = game.board
    if passed_out(board) or board.declarer is None or board.result is None:
        return None
    stated = rng.choice([board.declarer.lho, board.declarer.rho])
    lines = list(game.lines)
    set_tag(lines, game, "Declarer", stated.letter)
    expected = [tag_expect(game, "Declarer", "CON002", f"Declarer {stated.letter} contradicts")]
    result = board.result.tricks
    if board.play is not None:
        expected.append(Expect("PLY004", game.play_lines[0], 1, f"declarer {stated.name_title}"))
        won, lost = won_lost(board, tricks_of(board))
        won, lost = lost, won  # from the stated declarer's side
        if won + lost == 13:
            expected.append(tag_expect(game, "Result", "CON004", f"declarer took {won} tricks"))
        elif not won <= result <= 13 - lost:
            expected.append(tag_expect(game, "Result", "CON005", f"{won}-{13 - lost} is"))
    expected += _score_expect(game, stated_contract_score(board, declarer=stated))
    return Injected(lines, expected)


def result_out_of_range(game: Game, rng: random.Random) -> Injected | None:
    """Result above 13: CON003 only (the result and score checks need a possible result)."""
    if passed_out(game.board):
        return None
    value = str(rng.choice([14, 15, 20, 99, 130]))
    lines = list(game.lines)
    set_tag(lines, game, "Result", value)
    message = f"Result {value} is impossible"
    return Injected(lines, [tag_expect(game, "Result", "CON003", message)])


def _result_edit(game: Game, tricks: int, rng: random.Random) -> tuple[list[str], list[Expect]]:
    """Result set to ``tricks``; half the time the Score is restated to match it (so only the
    contradiction with the play remains), otherwise SCO001 is expected as well."""
    lines = list(game.lines)
    set_tag(lines, game, "Result", str(tricks))
    computed = stated_contract_score(game.board, tricks=tricks)
    if rng.random() < 0.5:
        set_tag(lines, game, "Score", str(computed))
        return lines, []
    return lines, _score_expect(game, computed)


def result_contradicts_play(game: Game, rng: random.Random) -> Injected | None:
    """A complete play whose Result is changed to another number of tricks: CON004."""
    board = game.board
    if not complete_play(board) or board.result is None:
        return None
    won, _ = won_lost(board, tricks_of(board))
    assert won == board.result.tricks
    tricks = rng.choice([t for t in range(14) if t != won])
    lines, expected = _result_edit(game, tricks, rng)
    message = f"Result {tricks} contradicts the play, in which declarer took {won} tricks"
    return Injected(lines, [tag_expect(game, "Result", "CON004", message), *expected])


def result_claim_impossible(game: Game, rng: random.Random) -> Injected | None:
    """After a claim, a Result giving declarer more tricks than remain (or fewer than already
    won): CON005."""
    board = game.board
    if not claimed(board):
        return None
    won, lost = won_lost(board, tricks_of(board))
    impossible = [t for t in range(14) if not won <= t <= 13 - lost]
    if not impossible:
        return None
    tricks = rng.choice(impossible)
    lines, expected = _result_edit(game, tricks, rng)
    message = f"declarer had won {won} of {won + lost} tricks, so {won}-{13 - lost} is possible"
    return Injected(lines, [tag_expect(game, "Result", "CON005", message), *expected])


def score_wrong(game: Game, rng: random.Random) -> Injected | None:
    """The Score changed (in the bare form, or with a side): SCO001 only."""
    board = game.board
    points = stated_score(game)
    wrong = points + rng.choice([-1000, -100, -50, -10, 10, 20, 50, 100, 500])
    if points != 0 and rng.random() < 0.3:
        wrong = -points
    value = str(wrong)
    if board.declarer is not None and rng.random() < 0.5:
        # The same wrong score written for the declaring side, or negated for the other one.
        side = board.declarer.side
        value = rng.choice([f"{side.letters} {wrong}", f"{side.other.letters} {-wrong}"])
    lines = list(game.lines)
    set_tag(lines, game, "Score", value)
    return Injected(lines, [tag_expect(game, "Score", "SCO001", f"Score {value} contradicts")])


def score_equivalent(game: Game, rng: random.Random) -> Injected | None:
    """Control: the right score written with a side (``NS 420``, ``EW -420``): no finding."""
    board = game.board
    if board.declarer is None:
        return None
    points = stated_score(game)
    side = board.declarer.side
    value = rng.choice([f"{side.letters} {points}", f"{side.other.letters} {-points}"])
    lines = list(game.lines)
    set_tag(lines, game, "Score", value)
    return Injected(lines, [])


# Board conventions and completeness ------------------------------------------------------------


def dealer_not_by_convention(game: Game, rng: random.Random) -> Injected | None:
    """Dealer changed, with the Deal rewritten to start at the new dealer (the export format
    asks for that) and the auction left as it was: BRD001 at Dealer; the Auction tag, which
    names the old dealer, now disagrees with Dealer: PBN123 (a warning) at its value."""
    board = game.board
    assert board.dealer is not None
    dealer = rng.choice([s for s in Seat if s is not board.dealer])
    hands = hands_of(board)
    deal = f"{dealer.letter}:" + " ".join(_hand_text(hands[dealer.next(j)]) for j in range(4))
    lines = list(game.lines)
    set_tag(lines, game, "Dealer", dealer.letter)
    set_tag(lines, game, "Deal", deal)
    message = f"Dealer {dealer.letter} but board {game.number} is dealt by {board.dealer.letter}"
    expected = [
        tag_expect(game, "Dealer", "BRD001", message),
        tag_expect(game, "Auction", "PBN123", f"but the dealer is {dealer.letter}"),
    ]
    return Injected(lines, expected)


def vulnerability_not_by_convention(game: Game, rng: random.Random) -> Injected | None:
    """Vulnerable changed: BRD002; the score depends on the stated vulnerability, so SCO001 as
    well when declarer's score is not the same at the new vulnerability."""
    board = game.board
    assert board.vulnerability is not None
    vulnerability = rng.choice([v for v in Vulnerability if v is not board.vulnerability])
    lines = list(game.lines)
    set_tag(lines, game, "Vulnerable", vulnerability.value)
    message = f"Vulnerable {vulnerability} but board {game.number} has {board.vulnerability}"
    expected = [tag_expect(game, "Vulnerable", "BRD002", message)]
    if not passed_out(board):
        expected += _score_expect(game, stated_contract_score(board, vulnerability=vulnerability))
    return Injected(lines, expected)


MANDATORY = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)  # fmt: skip


def _missing_tag(name: str) -> Mutation:
    def mutate(game: Game, rng: random.Random) -> Injected | None:
        """One mandatory tag deleted: BRD003 at the game's first line.  Removing a tag the
        Play or Auction section needs before it also gives PBN124 (a warning) there."""
        board = game.board
        lines = list(game.lines)
        removed = game.tags[name]
        del lines[removed]
        expected = [Expect("BRD003", 0, 1, f"missing mandatory tag(s): {name}")]
        if name == "Dealer":
            expected.append(Expect("PBN124", game.tags["Auction"] - 1, 1, "Auction section"))
        needed_by_play = name in ("Deal", "Declarer", "Contract")
        if needed_by_play and board.play is not None:
            message = f"Play section without {name}"
            expected.append(Expect("PBN124", game.tags["Play"] - 1, 1, message))
        return Injected(lines, expected, board_missing=name == "Board")

    return mutate


def note_reference_without_note(game: Game, rng: random.Random) -> Injected | None:
    """``=n=`` after a call or a card, with no Note: PBN121 (a warning) at the reference."""
    index = rng.randint(1, 32)
    lines = list(game.lines)
    places = list(game.calls) + list(game.cards.values())
    line, column = rng.choice(places)
    end = lines[line].find(" ", column - 1)
    end = len(lines[line]) if end < 0 else end
    lines[line] = lines[line][:end] + f" ={index}=" + lines[line][end:]
    message = f"note reference ={index}= has no Note"
    return Injected(lines, [Expect("PBN121", line, end + 2, message)])


def note_reference_with_note(game: Game, rng: random.Random) -> Injected | None:
    """Control: ``=n=`` after a call with its Note after the calls: no finding."""
    index = rng.randint(1, 32)
    lines = list(game.lines)
    line, column = rng.choice(game.calls)
    end = lines[line].find(" ", column - 1)
    end = len(lines[line]) if end < 0 else end
    lines[line] = lines[line][:end] + f" ={index}=" + lines[line][end:]
    lines.insert(game.auction_lines[-1] + 1, f'[Note "{index}:strong, artificial"]')
    return Injected(lines, [])


KINDS: dict[str, Mutation] = {
    "HND001-card-from-another-hand": deal_card_from_other_hand,
    "HND001-card-twice-in-a-hand": deal_card_twice_in_hand,
    "HND002-hand-of-twelve": deal_hand_of_twelve,
    "PLY001-card-not-held": play_card_of_another_hand,
    "PLY002-card-played-twice": play_card_twice,
    "PLY003-revoke": play_revoke,
    "PLY004-wrong-opening-leader": play_wrong_opening_leader,
    "AUC001-insufficient-bid": auction_insufficient_bid,
    "AUC002-illegal-double": auction_illegal_double,
    "AUC003-illegal-redouble": auction_illegal_redouble,
    "AUC004-call-after-end": auction_call_after_end,
    "CON001-contract-level-or-doubling": contract_level_or_doubling,
    "CON001-contract-on-passed-out-board": contract_on_passed_out_board,
    "CON002-declarer-is-dummy": declarer_partner,
    "CON002-declarer-is-a-defender": declarer_opponent,
    "CON003-result-out-of-range": result_out_of_range,
    "CON004-result-contradicts-play": result_contradicts_play,
    "CON005-claim-impossible": result_claim_impossible,
    "SCO001-score-wrong": score_wrong,
    "BRD001-dealer": dealer_not_by_convention,
    "BRD002-vulnerable": vulnerability_not_by_convention,
    **{f"BRD003-missing-{name}": _missing_tag(name) for name in MANDATORY},
    "PBN121-note-reference-without-note": note_reference_without_note,
    "control-score-with-side": score_equivalent,
    "control-note-with-reference": note_reference_with_note,
}

# --- Running them --------------------------------------------------------------------------------


@dataclass
class Placed:
    game: Game
    injected: Injected | None
    """None for an untouched game."""
    first_line: int
    last_line: int


def build_file(games: Sequence[tuple[Game, Injected | None]]) -> tuple[str, list[Placed]]:
    """The file header, then each game (mutated or not), each followed by its blank line."""
    parts = [HEADER]
    placed = []
    line = HEADER_LINES + 1
    for game, injected in games:
        lines = game.lines if injected is None else injected.lines
        parts.append("".join(text + "\r\n" for text in lines) + "\r\n")
        placed.append(Placed(game, injected, line, line + len(lines) - 1))
        line += len(lines) + 1
    return "".join(parts), placed


def inject(kind: str) -> list[tuple[Game, Injected]]:
    rng = random.Random(zlib.crc32(f"{SEED}:{kind}".encode()))
    games = list(pool())
    rng.shuffle(games)
    chosen = []
    for game in games:
        injected = KINDS[kind](game, rng)
        if injected is not None:
            chosen.append((game, injected))
            if len(chosen) == PER_KIND:
                break
    return chosen


def _found(diagnostics: Iterable[Diagnostic], placed: Placed) -> list[Diagnostic]:
    return [
        d
        for d in diagnostics
        if d.line is not None and placed.first_line <= d.line <= placed.last_line
    ]


def test_thousands_of_generated_boards_validate_without_any_finding() -> None:
    games = pool()
    text, _ = build_file([(game, None) for game in games])
    result = parse(text, "generated.pbn", validate=True)
    assert [str(d) for d in result.diagnostics] == []
    assert len(result.boards) == POOL_SIZE
    assert [b.number for b in result.boards] == list(range(1, POOL_SIZE + 1))
    # The pool covers what the defects need.
    assert sum(complete_play(g.board) for g in games) > 1500
    assert sum(claimed(g.board) for g in games) > 300
    assert sum(passed_out(g.board) for g in games) > 60
    assert sum(g.board.contract is not None and g.board.contract.doubling > 0 for g in games) > 50


KNOWN_BUGS: dict[str, str] = {}
"""Kinds that fail because of a bug in pbntool: kind → reason (strict xfail, so a fix shows)."""


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(kind, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[kind]))
        if kind in KNOWN_BUGS
        else kind
        for kind in KINDS
    ],
)
def test_injected_defect_is_reported_where_it_was_made(kind: str) -> None:
    chosen = inject(kind)
    assert len(chosen) == PER_KIND, f"only {len(chosen)} games qualify"
    by_number = {game.number: game for game in pool()}
    sequence: list[tuple[Game, Injected | None]] = []
    for game, injected in chosen:
        sequence.append((game, injected))
        # An untouched neighbour: findings must not leak into the next game.
        sequence.append((by_number[game.number % POOL_SIZE + 1], None))
    text, placed = build_file(sequence)
    result = parse(text, f"{kind}.pbn", validate=True)
    assert all(any(_found([d], place) for place in placed) for d in result.diagnostics)
    problems = []
    for place in placed:
        found = _found(result.diagnostics, place)
        if place.injected is None:
            if found:
                problems.append(f"untouched board {place.game.number}: {[str(d) for d in found]}")
            continue
        problems.extend(_compare(place, found, f"{kind}.pbn"))
    assert problems == []


WARNINGS = frozenset({"PBN121", "PBN123", "PBN124", "BRD001", "BRD002", "BRD003"})
"""The codes expected here that are warnings; every other one is an error."""


def _compare(place: Placed, found: list[Diagnostic], name: str) -> list[str]:
    injected = place.injected
    assert injected is not None
    board = None if injected.board_missing else place.game.number
    want = sorted((e.code, place.first_line + e.line, e.column) for e in injected.expected)
    got = sorted((d.code, d.line or 0, d.column or 0) for d in found)
    label = f"board {place.game.number} (lines {place.first_line}-{place.last_line})"
    if want != got:
        return [f"{label}: expected {want}, got {[str(d) for d in found]}"]
    problems = []
    for diagnostic in found:
        if (diagnostic.board, diagnostic.file) != (board, name):
            problems.append(f"{label}: {diagnostic} has board {diagnostic.board}")
        severity = Severity.WARNING if diagnostic.code in WARNINGS else Severity.ERROR
        if diagnostic.severity is not severity:
            problems.append(f"{label}: {diagnostic} should be a {severity.label}")
    for expect in injected.expected:
        place_of = (expect.code, place.first_line + expect.line, expect.column)
        messages = [d.message for d in found if (d.code, d.line, d.column) == place_of]
        if not any(expect.message in message for message in messages):
            problems.append(f"{label}: no {expect.code} saying {expect.message!r}: {messages}")
    return problems


def test_columns_of_the_located_text_are_those_of_the_written_lines() -> None:
    """The reader of this file agrees with the writer's layout (guards the helpers above)."""
    game = pool()[0]
    board = game.board
    assert board.auction is not None
    for index, (line, column) in enumerate(game.calls):
        token = game.lines[line][column - 1 :].split(" ")[0]
        call = board.auction.calls[index]
        assert token == str(call)
    for (trick, seat), (line, column) in game.cards.items():
        token = game.lines[line][column - 1 :].split(" ")[0]
        assert board.play is not None
        slot = board.play.tricks[trick][seat]
        assert token == ("-" if slot is None else str(slot))


def test_reference_score_agrees_with_hand_checked_values() -> None:
    spades, clubs, notrump = Strain.SPADES, Strain.CLUBS, Strain.NOTRUMP
    assert reference_score(Contract(4, spades, Doubling.DOUBLED), True, 11) == 990
    assert reference_score(Contract(7, clubs, Doubling.REDOUBLED), False, 13) == 1960
    assert reference_score(Contract(3, notrump), False, 10) == 430
    assert reference_score(Contract(3, notrump), True, 7) == -200
    assert reference_score(Contract(4, Strain.HEARTS, Doubling.DOUBLED), False, 6) == -800
    assert reference_score(Contract(1, notrump, Doubling.REDOUBLED), True, 7) == 760
    assert reference_score(Contract(6, Strain.DIAMONDS), True, 12) == 1370
    assert reference_score(Contract(2, clubs, Doubling.DOUBLED), False, 8) == 180
    assert reference_score(Contract(5, clubs, Doubling.REDOUBLED), True, 8) == -1600
    assert reference_score(Contract(5, clubs, Doubling.DOUBLED), False, 5) == -1400
    ruff = [(Seat.NORTH, Card.parse("SA")), (Seat.EAST, Card.parse("H2"))]
    assert winner(ruff, Suit.HEARTS) is Seat.EAST
    assert winner(ruff, None) is Seat.NORTH
