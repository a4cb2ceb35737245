"""The deal: no card dealt twice, consistent hand sizes, and the hands as card masks.

Hot loops work on ints: a set of cards is a bit mask with bit ``suit * 16 + rank``, so a
suit's cards are one 16-bit field and "does this player still hold the suit led?" is a
mask test.  ``_hand_masks`` turns a deal into one mask per seat; ``check_board`` computes
them once and shares them between the deal and play checks.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbntool.diagnostics import HND001, HND002, HND003, Diagnostic
from pbntool.model import Card, Deal, Rank, Suit
from pbntool.notation import CARDS_PER_HAND
from pbntool.rules._common import _SEATS

__all__ = ["check_deal"]

_SUIT_MASKS = tuple(0xFFFF << (suit * 16) for suit in Suit)
"""Each suit's 16-bit field of a card mask."""
_CARD_AT_BIT = {suit * 16 + rank: Card.of(suit, rank) for suit in Suit for rank in Rank}


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
    return tuple(None if hand is None else hand.mask for hand in deal.hands)


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
    full = len(counts) == 4 and any(count >= CARDS_PER_HAND for _, count in counts)
    for seat, count in counts:
        if count > CARDS_PER_HAND or (full and count != CARDS_PER_HAND):
            yield HND002.at(("deal", seat), seat=seat.name_title, count=count)
    sizes = {count for _, count in counts}
    if not full and len(sizes) > 1 and max(sizes) <= CARDS_PER_HAND:
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
        if size < CARDS_PER_HAND:
            return size
    return None
