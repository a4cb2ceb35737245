"""What a sheet shows of one board, worked out from the record: plain values for the templates.

Nothing here guesses: a hand that is not known is shown blank (``known`` False), a grid of
double-dummy tricks only when the record states one (``DoubleDummyTricks`` or an
``OptimumResultTable``), a lead only when the play has one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbntool.diagnostics import Diagnostic, Severity
from pbntool.model import (
    Action,
    Auction,
    Bid,
    Board,
    Card,
    Comment,
    CommentKind,
    Hand,
    Play,
    Rank,
    Seat,
    Side,
    Strain,
    Suit,
    Table,
    Token,
)
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.rules import is_slot_card, sequence_play
from pbntool.rules.outcome import board_outcome
from pbntool.rules.play import trump_of

__all__ = ["BoardView", "board_view"]

SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
STRAIN_NAMES = {
    **{Strain(int(suit)): name for suit, name in SUIT_NAMES.items()},
    Strain.NOTRUMP: "notrump",
}
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
AUCTION_COLUMNS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
"""The auction's columns, as most printed records have them."""
DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
"""The order of ``DoubleDummyTricks``' digits: declarers N, S, E, W, each NT S H D C."""


@dataclass(frozen=True, slots=True)
class Symbol:
    """A suit symbol with its name for screen readers (``key`` is the CSS class)."""

    key: str
    symbol: str
    name: str


@dataclass(frozen=True, slots=True)
class CardText:
    """A card as the sheet writes it: ``code`` is ``SA`` (the hooks), ``rank`` is ``A``/``10``."""

    code: str
    rank: str


@dataclass(frozen=True, slots=True)
class SuitLine:
    suit: Symbol
    cards: tuple[CardText, ...]


@dataclass(frozen=True, slots=True)
class HandView:
    seat: str
    name: str
    player: str
    known: bool
    suits: tuple[SuitLine, ...]
    hcp: int | None
    vulnerable: bool
    dealer: bool


@dataclass(frozen=True, slots=True)
class CallView:
    """One auction cell: ``text`` for a pass/double/token, else ``level`` and ``strain``."""

    text: str
    level: str = ""
    strain: Symbol | None = None
    note: int | None = None
    alert: bool = False
    suffix: str = ""
    """What follows the strain (a contract's ``X``/``XX``)."""


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int
    leader: str
    cards: tuple[tuple[str, str], ...]
    """(seat letter, card code or '' when unknown), in played order."""
    winner: str


@dataclass(frozen=True, slots=True)
class TableView:
    """A table of the record (double dummy, travellers), already as text cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class BoardView:
    number: str
    dealer: str
    vulnerability: str
    hands: dict[str, HandView]
    auction: tuple[tuple[CallView | None, ...], ...]
    auction_notes: tuple[tuple[int, str], ...]
    contract: CallView | None
    declarer: str
    result: str
    score: str
    lead: CardText | None
    lead_suit: Symbol | None
    tricks: tuple[TrickView, ...]
    dd: TableView | None
    par: str
    travellers: TableView | None
    commentary: tuple[str, ...]
    problems: tuple[str, ...]
    event: str
    site: str
    date: str
    long: bool = False
    symbols: dict[str, Symbol] = field(default_factory=dict)


def symbol(suit: Suit) -> Symbol:
    return Symbol(suit.letter.lower(), suit.symbol, SUIT_NAMES[suit])


def strain_symbol(strain: Strain) -> Symbol:
    if strain is Strain.NOTRUMP:
        return Symbol("nt", "NT", "notrump")
    return symbol(Suit(int(strain)))


def card_text(card: Card) -> CardText:
    rank = "10" if card.rank is Rank.TEN else card.rank.letter
    return CardText(str(card), rank)


def board_view(
    board: Board, findings: Sequence[Diagnostic] = (), travellers: bool = False
) -> BoardView:
    """Everything the sheet shows of ``board``; ``findings`` are shown as a note when one is an
    error (the board is still drawn from what is known)."""
    outcome = board_outcome(board)
    contract = outcome.contract
    auction_rows, notes = _auction(board.auction)
    lead, tricks = _play(board, contract)
    problems = tuple(
        dict.fromkeys(f"{d.code}: {d.message}" for d in findings if d.severity >= Severity.ERROR)
    )
    view = BoardView(
        number="" if board.number is None else str(board.number),
        dealer="" if board.dealer is None else board.dealer.letter,
        vulnerability=_vulnerability_text(board),
        hands={seat.letter: _hand(board, seat) for seat in Seat},
        auction=auction_rows,
        auction_notes=notes,
        contract=_contract_view(contract),
        declarer=""
        if outcome.declarer is None or contract is None or contract.is_passed_out
        else SEAT_NAMES[outcome.declarer],
        result=_result_text(outcome.contract, outcome.tricks),
        score=_score_text(board),
        lead=None if lead is None else card_text(lead),
        lead_suit=None if lead is None else symbol(lead.suit),
        tricks=tricks,
        dd=_dd_table(board),
        par=_par_text(board),
        travellers=_travellers(board) if travellers else None,
        commentary=_commentary(board),
        problems=problems,
        event=_clean(board.tag("Event")),
        site=_clean(board.tag("Site")),
        date=_clean(board.tag("Date")),
        symbols={suit.letter.lower(): symbol(suit) for suit in SUIT_ORDER},
    )
    return view


def _clean(value: str | None) -> str:
    return "" if value is None or value in ("?", "#") else value


def _vulnerability_text(board: Board) -> str:
    vulnerability = board.vulnerability
    if vulnerability is None:
        return ""
    return {"None": "None", "NS": "N-S", "EW": "E-W", "All": "Both"}[vulnerability.value]


def _hand(board: Board, seat: Seat) -> HandView:
    hand: Hand | None = board.deal.hand(seat) if board.deal is not None else None
    vulnerable = board.vulnerability is not None and board.vulnerability.is_vulnerable(
        Side.NS if seat in (Seat.NORTH, Seat.SOUTH) else Side.EW
    )
    player = _clean(board.tag(SEAT_NAMES[seat]))
    suits = tuple(
        SuitLine(
            symbol(suit),
            tuple(card_text(card) for card in sorted(hand.suit(suit), reverse=True))
            if hand is not None
            else (),
        )
        for suit in SUIT_ORDER
    )
    return HandView(
        seat=seat.letter,
        name=SEAT_NAMES[seat],
        player=player,
        known=hand is not None,
        suits=suits,
        hcp=hand.hcp if hand is not None and len(hand) else None,
        vulnerable=vulnerable,
        dealer=board.dealer is seat,
    )


def _call_view(call: object, note: int | None, alert: bool) -> CallView:
    if isinstance(call, Bid):
        return CallView(str(call), str(call.level), strain_symbol(call.strain), note, alert)
    if call is Action.PASS:
        return CallView("Pass", note=note, alert=alert)
    if isinstance(call, Action):
        return CallView(str(call), note=note, alert=alert)
    return CallView(str(call) if isinstance(call, Token) else "?", note=note, alert=alert)


def _auction(
    auction: Auction | None,
) -> tuple[tuple[tuple[CallView | None, ...], ...], tuple[tuple[int, str], ...]]:
    """Rows of four cells under W N E S, the first call under the dealer."""
    if auction is None or not auction.calls:
        return (), ()
    cells: list[CallView | None] = [None] * AUCTION_COLUMNS.index(auction.first)
    for index, call in enumerate(auction.calls):
        annotation = auction.annotation(index)
        note = annotation.note if annotation is not None else None
        alert = annotation is not None and bool(annotation.nags or annotation.note)
        cells.append(_call_view(call, note, alert))
    while len(cells) % 4:
        cells.append(None)
    rows = tuple(tuple(cells[start : start + 4]) for start in range(0, len(cells), 4))
    notes = tuple((note.index, note.text) for note in auction.notes)
    return rows, notes


def _contract_view(contract: object) -> CallView | None:
    from pbntool.model import Contract

    if not isinstance(contract, Contract):
        return None
    if contract.is_passed_out:
        return CallView("Passed out")
    level = "" if contract.level is None else str(contract.level)
    strain = None if contract.strain is None else strain_symbol(contract.strain)
    return CallView(str(contract), level, strain, suffix=contract.doubling.suffix)


def _result_text(contract: object, tricks: int | None) -> str:
    from pbntool.model import Contract

    if tricks is None or not isinstance(contract, Contract) or contract.is_passed_out:
        return ""
    if not contract.level:
        return f"{tricks} tricks"
    margin = tricks - contract.level - 6
    made = "=" if margin == 0 else f"{margin:+d}"
    return f"{made} ({tricks} tricks)"


def _score_text(board: Board) -> str:
    stated = board.tag("Score")
    if stated and stated not in ("?", "#"):
        return stated
    score = board_outcome(board).score_ns(board)
    return "" if score is None else f"NS {score}"


def _play(board: Board, contract: object) -> tuple[Card | None, tuple[TrickView, ...]]:
    from pbntool.model import Contract

    play: Play | None = board.play
    if play is None or not play.tricks:
        return None, ()
    first = play.tricks[0][play.first]
    lead = first if isinstance(first, Card) else None
    _, trump = trump_of(contract if isinstance(contract, Contract) else None)
    tricks = []
    for trick in sequence_play(play, trump):
        cards = tuple(
            (seat.letter, str(slot) if is_slot_card(slot) else "") for seat, slot in trick.cards
        )
        if not any(code for _, code in cards):
            continue
        winner = "" if trick.winner is None else trick.winner.letter
        tricks.append(TrickView(trick.number + 1, trick.leader.letter, cards, winner))
    return lead, tuple(tricks)


def _hex_tricks(value: str) -> dict[tuple[Seat, Strain], int] | None:
    text = value.strip()
    if len(text) != 20:
        return None
    try:
        digits = [int(char, 16) for char in text]
    except ValueError:
        return None
    if any(digit > TRICKS_PER_DEAL for digit in digits):
        return None
    return {
        (seat, strain): digits[row * 5 + column]
        for row, seat in enumerate(DD_SEATS)
        for column, strain in enumerate(DD_STRAINS)
    }


def _table_tricks(table: Table) -> dict[tuple[Seat, Strain], int] | None:
    seat_at, strain_at, result_at = (
        table.column("Declarer"),
        table.column("Denomination"),
        table.column("Result"),
    )
    if seat_at is None or strain_at is None or result_at is None:
        return None
    found: dict[tuple[Seat, Strain], int] = {}
    for row in table.rows:
        try:
            seat = Seat.from_letter(row[seat_at].strip()[:1])
            strain = Strain.from_text(row[strain_at].strip())
            tricks = int(row[result_at])
        except (ValueError, IndexError, KeyError):
            continue
        if 0 <= tricks <= TRICKS_PER_DEAL:
            found[(seat, strain)] = tricks
    return found or None


def _dd_table(board: Board) -> TableView | None:
    """Tricks each seat makes in each strain, as the record states them (never computed here)."""
    tricks = None
    stated = board.tag("DoubleDummyTricks")
    if stated:
        tricks = _hex_tricks(stated)
    if tricks is None:
        for table in board.tables:
            if table.name == "OptimumResultTable":
                tricks = _table_tricks(table)
    if tricks is None:
        return None
    header = ("", *(strain_symbol(strain).key for strain in DD_STRAINS))
    rows = tuple(
        (
            seat.letter,
            *(
                "" if (seat, strain) not in tricks else _level_text(tricks[(seat, strain)])
                for strain in DD_STRAINS
            ),
        )
        for seat in (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
    )
    return TableView(header, rows)


def _level_text(tricks: int) -> str:
    """The level a seat makes (``4`` for 10 tricks), ``-`` when not even one."""
    return str(tricks - 6) if tricks > 6 else "-"


def _par_text(board: Board) -> str:
    parts = []
    for name in ("ParContract", "OptimumScore"):
        value = _clean(board.tag(name))
        if value:
            parts.append(value)
    return " · ".join(parts)


def _travellers(board: Board) -> TableView | None:
    for table in board.tables:
        if table.name == "ScoreTable" and table.rows:
            header = tuple(column.name for column in table.columns)
            rows = tuple(tuple(_cell_text(cell) for cell in row) for row in table.rows)
            return TableView(header, rows)
    return None


def _cell_text(cell: str) -> str:
    """A table cell as people read it: a PBN string cell without its quotes and escapes, and
    the "no value" marks (``-``) as they are."""
    if len(cell) >= 2 and cell.startswith('"') and cell.endswith('"'):
        return cell[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return cell


def _commentary(board: Board) -> tuple[str, ...]:
    texts: list[Comment] = list(board.commentary)
    if board.auction is not None:
        texts.extend(board.auction.comments)
    if board.play is not None:
        texts.extend(board.play.comments)
    return tuple(
        comment.text.strip()
        for comment in texts
        if comment.kind in (CommentKind.BRACE, CommentKind.LINE) and comment.text.strip()
    )
