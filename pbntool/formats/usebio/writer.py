"""Writing boards as one USEBIO 1.2 (or 1.3) results document.

A USEBIO document is one event: the standings (``PARTICIPANTS``) come before the travellers
(``BOARD``) and the hands (``HANDSET``) after them, so the writer keeps what it needs of each
board (a few strings per traveller line) and writes the document on ``close``.

* The event's data come from the first board: ``Event``, ``Site`` (the club), ``Date``,
  ``Scoring`` (the event type), and every ``Usebio…`` tag back under its own element name.
* Each board's ``ScoreTable`` rows are its traveller lines (a row of ``Multiplicity`` n is
  written n times); a board without one gives the line of its own result.
* The first ``TotalScoreTable`` gives the pairs (or teams, or players) with their names.
* What USEBIO cannot hold is returned by ``write`` as OUT040 warnings, one per board.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from pbntool.diagnostics import OUT040, Diagnostic
from pbntool.formats.usebio.mapping import (
    KNOWN_EVENT_TYPES,
    LINE_TAG_PREFIX,
    MATCH_TAG_PREFIX,
    SCORE_COLUMNS,
    element_of_tag,
    unquote_cell,
)
from pbntool.model import Board, Card, CommentKind, Seat, Table
from pbntool.scoring.duplicate import board_dealer, board_vulnerability

__all__ = ["UsebioWriter"]

_KEPT_TAGS = frozenset(
    {"Event", "Site", "Date", "Board", "Dealer", "Vulnerable", "Deal", "Scoring"}
)
_RESULT_TAGS = frozenset({"Contract", "Declarer", "Result", "Score", "PairNS", "PairEW"})
_KEPT_SCORE_COLUMNS = frozenset({*SCORE_COLUMNS, "Multiplicity", "Rank"})
"""ScoreTable columns written (``Rank`` is the order of the scores: recomputed, not lost)."""
_KEPT_TOTAL_COLUMNS = frozenset(
    {
        "Rank",
        "PairId",
        "TeamName",
        "Direction",
        "Names",
        "TotalMP",
        "TotalIMP",
        "TotalScore",
        "TotalVP",
        "TotalPercentage",
        "TeamId",
        "MasterPoints",
        "MasterPointType",
        "MemberID1",
        "MemberID2",
        "MemberID3",
        "MemberID4",
        "ClubID1",
        "ClubID2",
        "ClubID3",
        "ClubID4",
        "Tied",
    }
)
_CLUB = ("CLUB_NAME", "CLUB_ID_NUMBER")
_EVENT_FIRST = ("EVENT_IDENTIFIER", "EVENT_ID", "EVENT_DESCRIPTION")
_SCORING_EVENT = {"MP": "MP_PAIRS", "MATCHPOINTS": "MP_PAIRS", "IMP;BUTLER": "BUTLER_PAIRS"}
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass
class _Written:
    number: int
    lines: list[dict[str, str]] = field(default_factory=list)
    deal: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class _Event:
    tags: dict[str, str]
    participants: list[dict[str, str]] = field(default_factory=list)


@dataclass
class _TeamGame:
    """One table of a team match: its teams, round and room, its line, its NS IMPs."""

    number: int
    home: str
    visit: str
    round: str
    room: str
    cells: dict[str, str]
    imps_ns: str | None
    tags: dict[str, str]
    """Its ``UsebioMatch…``, ``UsebioLine…`` (and ``UsebioMatchBoard…``) tags."""


class UsebioWriter:
    """A ``BoardWriter`` of one USEBIO document (written on ``close``).

    Games of a team match (HomeTeam and VisitTeam, no ScoreTable) are written as ``MATCH``
    elements: one per round and pair of teams, ``TEAM`` the first game's home team, each
    board with its ``IMPS`` for that team (from the ScoreIMP of its rooms) and a traveller
    line per room whose ``DIRECTION`` is the way ``TEAM`` sat (Open: the home team North-South,
    Closed: East-West; without Room tags, each table's home team sits North-South when the two
    tables name different home teams, else the first table is the open room)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._event: _Event | None = None
        self._boards: dict[int, _Written] = {}
        self._order: list[int] = []
        self._games: list[_TeamGame] = []
        self._closed = False

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        """Keep the board for the document; returns what USEBIO cannot hold of it."""
        lost: list[str] = []
        if self._event is None:
            self._event = _Event(_event_tags(board))
        elif _event_name(board) != _event_name_of(self._event.tags):
            lost.append(f"a second event ({_event_name(board) or 'unnamed'}: written as one)")
        number = board.number
        if number is None or number < 1:
            return [_loss(board, "a board without a board number (the board is skipped)")]
        written = self._boards.get(number)
        if written is None:
            written = _Written(number)
            self._boards[number] = written
            self._order.append(number)
        if board.deal is not None and board.deal.is_complete and written.deal is None:
            written.deal = " ".join(str(board.deal.hand(seat)) for seat in Seat)
        average = board.tag("UsebioBoardAverage")
        if average:
            written.extra["BOARD_AVERAGE"] = average
        table = _table(board, "ScoreTable")
        team = _team_game(board)
        if team:
            self._games.append(_team_game_of(board, number))
            if table is not None:  # (score --format pbn gives the first room the board's)
                lost.append("the ScoreTable (a match's rooms are written from their games)")
        elif table is not None:
            written.lines.extend(_table_lines(table, lost))
        else:
            line = _own_line(board)
            if line is not None:
                written.lines.append(line)
        totals = _table(board, "TotalScoreTable")
        if totals is not None and not self._event.participants:
            self._event.participants = _participants(totals, lost)
        lost.extend(_board_losses(board, team))
        return [_loss(board, ", ".join(lost))] if lost else []

    def close(self) -> None:
        """Write the document (an event with no boards when none was written)."""
        if self._closed:
            return
        self._closed = True
        event = self._event or _Event({})
        out: list[str] = []
        _document(out, event, [self._boards[number] for number in self._order], self._games)
        self._stream.write("\n".join(out) + "\n")


def _loss(board: Board, what: str) -> Diagnostic:
    diagnostic = OUT040.at(("tag", "Board"), what=what)
    return Diagnostic(
        diagnostic.code,
        diagnostic.severity,
        diagnostic.message,
        board=board.number,
        path=diagnostic.path,
    )


def _event_name(board: Board) -> str:
    return (board.tag("Event") or "").strip()


def _event_name_of(tags: Mapping[str, str]) -> str:
    return tags.get("Event", "").strip()


def _event_tags(board: Board) -> dict[str, str]:
    tags: dict[str, str] = {}
    for tag in board.tags:
        if _game_level(tag.name):
            continue
        if not tag.duplicate and (tag.name in _KEPT_TAGS or element_of_tag(tag.name)):
            tags.setdefault(tag.name, tag.value)
    return tags


_EVENT_MATCH_TAGS = frozenset({"UsebioMatchScoringMethod"})
"""``EVENT`` children whose tag starts like a match's (``MATCH_SCORING_METHOD``)."""


def _game_level(name: str) -> bool:
    """Whether a ``Usebio…`` tag belongs to a team game (its match, board or line)."""
    if name in _EVENT_MATCH_TAGS:
        return False
    return name.startswith((MATCH_TAG_PREFIX, LINE_TAG_PREFIX))


def _team_game(board: Board) -> bool:
    """A table of a team match: it names its home and visiting teams, and its Scoring is not a
    pairs method (matchpoints, Butler or cross-IMPs)."""
    scoring = [part.strip().upper() for part in (board.tag("Scoring") or "").split(";")]
    pairs = scoring[0] in ("MP", "MATCHPOINTS") or any(
        part.startswith(("BUTLER", "CROSS")) for part in scoring[1:]
    )
    return not pairs and all(
        (board.tag(name) or "").strip() not in ("", "?", "-", "#")
        for name in ("HomeTeam", "VisitTeam")
    )


def _team_game_of(board: Board, number: int) -> _TeamGame:
    cells = _own_line(board) or {}
    cells.pop("PairId_NS", None)
    cells.pop("PairId_EW", None)
    lead = _lead(board)
    if lead:
        cells["Lead"] = lead
    room = (board.tag("Room") or "").strip().lower()
    return _TeamGame(
        number,
        (board.tag("HomeTeam") or "").strip(),
        (board.tag("VisitTeam") or "").strip(),
        (board.tag("Round") or "").strip().strip("?#"),
        room if room in ("open", "closed") else "",
        cells,
        _imps_ns(board),
        {tag.name: tag.value for tag in board.tags if _game_level(tag.name) and tag.value},
    )


def _lead(board: Board) -> str:
    """The opening lead (suit first, ``DK``), when the play gives it."""
    play = board.play
    if play is None or not play.tricks:
        return ""
    card = play.tricks[0][play.first]
    return str(card) if isinstance(card, Card) else ""


def _imps_ns(board: Board) -> str | None:
    """The game's ScoreIMP for North-South (a bare number is the declarer's side's)."""
    found = re.fullmatch(r"\s*(NS|EW)?\s*([+-]?\d+(?:\.\d+)?)\s*", board.tag("ScoreIMP") or "")
    if found is None:
        return None
    side, value = found.group(1), found.group(2).lstrip("+")
    if side is None and board.declarer is not None:
        side = "NS" if board.declarer in (Seat.NORTH, Seat.SOUTH) else "EW"
    return _negated(value) if side == "EW" else value


def _negated(value: str) -> str:
    if re.fullmatch(r"-?0+(\.0+)?", value):
        return value.lstrip("-")
    return value[1:] if value.startswith("-") else "-" + value


def _table(board: Board, name: str) -> Table | None:
    return next((table for table in board.tables if table.name == name and table.rows), None)


def _rows(table: Table) -> Iterable[dict[str, str]]:
    names = [column.name for column in table.columns]
    for row in table.rows:
        yield {name: unquote_cell(cell) for name, cell in zip(names, row, strict=False)}


def _table_lines(table: Table, lost: list[str]) -> list[dict[str, str]]:
    names = [column.name for column in table.columns]
    dropped = [
        name for name in names if name not in _KEPT_SCORE_COLUMNS and element_of_tag(name) is None
    ]
    if dropped:
        lost.append(f"the ScoreTable column(s) {', '.join(dropped)}")
    lines: list[dict[str, str]] = []
    for cells in _rows(table):
        count = cells.get("Multiplicity", "")
        times = int(count) if count.isdigit() and 1 <= int(count) <= 1000 else 1
        lines.extend(dict(cells) for _ in range(times))
    return lines


def _own_line(board: Board) -> dict[str, str] | None:
    """The board's own result as a traveller line (a file of single games)."""
    if board.contract is None and board.tag("Score") is None:
        return None
    cells = {
        "PairId_NS": board.tag("PairNS") or "",
        "PairId_EW": board.tag("PairEW") or "",
        "Contract": "" if board.contract is None else str(board.contract),
        "Declarer": "" if board.declarer is None else board.declarer.letter,
        "Result": "" if board.result is None else str(board.result.tricks),
    }
    score = board.tag("Score") or ""
    found = re.fullmatch(r"\s*(NS|EW)?\s*([+-]?\d+)\s*", score)
    if found is not None:
        points = int(found.group(2))
        side = found.group(1)
        if side is None and board.declarer is not None:
            side = "NS" if board.declarer in (Seat.NORTH, Seat.SOUTH) else "EW"
        cells["Score_NS"] = str(points if side != "EW" else -points)
    return cells


def _participants(table: Table, lost: list[str]) -> list[dict[str, str]]:
    names = [column.name for column in table.columns]
    dropped = [
        name for name in names if name not in _KEPT_TOTAL_COLUMNS and element_of_tag(name) is None
    ]
    if "TotalVP" in names and "TotalIMP" in names:
        dropped.append("TotalIMP (a team's TOTAL_SCORE is its VPs)")
    if dropped:
        lost.append(f"the TotalScoreTable column(s) {', '.join(dropped)}")
    return list(_rows(table))


_HEADER_ESCAPE = re.compile(r"\s*(?:pbn\s+\d+(?:\.\d+)?|export|content-type\s*:.*)\s*", re.I)


def _commentary(board: Board) -> bool:
    """Whether the board has commentary (a PBN file's own header lines do not count)."""
    comments = [*board.commentary, *(c for tag in board.tags for c in tag.comments)]
    return any(
        not (c.kind is CommentKind.ESCAPE and _HEADER_ESCAPE.fullmatch(c.text)) for c in comments
    )


def _board_losses(board: Board, team: bool = False) -> list[str]:
    lost = []
    if board.auction is not None:
        lost.append("the auction")
    if board.play is not None and not (team and board.play.card_count == 1 and _lead(board)):
        lost.append("the play (but the lead)" if team and _lead(board) else "the play")
    if _commentary(board):
        lost.append("commentary")
    number = board.number or 1
    if board.dealer is not None and board.dealer is not board_dealer(number):
        lost.append(f"dealer {board.dealer.letter} (USEBIO takes it from the board number)")
    if board.vulnerability is not None and board.vulnerability != board_vulnerability(number):
        lost.append(f"vulnerability {board.vulnerability} (USEBIO takes it from the board number)")
    if board.deal is not None and not board.deal.is_complete:
        lost.append("a partial deal")
    table_names = {"ScoreTable", "TotalScoreTable"}
    other_tables = sorted({table.name for table in board.tables} - table_names)
    if other_tables:
        lost.append(f"the table(s) {', '.join(other_tables)}")
    # The board's own result is a traveller line: one of the ScoreTable rows, or the line
    # written for it when there is no ScoreTable.
    skipped = {*_KEPT_TAGS, *_RESULT_TAGS, "Play", "Auction", "Note", *table_names, *other_tables}
    if team:
        skipped |= {"HomeTeam", "VisitTeam", "Room", "Round", "ScoreIMP"}
    other = sorted(
        {
            tag.name
            for tag in board.tags
            if tag.name not in skipped
            and element_of_tag(tag.name) is None
            and tag.value.strip()
            and tag.value.strip() not in ("?", "-", "#")
        }
    )
    if other:
        lost.append(f"the tag(s) {', '.join(other)}")
    return lost


# --- the document -------------------------------------------------------------------------


def _text(value: str) -> str:
    clean = _INVALID_XML.sub(" ", value)
    escaped = clean.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _attribute(value: str) -> str:
    return _text(value).replace('"', "&quot;")


def _element(out: list[str], indent: int, name: str, value: str) -> None:
    out.append(f"{' ' * indent}<{name}>{_text(value)}</{name}>")


def _version(tags: Mapping[str, str]) -> str:
    return "1.3" if tags.get("UsebioVersion", "").strip() == "1.3" else "1.2"


def _event_type(tags: Mapping[str, str]) -> str:
    stated = tags.get("UsebioEventType", "").strip()
    return stated or _scoring_event_type(tags)


def _scoring_event_type(tags: Mapping[str, str]) -> str:
    """The event type the Scoring tag stands for."""
    scoring = tags.get("Scoring", "").strip().upper()
    if scoring in _SCORING_EVENT:
        return _SCORING_EVENT[scoring]
    if scoring.startswith("MP"):
        return "MP_PAIRS"
    if scoring.startswith("IMP;BUTLER"):
        return "BUTLER_PAIRS"
    if scoring.startswith(("IMP;CROSS", "CAVENDISH")):
        return "CROSS_IMP"
    return "TEAMS" if scoring in ("IMP", "BAM") else "PAIRS"


def _date(value: str, version: str) -> str:
    found = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})", value.strip())
    if found is None:
        return ""
    year, month, day = found.groups()
    return f"{year}-{month}-{day}" if version == "1.3" else f"{day}/{month}/{year}"


def _document(
    out: list[str], event: _Event, boards: list[_Written], games: Sequence[_TeamGame] = ()
) -> None:
    tags = dict(event.tags)
    if games and "UsebioMatchScoringMethod" not in tags:
        vps = any("TotalVP" in row for row in event.participants) or any(
            "UsebioMatchTeamVictoryPoints" in game.tags for game in games
        )
        tags["UsebioMatchScoringMethod"] = "VPS" if vps else "IMPS"
    version = _version(tags)
    kind = _event_type(tags)
    if games and kind.upper() not in _TEAM_TYPES:
        kind = "TEAMS"  # the games are the rooms of team matches, whatever Scoring says
    # An event type outside the USEBIO list stays on EVENT; the participants and boards
    # say what the scoring was, as Compscore does.
    inner = kind if kind.upper() in KNOWN_EVENT_TYPES else _scoring_event_type(tags)
    out.append('<?xml version="1.0" encoding="UTF-8"?>')
    out.append(f'<!DOCTYPE USEBIO SYSTEM "usebio_v{version.replace(".", "_")}.dtd">')
    out.append(f'<USEBIO Version="{version}">')
    extra: dict[str, str] = {}
    for name, value in tags.items():
        element = element_of_tag(name)
        if element is not None:
            extra[element] = value
    extra.pop("VERSION", None)
    extra.pop("EVENT_TYPE", None)
    extra.pop("BOARD_AVERAGE", None)
    out.append("<CLUB>")
    site = tags.get("Site", "")
    club = extra.pop("CLUB_NAME", None)
    _element(out, 2, "CLUB_NAME", club if club is not None else site)
    _element(out, 2, "CLUB_ID_NUMBER", extra.pop("CLUB_ID_NUMBER", ""))
    out.append("</CLUB>")
    out.append(f'<EVENT EVENT_TYPE="{_attribute(kind)}">')
    description = extra.pop("EVENT_DESCRIPTION", None)
    for name in ("EVENT_IDENTIFIER", "EVENT_ID"):
        if name in extra:
            _element(out, 2, name, extra.pop(name) or "")
    _element(out, 2, "EVENT_DESCRIPTION", tags.get("Event", "") or description or "")
    extra.setdefault("PROGRAM_NAME", "pbntool")
    date = _date(tags.get("Date", ""), version)
    extra.pop("DATE", None)
    contact = {name: value for name, value in extra.items() if name.startswith("CONTACT_")}
    for name in contact:
        extra.pop(name)
    for name, value in extra.items():
        if name not in _EVENT_FIRST:
            if name == "DATE":
                continue
            _element(out, 2, name, value)
            if name == "PROGRAM_VERSION":
                _element(out, 2, "DATE", date)
                date = ""
    if date:
        _element(out, 2, "DATE", date)
    if contact:
        out.append("  <CONTACT>")
        for name, value in contact.items():
            _element(out, 4, name.removeprefix("CONTACT_"), value)
        out.append("  </CONTACT>")
    if games:
        rows, ids = _team_rows(event.participants, games)
        _participants_element(out, rows, "TEAMS" if inner.upper() not in _TEAM_TYPES else inner)
        for match in _matches(games):
            _match_element(out, match, ids)
    else:
        _participants_element(out, event.participants, inner)
    for board in boards:
        if board.lines or not games:
            _board_element(out, board, inner)
    out.append("</EVENT>")
    dealt = [board for board in boards if board.deal is not None]
    if dealt:
        out.append("<HANDSET>")
        for board in dealt:
            _hands_element(out, board)
        out.append("</HANDSET>")
    out.append("</USEBIO>")


def _participants_element(out: list[str], rows: list[dict[str, str]], kind: str) -> None:
    if not rows:
        return
    out.append(f'  <PARTICIPANTS EVENT_TYPE="{_attribute(kind)}">')
    teams = kind.upper() in _TEAM_TYPES
    individual = kind.upper() == "INDIVIDUAL"
    for cells in rows:
        _participant(out, cells, teams, individual)
    out.append("  </PARTICIPANTS>")


def _participant(out: list[str], cells: dict[str, str], teams: bool, individual: bool) -> None:
    pair_id = cells.get("PairId", "")
    direction = cells.get("Direction", "")
    found = re.fullmatch(r"(NS|EW) (\d+)", pair_id)
    if found is not None:
        direction, pair_id = found.group(1), found.group(2)
    total = (
        cells.get("TotalVP")
        or cells.get("TotalMP")
        or cells.get("TotalIMP")
        or cells.get("TotalScore")
        or ""
    )
    place = cells.get("Rank", "") + cells.get("Tied", "")
    names = [name.strip() for name in re.split(r"\s*[&;]\s*", cells.get("Names", ""))]
    names = [name for name in names if name]
    if teams:
        team_id = cells.get("TeamId") or pair_id
        team_name = cells.get("TeamName") or ("" if team_id == pair_id else pair_id)
        attributes = f'TEAM_ID="{_attribute(team_id)}" TEAM_NAME="{_attribute(team_name)}"'
        out.append(f"    <TEAM {attributes}>")
    elif individual:
        out.append("    <PLAYER>")
        _element(out, 6, "PLAYER_NUMBER", pair_id)
    else:
        out.append("    <PAIR>")
        _element(out, 6, "PAIR_NUMBER", pair_id)
        _element(out, 6, "DIRECTION", direction)
    _element(out, 6, "TOTAL_SCORE", total)
    if cells.get("TotalPercentage"):
        _element(out, 6, "PERCENTAGE", cells["TotalPercentage"])
    _element(out, 6, "PLACE", place)
    if cells.get("MasterPoints") or cells.get("MasterPointType"):
        _element(out, 6, "MASTER_POINTS_AWARDED", cells.get("MasterPoints", ""))
        _element(out, 6, "MASTER_POINT_TYPE", cells.get("MasterPointType", ""))
    for name, value in cells.items():
        element = element_of_tag(name)
        if element is not None and value:
            _element(out, 6, element, value)
    if individual:
        if names:
            _element(out, 6, "PLAYER_NAME", names[0])
        _element(out, 6, "NATIONAL_ID_NUMBER", cells.get("MemberID1", ""))
        out.append("    </PLAYER>")
        return
    for index, name in enumerate(names, start=1):
        out.append("      <PLAYER>")
        _element(out, 8, "PLAYER_NAME", name)
        if cells.get(f"MemberID{index}"):
            _element(out, 8, "NATIONAL_ID_NUMBER", cells[f"MemberID{index}"])
        if cells.get(f"ClubID{index}"):
            _element(out, 8, "CLUB_ID_NUMBER", cells[f"ClubID{index}"])
        out.append("      </PLAYER>")
    out.append("    </TEAM>" if teams else "    </PAIR>")


def _imp_elements(kind: str) -> tuple[str, str]:
    upper = kind.upper()
    if "BUTLER" in upper:
        return "NS_BUTLER_POINTS", "EW_BUTLER_POINTS"
    if "CROSS" in upper:
        return "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"
    return "NS_IMPS", "EW_IMPS"


def _board_element(out: list[str], board: _Written, kind: str) -> None:
    out.append(f'  <BOARD EVENT_TYPE="{_attribute(kind)}">')
    _element(out, 4, "BOARD_NUMBER", str(board.number))
    for name, value in board.extra.items():
        _element(out, 4, name, value)
    ns_imps, ew_imps = _imp_elements(kind)
    for cells in board.lines:
        out.append("    <TRAVELLER_LINE>")
        _element(out, 6, "NS_PAIR_NUMBER", cells.get("PairId_NS", ""))
        _element(out, 6, "EW_PAIR_NUMBER", cells.get("PairId_EW", ""))
        if cells.get("Direction"):
            _element(out, 6, "DIRECTION", cells["Direction"])
        arbitral = _arbitral(cells)
        if arbitral is not None:
            _element(out, 6, "SCORE", arbitral)
        else:
            _played(out, cells)
        for column, element in (
            ("MP_NS", "NS_MATCH_POINTS"),
            ("MP_EW", "EW_MATCH_POINTS"),
            ("IMP_NS", ns_imps),
            ("IMP_EW", ew_imps),
        ):
            if cells.get(column):
                _element(out, 6, element, cells[column])
        for name, value in cells.items():
            other = element_of_tag(name)
            if other is not None:
                _element(out, 6, other, value)
        out.append("    </TRAVELLER_LINE>")
    out.append("  </BOARD>")


def _arbitral(cells: dict[str, str]) -> str | None:
    ns, ew = cells.get("Percentage_NS", ""), cells.get("Percentage_EW", "")
    if not (ns.startswith("^") or ew.startswith("^")) or cells.get("Contract"):
        return None

    def percent(text: str, other: str) -> str:
        value = text.lstrip("^") or str(100 - int(other.lstrip("^") or 50))
        return value.split(".")[0].zfill(2)

    return "A" + percent(ns, ew) + percent(ew, ns)


def _played(out: list[str], cells: dict[str, str]) -> None:
    contract = cells.get("Contract", "")
    passed = contract.upper() in ("PASS", "AP", "P")
    if passed:
        contract = "PASS"
    elif re.fullmatch(r"[1-7][CDHSN]X{0,2}", contract.upper()):
        contract = contract.upper().replace("N", "NT", 1)
    _element(out, 6, "CONTRACT", contract)
    _element(out, 6, "PLAYED_BY", "" if passed else cells.get("Declarer", ""))
    lead = cells.get("Lead", "")
    if len(lead) >= 2 and lead[0].upper() in "SHDC":
        _element(out, 6, "LEAD", lead[1:].upper() + lead[0].upper())
    tricks = cells.get("Result", "")
    _element(out, 6, "TRICKS", "0" if passed else tricks)
    _element(out, 6, "SCORE", _score(cells, passed))


def _score(cells: dict[str, str], passed: bool) -> str:
    if passed:
        return "0"
    ns, ew = cells.get("Score_NS", ""), cells.get("Score_EW", "")
    if re.fullmatch(r"-?\d+", ns):
        return str(int(ns))
    if re.fullmatch(r"-?\d+", ew):
        return str(-int(ew))
    return ""


def _hands_element(out: list[str], board: _Written) -> None:
    assert board.deal is not None
    out.append("  <BOARD>")
    _element(out, 4, "BOARD_NUMBER", str(board.number))
    for seat, hand in zip(("North", "East", "South", "West"), board.deal.split(" "), strict=True):
        suits = hand.split(".")
        out.append("    <HAND>")
        _element(out, 6, "DIRECTION", seat)
        for name, ranks in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), suits, strict=True):
            _element(out, 6, name, ranks)
        out.append("    </HAND>")
    out.append("  </BOARD>")


# --- team matches -------------------------------------------------------------------------

_TEAM_TYPES = frozenset({"TEAMS", "SWISS_TEAMS", "TEAMS_OF_FOUR", "HEAD_TO_HEAD", "KO", "LADDER"})


def _team_rows(
    rows: list[dict[str, str]], games: Sequence[_TeamGame]
) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The teams (the TotalScoreTable's rows, then any team only a game names) and each
    team's TEAM_ID by its name (its TeamId, else a number not taken)."""
    out = [dict(row) for row in rows]
    named = {row.get("PairId", "") for row in out}
    for game in games:
        for team in (game.home, game.visit):
            if team not in named:
                named.add(team)
                out.append({"PairId": team})
    ids: dict[str, str] = {}
    taken = {row["TeamId"] for row in out if row.get("TeamId")}
    taken |= {
        row["PairId"] for row in out if row.get("PairId", "").isdigit() and not row.get("TeamId")
    }
    number = 0
    for row in out:
        name = row.get("PairId", "")
        if row.get("TeamId"):
            ids[name] = row["TeamId"]
        elif name.isdigit():
            ids[name] = name
        else:
            number += 1
            while str(number) in taken:
                number += 1
            taken.add(str(number))
            ids[name] = row["TeamId"] = str(number)
    return out, ids


@dataclass
class _MatchOut:
    round: str
    team: str
    opposing: str
    boards: dict[int, list[_TeamGame]] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)


def _matches(games: Sequence[_TeamGame]) -> list[_MatchOut]:
    matches: dict[tuple[str, frozenset[str]], _MatchOut] = {}
    for game in games:
        key = (game.round, frozenset((game.home, game.visit)))
        match = matches.get(key)
        if match is None:
            match = matches[key] = _MatchOut(game.round, game.home, game.visit)
        match.boards.setdefault(game.number, []).append(game)
        for name, value in game.tags.items():
            if name.startswith(MATCH_TAG_PREFIX):
                match.tags.setdefault(name, value)
    return list(matches.values())


def _team_sits_ns(game: _TeamGame, team: str, tables: list[_TeamGame], index: int) -> bool:
    if game.room == "open":
        return game.home == team
    if game.room == "closed":
        return game.home != team
    if len({table.home for table in tables}) > 1:
        return game.home == team  # each room's home team sits North-South
    return (index == 0) == (game.home == team)


def _match_element(out: list[str], match: _MatchOut, ids: dict[str, str]) -> None:
    out.append("  <MATCH>")
    if match.round:
        _element(out, 4, "ROUND_NUMBER", match.round)
    _element(out, 4, "TEAM", ids.get(match.team, match.team))
    _element(out, 4, "OPPOSING_TEAM", ids.get(match.opposing, match.opposing))
    numbers = sorted(match.boards)
    tags = dict(match.tags)
    for name, number in (("StartBoardNumber", numbers[0]), ("EndBoardNumber", numbers[-1])):
        given = tags.pop(MATCH_TAG_PREFIX + name, "")
        _element(out, 4, _match_element_name(MATCH_TAG_PREFIX + name), given or str(number))
    for name, value in tags.items():
        if not name.startswith(f"{MATCH_TAG_PREFIX}Board"):
            _element(out, 4, _match_element_name(name), value)
    for number in numbers:
        tables = match.boards[number]
        out.append("    <BOARD>")
        _element(out, 6, "BOARD_NUMBER", str(number))
        sits = [_team_sits_ns(game, match.team, tables, i) for i, game in enumerate(tables)]
        imps = next(
            (game.imps_ns for game, ns in zip(tables, sits, strict=True) if ns and game.imps_ns),
            None,
        )
        if imps is None:
            imps = next(
                (_negated(g.imps_ns) for g, ns in zip(tables, sits, strict=True) if g.imps_ns),
                None,
            )
        kept = next((g.tags[_BOARD_IMPS] for g in tables if _BOARD_IMPS in g.tags), "")
        if imps is not None or kept:
            _element(out, 6, "IMPS", imps if imps is not None else kept)
        for name, value in tables[0].tags.items():
            if name.startswith(f"{MATCH_TAG_PREFIX}Board") and name != _BOARD_IMPS:
                _element(out, 6, _match_element_name(name).removeprefix("BOARD_"), value)
        for game, ns in zip(tables, sits, strict=True):
            _team_line(out, game, ns)
        out.append("    </BOARD>")
    out.append("  </MATCH>")


_BOARD_IMPS = f"{MATCH_TAG_PREFIX}BoardImps"


def _match_element_name(tag: str) -> str:
    """``UsebioMatchTeamScore`` → ``TEAM_SCORE`` (the child of MATCH)."""
    element = element_of_tag(tag) or ""
    return element.removeprefix("MATCH_")


def _team_line(out: list[str], game: _TeamGame, team_ns: bool) -> None:
    out.append("      <TRAVELLER_LINE>")
    _element(out, 8, "DIRECTION", "NS" if team_ns else "EW")
    line_tags = {
        (element_of_tag(name) or "").removeprefix("LINE_"): value
        for name, value in game.tags.items()
        if name.startswith(LINE_TAG_PREFIX)
    }
    for name in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
        if name in line_tags:
            _element(out, 8, name, line_tags.pop(name))
    arbitral = line_tags.pop("SCORE", None)
    if arbitral is not None and not game.cells.get("Contract"):
        _element(out, 8, "SCORE", arbitral)
    else:
        inner: list[str] = []
        _played(inner, game.cells)
        out.extend("  " + line for line in inner)
    for name, value in line_tags.items():
        _element(out, 8, name, value)
    out.append("      </TRAVELLER_LINE>")
