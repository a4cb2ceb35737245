"""What event scoring keeps of each game: its identity, its own result, the values it states
(with their line and column) and its score tables.

A ``GameEntry`` is small and holds no source text, so a whole event fits in memory even when
its boards would not; positions are resolved while the record is at hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pbntool.diagnostics import Diagnostic
from pbntool.formats.pbn.values import decode_contract, decode_seat
from pbntool.model import Board, Contract, Deal, Seat, Side, Strain, Table, Vulnerability
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.records import Record
from pbntool.scoring.matchpoints import Artificial, FieldEntry
from pbntool.scoring.rubber import honours
from pbntool.tools.score.listing import score_board
from pbntool.tools.score.values import cell_text, parse_number

__all__ = [
    "STATED_TAGS",
    "GameEntry",
    "GameKey",
    "Place",
    "ResultKey",
    "ScoreTableData",
    "Stated",
    "TableRow",
    "TotalTableData",
    "game_entry",
]

STATED_TAGS = (
    "Score",
    "ScoreMP",
    "ScoreIMP",
    "ScorePercentage",
    "ScoreRubber",
    "ScoreRubberHistory",
    "OptimumScore",
    "ParContract",
    "Vulnerable",
    "Dealer",
    "Board",
    "Room",
    "UsebioMatchTeamScore",
    "UsebioMatchOpposingTeamScore",
    "UsebioMatchTeamVictoryPoints",
    "UsebioMatchOpposingTeamVictoryPoints",
)
"""Tags whose value and position a game entry keeps (the last four: a USEBIO team match's
stated scores, on each of its games)."""

_UNKNOWN_NAMES = {"", "?", "-"}


@dataclass(frozen=True, slots=True, order=True)
class GameKey:
    """A game: its file and the line its first tag is on (``Record.file``, ``Record.line``)."""

    file: str
    line: int


@dataclass(frozen=True, slots=True, order=True)
class ResultKey:
    """A result: a game's own result (``row`` None) or a row of the game's ScoreTable."""

    game: GameKey
    row: int | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """A 1-based line and column in a file."""

    line: int
    column: int | None = None


@dataclass(frozen=True, slots=True)
class Stated:
    """A value as the file states it, and where."""

    text: str
    place: Place


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of a ScoreTable: its cells by column name, and the result it stands for."""

    index: int
    cells: Mapping[str, Stated]
    entry: FieldEntry | None
    """None for a row that gives no result (``Bye``, or no score at all)."""
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    pair_ns: str | None = None
    pair_ew: str | None = None

    def cell(self, name: str) -> Stated | None:
        """The cell of column ``name``, if the table has that column."""
        return self.cells.get(name)


@dataclass(frozen=True, slots=True)
class ScoreTableData:
    """A ScoreTable (a traveller): every result of the board, this game's included."""

    place: Place
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]


@dataclass(frozen=True, slots=True)
class TotalTableData:
    """A TotalScoreTable (standings): its rows as cells by column name."""

    place: Place
    columns: tuple[str, ...]
    rows: tuple[Mapping[str, Stated], ...]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as event scoring needs it."""

    key: GameKey
    number: int | None
    event: str
    section: str
    deal_id: str | None
    """The four hands as text when the deal is complete: the same deal wherever it appears."""
    dealer: Seat | None
    vulnerability: Vulnerability | None
    room: str | None
    """``open`` or ``closed`` (lower case), None when absent or another value."""
    home_team: str | None
    visit_team: str | None
    players: tuple[str | None, str | None, str | None, str | None]
    pair_ns: str | None
    pair_ew: str | None
    contract: Contract | None
    declarer: Seat | None
    tricks: int | None
    score_ns: int | None
    """The duplicate score computed from the record, else the stated Score (NS view)."""
    artificial: tuple[Artificial | None, Artificial | None] | None
    """Artificial scores (NS, EW) stated instead of a played result (``Score "A+"``)."""
    scoring: str | None
    stated: Mapping[str, Stated]
    score_table: ScoreTableData | None
    total_table: TotalTableData | None
    honours: tuple[Side, int] | None = None
    deal_known: bool = False
    problems: tuple[Diagnostic, ...] = field(default=())
    double_dummy: tuple[str, Mapping[tuple[Seat, Strain], int]] | None = None
    """The double-dummy table the game states (``OptimumResultTable``, else
    ``DoubleDummyTricks``) with the tag it came from, when it is complete and readable."""
    round: str | None = None
    stage: str | None = None
    table: str | None = None
    generator: str | None = None
    """The Generator tag: which program wrote the file (its conventions)."""

    @property
    def entry(self) -> FieldEntry | None:
        """This game's own result as a field entry (None when it is not known)."""
        if self.score_ns is not None:
            return FieldEntry(self.score_ns)
        if self.artificial is not None:
            return FieldEntry(None, 1, *self.artificial)
        return None

    @property
    def event_key(self) -> tuple[str, str]:
        """Event and Section: the games whose boards are compared with each other.  Games
        that name no Event are an event of their own file (``file:<name>``), not one event
        with every other file's unnamed games."""
        return (self.event or f"file:{self.key.file}", self.section)


def game_entry(record: Record) -> GameEntry | None:
    """The entry of a record that holds a board (None for one that does not)."""
    board = record.board
    if board is None:
        return None
    key = GameKey(record.file, record.line)
    line = score_board(board, record.file)
    computed = line.score_ns if line.score_ns is not None else line.stated_score_ns
    contract = board.contract
    declarer = Seat.from_letter(line.declarer) if line.declarer else None
    if contract is None and line.contract is not None:
        contract = _contract(line.contract)
    stated = {name: _stated(record, board, name) for name in STATED_TAGS if board.tag(name)}
    return GameEntry(
        key=key,
        number=board.number,
        event=_clean(board.tag("Event")),
        section=_clean(board.tag("Section")),
        deal_id=_deal_id(board.deal),
        dealer=board.dealer,
        vulnerability=board.vulnerability,
        room=_room(board.tag("Room")),
        home_team=_name(board.tag("HomeTeam")),
        visit_team=_name(board.tag("VisitTeam")),
        players=(
            _name(board.tag("North")),
            _name(board.tag("East")),
            _name(board.tag("South")),
            _name(board.tag("West")),
        ),
        pair_ns=_name(board.tag("PairNS")),
        pair_ew=_name(board.tag("PairEW")),
        contract=contract,
        declarer=declarer,
        tricks=line.result,
        score_ns=computed,
        artificial=_artificial_score(board) if computed is None else None,
        scoring=_name(board.tag("Scoring")),
        stated={name: value for name, value in stated.items() if value is not None},
        score_table=_score_table(record, board),
        total_table=_total_table(record, board),
        honours=_honours(board.deal, contract),
        deal_known=board.deal is not None and board.deal.is_complete,
        double_dummy=stated_double_dummy(board),
        round=_name(board.tag("Round")),
        stage=_name(board.tag("Stage")),
        table=_name(board.tag("Table")),
        generator=_name(board.tag("Generator")),
    )


def stated_double_dummy(board: Board) -> tuple[str, dict[tuple[Seat, Strain], int]] | None:
    """The board's own double-dummy table, all 20 cells, with the tag that gave it."""
    from pbntool.tools.dd.tags import read_double_dummy_tricks, read_result_row

    table = next((t for t in board.tables if t.name == "OptimumResultTable"), None)
    if table is not None:
        columns = {column.name: index for index, column in enumerate(table.columns)}
        cells: dict[tuple[Seat, Strain], int] = {}
        try:
            for row in table.rows:
                seat, strain, tricks = read_result_row(row, columns)
                if tricks is not None:
                    cells[seat, strain] = tricks
        except (KeyError, IndexError, ValueError):
            cells = {}
        if len(cells) == 20:
            return "OptimumResultTable", cells
    value = board.tag("DoubleDummyTricks")
    if value is not None:
        try:
            return "DoubleDummyTricks", read_double_dummy_tricks(value)
        except ValueError:
            return None
    return None


def _clean(value: str | None) -> str:
    return "" if value is None or value.strip() in _UNKNOWN_NAMES else value.strip()


def _name(value: str | None) -> str | None:
    return None if value is None or value.strip() in _UNKNOWN_NAMES else value.strip()


def _room(value: str | None) -> str | None:
    room = (value or "").strip().lower()
    return room if room in ("open", "closed") else None


def _contract(text: str) -> Contract | None:
    contract, _problems = decode_contract(text)  # a lenient spelling (1N) still reads
    return contract


def _deal_id(deal: Deal | None) -> str | None:
    if deal is None or not deal.is_complete:
        return None
    return " ".join(str(hand) for hand in deal.hands)


def _honours(deal: Deal | None, contract: Contract | None) -> tuple[Side, int] | None:
    if deal is None or contract is None or contract.strain is None or contract.is_passed_out:
        return None
    return honours(deal, contract.strain)


def _place(record: Record, path: tuple[object, ...]) -> Place:
    locator = record.locator
    if locator is not None:
        offset = locator.offset(path)
        if offset is not None:
            line, column = locator.position(offset)
            return Place(line, column)
    return Place(record.line)


def _stated(record: Record, board: Board, name: str) -> Stated | None:
    value = board.tag(name)
    if value is None:
        return None
    return Stated(value, _place(record, ("tag_value", name)))


def _artificial_score(board: Board) -> tuple[Artificial | None, Artificial | None] | None:
    """``Score "A+"`` (NS gets A+, EW the mirror), ``Score "NS A+ EW A"`` and the like."""
    text = (board.tag("Score") or "").strip()
    if not text:
        return None
    words = text.split()
    if len(words) == 1:
        single = Artificial.parse(words[0])
        return None if single is None else (single, single.mirror)
    sides: dict[str, Artificial] = {}
    for name, value in zip(words[::2], words[1::2], strict=False):
        parsed = Artificial.parse(value)
        if name.upper() not in ("NS", "EW") or parsed is None:
            return None
        sides[name.upper()] = parsed
    if len(words) % 2 or not sides:
        return None
    ns, ew = sides.get("NS"), sides.get("EW")
    return (ns or (ew.mirror if ew else None), ew or (ns.mirror if ns else None))


# --- tables ----------------------------------------------------------------------------------


def _table(board: Board, name: str) -> Table | None:
    for table in board.tables:
        if table.name == name and table.columns and table.rows:
            return table
    return None


def _cells(record: Record, table: Table) -> list[dict[str, Stated]]:
    width = len(table.columns)
    rows = []
    for index, row in enumerate(table.rows):
        cells: dict[str, Stated] = {}
        for position, (column, element) in enumerate(zip(table.columns, row, strict=True)):
            place = _place(record, ("cell", table.name, index * width + position))
            cells.setdefault(column.name, Stated(cell_text(element), place))
        rows.append(cells)
    return rows


def _score_table(record: Record, board: Board) -> ScoreTableData | None:
    table = _table(board, "ScoreTable")
    if table is None:
        return None
    rows = tuple(
        _score_row(index, cells, board.vulnerability)
        for index, cells in enumerate(_cells(record, table))
    )
    columns = tuple(column.name for column in table.columns)
    return ScoreTableData(_place(record, ("table", "ScoreTable")), columns, rows)


def _score_row(
    index: int, cells: dict[str, Stated], vulnerability: Vulnerability | None
) -> TableRow:
    def text(name: str) -> str:
        cell = cells.get(name)
        return "" if cell is None else cell.text

    contract = _contract(text("Contract")) if text("Contract") not in ("", "-", "?") else None
    declarer = _seat(text("Declarer"))
    tricks = _tricks(text("Result"))
    count = parse_number(text("Multiplicity"))
    multiplicity = int(count) if count is not None and count >= 1 else 1
    score = _row_score(text("Score_NS"), text("Score_EW"))
    if score is None and contract is not None and vulnerability is not None:
        score = _computed(contract, declarer, tricks, vulnerability)
    entry: FieldEntry | None = None
    if score is not None:
        entry = FieldEntry(score, multiplicity)
    else:
        artificial = _row_artificial(cells)
        if artificial is not None:
            entry = FieldEntry(None, multiplicity, *artificial)
    return TableRow(
        index,
        cells,
        entry,
        contract,
        declarer,
        tricks,
        _name(text("PairId_NS")) or _name(text("Names_NS")),
        _name(text("PairId_EW")) or _name(text("Names_EW")),
    )


def _seat(text: str) -> Seat | None:
    if text in ("", "-", "?"):
        return None
    seat, _problems = decode_seat(text.lstrip("^"), "Declarer")
    return seat


def _tricks(text: str) -> int | None:
    number = parse_number(text)
    if number is None or not number.is_integer() or not 0 <= number <= TRICKS_PER_DEAL:
        return None
    return int(number)


def _row_score(ns: str, ew: str) -> int | None:
    value = parse_number(ns)
    if value is not None and value.is_integer():
        return int(value)
    value = parse_number(ew)
    if value is not None and value.is_integer():
        return -int(value)
    return None


def _computed(
    contract: Contract, declarer: Seat | None, tricks: int | None, vulnerability: Vulnerability
) -> int | None:
    from pbntool.scoring import score_ns

    if contract.is_passed_out:
        return 0
    if declarer is None or tricks is None or contract.level is None:
        return None
    return score_ns(contract, declarer, vulnerability, tricks)


_ARTIFICIAL_COLUMNS = (
    ("Score_NS", "Score_EW"),
    ("Percentage_NS", "Percentage_EW"),
    ("MP_NS", "MP_EW"),
    ("IMP_NS", "IMP_EW"),
)


def _row_artificial(cells: dict[str, Stated]) -> tuple[Artificial | None, Artificial | None] | None:
    """Artificial scores of a row: ``A+`` in Score_NS, ``^60`` in Percentage_NS, …"""
    for ns_column, ew_column in _ARTIFICIAL_COLUMNS:
        ns = _artificial_cell(cells.get(ns_column), ns_column)
        ew = _artificial_cell(cells.get(ew_column), ew_column)
        if ns is not None or ew is not None:
            if ns_column == "Score_NS" and ew is None and ew_column not in cells and ns:
                ew = ns.mirror
            return ns, ew
    return None


def _artificial_cell(cell: Stated | None, column: str) -> Artificial | None:
    """An artificial score in a cell: any form in Score and Percentage columns, only the
    averages (A, A+, A-) in MP and IMP columns, where ``^v`` is an artificial MP or IMP
    value rather than a percentage."""
    if cell is None:
        return None
    parsed = Artificial.parse(cell.text)
    if parsed is None or column.startswith(("Score", "Percentage")):
        return parsed
    return parsed if parsed.imps is not None else None


def _total_table(record: Record, board: Board) -> TotalTableData | None:
    table = _table(board, "TotalScoreTable")
    if table is None:
        return None
    columns = tuple(column.name for column in table.columns)
    cells = tuple(_cells(record, table))
    return TotalTableData(_place(record, ("table", "TotalScoreTable")), columns, cells)
