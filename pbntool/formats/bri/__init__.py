"""BRI, the dealing-machine file of 128 bytes per board (``docs/conversions.md``).

Bytes 1-78 give North, East and South as 13 two-digit card numbers each (``01``-``52``,
SA..C2); West holds the 13 cards not listed.  The rest is filler (Big Deal: 32 spaces, 18
NUL bytes).  No board number is stored: record *k* is board *k*.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from pbntool.diagnostics import CLB002, Diagnostic
from pbntool.formats.dealing import (
    ByteLocator,
    board_record,
    deal_from_seats,
    deal_seats,
    dealt_board,
    machine_losses,
    read_records,
    record_score,
    unwritable,
)
from pbntool.model import Board, Seat
from pbntool.notation import CARDS_PER_DEAL, CARDS_PER_HAND
from pbntool.records import Record

__all__ = ["BriWriter", "decode_digits", "encode_digits", "iter_records", "sniff"]

RECORD = 128
DIGITS = 78
FILLER = b" " * 32 + b"\0" * 18


def decode_digits(part: bytes) -> list[Seat] | str:
    """The seat of each card from the 78 digits of North, East and South, or why they are not
    a deal."""
    seats: list[Seat | None] = [None] * CARDS_PER_DEAL
    for position in range(39):
        pair = part[2 * position : 2 * position + 2]
        if len(pair) != 2 or not pair.isdigit() or not 1 <= int(pair) <= CARDS_PER_DEAL:
            return f"byte {2 * position + 1}: {pair!r} is not a card number 01-52"
        number = int(pair)
        if seats[number - 1] is not None:
            return f"card number {number:02d} is given twice"
        seats[number - 1] = Seat(position // CARDS_PER_HAND)
    return [Seat.WEST if seat is None else seat for seat in seats]


def encode_digits(seats: list[Seat]) -> bytes:
    """North, East and South as 39 two-digit card numbers, ascending within each hand."""
    text = "".join(
        f"{number:02d}"
        for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH)
        for number in range(1, 53)
        if seats[number - 1] is seat
    )
    return text.encode("ascii")


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """One board per 128-byte record, numbered 1, 2, ..."""
    for index, item in enumerate(read_records(stream, RECORD, "BRI", name), start=1):
        if isinstance(item, Record):
            yield item
            continue
        offset, data = item
        seats = decode_digits(data[:DIGITS])
        locator = ByteLocator(offset)
        if isinstance(seats, str):
            found = CLB002.at(("offset", offset), format="BRI", index=index, detail=seats)
            yield board_record(None, [found], name, 1, locator, index)
            continue
        yield board_record(dealt_board(index, deal_from_seats(seats)), [], name, 1, locator)


def sniff(head: bytes, name: str) -> int:
    """A whole number of 128-byte records whose first holds 39 distinct card numbers then a
    space (the suffix ``.bri`` only adds to that)."""
    if len(head) < RECORD:
        return 0
    if head[DIGITS] != 0x20 or isinstance(decode_digits(head[:DIGITS]), str):
        return 0
    return record_score(head, RECORD, name, ".bri")


class BriWriter:
    """Writes 128-byte BRI records to a binary stream."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._count = 0

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        problem = unwritable(board, "BRI")
        if problem is not None:
            return [problem]
        assert board.deal is not None
        self._count += 1
        self._stream.write(encode_digits(deal_seats(board.deal)) + FILLER)
        return machine_losses(board, "BRI", position=self._count)

    def close(self) -> None:
        """BRI has no ending."""
