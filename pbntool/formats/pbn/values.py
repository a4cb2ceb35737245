"""Decoders for the micro-syntax inside PBN tag values: Deal, seats, Vulnerable, Contract,
Result, Score, Board, Date.

Each decoder is pure and lenient: it returns the value it could read (or None) together with
the problems it found, as ``Problem(code, arguments, index)`` where ``index`` is the character
offset in the value the problem points at.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pbntool.diagnostics import (
    HND001,
    PBN101,
    PBN102,
    PBN103,
    PBN104,
    PBN105,
    PBN106,
    PBN107,
    PBN108,
    PBN109,
    PBN110,
    PBN111,
    PBN112,
    SCO002,
    Code,
)
from pbntool.model import (
    PASSED_OUT,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    Rank,
    Score,
    Seat,
    Side,
    Strain,
    Suit,
    Vulnerability,
    pickle_by_fields,
)
from pbntool.notation import TRICKS_PER_DEAL

__all__ = [
    "Problem",
    "canonical_deal",
    "decode_board_number",
    "decode_contract",
    "decode_date",
    "decode_deal",
    "decode_result",
    "decode_score",
    "decode_seat",
    "decode_vulnerable",
]

UNKNOWN_VALUES = frozenset({"", "?"})
_DECODED_VALUES = 1024
"""The decoders of short values remember this many recent answers: a file repeats the same
few contracts, seats and scores thousands of times."""
"""``?`` is "unknown", ``""`` is "not applicable" (PBN §3.1): neither is an error."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding inside one tag value."""

    code: Code
    arguments: dict[str, object]
    index: int = 0


Problems = tuple[Problem, ...]
"""Problems of one value (a tuple: decoded values are cached and shared)."""


_PBN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_BY_LETTER = {rank.letter: rank for rank in Rank} | {
    rank.letter.lower(): rank for rank in Rank if not rank.letter.isdigit()
}
_CARDS_BY_SUIT: tuple[dict[str, Card], ...] = tuple(
    {letter: Card.of(suit, rank) for letter, rank in _RANK_BY_LETTER.items()} for suit in _PBN_SUITS
)


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_seat(value: str, name: str = "Dealer") -> tuple[Seat | None, Problems]:
    """A seat letter in either case; ``?`` and ``""`` mean unknown."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, ()
    try:
        return Seat.from_letter(text), ()
    except ValueError:
        code = PBN108 if name == "Declarer" else PBN103
        return None, (Problem(code, {"value": _quote(value)}),)


_VULNERABILITY = {
    "none": Vulnerability.NONE,
    "love": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "ns": Vulnerability.NS,
    "ew": Vulnerability.EW,
    "all": Vulnerability.ALL,
    "both": Vulnerability.ALL,
}


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_vulnerable(value: str) -> tuple[Vulnerability | None, Problems]:
    """None/Love/-, NS, EW, All/Both in any case."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, ()
    found = _VULNERABILITY.get(text.lower())
    if found is None:
        return None, (Problem(PBN104, {"value": _quote(value)}),)
    return found, ()


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_board_number(value: str) -> tuple[int | None, Problems]:
    """A positive integer; other labels (``4-1``) are kept as text with a warning."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, ()
    if text.isdigit() and text.isascii() and len(text) <= 9 and int(text) > 0:
        return int(text), ()
    return None, (Problem(PBN105, {"value": _quote(value)}),)


_DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_date(name: str, value: str) -> Problems:
    """``YYYY.MM.DD`` with ``?`` for unknown digits."""
    if value in UNKNOWN_VALUES or _DATE.fullmatch(value):
        return ()
    return (Problem(PBN112, {"name": name, "value": _quote(value)}),)


def decode_deal(value: str) -> tuple[Deal | None, list[Problem], dict[Seat, int]]:
    """``<first>:<hand> <hand> <hand> <hand>``; returns the deal, problems and each hand's
    offset in the value (for pointing at a hand)."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, [], {}
    lead = len(value) - len(value.lstrip())
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in "NESW":
        detail = "expected the first seat (N, E, S or W) and a colon"
        return None, [Problem(PBN101, {"value": _quote(value), "detail": detail}, lead)], {}
    first = Seat.from_letter(text[0])
    problems: list[Problem] = []
    body = text[2:]
    hands: list[Hand | None] = [None, None, None, None]
    offsets: dict[Seat, int] = {}
    parts = _split_hands(body)
    gap = 0 if body[:1].isspace() else body.rstrip().find("  ")
    if gap >= 0:
        detail = "hands must be separated by exactly one space"
        problems.append(Problem(PBN101, {"value": _quote(value), "detail": detail}, lead + 2 + gap))
    if len(parts) != 4:
        detail = f"expected 4 hands, found {len(parts)}"
        problems.append(Problem(PBN101, {"value": _quote(value), "detail": detail}, lead + 2))
        if len(parts) > 4 or not parts:
            return None, problems, {}
    for step, (hand_text, start) in enumerate(parts):
        seat = first.next(step)
        index = lead + 2 + start
        offsets[seat] = index
        hand, hand_problems = _decode_hand(hand_text, seat, index, value)
        hands[seat] = hand
        problems.extend(hand_problems)
    if all(hand is None for hand in hands):
        if not problems:
            detail = 'no hand is known; write Deal "?" for an unknown deal'
            problems.append(Problem(PBN101, {"value": _quote(value), "detail": detail}, lead))
        return None, problems, offsets
    deal = Deal((hands[0], hands[1], hands[2], hands[3]))
    return deal, problems, offsets


def canonical_deal(value: str) -> Deal | None:
    """The deal of a Deal value in its usual form (an upper-case first seat, a colon and four
    hands of four dotted holdings, single spaces, no unknown hand); None for any other value,
    which ``decode_deal`` reads and reports on.  The fast path's reading: the deal is the one
    ``decode_deal`` gives, at a third of its cost, and a deal met again costs one lookup."""
    deal = _DEALS.get(value)
    if deal is not None:
        return deal
    first = _FIRST_SEATS.get(value[:2])
    parts = value[2:].split(" ")
    if first is None or len(parts) != 4:
        return None
    hands: list[Hand | None] = [None, None, None, None]
    for step, text in enumerate(parts):
        mask = _plain_hand_mask(text.split("."))
        if mask is None:
            return None
        hands[(first + step) & 3] = Hand.from_mask(mask)
    deal = Deal((hands[0], hands[1], hands[2], hands[3]))
    if len(_DEALS) >= _DEAL_CACHE_LIMIT:
        _DEALS.clear()
    _DEALS[value] = deal
    return deal


_FIRST_SEATS = {f"{seat.letter}:": seat for seat in Seat}
_DEALS: dict[str, Deal] = {}
"""Deals recently read, by their value: an event file repeats each deal at every table."""
_DEAL_CACHE_LIMIT = 1024
_CACHE_LIMIT = 16_384
_HAND_CACHE: dict[str, Hand] = {}
"""Hands recently read, by their text: the same deal recurs at every table of an event.
Small on purpose (a hand costs about 1 KB): it only has to span one event's boards."""
_HAND_CACHE_LIMIT = 4096


def _split_hands(body: str) -> list[tuple[str, int]]:
    """The hands of a Deal value with their offsets (the usual single spaces take a fast path)."""
    if "  " not in body and not body[:1].isspace() and body == body.rstrip():
        parts, start = [], 0
        for text in body.split(" "):
            parts.append((text, start))
            start += len(text) + 1
        return parts
    return [(m.group(), m.start()) for m in _NON_BLANK.finditer(body)]


_NON_BLANK = re.compile(r"\S+")
_HOLDINGS: tuple[dict[str, tuple[tuple[Card, ...], int]], ...] = ({}, {}, {}, {})
"""Per PBN suit position: the cards of each holding seen and their mask, by its text
(``"AQ52"``).  There are only 8,192 holdings per suit in canonical order, and short ones
recur in every deal."""
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = _HOLDINGS


def _holding(position: int, ranks: str) -> tuple[tuple[Card, ...], int]:
    """The cards of one suit's holding and their mask; ``KeyError`` on a non-rank."""
    lookup = _CARDS_BY_SUIT[position]
    cards = tuple([lookup[letter] for letter in ranks])
    found = (cards, sum([card.bit for card in cards]))
    cache = _HOLDINGS[position]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[ranks] = found
    return found


def _decode_hand(
    text: str, seat: Seat, index: int, value: str
) -> tuple[Hand | None, list[Problem]]:
    """One hand, ``<spades>.<hearts>.<diamonds>.<clubs>`` or ``-``."""
    hand = _HAND_CACHE.get(text)
    if hand is not None:
        return hand, []
    if text == "-":
        return None, []
    holdings = text.split(".")
    mask = _plain_hand_mask(holdings)
    if mask is not None:
        hand = Hand.from_mask(mask)
        if len(_HAND_CACHE) >= _HAND_CACHE_LIMIT:
            _HAND_CACHE.clear()
        _HAND_CACHE[text] = hand
        return hand, []
    # Suit letters, "10", a bad rank or a repeated card: the careful path says which.
    return _decode_hand_carefully(text, holdings, seat, index, value)


def _plain_hand_mask(holdings: list[str]) -> int | None:
    """The mask of four holdings in rank letters with no card twice; None for anything else."""
    if len(holdings) != 4:
        return None
    spades, hearts, diamonds, clubs = holdings
    try:
        mask = (
            (_SPADES.get(spades) or _holding(0, spades))[1]
            | (_HEARTS.get(hearts) or _holding(1, hearts))[1]
            | (_DIAMONDS.get(diamonds) or _holding(2, diamonds))[1]
            | (_CLUBS.get(clubs) or _holding(3, clubs))[1]
        )
    except KeyError:
        return None
    holding_sizes = len(spades) + len(hearts) + len(diamonds) + len(clubs)
    return mask if mask.bit_count() == holding_sizes else None


def _decode_hand_carefully(
    text: str, holdings: list[str], seat: Seat, index: int, value: str
) -> tuple[Hand | None, list[Problem]]:
    if len(holdings) != 4:
        detail = (
            f"{seat.name_title} hand {text!r} has {len(holdings)} suits; "
            "expected 4 separated by dots"
        )
        return None, [Problem(PBN101, {"value": _quote(value), "detail": detail}, index)]
    problems: list[Problem] = []
    cards: list[Card] = []
    letters_warned = False
    for position, (ranks, lookup) in enumerate(zip(holdings, _CARDS_BY_SUIT, strict=True)):
        if ranks and ranks[0].upper() == "SHDC"[position] and not ranks[0].isdigit():
            if not letters_warned:
                problems.append(Problem(PBN102, {"hand": repr(text)}, index))
                letters_warned = True
            ranks = ranks[1:]
        ranks = ranks.replace("10", "T")
        for letter in ranks:
            card = lookup.get(letter)
            if card is None:
                detail = (
                    f"{letter!r} is not a rank in {seat.name_title}'s hand; ranks are AKQJT98765432"
                )
                problems.append(Problem(PBN101, {"value": _quote(value), "detail": detail}, index))
                continue
            cards.append(card)
    hand = Hand(cards)
    if len(hand) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                problems.append(Problem(HND001, {"card": str(card)}, index))
            seen.add(card)
    return hand, problems


# Short values (contract, result, scores) are matched only when short: no real one is longer,
# and it keeps regular expressions and int() away from megabytes of garbage.
_SHORT = 40
_CONTRACT = re.compile(r"(?i)(?:(pass)|([1-7])?\s*(nt|n|s|h|d|c)\s*(xx|x)?)")


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_contract(value: str) -> tuple[Contract | None, Problems]:
    """``Pass`` or ``<level><strain>[X|XX]``; a bare strain is an end-position contract."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, ()
    match = _CONTRACT.fullmatch(text) if len(text) <= _SHORT else None
    if match is None:
        return None, (Problem(PBN106, {"value": _quote(value)}),)
    if match.group(1):
        return PASSED_OUT, ()
    problems: list[Problem] = []
    if match.group(3).upper() == "N":
        problems.append(Problem(PBN107, {"text": f"Contract {_quote(value)}"}))
    level = int(match.group(2)) if match.group(2) else None
    doubling = Doubling(len(match.group(4) or ""))
    return Contract(level, Strain.from_text(match.group(3)), doubling), tuple(problems)


_RESULT = re.compile(r"(\^)?\s*(?:(\d+)|(NS|EW)\s*(\d+)(?:\s*(NS|EW)\s*(\d+))?)", re.I | re.ASCII)


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_result(value: str, declarer: Seat | None) -> tuple[int | None, bool, Problems]:
    """Tricks taken by declarer (``r``, ``NS r``, ``EW r``, both, or ``^r``).

    Returns (tricks, irregular, problems); tricks is None when unknown or when a side form
    cannot be turned into declarer's tricks because the declarer is unknown.
    """
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, False, ()
    match = _RESULT.fullmatch(text) if len(text) <= _SHORT else None
    if match is None:
        return None, False, (Problem(PBN109, {"value": _quote(value)}),)
    irregular = bool(match.group(1))
    if match.group(2) is not None:
        return int(match.group(2)), irregular, ()
    sides = {match.group(3).upper(): int(match.group(4))}
    if match.group(5):
        sides[match.group(5).upper()] = int(match.group(6))
    if declarer is None:
        return None, irregular, ()
    own, other = declarer.side.letters, declarer.side.other.letters
    if own in sides:
        return sides[own], irregular, ()
    return TRICKS_PER_DEAL - sides[other], irregular, ()


_SIDE_SCORE = re.compile(
    r"(?:([+-]?\d+)|(NS|EW)\s*([+-]?\d+)(?:\s*(NS|EW)\s*([+-]?\d+))?)", re.I | re.ASCII
)


@functools.lru_cache(maxsize=_DECODED_VALUES)
def decode_score(name: str, value: str) -> tuple[Score | None, Problems]:
    """A side-score: ``v`` (declarer's view), ``NS v``, ``EW v`` or both sides."""
    text = value.strip()
    if text in UNKNOWN_VALUES:
        return None, ()
    match = _SIDE_SCORE.fullmatch(text) if len(text) <= _SHORT else None
    if match is None:
        return None, (Problem(PBN110, {"name": name, "value": _quote(value)}),)
    problems: list[Problem] = []
    if "+" in value:
        problems.append(Problem(PBN111, {"name": name, "value": _quote(value)}))
    if match.group(1) is not None:
        return Score(int(match.group(1))), tuple(problems)
    side = Side.NS if match.group(2).upper() == "NS" else Side.EW
    points = int(match.group(3))
    if match.group(4) is not None:
        other = int(match.group(5))
        if match.group(4).upper() == match.group(2).upper() or other != -points:
            problems.append(Problem(SCO002, {"name": name, "value": _quote(value)}))
    return Score(points, side), tuple(problems)


def _quote(value: str) -> str:
    shown = value if len(value) <= 60 else value[:57] + "..."
    return '"' + shown + '"'


pickle_by_fields(Problem)  # compiled, a frozen dataclass cannot unpickle itself
