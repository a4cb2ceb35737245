"""Reading USEBIO XML results (EBU/ABF/ACBL club scoring programs) as PBN boards.

One board per ``BOARD_NUMBER``: the deal from ``HANDSET`` when the document has one, every
traveller line as a ``ScoreTable`` row (pairs, contract, declarer, lead, tricks, NS/EW
score, matchpoints or IMPs), the event's data as tags (``Event``, ``Site``, ``Date``,
``Scoring``, and ``Usebio…`` for the rest), and in the first board a ``TotalScoreTable`` of
the standings the document states (place, pair, names, total, percentage, masterpoints), so
that ``pbntool score --check`` compares them with its own.

The document is untrusted: it is parsed with the same locked-down lxml parser as pbntool's
own XML (no entity expansion, no DTD loading, no network, libxml2's size limits), a document
type declaration with an internal subset is refused, and at most ``MAX_BYTES`` are read.  The
bytes are fed to the parser in chunks and each element is reduced to a few strings when it
ends and then dropped; the boards are written once the document has ended, because the
hands (``HANDSET``) come after the results.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from lxml import etree

from pbntool.deals import full_deal_problem
from pbntool.diagnostics import (
    USB001,
    USB002,
    USB003,
    USB004,
    USB005,
    XML001,
    XML002,
    Diagnostic,
)
from pbntool.formats.pbn.values import decode_contract, decode_deal
from pbntool.formats.pbn.writer import format_deal
from pbntool.formats.usebio.mapping import (
    KNOWN_EVENT_TYPES,
    SCORE_COLUMNS,
    TEAM_EVENT_TYPES,
    quote_cell,
    scoring_of,
    tag_of_element,
)
from pbntool.formats.xml.reader import safe_pull_parser
from pbntool.model import Board, Deal, Seat, Table, TableColumn, Tag
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.records import Record
from pbntool.scoring.duplicate import board_dealer, board_vulnerability

__all__ = ["MAX_BYTES", "iter_records"]

MAX_BYTES = 64 << 20
"""A USEBIO document is read whole (the hands come last); the largest real ones are < 1 MB."""
CHUNK = 1 << 16

_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W", "N": "N", "E": "E"}
_SEAT_WORDS.update({"S": "S", "W": "W"})
_RANKS = "AKQJT98765432"
_ARBITRAL = re.compile(r"A(\d{2,3}?)(\d{2,3})$")
_LEAD = re.compile(r"^(?:([SHDC])(10|[AKQJT2-9])|(10|[AKQJT2-9])([SHDC]))$")
_EVENT_CONTAINERS = frozenset({"PARTICIPANTS", "BOARD", "MATCH", "SESSION", "SECTION"})

_POINT_COLUMNS = {
    "NS_MATCH_POINTS": "MP_NS",
    "EW_MATCH_POINTS": "MP_EW",
    "NS_BUTLER_POINTS": "IMP_NS",
    "EW_BUTLER_POINTS": "IMP_EW",
    "NS_CROSS_IMP_POINTS": "IMP_NS",
    "EW_CROSS_IMP_POINTS": "IMP_EW",
    "NS_IMPS": "IMP_NS",
    "EW_IMPS": "IMP_EW",
}
"""Traveller point elements and the ScoreTable column each one is (``score --check`` reads
``MP_*`` and ``IMP_*``)."""

_LINE_KNOWN = frozenset(
    {
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "LEAD",
        "TRICKS",
        "SCORE",
        "DIRECTION",
        *_POINT_COLUMNS,
    }
)


@dataclass
class _Line:
    """One traveller line: its cells by ScoreTable column."""

    cells: dict[str, str]


@dataclass
class _Board:
    number: int
    line: int
    column: int
    lines: list[_Line] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)
    """Other data of the board (``BOARD_AVERAGE``, a match's teams) as tags."""


@dataclass
class _Participant:
    cells: dict[str, str]


@dataclass
class _MatchBoard:
    """One board of a team match: the net IMPs for the match's TEAM and a line per room."""

    number: int
    line: int
    imps: str
    lines: list[tuple[_Line, int]] = field(default_factory=list)
    """Each traveller line with its line in the document."""
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class _Match:
    """A ``MATCH``: its own children by element name (``TEAM``, ``ROUND_NUMBER``,
    ``TEAM_SCORE`` …) and its boards."""

    line: int
    values: dict[str, str] = field(default_factory=dict)
    boards: list[_MatchBoard] = field(default_factory=list)


@dataclass
class _Document:
    name: str
    data: bytearray = field(default_factory=bytearray)
    version: str | None = None
    event_type: str | None = None
    event_seen: bool = False
    tags: dict[str, str] = field(default_factory=dict)
    boards: dict[int, _Board] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    participants: list[_Participant] = field(default_factory=list)
    participants_type: str | None = None
    board_type: str | None = None
    deals: dict[int, Deal] = field(default_factory=dict)
    matches: list[_Match] = field(default_factory=list)
    current_match: _Match | None = None
    problems: list[Diagnostic] = field(default_factory=list)
    """Findings of the document that belong to no board (placed already)."""
    board_problems: dict[int, list[Diagnostic]] = field(default_factory=dict)
    root: tuple[int, int] = (1, 1)
    """Where the root element starts (findings about the whole document point there)."""
    _lines: list[bytes] | None = None

    def column(self, element: etree._Element) -> int:
        """1-based column of the element's ``<`` on its line (1 when it cannot be found)."""
        line = element.sourceline or 1
        if self._lines is None:
            self._lines = bytes(self.data).split(b"\n")
        text = self._lines[line - 1] if line - 1 < len(self._lines) else b""
        name = str(element.tag).encode("ascii", "replace")
        found = re.search(b"<" + re.escape(name) + rb"(?=[\s/>])", text)
        return found.start() + 1 if found else 1

    def report(self, diagnostic: Diagnostic, element: etree._Element, board: int | None) -> None:
        placed = Diagnostic(
            diagnostic.code,
            diagnostic.severity,
            diagnostic.message,
            self.name,
            element.sourceline or 1,
            self.column(element),
            board,
        )
        if board is None:
            self.problems.append(placed)
        else:
            self.board_problems.setdefault(board, []).append(placed)


def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    """The boards of a USEBIO document (see the module docstring)."""
    document = _Document(name)
    refused = _read(stream, document)
    if refused is not None:
        yield refused
        return
    yield from _records(document)


def _read(stream: BinaryIO, document: _Document) -> Record | None:
    """Parse the stream into ``document``; a Record of the finding that stopped it, if any."""
    parser = safe_pull_parser()
    first = True
    while True:
        chunk = stream.read(CHUNK)
        if not chunk:
            break
        if len(document.data) + len(chunk) > MAX_BYTES:
            chunk = chunk[: MAX_BYTES - len(document.data)]
            document.problems.append(_at(document, USB005.at(limit=f"{MAX_BYTES >> 20} MiB")))
            document.data.extend(chunk)
            return _ended(document)
        document.data.extend(chunk)
        if first:
            first = False
            refused = _internal_subset(document)
            if refused is not None:
                return refused
            chunk = _without_doctype(chunk)
        try:
            parser.feed(chunk)
            _events(parser, document)
        except etree.XMLSyntaxError as error:
            return _syntax(document, error)
        except _NotUsebio as error:
            return _whole(document, USB001.at(detail=str(error)), *document.root)
    try:
        parser.close()
        _events(parser, document)
    except etree.XMLSyntaxError as error:
        return _syntax(document, error)
    except _NotUsebio as error:
        return _whole(document, USB001.at(detail=str(error)), *document.root)
    return _ended(document)


def _ended(document: _Document) -> Record | None:
    if not document.event_seen:
        return _whole(document, USB001.at(detail="it has no EVENT element"), *document.root)
    return None


class _NotUsebio(Exception):
    pass


def _at(document: _Document, diagnostic: Diagnostic, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, document.name, line, column
    )


def _whole(document: _Document, diagnostic: Diagnostic, line: int = 1, column: int = 1) -> Record:
    found = (*document.problems, _at(document, diagnostic, line, column))
    return Record(None, found, document.name, line)


def _syntax(document: _Document, error: etree.XMLSyntaxError) -> Record:
    line, column = error.position
    detail = str(error).split(", line ")[0]
    return _whole(document, XML001.at(detail=detail), max(line, 1), max(column, 1))


_DOCTYPE = re.compile(rb"<!DOCTYPE[^>\[]*\[", re.I)


def _internal_subset(document: _Document) -> Record | None:
    """A DOCTYPE with an internal subset could declare entities: refused (a plain
    ``<!DOCTYPE USEBIO SYSTEM "…">`` is what every USEBIO file has, and is never fetched)."""
    head = bytes(document.data[:4096])
    found = _DOCTYPE.search(head)
    if found is None:
        return None
    line = head.count(b"\n", 0, found.start()) + 1
    column = found.start() - (head.rfind(b"\n", 0, found.start()) + 1) + 1
    what = "a document type declaration with an internal subset"
    return _whole(document, XML002.at(what=what), line, column)


_PLAIN_DOCTYPE = re.compile(rb"<!DOCTYPE[^>\[]*>", re.I)


def _without_doctype(chunk: bytes) -> bytes:
    """The first chunk with its document type declaration blanked out (same length, same
    line ends, so positions hold): libxml2 would try to fetch the external DTD it names
    even with DTD loading off, and fail on the network ban."""
    found = _PLAIN_DOCTYPE.search(chunk, 0, 4096)
    if found is None:
        return chunk
    blank = bytes(b if b in b"\r\n" else 0x20 for b in found.group())
    return chunk[: found.start()] + blank + chunk[found.end() :]


# --- the parse events ---------------------------------------------------------------------


def _events(parser: etree.XMLPullParser, document: _Document) -> None:
    for event, element in parser.read_events():
        if not isinstance(element.tag, str):
            continue
        if event == "start":
            _start(element, document)
        else:
            _end(element, document)


def _start(element: etree._Element, document: _Document) -> None:
    parent: etree._Element | None = element.getparent()
    if parent is None:
        document.root = (element.sourceline or 1, document.column(element))
        if element.tag != "USEBIO":
            raise _NotUsebio(f"the root element is <{element.tag!s}>")
        document.version = element.get("Version") or element.get("VERSION")
    elif element.tag == "EVENT" and parent.getparent() is None:
        document.event_seen = True
        document.event_type = (element.get("EVENT_TYPE") or "").strip()
    elif element.tag == "MATCH":
        document.current_match = _Match(element.sourceline or 1)
        document.matches.append(document.current_match)


def _end(element: etree._Element, document: _Document) -> None:
    parent = element.getparent()
    if parent is None:
        return
    tag = str(element.tag)
    owner = str(parent.tag)
    grand = parent.getparent()
    if owner == "CLUB" and grand is not None and grand.getparent() is None:
        document.tags[tag_of_element(tag)] = _text(element)
    elif owner == "EVENT" and tag not in _EVENT_CONTAINERS:
        _event_value(element, document)
    elif owner == "MATCH" and tag != "BOARD":
        if document.current_match is not None and not len(element):
            document.current_match.values[tag] = _text(element)
    elif tag in ("PAIR", "TEAM", "PLAYER") and owner == "PARTICIPANTS":
        _participant(element, document)
        _drop(element)
    elif tag == "PARTICIPANTS":
        document.participants_type = element.get("EVENT_TYPE") or document.participants_type
    elif tag == "BOARD" and owner == "MATCH":
        _match_board(element, document)
        _drop(element)
    elif tag == "BOARD" and owner in ("EVENT", "SECTION"):
        _board(element, document)
        _drop(element)
    elif tag == "BOARD" and owner == "HANDSET":
        _hands(element, document)
        _drop(element)
    elif tag == "MATCH":
        document.current_match = None
        _drop(element)


def _drop(element: etree._Element) -> None:
    """Free an element that has been read, and the siblings read before it."""
    element.clear(keep_tail=False)
    parent = element.getparent()
    if parent is not None:
        while element.getprevious() is not None:
            del parent[0]


def _text(element: etree._Element | None) -> str:
    if element is None or element.text is None:
        return ""
    return " ".join(element.text.split())


def _child(element: etree._Element, name: str) -> str:
    return _text(element.find(name))


def _event_value(element: etree._Element, document: _Document) -> None:
    tag = str(element.tag)
    if len(element):
        for child in element:
            if isinstance(child.tag, str) and not len(child):
                document.tags[tag_of_element(tag, str(child.tag))] = _text(child)
        return
    document.tags[tag_of_element(tag)] = _text(element)


# --- participants -------------------------------------------------------------------------


def _participant(element: etree._Element, document: _Document) -> None:
    kind = str(element.tag)
    cells: dict[str, str] = {"Kind": kind}
    if kind == "TEAM":
        # PairId is the team's name, as HomeTeam and VisitTeam give it; TeamId its number.
        identifier = element.get("TEAM_ID") or _child(element, "TEAM_ID")
        team_name = element.get("TEAM_NAME") or _child(element, "TEAM_NAME")
        cells["PairId"] = team_name or identifier
        cells["TeamId"] = identifier if team_name and identifier != team_name else ""
    elif kind == "PAIR":
        cells["PairId"] = _pair_id(_child(element, "PAIR_NUMBER"), _child(element, "DIRECTION"))
    else:
        cells["PairId"] = _child(element, "PLAYER_NUMBER")
    cells["Direction"] = _child(element, "DIRECTION")
    place = _child(element, "PLACE")
    cells["Rank"] = place.rstrip("=").strip()
    cells["Tied"] = "=" if place.endswith("=") else ""
    cells["Total"] = _child(element, "TOTAL_SCORE")
    cells["TotalPercentage"] = _child(element, "PERCENTAGE")
    points = element.find("MASTER_POINTS")
    source = points if points is not None else element
    cells["MasterPoints"] = _child(source, "MASTER_POINTS_AWARDED")
    cells["MasterPointType"] = _child(source, "MASTER_POINT_TYPE")
    for name in ("BOARDS_PLAYED", "ADJUSTMENT", "HANDICAP", "WINS_OR_DRAWS", "STRAT_PLACE"):
        cells[tag_of_element(name)] = _child(element, name)
    cells[tag_of_element("STRAT_NUMBER")] = _child(element, "STRAT_NUMBER")
    players = element.findall("PLAYER") if kind != "PLAYER" else [element]
    if kind == "TEAM" and not players:
        players = [player for pair in element.findall("PAIR") for player in pair.findall("PLAYER")]
    names = [_child(player, "PLAYER_NAME") for player in players]
    cells["Names"] = " & ".join(name for name in names if name)
    for index, player in enumerate(players, start=1):
        cells[f"MemberID{index}"] = _child(player, "NATIONAL_ID_NUMBER")
        cells[f"ClubID{index}"] = _child(player, "CLUB_ID_NUMBER")
    document.participants.append(_Participant(cells))


def _pair_id(number: str, direction: str) -> str:
    """A pair's name in the standings: ``1NS`` as Compscore writes it, ``NS 1`` when another
    writer gives the number and the direction apart (two-winner movements: the name
    ``score`` gives a pair that sat one way)."""
    direction = direction.strip().upper()
    if direction in ("NS", "EW") and number.isdigit():
        return f"{direction} {number}"
    return number


# --- boards -------------------------------------------------------------------------------


def _board(element: etree._Element, document: _Document) -> None:
    number_text = _child(element, "BOARD_NUMBER")
    if not number_text.isdigit() or int(number_text) < 1:
        detail = "not a board number"
        document.report(
            USB003.at(
                element="BOARD_NUMBER",
                value=f'"{number_text}"',
                detail=detail,
                action="the board is skipped",
            ),
            element,
            None,
        )
        return
    number = int(number_text)
    document.board_type = element.get("EVENT_TYPE") or document.board_type
    board = document.boards.get(number)
    if board is None:
        board = _Board(number, element.sourceline or 1, document.column(element))
        document.boards[number] = board
        document.order.append(number)
    average = _child(element, "BOARD_AVERAGE")
    if average:
        board.extra["UsebioBoardAverage"] = average
    for line in element.findall("TRAVELLER_LINE"):
        board.lines.append(_traveller(line, document, number))


def _match_board(element: etree._Element, document: _Document) -> None:
    """A board of a team match: kept with its match (each line becomes a game)."""
    match = document.current_match
    number_text = _child(element, "BOARD_NUMBER")
    if match is None or not number_text.isdigit() or int(number_text) < 1:
        _board(element, document)  # reported (a bad number) or read as a traveller
        return
    number = int(number_text)
    board = _MatchBoard(number, element.sourceline or 1, _child(element, "IMPS"))
    if board.imps and not re.fullmatch(r"[+-]?\d+(\.\d+)?", board.imps):
        _team_value(document, element.find("IMPS"), number, "a number of IMPs")
    for child in element:
        if not isinstance(child.tag, str):
            continue
        name = str(child.tag)
        if name == "TRAVELLER_LINE":
            line = _traveller(child, document, number)
            sat = line.cells.get("Direction", "")
            if sat.upper() not in ("NS", "EW"):
                where = child.find("DIRECTION")
                _team_value(document, where if where is not None else child, number, "NS or EW")
            board.lines.append((line, child.sourceline or 1))
        elif name not in ("BOARD_NUMBER", "IMPS") and not len(child):
            board.extra[tag_of_element("MATCH", "BOARD", name)] = _text(child)
    match.boards.append(board)


def _team_value(
    document: _Document, element: etree._Element | None, number: int, expected: str
) -> None:
    """USB003 for a match board's IMPS or a line's DIRECTION that does not read."""
    if element is None:
        return
    name = str(element.tag)
    action = (
        "the room of the line is not known"
        if name in ("DIRECTION", "TRAVELLER_LINE")
        else "kept as written, not as the rooms' ScoreIMP"
    )
    finding = USB003.at(
        element="DIRECTION" if name == "TRAVELLER_LINE" else name,
        value=f'"{_text(element) if name != "TRAVELLER_LINE" else ""}"',
        detail=f"not {expected}",
        action=action,
    )
    document.report(finding, element, number)
    document.board_type = element.get("EVENT_TYPE") or document.board_type


def _traveller(element: etree._Element, document: _Document, number: int) -> _Line:
    values = {str(child.tag): _text(child) for child in element if isinstance(child.tag, str)}
    cells: dict[str, str] = {}
    ns, ew = values.get("NS_PAIR_NUMBER", ""), values.get("EW_PAIR_NUMBER", "")
    cells["PairId_NS"], cells["PairId_EW"] = ns, ew
    if values.get("DIRECTION"):
        cells["Direction"] = values["DIRECTION"]
    score = values.get("SCORE", "").replace(" ", "")
    arbitral = _ARBITRAL.match(score.upper())
    if arbitral is not None or (not values.get("CONTRACT") and not score):
        cells.update(Contract="", Declarer="", Result="", Score_NS="", Score_EW="")
        if arbitral is not None:
            cells["Percentage_NS"] = "^" + str(int(arbitral.group(1)))
            cells["Percentage_EW"] = "^" + str(int(arbitral.group(2)))
    else:
        _played(element, values, cells, document, number)
    for name, column in _POINT_COLUMNS.items():
        if name in values:
            cells[column] = values[name]
    for name, value in values.items():
        if name not in _LINE_KNOWN:
            cells[tag_of_element(name)] = value
    return _Line(cells)


def _played(
    element: etree._Element,
    values: dict[str, str],
    cells: dict[str, str],
    document: _Document,
    number: int,
) -> None:
    def bad(name: str, detail: str) -> None:
        child = element.find(name)
        finding = USB003.at(
            element=name,
            value=f'"{values.get(name, "")}"',
            detail=detail,
            action="the cell is left empty",
        )
        document.report(finding, child if child is not None else element, number)

    text = values.get("CONTRACT", "").upper().replace(" ", "")
    contract = None
    if text in ("PASS", "P", "AP", "PASSED", "ALLPASS"):
        cells["Contract"] = "Pass"
        passed = True
    else:
        passed = False
        contract, problems = decode_contract(text)
        if contract is None or problems or contract.level is None:
            bad("CONTRACT", "not a contract")
            cells["Contract"] = ""
        else:
            cells["Contract"] = str(contract)
    declarer = values.get("PLAYED_BY", "").strip().upper()[:1]
    if passed:
        cells["Declarer"] = ""
    elif declarer in _SEATS:
        cells["Declarer"] = declarer
    else:
        bad("PLAYED_BY", "not a seat (N, E, S or W)")
        cells["Declarer"] = ""
    lead = values.get("LEAD", "").strip().upper()
    if lead:
        read = _LEAD.match(lead)
        if read is None:
            bad("LEAD", "not a card (rank then suit, KD)")
        else:
            suit = read.group(1) or read.group(4)
            rank = (read.group(2) or read.group(3)).replace("10", "T")
            cells["Lead"] = suit + rank
    tricks = values.get("TRICKS", "").strip()
    if passed:
        cells["Result"] = ""
    elif tricks.isdigit() and int(tricks) <= TRICKS_PER_DEAL:
        cells["Result"] = str(int(tricks))
    else:
        bad("TRICKS", "not a number of tricks (0 to 13)")
        cells["Result"] = ""
    score = values.get("SCORE", "").replace(" ", "")
    if re.fullmatch(r"[+-]?\d+", score):
        points = int(score)
        cells["Score_NS"] = str(points) if points >= 0 else ""
        cells["Score_EW"] = str(-points) if points < 0 else ""
    else:
        if score:
            bad("SCORE", "not a score (NS points, or A and two percentages)")
        cells["Score_NS"], cells["Score_EW"] = "", ""


# --- hands --------------------------------------------------------------------------------


def _hands(element: etree._Element, document: _Document) -> None:
    number_text = _child(element, "BOARD_NUMBER")
    if not number_text.isdigit():
        return
    number = int(number_text)
    holdings: dict[str, str] = {}
    problem = None
    for hand in element.findall("HAND"):
        seat = _SEAT_WORDS.get(_child(hand, "DIRECTION").upper())
        if seat is None or seat in holdings:
            problem = f"the seat {_child(hand, 'DIRECTION') or '(none)'} is not one of four"
            break
        suits = []
        for suit in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"):
            ranks = _child(hand, suit).upper().replace("10", "T").replace(" ", "")
            if any(rank not in _RANKS for rank in ranks):
                problem = f"{seat} {suit.lower()} {ranks!r} are not ranks"
            suits.append(ranks)
        holdings[seat] = ".".join(suits)
    if problem is None and len(holdings) != 4:
        problem = f"{len(holdings)} hands instead of 4"
    deal = None
    if problem is None:
        text = "N:" + " ".join(holdings[seat] for seat in "NESW")
        deal, problems, _offsets = decode_deal(text)
        if deal is None or problems or full_deal_problem(deal) is not None:
            problem = f"the hands {text[2:]} are not a deal"
            deal = None
    if deal is None:
        document.report(USB004.at(board=number, detail=problem), element, number)
        return
    document.deals[number] = deal


# --- records ------------------------------------------------------------------------------


def _scoring(document: _Document) -> tuple[str | None, str]:
    """The PBN Scoring tag and the event type it came from, with USB002 when the event's own
    type is not a USEBIO one."""
    stated = document.event_type or ""
    method = document.tags.get(tag_of_element("BOARD_SCORING_METHOD"))
    kind = stated.upper()
    if kind in KNOWN_EVENT_TYPES:
        return scoring_of(kind, method), kind
    for other in (document.participants_type, document.board_type):
        if other and other.strip().upper() in KNOWN_EVENT_TYPES:
            used = other.strip().upper()
            action = f"the boards' event type {used} is used"
            document.problems.append(_event_finding(document, stated, action))
            return scoring_of(used, method), used
    found = scoring_of("PAIRS", method) if method else None
    if found is None and document.tags.get(tag_of_element("SCORING_METHOD"), "").upper() == "IMPS":
        found = "IMP"
    action = "no method is known" if found is None else f"scored as {found}"
    document.problems.append(_event_finding(document, stated, action))
    return found, kind


def _event_finding(document: _Document, stated: str, action: str) -> Diagnostic:
    data = bytes(document.data[: 1 << 16])
    found = re.search(rb"<EVENT[\s>]", data)
    offset = found.start() if found else 0
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return _at(document, USB002.at(value=f'"{stated}"', action=action), line, column)


def _butler_variant(document: _Document) -> str:
    """``IMP;Butler-2`` (datum without the top and bottom score, as Compscore computes it)
    unless every stated ``BOARD_AVERAGE`` is the plain mean of the board's scores."""
    from pbntool.scoring.comparison import butler_datum

    plain = trimmed = 0
    for board in document.boards.values():
        average = board.extra.get("UsebioBoardAverage", "")
        scores = [_line_score(line) for line in board.lines]
        known = [score for score in scores if score is not None]
        if not re.fullmatch(r"-?\d+", average) or not known:
            continue
        plain += butler_datum(known, 0) == int(average)
        trimmed += butler_datum(known, 1) == int(average)
    return "IMP;Butler" if plain > trimmed else "IMP;Butler-2"


def _line_score(line: _Line) -> int | None:
    ns, ew = line.cells.get("Score_NS", ""), line.cells.get("Score_EW", "")
    if ns.isdigit():
        return int(ns)
    return -int(ew) if ew.isdigit() else None


def _records(document: _Document) -> Iterator[Record]:
    scoring, kind = _scoring(document)
    if scoring == "IMP;Butler":
        scoring = _butler_variant(document)
    tags = _event_tags(document, scoring, kind)
    first = True
    pending = list(document.problems)
    if document.matches:
        first = False
        yield from _team_records(document, tags, scoring, kind, pending)
        pending = []
    for number in document.order:
        board = document.boards[number]
        tables = [_score_table(board)] if board.lines else []
        if first and document.participants:
            tables.append(_total_table(document, scoring, kind))
        first = False
        model = _board_model(number, document.deals.get(number), tags, board, tables)
        problems = tuple(pending) + tuple(document.board_problems.get(number, ()))
        pending = []
        yield Record(model, problems, document.name, board.line)
    if pending:
        yield Record(None, tuple(pending), document.name, pending[0].line or 1)


def _event_tags(document: _Document, scoring: str | None, kind: str) -> list[Tag]:
    values = dict(document.tags)
    event = values.get("UsebioEventDescription") or values.get("UsebioTitle") or ""
    site = ", ".join(
        part for part in (values.get("UsebioClubName"), values.get("UsebioVenue")) if part
    )
    tags = [Tag("Event", event), Tag("Site", site), Tag("Date", _date(values.get("UsebioDate")))]
    if scoring is not None:
        tags.append(Tag("Scoring", scoring))
    if document.version:
        tags.append(Tag("UsebioVersion", document.version))
    if document.event_type is not None:
        tags.append(Tag("UsebioEventType", document.event_type))
    tags.extend(Tag(name, value) for name, value in values.items() if name != "UsebioEventType")
    return tags


def _date(text: str | None) -> str:
    """``dd/mm/yyyy`` (1.2) or ``yyyy-mm-dd`` (1.3) as PBN's ``yyyy.mm.dd``."""
    value = (text or "").strip()
    found = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})", value)
    if found:
        return f"{found.group(3)}.{int(found.group(2)):02d}.{int(found.group(1)):02d}"
    found = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", value)
    if found:
        return f"{found.group(1)}.{int(found.group(2)):02d}.{int(found.group(3)):02d}"
    return "?"


def _board_model(
    number: int, deal: Deal | None, event: list[Tag], board: _Board, tables: list[Table]
) -> Board:
    dealer, vulnerability = board_dealer(number), board_vulnerability(number)
    tags = [*event[:3], Tag("Board", str(number)), Tag("Dealer", dealer.letter)]
    tags.append(Tag("Vulnerable", str(vulnerability)))
    tags.append(Tag("Deal", format_deal(deal, Seat.NORTH) if deal is not None else "?"))
    tags.extend(event[3:])
    tags.extend(Tag(name, value) for name, value in board.extra.items() if value)
    return Board(
        tags=tuple(tags),
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        tables=tuple(tables),
    )


def _table(name: str, columns: list[str], rows: list[dict[str, str]]) -> Table:
    table_columns = tuple(TableColumn(column) for column in columns)
    cells = tuple(tuple(quote_cell(row.get(column)) for column in columns) for row in rows)
    header = ";".join(str(column) for column in table_columns)
    return Table(name, header, table_columns, cells)


def _score_table(board: _Board) -> Table:
    present = {name for line in board.lines for name in line.cells}
    columns = [name for name in SCORE_COLUMNS if name in present]
    columns += sorted(present - set(SCORE_COLUMNS))
    return _table("ScoreTable", columns, [line.cells for line in board.lines])


def _total_table(document: _Document, scoring: str | None, kind: str) -> Table:
    if scoring == "MP":
        total = "TotalMP"
    elif document.matches and _victory_points(document):
        total = "TotalVP"  # pbntool's column for a team's VPs (score --vp writes it)
    elif (scoring is not None and scoring.startswith("IMP")) or kind in TEAM_EVENT_TYPES:
        total = "TotalIMP"
    else:
        total = "TotalScore"
    rows = []
    for participant in document.participants:
        cells = dict(participant.cells)
        cells[total] = cells.pop("Total", "")
        rows.append(cells)
    order = ["Rank", "PairId", "TeamId", "Direction", "Names", total, "TotalPercentage"]
    present = {name for row in rows for name, value in row.items() if value}
    present.discard("Kind")
    columns = [name for name in order if name in present]
    rest = sorted(present - set(order))
    return _table("TotalScoreTable", columns + rest, rows)


# --- team matches -------------------------------------------------------------------------

_MATCH_OWN = frozenset({"TEAM", "OPPOSING_TEAM", "ROUND_NUMBER"})
"""MATCH children that become HomeTeam, VisitTeam and Round (the others: ``UsebioMatch…``)."""


def _victory_points(document: _Document) -> bool:
    """Whether the teams' TOTAL_SCORE are VPs: the event says so, or a match states VPs."""
    method = document.tags.get(tag_of_element("MATCH_SCORING_METHOD"), "").upper()
    if method:
        return method.startswith("VP") or method.startswith("VICTORY")
    return any("TEAM_VICTORY_POINTS" in match.values for match in document.matches)


def _team_names(document: _Document) -> dict[str, str]:
    """A team's name by its TEAM_ID (and by its name)."""
    names: dict[str, str] = {}
    for participant in document.participants:
        cells = participant.cells
        if cells.get("Kind") != "TEAM":
            continue
        name = cells.get("PairId", "")
        names[cells.get("TeamId") or name] = name
        names.setdefault(name, name)
    return names


def _team_records(
    document: _Document,
    event: list[Tag],
    scoring: str | None,
    kind: str,
    pending: list[Diagnostic],
) -> Iterator[Record]:
    """One game per traveller line of every match: HomeTeam the match's TEAM, Room Open where
    it sits North-South and Closed where it sits East-West, the board's IMPS as each room's
    ScoreIMP (for North-South), the lead as a play of one card."""
    names = _team_names(document)
    first = True
    reported: set[int] = set()
    for match in document.matches:
        home = names.get(match.values.get("TEAM", ""), match.values.get("TEAM", ""))
        visit = names.get(
            match.values.get("OPPOSING_TEAM", ""), match.values.get("OPPOSING_TEAM", "")
        )
        own = {
            tag_of_element("MATCH", name): value
            for name, value in match.values.items()
            if name not in _MATCH_OWN and value
        }
        for board in match.boards:
            for line, line_number in board.lines:
                text = _team_game(document, event, board, line, match, (home, visit), own)
                model = _parse_game(text)
                if model is None:  # not expected: every value is quoted
                    continue  # pragma: no cover
                if first and document.participants:
                    total = _total_table(document, scoring, kind)
                    model = dataclasses.replace(model, tables=(*model.tables, total))
                problems = list(pending) if first else []
                if board.number not in reported:
                    reported.add(board.number)
                    problems += document.board_problems.get(board.number, [])
                first = False
                yield Record(model, tuple(problems), document.name, line_number)


def _team_game(
    document: _Document,
    event: list[Tag],
    board: _MatchBoard,
    line: _Line,
    match: _Match,
    teams: tuple[str, str],
    own: dict[str, str],
) -> str:
    cells = line.cells
    number = board.number
    deal = document.deals.get(number)
    tags: list[tuple[str, str]] = [(tag.name, tag.value) for tag in event[:3]]
    tags += [
        ("Board", str(number)),
        ("Dealer", board_dealer(number).letter),
        ("Vulnerable", str(board_vulnerability(number))),
        ("Deal", format_deal(deal, Seat.NORTH) if deal is not None else "?"),
    ]
    tags += [(tag.name, tag.value) for tag in event[3:]]
    home, visit = teams
    tags += [("HomeTeam", home), ("VisitTeam", visit)]
    if match.values.get("ROUND_NUMBER"):
        tags.append(("Round", match.values["ROUND_NUMBER"]))
    sat = cells.get("Direction", "").upper()
    if sat in ("NS", "EW"):
        tags.append(("Room", "Open" if sat == "NS" else "Closed"))
    for name in ("Contract", "Declarer", "Result"):
        if cells.get(name):
            tags.append((name, cells[name]))
    if cells.get("Score_NS"):
        tags.append(("Score", f"NS {cells['Score_NS']}"))
    elif cells.get("Score_EW"):
        tags.append(("Score", f"NS -{cells['Score_EW']}"))
    imps = _negated(board.imps) if sat == "EW" else board.imps
    if re.fullmatch(r"-?\d+(\.\d+)?", imps) and sat in ("NS", "EW"):
        tags.append(("ScoreIMP", f"NS {imps}"))
    elif board.imps:
        tags.append((tag_of_element("MATCH", "BOARD", "IMPS"), board.imps))
    for name, value in (("PairId_NS", "NS_PAIR_NUMBER"), ("PairId_EW", "EW_PAIR_NUMBER")):
        if cells.get(name):
            tags.append((tag_of_element("LINE", value), cells[name]))
    for ns, ew in (("Percentage_NS", "Percentage_EW"),):
        if cells.get(ns) or cells.get(ew):  # an arbitral score: kept as written
            percentages = f"A{cells.get(ns, '').lstrip('^')}{cells.get(ew, '').lstrip('^')}"
            tags.append((tag_of_element("LINE", "SCORE"), percentages))
    for name, value in cells.items():
        if name.startswith("Usebio") and value:
            tags.append(("UsebioLine" + name.removeprefix("Usebio"), value))
    tags += sorted(own.items())
    tags += sorted(board.extra.items())
    text = "".join(f"[{name} {_quoted(value)}]\n" for name, value in tags)
    lead, declarer = cells.get("Lead", ""), cells.get("Declarer", "")
    if len(lead) == 2 and declarer in _SEATS:
        leader = _SEATS[declarer].next(1)
        text += f'[Play "{leader.letter}"]\n{lead} - - -\n'
    return text


def _negated(value: str) -> str:
    value = value.strip()
    if not value:
        return value
    return value[1:] if value.startswith("-") else "-" + value.lstrip("+")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parse_game(text: str) -> Board | None:
    from pbntool.formats.pbn import iter_records as read_pbn

    for record in read_pbn(io.BytesIO(text.encode("utf-8")), "usebio"):
        if record.board is not None:
            return record.board
    return None
