"""CSV: one flat row per board result, for spreadsheets (write only).

The columns (``COLUMNS``, documented in ``docs/conversions.md``) are fixed: event, date,
board, dealer, vulnerability, the four hands (PBN ``S.H.D.C`` form), each seat's high-card
points, the auction, contract, declarer, tricks, NS score, opening lead, the four players and
the pair ids.  A board with a ``ScoreTable`` gives one row per table row (its contract,
declarer, result, NS score, lead and pair ids); otherwise one row of the board's own result.
"""

from __future__ import annotations

import csv
from typing import TextIO

from pbntool.diagnostics import OUT020, Diagnostic
from pbntool.model import Board, Card, Seat, Side, Table

__all__ = ["COLUMNS", "CsvWriter", "rows_of"]

COLUMNS: tuple[str, ...] = (
    "event", "date", "board", "dealer", "vulnerable",
    "north_hand", "east_hand", "south_hand", "west_hand",
    "north_hcp", "east_hcp", "south_hcp", "west_hcp",
    "auction", "contract", "declarer", "result", "score_ns", "lead",
    "north", "east", "south", "west", "pair_ns", "pair_ew",
)  # fmt: skip
"""The header, in order; a stable interface (new columns are only ever added at the end)."""

_TAG_COLUMNS = frozenset(
    {"Event", "Date", "Board", "Dealer", "Vulnerable", "Deal", "Auction", "Contract",
     "Declarer", "Result", "Score", "North", "East", "South", "West", "Play"}
)  # fmt: skip
_UNKNOWN = frozenset({"", "?", "-", "#"})


def _known(value: str | None) -> str:
    text = " ".join((value or "").split())
    return "" if text in _UNKNOWN else text


def _board_columns(board: Board) -> dict[str, str]:
    row = {column: "" for column in COLUMNS}
    row["event"] = _known(board.tag("Event"))
    row["date"] = _known(board.tag("Date"))
    row["board"] = "" if board.number is None else str(board.number)
    row["dealer"] = board.dealer.letter if board.dealer is not None else ""
    row["vulnerable"] = str(board.vulnerability) if board.vulnerability is not None else ""
    if board.deal is not None:
        for seat, hand in zip(Seat, board.deal.hands, strict=True):
            seat_name = seat.name_title.lower()
            row[f"{seat_name}_hand"] = "" if hand is None else str(hand)
            row[f"{seat_name}_hcp"] = "" if hand is None else str(hand.hcp)
    for seat in Seat:
        row[seat.name_title.lower()] = _known(board.tag(seat.name_title))
    return row


def _own_result(board: Board, row: dict[str, str]) -> None:
    if board.auction is not None:
        row["auction"] = " ".join(str(call) for call in board.auction.calls)
    if board.contract is not None:
        row["contract"] = str(board.contract)
    if board.declarer is not None and not (board.contract and board.contract.is_passed_out):
        row["declarer"] = board.declarer.letter
    if board.result is not None:
        row["result"] = str(board.result.tricks)
    score = board.score
    if score is not None:
        side = score.side  # (Side.NS is 0: "or" would take a North-South score for the declarer's)
        if side is None and board.declarer is not None:
            side = board.declarer.side
        if side is not None:
            row["score_ns"] = str(score.points if side is Side.NS else -score.points)
    if board.play is not None and board.play.tricks:
        lead = board.play.tricks[0][board.play.first]
        row["lead"] = str(lead) if isinstance(lead, Card) else ""


def _cell(table: Table, row: tuple[str, ...], name: str) -> str:
    index = table.column(name)
    if index is None or index >= len(row):
        return ""
    return _known(row[index].strip('"'))


def _table_rows(board: Board, table: Table, base: dict[str, str]) -> list[dict[str, str]]:
    rows = []
    for cells in table.rows:
        row = dict(base)
        row["contract"] = _cell(table, cells, "Contract")
        row["declarer"] = _cell(table, cells, "Declarer")
        row["result"] = _cell(table, cells, "Result")
        ns, ew = _cell(table, cells, "Score_NS"), _cell(table, cells, "Score_EW")
        row["score_ns"] = ns or (str(-int(ew)) if ew.lstrip("-").isdigit() else "")
        row["lead"] = _cell(table, cells, "Lead")
        row["pair_ns"] = _cell(table, cells, "PairId_NS")
        row["pair_ew"] = _cell(table, cells, "PairId_EW")
        for seat in Seat:
            row[seat.name_title.lower()] = ""  # the players of the board's own table
        rows.append(row)
    return rows


def rows_of(board: Board) -> list[dict[str, str]]:
    """The CSV rows of a board: one per ScoreTable row, else one of its own result."""
    base = _board_columns(board)
    for table in board.tables:
        if table.name == "ScoreTable" and table.rows:
            return _table_rows(board, table, base)
    _own_result(board, base)
    return [base]


def _losses(board: Board) -> list[Diagnostic]:
    lost = [
        tag.name
        for tag in board.tags
        if tag.name not in _TAG_COLUMNS and not tag.duplicate and _known(tag.value)
    ]
    lost = list(dict.fromkeys(lost))
    if board.play is not None and board.play.card_count > 1:
        lost.append("the play beyond the opening lead")
    lost += [table.name for table in board.tables if table.name != "ScoreTable"]
    if board.auction is not None and (board.auction.notes or board.auction.annotations):
        lost.append("auction notes and annotations")
    if lost:
        return [OUT020.at(("tag", "Board"), format="CSV", what=", ".join(lost))]
    return []


class CsvWriter:
    """Writes the header once (``begin``), then each board's rows."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
        self._started = False

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        self.begin()
        self._writer.writerows(rows_of(board))
        return _losses(board)

    def close(self) -> None:
        self.begin()

    def begin(self) -> None:
        if not self._started:
            self._writer.writeheader()
            self._started = True

    def resume(self) -> None:
        self._started = True
