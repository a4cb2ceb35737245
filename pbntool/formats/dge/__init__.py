"""DGE, the dealing-machine file of 128 bytes per board (``docs/conversions.md``).

Bytes 1-68 hold North, East, South and West, 17 bytes each: for each suit S, H, D, C its
mark (the CP437 glyphs 0x06, 0x03, 0x04, 0x05) and then its ranks ``AKQJT98765432``, high to
low.  Bytes 69-128 are NUL.  No board number is stored: record *k* is board *k*.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from pbntool.diagnostics import CLB002, CLB006, Diagnostic
from pbntool.formats.dealing import (
    ByteLocator,
    board_record,
    dealt_board,
    machine_losses,
    read_records,
    record_score,
    short_hand,
    unwritable,
)
from pbntool.model import Board, Card, Deal, Hand, Rank, Suit
from pbntool.notation import CARDS_PER_DEAL
from pbntool.records import Record

__all__ = ["DgeWriter", "decode_hands", "encode_hands", "iter_records", "sniff"]

RECORD = 128
HANDS = 68
SUIT_MARKS = {0x06: Suit.SPADES, 0x03: Suit.HEARTS, 0x04: Suit.DIAMONDS, 0x05: Suit.CLUBS}
_MARK_OF = {suit: mark for mark, suit in SUIT_MARKS.items()}
_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_BYTES = frozenset(b"AKQJT98765432")


def decode_hands(part: bytes) -> Deal | str:
    """The four hands of a DGE part (68 bytes, trailing filler ignored), or why they are
    not hands.  Hands are split at each spade mark, so a hand of the wrong size is seen."""
    hands: list[list[Card]] = []
    suit: Suit | None = None
    seen = 0
    for position, byte in enumerate(part):
        if byte in SUIT_MARKS:
            suit = SUIT_MARKS[byte]
            if suit is Suit.SPADES:
                hands.append([])
            continue
        if byte in (0, 0x20) and len(hands) == 4:
            break  # the filler after West
        if byte not in _RANK_BYTES or suit is None or not hands:
            return f"byte {position + 1}: 0x{byte:02X} is neither a suit mark nor a rank"
        card = Card.of(suit, Rank.from_letter(chr(byte)))
        if seen & card.bit:
            return f"{card} is given twice"
        seen |= card.bit
        hands[-1].append(card)
    if len(hands) != 4:
        return f"{len(hands)} hands found; 4 expected"
    north, east, south, west = (Hand(cards) for cards in hands)
    return Deal((north, east, south, west))


def encode_hands(deal: Deal) -> bytes:
    """North, East, South and West, each suit's mark then its ranks high to low."""
    out = bytearray()
    for hand in deal.hands:
        assert hand is not None
        for suit in _ORDER:
            out.append(_MARK_OF[suit])
            out.extend(ord(card.rank.letter) for card in hand.suit(suit))
    return bytes(out)


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """One board per 128-byte record, numbered 1, 2, ..."""
    for index, item in enumerate(read_records(stream, RECORD, "DGE", name), start=1):
        if isinstance(item, Record):
            yield item
            continue
        offset, data = item
        locator = ByteLocator(offset)
        deal = decode_hands(data)
        if isinstance(deal, str):
            found = CLB002.at(("offset", offset), format="DGE", index=index, detail=deal)
            yield board_record(None, [found], name, 1, locator, index)
            continue
        short = short_hand(deal)
        if short is not None:
            seat, count = short
            found = CLB006.at(
                ("offset", offset), format="DGE", board=index, seat=seat.name_title, count=count
            )
            yield board_record(None, [found], name, 1, locator, index)
            continue
        yield board_record(dealt_board(index, deal), [], name, 1, locator)


def sniff(head: bytes, name: str) -> int:
    """A whole number of 128-byte records whose first is four hands of suit marks and 52
    ranks followed by NUL bytes."""
    if len(head) < RECORD:
        return 0
    if head[0] != 0x06 or any(head[HANDS:RECORD]):
        return 0
    part = head[:HANDS]
    if sum(1 for byte in part if byte in _RANK_BYTES) != CARDS_PER_DEAL:
        return 0
    if not all(byte in SUIT_MARKS or byte in _RANK_BYTES for byte in part):
        return 0
    return record_score(head, RECORD, name, ".dge")


class DgeWriter:
    """Writes 128-byte DGE records to a binary stream."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._count = 0

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        problem = unwritable(board, "DGE")
        if problem is not None:
            return [problem]
        assert board.deal is not None
        self._count += 1
        self._stream.write(encode_hands(board.deal).ljust(RECORD, b"\0"))
        return machine_losses(board, "DGE", position=self._count)

    def close(self) -> None:
        """DGE has no ending."""
