"""DUP (Duplimate), the dealing-machine file of 156 bytes per board (``docs/conversions.md``).

Bytes 1-78 are the BRI digits (North, East, South), 79-146 the DGE hands (68 spaces for a
"blind" set), 147-156 the trailer: random hands ``Y``/``N``, count backwards ``Y``/``N``,
the lowest board (3 characters, left-aligned), the copies (2) and the highest board (2
digits and a space).  Boards are numbered from the lowest board on; at most 99.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from pbntool.diagnostics import CLB002, CLB007, Diagnostic
from pbntool.formats.bri import decode_digits, encode_digits
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
from pbntool.formats.dge import decode_hands, encode_hands
from pbntool.model import Board, Deal
from pbntool.records import Record

__all__ = ["DupWriter", "iter_records", "sniff"]

RECORD = 156
DIGITS = 78
HANDS_END = 146
HIGHEST = 99


def _lowest_board(trailer: bytes) -> int | None:
    """The lowest board of a readable trailer, else None."""
    if len(trailer) != 10 or trailer[0:1] not in (b"Y", b"N") or trailer[1:2] not in (b"Y", b"N"):
        return None
    text = trailer[2:5].strip()
    if not text.isdigit() or not 1 <= int(text) <= HIGHEST:
        return None
    return int(text)


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """One board per 156-byte record, numbered from the first record's lowest board."""
    first = 1
    for index, item in enumerate(read_records(stream, RECORD, "DUP", name), start=1):
        if isinstance(item, Record):
            yield item
            continue
        offset, data = item
        locator = ByteLocator(offset)
        found: list[Diagnostic] = []
        trailer = data[HANDS_END:]
        lowest = _lowest_board(trailer)
        if index == 1 and lowest is not None:
            first = lowest
        elif (index == 1 or any(trailer)) and lowest is None:
            detail = f"the trailer {trailer!r} cannot be read; boards are counted from {first}"
            found.append(CLB007.at(("offset", offset + HANDS_END), index=index, detail=detail))
        number = first + index - 1
        seats = decode_digits(data[:DIGITS])
        if isinstance(seats, str):
            found.append(CLB002.at(("offset", offset), format="DUP", index=index, detail=seats))
            yield board_record(None, found, name, 1, locator, number)
            continue
        deal = deal_from_seats(seats)
        shown = data[DIGITS:HANDS_END]
        if shown.strip(b" \0"):  # a blind set has no hands here
            found.extend(_compare_hands(shown, deal, index, offset))
        yield board_record(dealt_board(number, deal), found, name, 1, locator)


def _compare_hands(shown: bytes, deal: Deal, index: int, offset: int) -> list[Diagnostic]:
    hands = decode_hands(shown)
    if hands != deal:
        why = hands if isinstance(hands, str) else "another deal"
        detail = f"the hands shown on the machine ({why}) are not the deal of the digits"
        return [CLB007.at(("offset", offset + DIGITS), index=index, detail=detail)]
    return []


def sniff(head: bytes, name: str) -> int:
    """A whole number of 156-byte records; the first starts with 39 distinct card numbers,
    then the spade mark (or a space in a blind set), and its trailer starts ``Y``/``N``
    twice.  Scores above BRI, whose check a DUP record also passes."""
    if len(head) < RECORD:
        return 0
    if head[DIGITS] not in (0x06, 0x20) or head[146:147] not in (b"Y", b"N"):
        return 0
    if head[147:148] not in (b"Y", b"N") or isinstance(decode_digits(head[:DIGITS]), str):
        return 0
    return record_score(head, RECORD, name, ".dup", 5)


class DupWriter:
    """Writes 156-byte DUP records to a binary stream, as Big Deal 2.0 does: the trailer
    ``YN``, the lowest board, the copies ``0`` and the highest board on every record (so
    records are written at ``close``, when the highest board is known)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._parts: list[bytes] = []
        self._lowest: int | None = None

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        problem = unwritable(board, "DUP")
        if problem is not None:
            return [problem]
        if self._lowest is None:
            number = board.number
            self._lowest = number if number is not None and 1 <= number <= HIGHEST else 1
        position = self._lowest + len(self._parts)
        if position > HIGHEST:
            from pbntool.diagnostics import OUT021

            reason = f"it would be board {position}; a set holds boards up to {HIGHEST}"
            return [OUT021.at(("tag", "Board"), format="DUP", reason=reason)]
        assert board.deal is not None
        self._parts.append(encode_digits(deal_seats(board.deal)) + encode_hands(board.deal))
        return machine_losses(board, "DUP", position=position)

    def close(self) -> None:
        if not self._parts:
            return
        lowest = self._lowest or 1
        highest = lowest + len(self._parts) - 1
        trailer = f"YN{lowest:<3d}0 {highest:02d} ".encode("ascii")
        for part in self._parts:
            self._stream.write(part + trailer)
        self._parts = []
