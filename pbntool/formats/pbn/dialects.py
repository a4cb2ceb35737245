"""Reading dialects: opt-in readings of files that follow a program's own habits.

``pavlicek``: Richard Pavlicek's championship files (rpbridge.net; PBN deviation 14 of the
catalogue in docs/pbn-standard.md) leave out what a reader can supply:

* an auction that starts with the first player to bid omits the dealer's opening passes:
  ``[Dealer "W"]`` with ``[Auction "N"] 1NT ...`` means West passed.  The auction is
  re-anchored at the dealer with those passes put back (and PBN123 dropped);
* the second table of a board omits the deal: it inherits the deal (and a missing dealer or
  vulnerability) of the last game of the file with the same Event and Board number.

Applied to the records after reading, so the reader itself is unchanged and nothing changes
without the option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator

from pbntool.model import Action, Auction, Board, Deal, Seat, Vulnerability
from pbntool.records import Record

__all__ = ["DIALECTS", "Reading", "apply_dialect", "pavlicek", "reading"]

DIALECTS = ("pavlicek",)


Reading = Callable[[Record], Record]
"""One input's records, one at a time, read in a dialect (it keeps what earlier records
said: a reading serves one input, from its first record)."""


def reading(dialect: str) -> Reading:
    """A fresh reading of one input in ``dialect``."""
    if dialect == "pavlicek":
        return _Pavlicek()
    raise ValueError(f"unknown dialect {dialect!r}")


def apply_dialect(records: Iterable[Record], dialect: str | None) -> Iterable[Record]:
    """The records read in ``dialect`` (None: as they are); one reading per input file."""
    if dialect is None:
        return records
    reading(dialect)  # an unknown dialect fails here, before any record is read
    return _per_file(records, dialect)


def _per_file(records: Iterable[Record], dialect: str) -> Iterator[Record]:
    current: tuple[str, Reading] | None = None
    for record in records:
        if current is None or current[0] != record.file:
            current = (record.file, reading(dialect))
        yield current[1](record)


def pavlicek(records: Iterable[Record]) -> Iterator[Record]:
    """Pavlicek's reading: opening passes put back, deals inherited by later tables."""
    read = _Pavlicek()
    return (read(record) for record in records)


class _Pavlicek:
    """Pavlicek's reading of one input."""

    def __init__(self) -> None:
        self._deals: dict[
            tuple[str, str | None, int], tuple[Deal, Seat | None, Vulnerability | None]
        ] = {}

    def __call__(self, record: Record) -> Record:
        board = record.board
        if board is None:
            return record
        deals = self._deals
        diagnostics = record.diagnostics
        key = (record.file, board.tag("Event"), board.number) if board.number else None
        if board.deal is None and key is not None and key in deals:
            deal, dealer, vulnerability = deals[key]
            board = dataclasses.replace(
                board,
                deal=deal,
                dealer=dealer if board.dealer is None else board.dealer,  # NORTH is falsy
                vulnerability=board.vulnerability or vulnerability,
            )
        elif board.deal is not None and key is not None:
            deals[key] = (board.deal, board.dealer, board.vulnerability)
        anchored = _anchored(board)
        if anchored is not board:
            board = anchored
            diagnostics = tuple(d for d in diagnostics if d.code != "PBN123")
        if board is not record.board:
            record = dataclasses.replace(record, board=board, diagnostics=diagnostics)
        return record


def _anchored(board: Board) -> Board:
    """The auction started at the dealer, the omitted opening passes put back."""
    auction, dealer = board.auction, board.dealer
    if auction is None or dealer is None or auction.first is dealer:
        return board
    omitted = (int(auction.first) - int(dealer)) % 4
    shifted = tuple((index + omitted, note) for index, note in auction.annotations)
    return dataclasses.replace(
        board,
        auction=Auction(
            dealer,
            (Action.PASS,) * omitted + auction.calls,
            auction.end,
            shifted,
            auction.notes,
            auction.comments,
        ),
    )
