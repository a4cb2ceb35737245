"""The types of ``--where`` values, and how a string literal reads as each of them.

A field has a kind; a string literal compared with it is read as that kind when the
expression is compiled (``dealer == "North"`` reads ``"North"`` as a seat, ``contract ==
"3N"`` as the contract 3NT), so a literal that cannot be a seat or a contract is an error at
its column rather than a comparison that is always false.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from pbntool.model import PASSED_OUT, Action, Bid, Contract, Doubling, Seat, Strain, Vulnerability
from pbntool.notation import CARDS_PER_HAND

__all__ = [
    "Kind",
    "ShapePattern",
    "parse_literal",
    "text_of",
]


class Kind(Enum):
    """What a value is; the ``value`` is how error messages name it."""

    NUMBER = "a number"
    STRING = "a string"
    BOOL = "true or false"
    SEAT = "a seat"
    STRAIN = "a strain"
    VUL = "a vulnerability"
    CONTRACT = "a contract"
    BID = "a bid"
    SHAPE = "a shape"
    CALLS = "a sequence of calls"
    LIST = "a list of strings"
    NULL = "null"

    @property
    def ordered(self) -> bool:
        """Whether ``<``, ``>`` … compare values of this kind."""
        return self in _ORDERED


_ORDERED = frozenset({Kind.NUMBER, Kind.STRING, Kind.CONTRACT, Kind.BID})


@dataclass(frozen=True, slots=True)
class ShapePattern:
    """A hand pattern: exact suit lengths in S-H-D-C order, ``x`` for any (``"5-4-x-x"``), or
    a sorted pattern in any suit order (``"5422"``)."""

    lengths: tuple[int | None, int | None, int | None, int | None]
    any_order: bool

    def matches(self, shape: tuple[int, int, int, int]) -> bool:
        if self.any_order:
            return tuple(sorted(shape, reverse=True)) == self.lengths
        pairs = zip(self.lengths, shape, strict=True)
        return all(want is None or want == have for want, have in pairs)

    def __str__(self) -> str:
        if self.any_order:
            return "".join(str(length) for length in self.lengths)
        return "-".join("x" if length is None else str(length) for length in self.lengths)


_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_SEAT_WORDS = {"NORTH": Seat.NORTH, "EAST": Seat.EAST, "SOUTH": Seat.SOUTH, "WEST": Seat.WEST}
_STRAINS = {
    "C": Strain.CLUBS,
    "D": Strain.DIAMONDS,
    "H": Strain.HEARTS,
    "S": Strain.SPADES,
    "N": Strain.NOTRUMP,
    "NT": Strain.NOTRUMP,
    "♣": Strain.CLUBS,
    "♦": Strain.DIAMONDS,
    "♥": Strain.HEARTS,
    "♠": Strain.SPADES,
    "CLUBS": Strain.CLUBS,
    "DIAMONDS": Strain.DIAMONDS,
    "HEARTS": Strain.HEARTS,
    "SPADES": Strain.SPADES,
    "NOTRUMP": Strain.NOTRUMP,
    "NOTRUMPS": Strain.NOTRUMP,
}
_VULNERABILITY = {
    "NONE": Vulnerability.NONE,
    "LOVE": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "NS": Vulnerability.NS,
    "N-S": Vulnerability.NS,
    "EW": Vulnerability.EW,
    "E-W": Vulnerability.EW,
    "ALL": Vulnerability.ALL,
    "BOTH": Vulnerability.ALL,
}
_BID = re.compile(r"([1-7])\s*(NT|N|S|H|D|C|♠|♥|♦|♣)", re.I)
_CONTRACT = re.compile(r"([1-7])\s*(NT|N|S|H|D|C|♠|♥|♦|♣)\s*(XX|X|\*\*|\*)?", re.I)
_PASS_WORDS = {"P", "PASS", "AP", "ALLPASS", "PASSED", "PASSED OUT", "PASSOUT", "-"}
_CALL_WORDS: dict[str, Action] = {
    "P": Action.PASS,
    "PASS": Action.PASS,
    "X": Action.DOUBLE,
    "D": Action.DOUBLE,
    "DBL": Action.DOUBLE,
    "XX": Action.REDOUBLE,
    "R": Action.REDOUBLE,
    "RDBL": Action.REDOUBLE,
    "REDBL": Action.REDOUBLE,
}
_SHAPE_EXACT = re.compile(r"([0-9x]{1,2})-([0-9x]{1,2})-([0-9x]{1,2})-([0-9x]{1,2})", re.I)
_SHAPE_SORTED = re.compile(r"\d{4}")


def parse_literal(kind: Kind, text: str) -> object:
    """The value of ``kind`` that a string literal spells; raises ``ValueError`` with a
    message saying what such a value looks like."""
    parser = _PARSERS.get(kind)
    if parser is None:
        return text
    return parser(text.strip())


def _seat(text: str) -> Seat:
    upper = text.upper()
    seat = _SEATS.get(upper, _SEAT_WORDS.get(upper))  # not "or": Seat.NORTH is 0
    if seat is None:
        raise ValueError(f"{text!r} is not a seat; use N, E, S or W")
    return seat


def _strain(text: str) -> Strain:
    strain = _STRAINS.get(text.upper())
    if strain is None:
        raise ValueError(f"{text!r} is not a strain; use C, D, H, S or NT")
    return strain


def _vulnerability(text: str) -> Vulnerability:
    found = _VULNERABILITY.get(text.upper())
    if found is None:
        raise ValueError(f"{text!r} is not a vulnerability; use None, NS, EW or All")
    return found


def _bid(text: str) -> Bid:
    match = _BID.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a bid; write it like 1NT, 2S or 3N")
    return Bid.of(int(match.group(1)), _strain(match.group(2)))


def _contract(text: str) -> Contract:
    if text.upper() in _PASS_WORDS:
        return PASSED_OUT
    match = _CONTRACT.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a contract; write it like 4S, 3NT, 5DX or Pass")
    doubling = {"": Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "*": Doubling.DOUBLED}.get(
        (match.group(3) or "").upper(), Doubling.REDOUBLED
    )
    return Contract(int(match.group(1)), _strain(match.group(2)), doubling)


def _shape(text: str) -> ShapePattern:
    exact = _SHAPE_EXACT.fullmatch(text)
    if exact is not None:
        lengths = tuple(None if part.lower() == "x" else int(part) for part in exact.groups())
        known = sum(length for length in lengths if length is not None)
        if known > CARDS_PER_HAND or (None not in lengths and known != CARDS_PER_HAND):
            raise ValueError(f"the suit lengths of {text!r} do not add up to 13")
        return ShapePattern((lengths[0], lengths[1], lengths[2], lengths[3]), any_order=False)
    if _SHAPE_SORTED.fullmatch(text):
        ordered = sorted((int(digit) for digit in text), reverse=True)
        if sum(ordered) != CARDS_PER_HAND:
            raise ValueError(f"the suit lengths of {text!r} do not add up to 13")
        return ShapePattern((ordered[0], ordered[1], ordered[2], ordered[3]), any_order=True)
    raise ValueError(
        f"{text!r} is not a shape; write S-H-D-C lengths like 5-4-2-2 (x for any) "
        "or a pattern in any order like 5422"
    )


def _calls(text: str) -> tuple[str, ...]:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("an empty sequence of calls")
    return tuple(_call(word) for word in words)


def _call(word: str) -> str:
    action = _CALL_WORDS.get(word.upper())
    if action is not None:
        return str(action)
    match = _BID.fullmatch(word)
    if match is None:
        raise ValueError(f"{word!r} is not a call; use bids like 1NT or 2S, Pass, X or XX")
    return str(Bid.of(int(match.group(1)), _strain(match.group(2))))


_PARSERS: dict[Kind, Callable[[str], object]] = {
    Kind.SEAT: _seat,
    Kind.STRAIN: _strain,
    Kind.VUL: _vulnerability,
    Kind.BID: _bid,
    Kind.CONTRACT: _contract,
    Kind.SHAPE: _shape,
    Kind.CALLS: _calls,
}


def text_of(kind: Kind, value: object) -> str:
    """A value as the text a regular expression is matched against."""
    if value is None:
        return ""
    if kind is Kind.SEAT and isinstance(value, Seat):
        return value.letter
    if kind is Kind.STRAIN and isinstance(value, Strain):
        return value.letter
    if kind is Kind.SHAPE and isinstance(value, tuple):
        return "-".join(str(length) for length in value)
    if kind is Kind.CALLS and isinstance(value, tuple):
        return " ".join(str(call) for call in value)
    if kind is Kind.BOOL:
        return "true" if value else "false"
    return str(value)
