"""Which results are results of the same board: grouping the games of an event.

``--group-by`` choices:

* ``auto`` (default): games with the same Event, Section and Board number are one board,
  unless their deals differ (then the second deal is another board, with an EVT016 warning);
  games with the same deal are one board even when those tags disagree (an open-room file and
  a closed-room file with different Event names).  A game with a ScoreTable brings the
  results of every table: its rows are the board's results.
* ``event``: Event, Section and Board number only; deals are not looked at.
* ``deal``: the deal only (games without a complete deal fall back to Event, Section, Board).
* ``room``: Event, Section, Board number and the match (HomeTeam and VisitTeam): one group per
  team match, its open and closed rooms.
* ``table``: each game with a ScoreTable on its own, its rows the results (games without one
  are not scored).

The team methods (``imp``, ``bam``) then pair the tables of a group: within one match the open
room with the closed room.  A match is the same two teams, HomeTeam and VisitTeam either way
round (RealBridge swaps them between the rooms: each room's home team sits North-South), in the
same Round and Stage where those are given; else the same file.  Without Room tags, the table
whose HomeTeam is the match's first home team is the open room.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from pbntool.diagnostics import EVT015, EVT016, Diagnostic
from pbntool.tools.score.games import GameEntry, Place

__all__ = [
    "BoardGroup",
    "GroupBy",
    "MatchPair",
    "group_games",
    "match_key",
    "pair_rooms",
    "placed",
    "rooms_pairing",
]


class GroupBy(Enum):
    """How the games of an event are grouped into boards."""

    AUTO = "auto"
    EVENT = "event"
    DEAL = "deal"
    ROOM = "room"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class BoardGroup:
    """The games that played one board, in reading order.

    ``table_game`` is the first game with a ScoreTable: when there is one, its rows are the
    board's results (the traveller) and the other games are scored against them.
    """

    event: str
    section: str
    number: int | None
    games: tuple[GameEntry, ...]

    @property
    def table_game(self) -> GameEntry | None:
        """The game whose ScoreTable lists the board's results, if any."""
        for game in self.games:
            if game.score_table is not None:
                return game
        return None

    @property
    def event_key(self) -> tuple[str, str]:
        """Event and Section of the group (see ``GameEntry.event_key``)."""
        named = next((game for game in self.games if game.event), self.games[0])
        return named.event_key


def placed(diagnostic: Diagnostic, game: GameEntry, place: Place | None = None) -> Diagnostic:
    """A diagnostic about ``game``, at ``place`` (default: the game's first line)."""
    where = place or Place(game.key.line)
    return Diagnostic(
        diagnostic.code,
        diagnostic.severity,
        diagnostic.message,
        game.key.file,
        where.line,
        where.column if where.column is not None else 1,
        game.number,
    )


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def find(self, item: object) -> object:
        parent = self.parent.setdefault(item, item)
        if parent is item or parent == item:
            return item
        root = self.find(parent)
        self.parent[item] = root
        return root

    def union(self, first: object, second: object) -> None:
        root_first, root_second = self.find(first), self.find(second)
        if root_first != root_second:
            self.parent[root_second] = root_first


def group_games(
    games: Sequence[GameEntry], by: GroupBy = GroupBy.AUTO
) -> tuple[list[BoardGroup], list[Diagnostic]]:
    """Group an event's games into boards.

    Args:
        games: Every game, in reading order.
        by: The grouping rule (see the module docstring).

    Returns:
        The groups in the order of their first game, and the warnings about games that share
        a board number but not a deal.
    """
    if by is GroupBy.TABLE:
        tabled = [game for game in games if game.score_table is not None]
        return [_group([game]) for game in tabled], []
    links = _UnionFind()
    split: dict[str, list[tuple[GameEntry, GameEntry]]] = {}
    first_deal: dict[tuple[object, ...], tuple[str, GameEntry]] = {}
    by_deal: dict[str, list[tuple[object, ...]]] = defaultdict(list)
    for game in games:
        node: tuple[object, ...] = ("game", game.key)
        key = _key(game, by)
        deal = game.deal_id
        if deal is not None and (by is GroupBy.DEAL or key is None):
            links.union(node, ("deal", deal))
            continue
        if key is None:
            links.find(node)
            continue
        if by is GroupBy.EVENT or deal is None:
            links.union(node, ("key", key))
            continue
        seen = first_deal.setdefault(key, (deal, game))
        board: tuple[object, ...] = ("key", key)
        if seen[0] != deal:
            if seen[1].key.file == game.key.file:  # across files: other rounds, routine
                split.setdefault(game.key.file, []).append((game, seen[1]))
            board = ("key", key, deal)
        links.union(node, board)
        if by is not GroupBy.ROOM:  # one group per match: other matches stay apart
            _join_same_deal(links, by_deal[deal], board)
    diagnostics = [_different_deal(found) for found in split.values()]
    members: dict[object, list[GameEntry]] = defaultdict(list)
    for game in games:
        members[links.find(("game", game.key))].append(game)
    return [_group(group) for group in members.values()], diagnostics


def _join_same_deal(
    links: _UnionFind, boards: list[tuple[object, ...]], board: tuple[object, ...]
) -> None:
    """One deal under tags that disagree is one board: join it with the boards of the same
    deal in other events.  Within one event, boards with other numbers stay apart (a deal
    dealt twice is not one board)."""
    event = _event_of(board)
    if board not in boards:
        for other in boards:
            if _event_of(other) != event:
                links.union(other, board)
        boards.append(board)


def _event_of(board: tuple[object, ...]) -> object:
    key = board[1]
    assert isinstance(key, tuple)
    return key[:-1]


def _key(game: GameEntry, by: GroupBy) -> tuple[object, ...] | None:
    if game.number is None:
        return None
    if by is GroupBy.ROOM:
        teams = frozenset(team for team in (game.home_team, game.visit_team) if team)
        return (game.event, game.section, teams, game.number)
    return (game.event, game.section, game.number)


def _different_deal(found: list[tuple[GameEntry, GameEntry]]) -> Diagnostic:
    """EVT016 once per file, at its first game whose deal differs, counting the others."""
    game, first = found[0]
    boards = {other.number for other, _ in found[1:]} - {game.number}
    more = f" ({len(boards)} more such boards in this file)" if boards else ""
    return placed(
        EVT016.at(
            board=game.number,
            event=game.event or "?",
            file=first.key.file,
            line=first.key.line,
            more=more,
        ),
        game,
        None if "Board" not in game.stated else game.stated["Board"].place,
    )


def _group(games: Sequence[GameEntry]) -> BoardGroup:
    """A group named after the first of its games that names an Event (games found across
    files may leave it out)."""
    named = next((game for game in games if game.event), games[0])
    return BoardGroup(named.event, named.section, named.number, tuple(games))


# --- team matches ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchPair:
    """The two tables of one board in a team match: ``open`` has the home team North-South."""

    match: tuple[str, str]
    """(home team, visiting team): the names, or the room's NS labels when they are not given."""
    open: GameEntry
    closed: GameEntry


def pair_rooms(group: BoardGroup) -> tuple[list[MatchPair], list[Diagnostic]]:
    """Pair the open and closed rooms of each match that played the board.

    A match is the same HomeTeam and VisitTeam, or else the same file.  When the Room tags do
    not tell two tables apart (both Open, or missing), the players' names on the other boards
    of the match decide, else the order of the file; EVT015 says so.  Tables that cannot be
    paired (a third table in one match) are left out with EVT015.
    """
    matches: dict[tuple[object, ...], list[GameEntry]] = defaultdict(list)
    for game in group.games:
        if game.entry is None:
            continue
        matches[match_key(game)].append(game)
    pairs: list[MatchPair] = []
    diagnostics: list[Diagnostic] = []
    for key, tables in matches.items():
        if key[0] == "teams" and not any(game.room for game in tables):
            found, problems = _pair_by_home_team(tables)
        else:
            found, problems = _pair_match(tables)
        diagnostics.extend(problems)
        for open_room, closed_room in found:
            pairs.append(MatchPair(_match_name(key, open_room), open_room, closed_room))
    return pairs, diagnostics


def match_key(game: GameEntry) -> tuple[object, ...]:
    """The match a table belongs to: its two teams either way round, with Round and Stage
    (else its file)."""
    if game.home_team and game.visit_team:
        teams = frozenset((game.home_team, game.visit_team))
        return ("teams", teams, game.round, game.stage)
    return ("file", game.key.file)


def rooms_pairing(games: Iterable[GameEntry]) -> str | None:
    """How the rooms of the games' matches are paired, for the summary (None: no team match)."""
    teams = [game for game in games if game.home_team and game.visit_team]
    if not teams:
        return None
    if all(game.room for game in teams):
        return "rooms paired by Room within each HomeTeam/VisitTeam match"
    swapped = {(game.home_team, game.visit_team) for game in teams}
    either = any((visit, home) in swapped for home, visit in swapped)
    extra = [name for name in ("Round", "Stage") if any(getattr(g, name.lower()) for g in teams)]
    how = "the unordered HomeTeam/VisitTeam pair" if either else "HomeTeam/VisitTeam"
    if extra:
        how += " and " + "/".join(extra)
    return f"no Room tags: rooms paired by {how}, the home team's table as the open room"


def _match_name(key: tuple[object, ...], game: GameEntry) -> tuple[str, str]:
    if key[0] != "file":
        assert game.home_team is not None and game.visit_team is not None
        return (game.home_team, game.visit_team)
    return (f"{game.key.file} NS in open room", f"{game.key.file} EW in open room")


def _pair_by_home_team(tables: list[GameEntry]) -> tuple[_Pairs, list[Diagnostic]]:
    """No Room tags: the first table's home team plays North-South in the open room; the
    table where that team is the visitor is the closed room."""
    home = tables[0].home_team
    opens = [game for game in tables if game.home_team == home]
    closeds = [game for game in tables if game.home_team != home]
    if len(opens) != 1 or len(closeds) != 1:
        return _pair_match(tables)
    return [(opens[0], closeds[0])], []


_Pairs = list[tuple[GameEntry, GameEntry]]


def _pair_match(tables: list[GameEntry]) -> tuple[_Pairs, list[Diagnostic]]:
    """Open rooms with closed rooms in order; what remains two by two in order (EVT015)."""
    opens = [game for game in tables if game.room == "open"]
    closeds = [game for game in tables if game.room == "closed"]
    pairs: _Pairs = list(zip(opens, closeds, strict=False))
    paired = {game.key for pair in pairs for game in pair}
    leftover = [game for game in tables if game.key not in paired]
    diagnostics: list[Diagnostic] = []
    while len(leftover) >= 2:
        first, second = leftover[0], leftover[1]
        pairs.append((first, second))
        diagnostics.append(_ambiguous_rooms(second, first))
        leftover = leftover[2:]
    diagnostics.extend(_unpaired(game) for game in leftover)
    return pairs, diagnostics


def _ambiguous_rooms(game: GameEntry, other: GameEntry) -> Diagnostic:
    if game.room is not None and game.room == other.room:
        rooms = f"both tables say Room {game.room.capitalize()}"
    else:
        rooms = "Room does not say which table is the open room"
    detail = f"{rooms}; the table at line {other.key.line} is taken as the open room"
    return placed(EVT015.at(board=game.number, detail=detail), game, _room_place(game))


def _room_place(game: GameEntry) -> Place | None:
    stated = game.stated.get("Room") or game.stated.get("Board")
    return None if stated is None else stated.place


def _unpaired(game: GameEntry) -> Diagnostic:
    detail = "no other room of this match to compare it with"
    return placed(EVT015.at(board=game.number, detail=detail), game, _room_place(game))


def games_by_file(games: Iterable[GameEntry]) -> dict[str, list[GameEntry]]:
    """The games of each file, in reading order."""
    files: dict[str, list[GameEntry]] = defaultdict(list)
    for game in games:
        files[game.key.file].append(game)
    return files
