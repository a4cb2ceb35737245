"""What the dealing-machine files (DUP, DLM, BRI, DGE) share: the card numbering, the board
cycle, boards built from 52 seats, byte positions, and the losses of a deal-only format.

Cards are numbered 1-52 in the order SA..S2, HA..H2, DA..D2, CA..C2 and seats N, E, S, W
(``docs/conversions.md``).  None of these files stores the dealer or the vulnerability: both
come from the board number (the standard 16-board cycle).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import BinaryIO

from pbntool.deals import is_full_deal
from pbntool.diagnostics import CLB001, CLB008, OUT020, OUT021, OUT022, Diagnostic, Path
from pbntool.model import Board, Card, Comment, CommentKind, Deal, Hand, Rank, Seat, Suit, Tag
from pbntool.notation import CARDS_PER_HAND
from pbntool.records import Record, place
from pbntool.scoring import board_dealer, board_vulnerability

__all__ = [
    "CARDS",
    "ByteLocator",
    "LineLocator",
    "board_record",
    "deal_from_seats",
    "deal_seats",
    "dealt_board",
    "machine_losses",
    "read_records",
    "record_score",
    "short_hand",
    "unwritable",
]

_RANKS_DOWN = tuple(reversed(Rank))
CARDS: tuple[Card, ...] = tuple(
    Card.of(suit, rank)
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    for rank in _RANKS_DOWN
)
"""The 52 cards in machine order: ``CARDS[n - 1]`` is card number ``n``."""

_UNKNOWN = frozenset({"", "?", "-", "#"})
_CARRIED = frozenset({"Board", "Dealer", "Vulnerable", "Deal"})


class ByteLocator:
    """Positions in a binary file: line 1, column = byte offset + 1."""

    def __init__(self, start: int) -> None:
        self.start = start

    def offset(self, path: Path | None) -> int | None:
        if path is not None and len(path) == 2 and path[0] == "offset":
            return int(path[1])
        return self.start

    def position(self, offset: int) -> tuple[int, int]:
        return 1, offset + 1


class LineLocator:
    """Positions in a text file read line by line: ``("offset", n)`` paths are absolute
    character offsets; ``("line", n)`` a whole line; anything else the record's first line."""

    def __init__(self, starts: Sequence[int], first_line: int) -> None:
        self.starts = starts
        """The offset of each line start, line 1 first."""
        self.first_line = first_line

    def offset(self, path: Path | None) -> int | None:
        if path is not None and len(path) == 2 and path[0] == "offset":
            return int(path[1])
        if path is not None and len(path) == 2 and path[0] == "line":
            return self.starts[int(path[1]) - 1]
        return self.starts[self.first_line - 1]

    def position(self, offset: int) -> tuple[int, int]:
        import bisect

        index = bisect.bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1


def deal_from_seats(seats: Sequence[Seat]) -> Deal:
    """The deal in which card number ``n`` is held by ``seats[n - 1]``."""
    masks = [0, 0, 0, 0]
    for card, seat in zip(CARDS, seats, strict=True):
        masks[seat] |= card.bit
    north, east, south, west = (Hand.from_mask(mask) for mask in masks)
    return Deal((north, east, south, west))


def deal_seats(deal: Deal) -> list[Seat]:
    """The seat of each card, in machine order (the deal must be full)."""
    seats = []
    for card in CARDS:
        holder = deal.holder(card)
        assert holder is not None
        seats.append(holder)
    return seats


def dealt_board(number: int, deal: Deal) -> Board:
    """A board as a dealing machine gives it: the number, the deal, and the dealer and
    vulnerability of the 16-board cycle."""
    from pbntool.formats.pbn.writer import format_deal

    dealer = board_dealer(number)
    vulnerability = board_vulnerability(number)
    tags = (
        Tag("Board", str(number)),
        Tag("Dealer", dealer.letter),
        Tag("Vulnerable", str(vulnerability)),
        Tag("Deal", format_deal(deal, Seat.NORTH)),
    )
    return Board(tags=tags, number=number, dealer=dealer, vulnerability=vulnerability, deal=deal)


def board_record(
    board: Board | None,
    found: Iterable[Diagnostic],
    name: str,
    line: int,
    locator: ByteLocator | LineLocator,
    number: int | None = None,
) -> Record:
    """A record with its findings placed (file, line, column, board)."""
    board_number = board.number if board is not None else number
    placed = tuple(place(diagnostic, name, line, locator, board_number) for diagnostic in found)
    return Record(board, placed, name, line, locator)


def unwritable(board: Board, title: str, highest: int | None = None) -> Diagnostic | None:
    """Why a dealing-machine format cannot hold ``board`` at all (OUT021), or None."""
    if board.deal is None or not is_full_deal(board.deal):
        return OUT021.at(("tag", "Deal"), format=title, reason="it has no full deal of 52 cards")
    if highest is not None and (board.number is None or not 1 <= board.number <= highest):
        shown = "no number" if board.number is None else f"number {board.number}"
        reason = f"board {shown}; it holds boards 1 to {highest}"
        return OUT021.at(("tag", "Board"), format=title, reason=reason)
    return None


def _is_commentary(comment: Comment) -> bool:
    """Commentary of the board's own, not the PBN file header a writer regenerates."""
    from pbntool.formats.pbn.writer import is_header_escape

    if comment.kind is CommentKind.ESCAPE and not comment.text.strip():
        return False
    return not is_header_escape(comment)


def machine_losses(
    board: Board, title: str, position: int | None = None, kept: frozenset[str] = frozenset()
) -> list[Diagnostic]:
    """What a deal-only format drops from ``board``: every tag with a value but the deal, the
    board number and ``kept`` (OUT020), tables and commentary, a board number other than
    ``position`` (for formats that number boards by their place, OUT022), and a dealer or
    vulnerability the cycle does not give (OUT022)."""
    found: list[Diagnostic] = []
    carried = _CARRIED | kept
    names = [
        tag.name
        for tag in board.tags
        if tag.name not in carried and not tag.duplicate and tag.value.strip() not in _UNKNOWN
    ]
    names = list(dict.fromkeys(names))
    names += [table.name for table in board.tables if table.name not in names]
    # The auction and the play themselves, whether or not a tag names them (a board from
    # JSON or XML need not have Auction and Play tags): every call and card is lost.
    if board.auction is not None and board.auction.calls and "Auction" not in names:
        names.append("Auction")
    if board.play is not None and board.play.card_count and "Play" not in names:
        names.append("Play")
    if any(_is_commentary(comment) for comment in board.commentary) or any(
        tag.comments for tag in board.tags
    ):
        names.append("commentary")
    if names:
        found.append(OUT020.at(("tag", "Board"), format=title, what=", ".join(names)))
    number = board.number
    if position is not None and number != position:
        shown = "a board with no number" if number is None else f"board {number}"
        detail = f"{shown} is read back as board {position}, its place in the file"
        found.append(OUT022.at(("tag", "Board"), format=title, what="board numbers", detail=detail))
        number = position
    if number is not None and number >= 1:
        dealer, vulnerability = board_dealer(number), board_vulnerability(number)
        if (board.dealer not in (None, dealer)) or (
            board.vulnerability not in (None, vulnerability)
        ):
            stated = (
                f"dealer {board.dealer.letter if board.dealer else '?'}, "
                f"{board.vulnerability or '?'} vulnerable"
            )
            detail = (
                f"{stated} read back as dealer {dealer.letter}, {vulnerability} vulnerable "
                f"(board {number} of the cycle)"
            )
            found.append(
                OUT022.at(
                    ("tag", "Dealer"), format=title, what="dealer or vulnerability", detail=detail
                )
            )
    return found


MAX_INPUT_BYTES = 64 << 20
"""The most of a dealing-machine or RBN input that is read (CLB008 beyond)."""


def read_records(
    stream: BinaryIO, size: int, title: str, name: str
) -> Iterator[tuple[int, bytes] | Record]:
    """The fixed-size records of a binary file as ``(offset, bytes)``; a truncated last
    record (CLB001) or an input past the bound (CLB008) as a Record of its finding."""
    offset = 0
    index = 1
    while True:
        if offset >= MAX_INPUT_BYTES:
            if stream.read(1):
                found = CLB008.at(("offset", offset), format=title, limit=MAX_INPUT_BYTES)
                yield board_record(None, [found], name, 1, ByteLocator(offset))
            return
        chunk = stream.read(size)
        while chunk and len(chunk) < size:
            more = stream.read(size - len(chunk))
            if not more:
                break
            chunk += more
        if not chunk:
            return
        if len(chunk) < size:
            found = CLB001.at(
                ("offset", offset), format=title, index=index, size=len(chunk), record=size
            )
            yield board_record(None, [found], name, 1, ByteLocator(offset))
            return
        yield offset, chunk
        offset += size
        index += 1


def short_hand(deal: Deal) -> tuple[Seat, int] | None:
    """The first seat whose hand does not hold 13 cards, with its count."""
    for seat, hand in zip(Seat, deal.hands, strict=True):
        count = 0 if hand is None else len(hand)
        if count != CARDS_PER_HAND:
            return seat, count
    return None


def record_score(head: bytes, size: int, name: str, suffix: str, bonus: int = 0) -> int:
    """The score of a head whose first record has the format's structure: ``STRUCTURE`` (plus
    ``bonus``, plus 5 for the suffix) when the head is a whole number of records (or longer
    than detection reads), else 40 if the suffix says so (a cut file), else 0."""
    from pbntool.formats import SNIFF_BYTES
    from pbntool.formats.sniffing import STRUCTURE, name_suffix

    named = name_suffix(name) == suffix
    if len(head) >= SNIFF_BYTES or len(head) % size == 0:
        return STRUCTURE + bonus + (5 if named else 0)
    return STRUCTURE - 20 if named else 0
