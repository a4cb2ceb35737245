"""DLM, the Duplimate / Dealer4 "new" dealing file: INI-style text (``docs/conversions.md``).

A ``[Document]`` section holds a header (``Status``, ``Duplicates``, ``From board``, ``To
board``, ``Checksum`` ...) and 99 ``Board NN=`` lines of 26 letters ``a``-``p`` and a 3-digit
checksum.  Letter *i* covers cards 2*i* and 2*i*+1 (SA..C2): ``4 * seat + seat`` with N=0,
E=1, S=2, W=3.  A board's checksum is ``NN XOR`` the codes of its letters; the header's is
``Duplicates XOR From XOR To``, ``XOR 1`` when ``Status=Show``.  Only boards From..To are
deals; the other lines are filler.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

from pbntool.diagnostics import CLB003, CLB004, CLB005, CLB006, CLB008, OUT021, Diagnostic
from pbntool.formats.dealing import (
    MAX_INPUT_BYTES,
    LineLocator,
    board_record,
    deal_from_seats,
    deal_seats,
    dealt_board,
    machine_losses,
    short_hand,
    unwritable,
)
from pbntool.formats.sniffing import STRUCTURE, name_suffix
from pbntool.model import Board, Seat, Tag
from pbntool.records import Record

__all__ = [
    "DlmWriter",
    "board_checksum",
    "decode_letters",
    "encode_letters",
    "header_checksum",
    "iter_records",
    "sniff",
]

_RecordMaker = Callable[..., Record]

HIGHEST = 99
FILLER = "aaaaaabffffffkkkkkklpppppp"
"""Big Deal's line for a board outside From..To: N spades, E hearts, S diamonds, W clubs."""
_BOARD_VALUE = re.compile(r"([a-p]{26})([0-9]{3})")
_BOARD_KEY = re.compile(r"board\s*([0-9]{1,2})", re.I)


def encode_letters(seats: list[Seat]) -> str:
    """The 26 letters of a deal given as the seat of each card."""
    return "".join(chr(ord("a") + 4 * seats[2 * i] + seats[2 * i + 1]) for i in range(26))


def decode_letters(letters: str) -> list[Seat]:
    """The seat of each card from 26 letters ``a``-``p``."""
    seats = []
    for letter in letters:
        value = ord(letter) - ord("a")
        seats += [Seat(value // 4), Seat(value % 4)]
    return seats


def board_checksum(number: int, letters: str) -> int:
    """``number XOR`` the character codes of the letters.

    >>> board_checksum(1, "eceddjjfopngmofboicdcjclpb")
    1
    """
    total = number
    for letter in letters:
        total ^= ord(letter)
    return total


def header_checksum(duplicates: int, first: int, last: int, show: bool) -> int:
    """``Duplicates XOR From board XOR To board``, ``XOR 1`` with ``Status=Show``.

    >>> header_checksum(0, 1, 4, True), header_checksum(1, 1, 24, True)
    (4, 25)
    """
    return duplicates ^ first ^ last ^ (1 if show else 0)


@dataclass
class _Document:
    """The ``[Document]`` section as read: its values by lower-case key, with line numbers."""

    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    boards: dict[int, tuple[str, int]] = field(default_factory=dict)
    start: int = 0
    """The line of ``[Document]`` (0: none)."""


def _lines(stream: BinaryIO) -> tuple[list[str], list[int], bool]:
    data = stream.read(MAX_INPUT_BYTES + 1)
    cut = len(data) > MAX_INPUT_BYTES
    text = data[:MAX_INPUT_BYTES].decode("latin-1")
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return [line.rstrip("\r") for line in lines], starts, cut


def _read_document(lines: list[str]) -> _Document:
    document = _Document()
    section: str | None = None
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith(";"):
            continue
        if text.startswith("[") and text.endswith("]"):
            section = text[1:-1].strip().lower()
            if section == "document" and not document.start:
                document.start = number
            continue
        if section != "document" or "=" not in text:
            continue
        key, _, value = text.partition("=")
        key = " ".join(key.split()).lower()
        board = _BOARD_KEY.fullmatch(key)
        if board is not None:
            document.boards.setdefault(int(board.group(1)), (value.strip(), number))
        else:
            document.values.setdefault(key, (value.strip(), number))
    return document


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The boards From board..To board of a DLM file, each at its ``Board NN=`` line."""
    lines, starts, cut = _lines(stream)

    def record(
        board: Board | None, found: list[Diagnostic], line: int, number: int | None = None
    ) -> Record:
        return board_record(board, found, name, line, LineLocator(starts, line), number)

    document = _read_document(lines)
    if not document.start:
        yield record(None, [CLB005.at(detail="no [Document] section")], 1)
        return
    first = _number(document, "from board")
    last = _number(document, "to board")
    if first is None or last is None or first > last:
        line = document.values.get("from board", ("", document.start))[1]
        detail = "From board and To board must be numbers 1 to 99, From not above To"
        yield record(None, [CLB005.at(detail=detail)], line)
        return
    yield from _check_header(document, first, last, record)
    for number in range(first, last + 1):
        yield _board(document, number, record)
    if cut:
        found = CLB008.at(("offset", MAX_INPUT_BYTES), format="DLM", limit=MAX_INPUT_BYTES)
        yield record(None, [found], len(lines))


def _number(document: _Document, key: str) -> int | None:
    value = document.values.get(key, ("", 0))[0]
    return int(value) if value.isdigit() and 1 <= int(value) <= HIGHEST else None


def _check_header(
    document: _Document, first: int, last: int, record: _RecordMaker
) -> Iterator[Record]:
    stated, line = document.values.get("checksum", ("", 0))
    duplicates = document.values.get("duplicates", ("0", 0))[0]
    status = document.values.get("status", ("", 0))[0]
    if not stated.isdigit() or not duplicates.isdigit():
        return
    computed = header_checksum(int(duplicates), first, last, status.lower() == "show")
    if int(stated) != computed:
        yield record(None, [CLB004.at(("line", line), stated=stated, computed=computed)], line)


def _board(document: _Document, number: int, record: _RecordMaker) -> Record:
    if number not in document.boards:
        detail = f"board {number} is in From board..To board but has no Board {number:02d}= line"
        return record(None, [CLB005.at(detail=detail)], document.start, number)
    value, line = document.boards[number]
    found = _BOARD_VALUE.fullmatch(value)
    if found is None:
        detail = f"Board {number:02d}={value[:40]} is not 26 letters a-p and 3 digits"
        return record(None, [CLB005.at(("line", line), detail=detail)], line, number)
    letters, stated = found.group(1), found.group(2)
    deal = deal_from_seats(decode_letters(letters))
    short = short_hand(deal)
    if short is not None:
        seat, count = short
        problem = CLB006.at(
            ("line", line), format="DLM", board=number, seat=seat.name_title, count=count
        )
        return record(None, [problem], line, number)
    diagnostics = []
    computed = board_checksum(number, letters)
    if int(stated) != computed:
        found_sum = CLB003.at(
            ("line", line), board=number, stated=stated, computed=f"{computed:03d}"
        )
        diagnostics.append(found_sum)
    return record(_with_event(dealt_board(number, deal), document), diagnostics, line)


def _with_event(board: Board, document: _Document) -> Board:
    """The headline is the event's name (as the writer puts it there), unless it only names
    the program that made the file ("Generated by Big Deal version 2.0")."""
    headline = " ".join(document.values.get("headline", ("", 0))[0].split())
    if headline in _UNKNOWN or headline.startswith("Generated by "):
        return board
    return dataclasses.replace(board, tags=(Tag("Event", headline), *board.tags))


def sniff(head: bytes, name: str) -> int:
    """Text whose first non-empty line is ``[Document]`` (any case), with ``Board 01=`` and
    ``Checksum=`` lines."""
    text = head.decode("latin-1").lstrip("\ufeff\r\n\t ")
    if text[:10].lower() != "[document]":
        return 0
    lower = text.lower()
    if "\nboard 01=" not in lower or "\nchecksum=" not in lower:
        return 0
    return STRUCTURE + (5 if name_suffix(name) == ".dlm" else 0)


class DlmWriter:
    """Writes one DLM file (as Big Deal 2.0 does) at ``close``: a DLM names its board range
    and checksum in the header, so every board is needed first."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._boards: dict[int, list[Seat]] = {}
        self._headline: str | None = None

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        problem = unwritable(board, "DLM", highest=HIGHEST)
        if problem is not None:
            return [problem]
        assert board.deal is not None and board.number is not None
        if board.number in self._boards:
            reason = f"board {board.number} was written already"
            return [OUT021.at(("tag", "Board"), format="DLM", reason=reason)]
        kept: frozenset[str] = frozenset()
        if self._headline is None:
            self._headline, used = _headline(board)
            kept = frozenset({used}) if used else kept
        self._boards[board.number] = deal_seats(board.deal)
        return machine_losses(board, "DLM", kept=kept)

    def close(self) -> None:
        if not self._boards:
            return
        first, last = min(self._boards), max(self._boards)
        lines = [
            "[Document]",
            f"Headline={self._headline or ''}",
            "Status=Show",
            "Duplicates=0",
            f"From board={first}",
            f"To board={last}",
            "Next board to duplimate=0",
            "PrintOuts=0",
            "Crypto key=0",
            f"Checksum={header_checksum(0, first, last, True)}",
        ]
        for number in range(1, HIGHEST + 1):
            seats = self._boards.get(number)
            letters = FILLER if seats is None else encode_letters(seats)
            lines.append(f"Duplicates {number:02d}=0")
            lines.append(f"Board {number:02d}={letters}{board_checksum(number, letters):03d}")
        self._stream.write("\n".join(lines) + "\n")
        self._boards = {}


_UNKNOWN = frozenset({"", "?", "-", "#"})


def _headline(board: Board) -> tuple[str, str | None]:
    """The headline and the tag it came from: the event, else "Generated by" the board's
    generator (as Big Deal writes it), else pbntool."""
    for tag, prefix in (("Event", ""), ("Generator", "Generated by ")):
        value = " ".join((board.tag(tag) or "").split())
        if value not in _UNKNOWN:
            return prefix + value, tag
    return "Generated by pbntool", None
