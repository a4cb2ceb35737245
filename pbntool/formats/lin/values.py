"""The micro-syntaxes inside LIN values: ``md``, ``sv``, ``mb``, ``pc``, ``mc``, ``qx``, ``rs``,
``vg``.  Each parser returns what it could read and the problems it met (an offset into the
value and a message), never raises.

>>> read_call("2D!")
(Bid.of(2, Strain.DIAMONDS), True)
>>> [str(c) for c, _ in read_calls("-ppp1Cp1Hp3Np")[0]]
['Pass', 'Pass', 'Pass', '1C', 'Pass', '1H', 'Pass', '3NT', 'Pass']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple, cast

from pbntool.model import (
    PASSED_OUT,
    Action,
    Bid,
    Call,
    Card,
    Contract,
    Doubling,
    Hand,
    Rank,
    Seat,
    Strain,
    Suit,
    Vulnerability,
)
from pbntool.notation import CARDS_PER_HAND, TRICKS_PER_DEAL

__all__ = [
    "CALL_SPELLINGS",
    "CARD_SPELLINGS",
    "DEALER_DIGITS",
    "HAND_ORDER",
    "DealValue",
    "Problem",
    "RoomLabel",
    "TableResult",
    "read_call",
    "read_calls",
    "read_cards",
    "read_claim",
    "read_deal",
    "read_room",
    "read_table_result",
    "read_vulnerability",
]

HAND_ORDER = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
"""The fixed order of the hands in ``md`` (and of the names in ``pn``)."""
DEALER_DIGITS = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}


class Problem(NamedTuple):
    """Something wrong at ``offset`` characters into a value."""

    offset: int
    message: str


# --- md --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealValue:
    """What an ``md`` value says: the dealer (None without a digit) and the hands by seat."""

    dealer: Seat | None
    hands: dict[Seat, Hand]
    """The hands given, non-empty ones only."""
    hand_offsets: dict[Seat, int]
    """Where each hand starts in the value."""
    derived: Seat | None
    """The seat whose hand was completed from the other three."""
    problems: tuple[Problem, ...]


_FULL_SUIT = (1 << 15) - 4  # bits 2..14: every rank of one suit


def read_deal(value: str) -> DealValue:
    """Read ``md``: a dealer digit, then up to four hands (S, W, N, E) separated by commas.

    Ranks may come in any order, ``10`` for ten, either case; a void suit's letter may be left
    out.  A missing fourth hand is the complement of three full ones.
    """
    usual = _usual_deal(value)
    if usual is not None:
        return usual
    problems: list[Problem] = []
    text = value.strip()
    shift = len(value) - len(value.lstrip())
    dealer: Seat | None = None
    if text[:1] in "0123456789" and text[:1]:
        dealer = DEALER_DIGITS.get(text[0])
        if dealer is None:
            problems.append(Problem(shift, f"dealer digit {text[0]!r} is not 1-4 (S, W, N, E)"))
        text, shift = text[1:], shift + 1
    parts = text.split(",")
    if len(parts) > 4:
        extra = ",".join(parts[4:])
        if extra.strip(", "):
            problems.append(Problem(shift + len(",".join(parts[:4])), "more than four hands"))
        parts = parts[:4]
    hands: dict[Seat, Hand] = {}
    offsets: dict[Seat, int] = {}
    position = shift
    for seat, part in zip(HAND_ORDER, parts, strict=False):
        if part.strip():
            mask = _read_hand(part, position, seat, problems)
            hands[seat] = Hand.from_mask(mask)
            offsets[seat] = position + len(part) - len(part.lstrip())
        position += len(part) + 1
    derived = _missing_seat(hands)
    if derived is not None:
        held = 0
        for hand in hands.values():
            held |= hand.mask
        hands[derived] = Hand.from_mask(_ALL_MASK & ~held)
    return DealValue(dealer, hands, offsets, derived, tuple(problems))


_RANKS = "[2-9TJQKA]*"
_USUAL_HAND = f"S({_RANKS})H({_RANKS})D({_RANKS})C({_RANKS})"
_USUAL_DEAL = re.compile(f"([1-4]){_USUAL_HAND},{_USUAL_HAND},{_USUAL_HAND},(?:{_USUAL_HAND})?")
"""A deal as BBO writes it: a dealer digit, then the four suits of each hand in upper case
(the fourth hand may be left out)."""


def _usual_deal(value: str) -> DealValue | None:
    """``read_deal`` of a deal written as ``_USUAL_DEAL`` with no card twice in a hand; None
    for any other value."""
    found = _USUAL_DEAL.fullmatch(value)
    if found is None:
        return None
    holdings = found.groups()
    given = 4 if holdings[1 + 3 * 4] is not None else 3  # the dealer, then four per hand
    texts = holdings[1 : 1 + 4 * given]
    known = list(map(_HOLDINGS.get, texts))
    # A holding not seen yet is worked out (and remembered).
    fields = [_holding_bits(text) for text in texts] if None in known else cast(list[int], known)
    if -1 in fields:
        return None  # a card twice: ``_read_hand_slowly`` says where
    hands: dict[Seat, Hand] = {}
    offsets: dict[Seat, int] = {}
    for index in range(given):
        spades, hearts, diamonds, clubs = fields[4 * index : 4 * index + 4]
        seat = HAND_ORDER[index]
        hands[seat] = Hand.from_mask(spades << 48 | hearts << 32 | diamonds << 16 | clubs)
        offsets[seat] = found.start(2 + 4 * index) - 1
    derived = _missing_seat(hands)
    if derived is not None:
        held = 0
        for hand in hands.values():
            held |= hand.mask
        hands[derived] = Hand.from_mask(_ALL_MASK & ~held)
    return DealValue(DEALER_DIGITS[holdings[0]], hands, offsets, derived, ())


_HOLDINGS: dict[str, int] = {}
_HOLDINGS_KEPT = 1 << 15
"""How many suit holdings ``_holding_bits`` remembers (two spellings of each of the 8,192)."""


def _holding_bits(ranks: str) -> int:
    """The 16-bit field of one suit's rank letters (upper case, no ``10``); -1 when a rank
    comes twice."""
    field = 0
    for letter in ranks:
        bit = _RANK_BIT[letter]
        if field & bit:
            field = -1
            break
        field |= bit
    if len(_HOLDINGS) < _HOLDINGS_KEPT:
        _HOLDINGS[ranks] = field
    return field


_ALL_MASK = sum(_FULL_SUIT << (suit * 16) for suit in range(4))
_SUIT_LETTERS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SUIT_SHIFT = {"S": 48, "H": 32, "D": 16, "C": 0}
_RANK_BIT = {letter: 1 << rank for rank, letter in enumerate("..23456789TJQKA") if rank >= 2}


def _read_hand(text: str, start: int, seat: Seat, problems: list[Problem]) -> int:
    """A hand's card mask; duplicated cards and foreign characters are problems."""
    fast = _fast_hand(text)
    if fast is not None:
        return fast
    return _read_hand_slowly(text, start, seat, problems)


def _fast_hand(text: str) -> int | None:
    """The mask of a well-formed hand (upper case, no ``10``, no repeats), else None."""
    mask = 0
    shift = -1
    for char in text:
        bit = _RANK_BIT.get(char)
        if bit is None:
            shift = _SUIT_SHIFT.get(char, -2)
            if shift == -2:
                return None
            continue
        if shift < 0:
            return None
        bit <<= shift
        if mask & bit:
            return None
        mask |= bit
    return mask


def _read_hand_slowly(text: str, start: int, seat: Seat, problems: list[Problem]) -> int:
    """``_read_hand`` for hands with lower case, ``10``, blanks or problems."""
    mask = 0
    suit: Suit | None = None
    index = 0
    upper = text.translate(_ASCII_UPPER)  # str.upper() may change the length ("ß" → "SS")
    while index < len(upper):
        char = upper[index]
        if char in _SUIT_LETTERS:
            suit = _SUIT_LETTERS[char]
            index += 1
            continue
        if char.isspace():
            index += 1
            continue
        rank_text = "10" if upper.startswith("10", index) else char
        try:
            rank = Rank.from_letter(rank_text)
        except ValueError:
            problems.append(Problem(start + index, f"{text[index]!r} is not a suit or rank"))
            index += 1
            continue
        if suit is None:
            problems.append(Problem(start + index, "a rank before any suit letter"))
        else:
            bit = Card.of(suit, rank).bit
            if mask & bit:
                card = Card.of(suit, rank)
                problems.append(Problem(start + index, f"{card} twice in {seat.name_title}'s hand"))
            mask |= bit
        index += len(rank_text)
    return mask


def _missing_seat(hands: dict[Seat, Hand]) -> Seat | None:
    """The one seat without a hand when the three others hold 13 distinct cards each."""
    if len(hands) != 3 or any(len(hand) != CARDS_PER_HAND for hand in hands.values()):
        return None
    held = 0
    for hand in hands.values():
        if held & hand.mask:
            return None
        held |= hand.mask
    return next(seat for seat in HAND_ORDER if seat not in hands)


# --- sv --------------------------------------------------------------------------------------

_VULNERABILITY = {
    "o": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "none": Vulnerability.NONE,
    "love": Vulnerability.NONE,
    "n": Vulnerability.NS,
    "ns": Vulnerability.NS,
    "e": Vulnerability.EW,
    "ew": Vulnerability.EW,
    "b": Vulnerability.ALL,
    "both": Vulnerability.ALL,
    "all": Vulnerability.ALL,
}


def read_vulnerability(value: str) -> Vulnerability | None:
    """``o n e b`` (BBO), ``0`` and upper case (Pavlicek), and the PBN words."""
    return _VULNERABILITY.get(value.strip().lower())


# --- mb --------------------------------------------------------------------------------------

_ACTIONS = {
    "p": Action.PASS,
    "pass": Action.PASS,
    "d": Action.DOUBLE,
    "x": Action.DOUBLE,
    "dbl": Action.DOUBLE,
    "r": Action.REDOUBLE,
    "xx": Action.REDOUBLE,
    "rdbl": Action.REDOUBLE,
}
_BID = re.compile(r"([1-7])(NT|[CDHSN])", re.I)
_COMPACT_CALL = re.compile(r"[1-7](?:NT|[CDHSN])|[PDRX]", re.I)


def _call_spellings() -> dict[str, tuple[Call, bool]]:
    """The spellings real files use, alerted or not, looked up before anything is parsed."""
    table: dict[str, tuple[Call, bool]] = {}
    calls: list[tuple[str, Call]] = [(text, action) for text, action in _ACTIONS.items()]
    for level in range(1, 8):
        for strain in Strain:
            letters = ("N", "NT") if strain is Strain.NOTRUMP else (strain.letter,)
            calls.extend((f"{level}{letter}", Bid.of(level, strain)) for letter in letters)
    for text, call in calls:
        for spelling in {text, text.upper(), text.lower()}:
            table[spelling] = (call, False)
            table[spelling + "!"] = (call, True)
    return table


def read_call(value: str) -> tuple[Call | None, bool]:
    """One call and whether it is alerted (``!`` anywhere in the value)."""
    known = CALL_SPELLINGS.get(value)
    if known is not None:
        return known
    alerted = "!" in value
    text = value.replace("!", "").strip()
    lower = text.lower()
    if lower in _ACTIONS:
        return _ACTIONS[lower], alerted
    bid = _BID.fullmatch(text)
    if bid is None:
        return None, alerted
    return Bid.of(int(bid.group(1)), Strain.from_text(bid.group(2))), alerted


CALL_SPELLINGS = _call_spellings()
"""Every usual spelling of a call, alerted (``1C!``) or not, to the call and its alert."""


def read_calls(value: str) -> tuple[list[tuple[Call, bool]], Problem | None]:
    """A value of one call, or of several in the compact form (``-ppp1Cp1Hp3Np``).

    Returns the calls (with their alert flags) and, when the value cannot be read, where.
    """
    call, alerted = read_call(value)
    if call is not None:
        return [(call, alerted)], None
    calls: list[tuple[Call, bool]] = []
    index = 0
    text = value
    while index < len(text):
        char = text[index]
        if char in "- \t\n":
            index += 1
            continue
        if char == "!" and calls:
            calls[-1] = (calls[-1][0], True)
            index += 1
            continue
        found = _COMPACT_CALL.match(text, index)
        if found is None:
            return [], Problem(index, f"{value.strip()!r} is not a call (p, d, r, 1C…7N)")
        call, _ = read_call(found.group())
        assert call is not None
        calls.append((call, False))
        index = found.end()
    if not calls:
        return [], Problem(0, f"{value.strip()!r} is not a call (p, d, r, 1C…7N)")
    return calls, None


# --- pc --------------------------------------------------------------------------------------

_CARD = re.compile(r"\s*([SHDC])\s*(10|[2-9TJQKA])\s*", re.I)


CARD_SPELLINGS: dict[str, Card] = {  # SA sA Sa sa: any case, the suit first
    spelling: Card.of(suit, rank)
    for suit in Suit
    for rank in Rank
    for spelling in (
        suit.letter + rank.letter,
        suit.letter.lower() + rank.letter,
        suit.letter + rank.letter.lower(),
        suit.letter.lower() + rank.letter.lower(),
    )
}


def read_cards(value: str) -> tuple[list[tuple[Card, int]], Problem | None]:
    """One card (``SA``, ``sA``, ``S10``), or up to four written together (``SASKSQS2``)."""
    card = CARD_SPELLINGS.get(value)
    if card is not None:
        return [(card, 0)], None
    cards: list[tuple[Card, int]] = []
    index = 0
    while index < len(value):
        found = _CARD.match(value, index)
        if found is None:
            if value[index:].strip():
                return cards, Problem(index, f"{value.strip()!r} is not a card (e.g. SA, hT)")
            break
        card = Card.of(Suit.from_letter(found.group(1)), Rank.from_letter(found.group(2)))
        cards.append((card, found.start(1)))
        index = found.end()
    if not cards:
        return cards, Problem(0, f"{value.strip()!r} is not a card (e.g. SA, hT)")
    return cards, None


def read_claim(value: str) -> int | None:
    """``mc``: the tricks declarer's side takes in the whole deal, 0 to 13."""
    text = value.strip()
    if (
        not (0 < len(text) <= 2 and all(char in "0123456789" for char in text))
        or int(text) > TRICKS_PER_DEAL
    ):
        return None
    return int(text)


# --- qx --------------------------------------------------------------------------------------


class RoomLabel(NamedTuple):
    """A table id: room letter (``o`` open, ``c`` closed, or another), board, label."""

    room: str
    board: int | None
    label: str | None
    """Text after a comma (``o1,BOARD 1``), kept as written."""


_ROOM = re.compile(r"\s*([A-Za-z]?)\s*(\d*)\s*(?:,(.*))?", re.S | re.ASCII)


def read_room(value: str) -> RoomLabel | None:
    """Read ``qx`` (``o12``, ``c12``, ``o1,BOARD 1``, ``12``, or empty: a table with no
    room or number); None when it cannot be read."""
    if not value.strip():
        return RoomLabel("", None, None)
    found = _ROOM.fullmatch(value)
    if found is None or not (found.group(1) or found.group(2)):
        return None
    board = int(found.group(2)) if found.group(2) and len(found.group(2)) < 7 else None
    return RoomLabel(found.group(1).lower(), board, found.group(3))


# --- rs --------------------------------------------------------------------------------------


class TableResult(NamedTuple):
    """One ``rs`` entry: contract, declarer and tricks (None for a pass or unknown)."""

    contract: Contract
    declarer: Seat | None
    tricks: int | None


_RESULT = re.compile(r"([1-7])([CDHSN])([NESW])(x{0,2})(=|[+-]\d{1,2})?", re.I | re.ASCII)


def read_table_result(entry: str) -> TableResult | None:
    """Read an ``rs`` entry (``4SWx-4``, ``3NN=``, ``PASS``); None when it is not one.

    >>> entry = read_table_result("4SWx-4")
    >>> str(entry.contract), entry.declarer.letter, entry.tricks
    ('4SX', 'W', 6)
    """
    text = entry.strip()
    if text.upper() in ("P", "PASS"):
        return TableResult(PASSED_OUT, None, None)
    found = _RESULT.fullmatch(text)
    if found is None:
        return None
    level = int(found.group(1))
    contract = Contract(level, Strain.from_text(found.group(2)), Doubling(len(found.group(4))))
    outcome = found.group(5)
    tricks = None
    if outcome is not None:
        tricks = level + 6 + (0 if outcome == "=" else int(outcome))
        if not 0 <= tricks <= TRICKS_PER_DEAL:
            return None
    return TableResult(contract, Seat.from_letter(found.group(3)), tricks)
