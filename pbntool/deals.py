"""Deal identity: whether a deal is complete, and a canonical key that names it.

Two records hold the same deal when every one of the 52 cards is in the same seat.  The key
spells that: one seat letter per card, spades ace first, clubs two last (``NNES…``), so it
reads the same whatever file format, hand order or suit order the deal was written in.  A
deal rotated by seats (North's hand given to East, and so on round the table) is the same
deal for ``--rotations``: its canonical key is the least of the four rotations' keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbntool.model import Deal, Rank, Seat, Suit
from pbntool.notation import CARDS_PER_DEAL, CARDS_PER_HAND

__all__ = ["DealKey", "deal_key", "full_deal_problem", "hand_masks", "is_full_deal"]

_CARD_BITS = tuple(suit * 16 + rank for suit in reversed(Suit) for rank in reversed(Rank))
"""Bit positions of the 52 cards in key order: SA SK … S2 HA … C2."""


def hand_masks(deal: Deal) -> tuple[int, int, int, int] | None:
    """The card masks of the four hands (N, E, S, W) of a full deal, else None."""
    if not is_full_deal(deal):
        return None
    north, east, south, west = (hand.mask for hand in deal.hands if hand is not None)
    return north, east, south, west


def is_full_deal(deal: Deal) -> bool:
    """Four hands of 13 cards, no card twice: a deal that can be played (or solved)."""
    union = 0
    for hand in deal.hands:
        if hand is None or len(hand) != CARDS_PER_HAND:
            return False
        union |= hand.mask
    return union.bit_count() == CARDS_PER_DEAL


def full_deal_problem(deal: Deal | None) -> str | None:
    """Why a deal is not a full deal (None when it is one)."""
    if deal is None:
        return "it has no deal"
    unknown = [seat.name_title for seat, hand in zip(Seat, deal.hands, strict=True) if hand is None]
    if unknown:
        return f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not known"
    short = [
        f"{seat.name_title} has {len(hand)} cards"
        for seat, hand in zip(Seat, deal.hands, strict=True)
        if hand is not None and len(hand) != CARDS_PER_HAND
    ]
    if short:
        return ", ".join(short)
    if not is_full_deal(deal):
        return "a card is in two hands"
    return None


@dataclass(frozen=True, slots=True)
class DealKey:
    """A deal's canonical key and the rotation that produced it.

    ``rotation`` is the number of seats clockwise the record's hands were moved to reach the
    canonical key (0 when rotations are not considered or the record is the canonical one).
    """

    text: str
    rotation: int = 0


def deal_key(masks: tuple[int, int, int, int], rotations: bool = False) -> DealKey:
    """The key of a full deal's hands; with ``rotations``, the least key of the four
    rotations, so a deal and its rotated copies share it."""
    text = _key_text(masks)
    if not rotations:
        return DealKey(text)
    best, steps = min((text.translate(_ROTATE[steps]), steps) for steps in range(4))
    return DealKey(best, steps)


_ROTATE = tuple(
    str.maketrans("NESW", "".join(seat.next(steps).letter for seat in Seat)) for steps in range(4)
)
"""Letter translations moving every hand ``steps`` seats clockwise."""
_KEY_POSITION = {bit: position for position, bit in enumerate(_CARD_BITS)}


def _key_text(masks: tuple[int, int, int, int]) -> str:
    letters = bytearray(CARDS_PER_DEAL)
    for letter, mask in zip(b"NESW", masks, strict=True):
        while mask:
            lowest = mask & -mask
            letters[_KEY_POSITION[lowest.bit_length() - 1]] = letter
            mask ^= lowest
    return letters.decode("ascii")
