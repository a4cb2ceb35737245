"""A board as a readable plain-text diagram, the way a newspaper bridge column prints it.

The four hands sit around a compass (North at the top), followed by the auction in columns
W N E S, the contract and result, the play trick by trick in played order, and the notes.
``ascii_only=True`` replaces the suit symbols with ``S H D C`` for terminals that lack them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pbntool.diagnostics import printable
from pbntool.model import (
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Contract,
    Hand,
    Note,
    Play,
    Rank,
    Seat,
    SectionEnd,
    Slot,
    Suit,
    Token,
    Vulnerability,
)
from pbntool.notation import ALERT_NAG, TRICKS_PER_DEAL
from pbntool.rules import auction_outcome, sequence_play, trump_of

__all__ = ["render_board"]

_SUITS_PBN_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SEAT_COLUMNS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
"""Auction table columns, as bridge columns print them."""
_CALL_SUFFIXES = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", ALERT_NAG: "*"}
"""NAG 15 on a call is an alert (as LIN's ``!`` is read); it shows as ``*``."""
_CARD_SUFFIXES = {7: "!", 8: "?", 9: "!!", 10: "??", 11: "!?", 12: "?!"}
_SUIT_ESCAPES = re.compile(r"[\\!@]([SHDCshdc])(?![A-Za-z])|[\\!@]([SHDC])")
r"""PBN's ``\S``, and BBO's ``!S``/``!s`` (explanations) and ``@S``/``@s`` (commentary)."""
_GAP = "   "


class _Style:
    """How suits and ranks are spelled: symbols or plain ASCII letters."""

    def __init__(self, ascii_only: bool) -> None:
        self.ascii_only = ascii_only
        self.void = "-" if ascii_only else "—"

    def suit(self, suit: Suit) -> str:
        return suit.letter if self.ascii_only else suit.symbol

    def card(self, card: Card) -> str:
        return self.suit(card.suit) + _rank_text(card.rank)

    def bid(self, bid: Bid) -> str:
        strain = bid.strain.letter if self.ascii_only else bid.strain.symbol
        return f"{bid.level}{strain}"

    def contract(self, contract: Contract) -> str:
        if contract.is_passed_out:
            return "Pass"
        level = "" if contract.level is None else str(contract.level)
        strain = ""
        if contract.strain is not None:
            strain = contract.strain.letter if self.ascii_only else contract.strain.symbol
        return f"{level}{strain}{contract.doubling.suffix}"

    def text(self, text: str) -> str:
        """Commentary text with PBN's ``\\S`` (and BBO's ``!S``) suit escapes as symbols."""
        if self.ascii_only:
            return text
        return _SUIT_ESCAPES.sub(lambda m: Suit.from_letter(m.group(1) or m.group(2)).symbol, text)


def render_board(board: Board, *, file: str | None = None, ascii_only: bool = False) -> str:
    """The board as plain text: header, diagram, auction, contract, play and notes.

    >>> from pbntool.model import Board, Seat, Vulnerability
    >>> board = Board(number=4, dealer=Seat.WEST, vulnerability=Vulnerability.ALL)
    >>> print(render_board(board), end="")
    Board 4   Dealer W   Vul All
    <BLANKLINE>
    Deal not given
    """
    style = _Style(ascii_only)
    parts = [_header(board, file), _diagram(board, style)]
    if board.auction is not None:
        parts.append(_auction_table(board.auction, style))
    contract_line = _contract_line(board, style)
    if contract_line:
        parts.append(contract_line)
    if board.play is not None and board.play.card_count:
        parts.append(_play_lines(board, board.play, style))  # no card known: no play to show
    notes = _notes_block(board, style)
    if notes:
        parts.append(notes)
    return "\n\n".join(parts) + "\n"


# --- header and diagram ----------------------------------------------------------------------


def _header(board: Board, file: str | None) -> str:
    fields = [
        f"Board {board.number if board.number is not None else board.tag('Board') or '?'}",
        f"Dealer {board.dealer.letter if board.dealer is not None else '?'}",
        f"Vul {board.vulnerability.value if board.vulnerability is not None else '?'}",
    ]
    event = _known(board.tag("Event"))
    if event:
        fields.append(event)
    fields.extend(_seating(board))
    if file:
        fields.append(f"({printable(file)})")
    return _GAP.join(fields)


def _seating(board: Board) -> list[str]:
    """Where the board was played: ``Open room``/``Closed room`` (the Room tag, which the LIN
    reader sets from ``qx``) and ``Table 3`` (the Table tag), when the record says."""
    fields = []
    room = _known(board.tag("Room"))
    if room:
        fields.append(
            f"{room.title()} room" if room.lower() in ("open", "closed") else f"Room {room}"
        )
    table = _known(board.tag("Table"))
    if table:
        fields.append(f"Table {table}")
    return fields


def _known(value: str | None) -> str | None:
    """A tag value worth showing: not absent, empty, unknown (``?``) or ``-``."""
    if value is None or value.strip() in ("", "?", "-"):
        return None
    return printable(value.strip())


def _rank_text(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.letter


def _hand_block(board: Board, seat: Seat, style: _Style) -> list[str]:
    """A label line (seat and player), then one line per suit, or ``unknown``."""
    name = _known(board.tag(seat.name_title))
    label = f"{seat.name_title}: {name}" if name else seat.name_title
    hand: Hand | None = None if board.deal is None else board.deal.hand(seat)
    if hand is None:
        return [label, "unknown"]
    lines = [label]
    for suit in _SUITS_PBN_ORDER:
        ranks = " ".join(_rank_text(card.rank) for card in hand.suit(suit))
        lines.append(f"{style.suit(suit)} {ranks or style.void}")
    return lines


def _diagram(board: Board, style: _Style) -> str:
    """North above, West and East either side of a compass, South below."""
    if board.deal is None:
        return "Deal not given"
    north, east, south, west = (_hand_block(board, seat, style) for seat in Seat)
    middle_height = max(len(west), len(east), 5)
    compass = ["", "    N", "  W   E", "    S", ""]
    compass += [""] * (middle_height - len(compass))
    left = max(len(line) for line in west) + len(_GAP)
    centre = max(len(line) for line in north + south + compass) + len(_GAP)
    indent = " " * left
    lines = [indent + line for line in north]
    for row in range(middle_height):
        cells = (_row(west, row).ljust(left), _row(compass, row).ljust(centre), _row(east, row))
        lines.append("".join(cells))
    lines.extend(indent + line for line in south)
    return "\n".join(line.rstrip() for line in lines)


def _row(block: Sequence[str], index: int) -> str:
    return block[index] if index < len(block) else ""


# --- auction ---------------------------------------------------------------------------------


def _call_cell(call: Call | Token, annotation: Annotation | None, style: _Style) -> str:
    text = style.bid(call) if isinstance(call, Bid) else str(call)
    return _annotated(text, annotation, _CALL_SUFFIXES)


def _annotated(text: str, annotation: Annotation | None, suffixes: dict[int, str]) -> str:
    """A call or card with its irregularity, suffix (from the NAG) and note number."""
    if annotation is None:
        return text
    if annotation.irregularity:
        text = f"^{annotation.irregularity} {text}"
    text += "".join(suffixes[nag] for nag in annotation.nags if nag in suffixes)
    if annotation.note is not None:
        text += f"({annotation.note})"
    return text


def _auction_table(auction: Auction, style: _Style) -> str:
    """Columns W N E S, with blank cells before the dealer's first call."""
    annotations = dict(auction.annotations)
    cells = [""] * _SEAT_COLUMNS.index(auction.first)
    cells += [
        _call_cell(call, annotations.get(index), style) for index, call in enumerate(auction.calls)
    ]
    headers = [seat.name_title for seat in _SEAT_COLUMNS]
    width = max(len(cell) for cell in headers + cells) + 2
    rows = [headers] + [cells[start : start + 4] for start in range(0, len(cells), 4)]
    table = "\n".join("".join(cell.ljust(width) for cell in row).rstrip() for row in rows)
    if any(ALERT_NAG in annotation.nags for annotation in annotations.values()):
        table += "\n* alerted"
    return table


# --- contract and result ---------------------------------------------------------------------


def _contract_and_declarer(board: Board) -> tuple[Contract | None, Seat | None]:
    """The stated contract and declarer; the auction's when none is stated."""
    contract, declarer = board.contract, board.declarer
    if contract is None and board.auction is not None:
        outcome = auction_outcome(board.auction)
        if outcome.complete:
            contract = outcome.contract
            declarer = outcome.declarer if declarer is None else declarer
    return contract, declarer


def _contract_line(board: Board, style: _Style) -> str | None:
    """E.g. ``4♠X by S, made 11 (+990 NS)`` or ``Passed out``."""
    contract, declarer = _contract_and_declarer(board)
    if contract is None:
        return None
    if contract.is_passed_out:
        return "Passed out"
    by = "?" if declarer is None else declarer.letter
    if board.declarer_irregular:
        by += " (declarer and dummy swapped)"
    text = f"{style.contract(contract)} by {by}"
    if board.result is None:
        return text
    text += ", " + _outcome_text(contract, board.result.tricks)
    if board.result.irregular:
        text += " (agreed)"
    score = _score_text(board, contract, declarer)
    return f"{text} ({score})" if score else text


def _outcome_text(contract: Contract, tricks: int) -> str:
    needed = contract.tricks_needed
    if needed is None:
        return f"{tricks} tricks"
    return f"made {tricks}" if tricks >= needed else f"down {needed - tricks}"


def _score_text(board: Board, contract: Contract, declarer: Seat | None) -> str | None:
    """The score for the side that earned it: computed when possible, else as stated."""
    points = _computed_score_ns(board, contract, declarer)
    if points is not None:
        if points == 0:
            return "0"
        return f"+{points} NS" if points > 0 else f"+{-points} EW"
    stated = board.score
    if stated is None:
        return None
    side = stated.side.letters if stated.side is not None else "declarer"
    return f"{stated.points:+d} {side}"


_ScoreFunction = Callable[[Contract, Seat | None, Vulnerability, int], int]


def _load_score_ns() -> _ScoreFunction | None:
    """``scoring.score_ns`` when available: the display falls back to the stated score."""
    try:
        from pbntool.scoring import score_ns
    except ImportError:  # pragma: no cover - scoring is developed separately
        return None
    return score_ns


_SCORE_NS = _load_score_ns()


def _computed_score_ns(board: Board, contract: Contract, declarer: Seat | None) -> int | None:
    if _SCORE_NS is None or board.vulnerability is None or board.result is None:
        return None
    try:
        return _SCORE_NS(contract, declarer, board.vulnerability, board.result.tricks)
    except ValueError:  # unscorable, e.g. an end-position contract without a level
        return None


# --- play ------------------------------------------------------------------------------------


def _slot_text(slot: Slot, annotation: Annotation | None, style: _Style) -> str:
    if slot is None:
        text = "-"
    elif isinstance(slot, Card):
        text = style.card(slot)
    else:
        text = slot.text
    return _annotated(text, annotation, _CARD_SUFFIXES)


def _play_lines(board: Board, play: Play, style: _Style) -> str:
    """Trick by trick in played order, leader first, the winning card marked ``*``."""
    known, trump = trump_of(_contract_and_declarer(board)[0])
    sequenced = sequence_play(play, trump)
    if not known:
        sequenced = sequenced[:1]  # later leaders depend on the trump suit
    annotations = dict(play.annotations)
    rows: list[tuple[list[str], str]] = []
    for trick in sequenced:
        cells = [
            _card_cell(seat, slot, annotations.get((trick.number, seat)), style)
            + ("*" if seat == trick.winner else "")
            for seat, slot in trick.cards
        ]
        rows.append((cells, ""))
    columns = [play.first.next(step) for step in range(4)]
    for number in range(len(sequenced), len(play.tricks)):
        slots = play.tricks[number]
        cells = [_card_cell(s, slots[s], annotations.get((number, s)), style) for s in columns]
        rows.append((cells, "(order unknown)"))
    width = max((len(cell) for cells, _ in rows for cell in cells), default=0) + 2
    lines = ["Play (* wins the trick):"]
    for number, (cells, remark) in enumerate(rows, start=1):
        lines.append(
            f"{number:>2}. {''.join(cell.ljust(width) for cell in cells)}{remark}".rstrip()
        )
    if play.end is SectionEnd.STOP and len(play.tricks) < TRICKS_PER_DEAL:
        tricks = len(play.tricks)
        lines.append(f"Play ends after {tricks} trick{'' if tricks == 1 else 's'} (claim)")
    return "\n".join(lines)


def _card_cell(seat: Seat, slot: Slot, annotation: Annotation | None, style: _Style) -> str:
    return f"{seat.letter} {_slot_text(slot, annotation, style)}"


# --- notes -----------------------------------------------------------------------------------


def _note_lines(title: str, notes: Sequence[Note], style: _Style) -> list[str]:
    if not notes:
        return []
    lines = [title]
    for note in sorted(notes, key=lambda note: note.index):
        # A space after the colon is common in the wild; it is not part of the text.
        lines.append(f"  ({note.index}) {style.text(note.text.strip())}")
    return lines


def _notes_block(board: Board, style: _Style) -> str:
    lines = _note_lines("Auction notes:", board.auction.notes if board.auction else (), style)
    lines += _note_lines("Play notes:", board.play.notes if board.play else (), style)
    return "\n".join(lines)
