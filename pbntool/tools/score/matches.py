"""Team matches of an event converted to victory points, and the standings they give.

A file of a Swiss or round-robin teams event holds several matches: each board is played at two
tables of each match (Round, Table, HomeTeam/VisitTeam; see grouping.pair_rooms).  Each match's
IMPs are summed over its boards, the margin converted with a VP scale (scoring.vp) for the
match's number of boards, and the teams ranked after each round and in total.

Tie-break (stated in the output): more VPs, then the larger IMP difference over all matches,
then the larger IMP quotient (IMPs won / IMPs lost), then the name.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from pbntool.model import Board, Comment, Table, TableColumn
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.vp import VpScale
from pbntool.tools.score.board import is_team_board, score_board_group
from pbntool.tools.score.games import GameEntry, GameKey
from pbntool.tools.score.grouping import GroupBy, group_games

__all__ = [
    "TIE_BREAK",
    "MatchResult",
    "TeamStanding",
    "match_results",
    "render_matches_json",
    "render_matches_text",
    "team_standings",
    "vp_total_table",
    "with_vp_tables",
]

TIE_BREAK = "VPs, then IMP difference, then IMP quotient, then name"


@dataclass(slots=True)
class MatchResult:
    """One match: the teams, the IMPs each won over its boards, and their VPs."""

    event: str
    round: str
    home: str
    visit: str
    boards: int = 0
    home_imps: float = 0.0
    visit_imps: float = 0.0
    home_vp: float = 0.0
    visit_vp: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "match",
            "event": self.event,
            "round": self.round,
            "home": self.home,
            "visit": self.visit,
            "boards": self.boards,
            "imps": [self.home_imps, self.visit_imps],
            "vp": [self.home_vp, self.visit_vp],
        }


@dataclass(slots=True)
class TeamStanding:
    """A team's totals after some rounds, and its place."""

    team: str
    vp: float = 0.0
    imps_won: float = 0.0
    imps_lost: float = 0.0
    matches: int = 0
    rank: int = 0

    @property
    def quotient(self) -> float:
        """IMPs won over IMPs lost (infinite when none were lost)."""
        return self.imps_won / self.imps_lost if self.imps_lost else float("inf")

    def to_dict(self, after: str) -> dict[str, object]:
        return {
            "type": "standing",
            "after": after,
            "rank": self.rank,
            "team": self.team,
            "vp": round(self.vp, 2),
            "imps": [self.imps_won, self.imps_lost],
            "matches": self.matches,
        }


@dataclass(slots=True)
class _Match:
    result: MatchResult
    boards: set[object] = field(default_factory=set)


def match_results(
    games: Sequence[GameEntry], scale: VpScale, group_by: GroupBy = GroupBy.AUTO
) -> list[MatchResult]:
    """Every team match of the games, its IMPs summed and converted to VPs, in round order."""
    by_key: dict[GameKey, GameEntry] = {game.key: game for game in games}
    matches: dict[tuple[object, ...], _Match] = {}
    groups, _ = group_games(games, group_by)
    for group in groups:
        if not is_team_board(group):
            continue
        scoring = score_board_group(group, ScoringSpec(Method.IMP), None)
        for result in scoring.credited:
            game = by_key[result.key.game]
            if result.points.ns is None or not result.pair_ns or not result.pair_ew:
                continue
            teams = frozenset((result.pair_ns, result.pair_ew))
            key = (game.event, game.round or "", game.stage or "", teams)
            found = matches.get(key)
            if found is None:
                made = MatchResult(game.event, game.round or "", result.pair_ns, result.pair_ew)
                found = matches[key] = _Match(made)
            home_imps = (
                result.points.ns if result.pair_ns == found.result.home else -result.points.ns
            )
            found.result.home_imps += max(home_imps, 0.0)
            found.result.visit_imps += max(-home_imps, 0.0)
            found.boards.add((group.number, group.games[0].deal_id))
    results = []
    for found in matches.values():
        match = found.result
        match.boards = len(found.boards)
        margin = round(match.home_imps - match.visit_imps)
        match.home_vp, match.visit_vp = scale.convert(margin, match.boards)
        results.append(match)
    results.sort(key=lambda match: (match.event, _round_order(match.round)))
    return results


def _round_order(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 30, text)


def team_standings(matches: Iterable[MatchResult]) -> list[TeamStanding]:
    """The teams ranked by the tie-break rule (TIE_BREAK); equal on every count: same rank."""
    teams: dict[str, TeamStanding] = {}
    for match in matches:
        for team, vp, won, lost in (
            (match.home, match.home_vp, match.home_imps, match.visit_imps),
            (match.visit, match.visit_vp, match.visit_imps, match.home_imps),
        ):
            standing = teams.setdefault(team, TeamStanding(team))
            standing.vp += vp
            standing.imps_won += won
            standing.imps_lost += lost
            standing.matches += 1
    ordered = sorted(
        teams.values(),
        key=lambda s: (-round(s.vp, 2), -(s.imps_won - s.imps_lost), -s.quotient, s.team),
    )
    for index, standing in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same = previous is not None and _tied(previous, standing)
        standing.rank = previous.rank if same and previous is not None else index + 1
    return ordered


def _tied(first: TeamStanding, second: TeamStanding) -> bool:
    return (
        round(first.vp, 2) == round(second.vp, 2)
        and first.imps_won - first.imps_lost == second.imps_won - second.imps_lost
        and first.quotient == second.quotient
    )


def _by_event(matches: Sequence[MatchResult]) -> dict[str, list[MatchResult]]:
    events: dict[str, list[MatchResult]] = defaultdict(list)
    for match in matches:
        events[match.event].append(match)
    return events


def _rounds(matches: Sequence[MatchResult]) -> list[str]:
    return sorted({match.round for match in matches}, key=_round_order)


def vp_total_table(matches: Sequence[MatchResult], scale: VpScale) -> Table:
    """The final standings as a TotalScoreTable: Rank, PairId (the team), the IMPs won and
    lost, and ``TotalVP`` (pbntool's column: PBN has none for victory points)."""
    columns = (
        TableColumn("Rank", width=3, align="R"),
        TableColumn("PairId"),
        TableColumn("NrBoards", width=3, align="R"),
        TableColumn("TotalIMP", width=6, align="R"),
        TableColumn("TotalVP", width=7, align="R"),
    )
    boards: dict[str, int] = defaultdict(int)
    for match in matches:
        boards[match.home] += match.boards
        boards[match.visit] += match.boards
    rows = tuple(
        (
            str(standing.rank),
            f'"{standing.team}"',
            str(boards[standing.team]),
            f"{standing.imps_won - standing.imps_lost:g}",
            f"{standing.vp:.2f}",
        )
        for standing in team_standings(matches)
    )
    header = ";".join(str(column) for column in columns)
    comment = Comment(f" {scale.describe(m.boards for m in matches)}; tie-break: {TIE_BREAK} ")
    return Table("TotalScoreTable", header, columns, rows, comments=(comment,))


def with_vp_tables(
    boards: Iterable[tuple[GameKey, Board]], matches: Sequence[MatchResult], scale: VpScale
) -> Iterator[tuple[GameKey, Board]]:
    """The boards, the first board of each event carrying its VP standings (replacing the
    TotalScoreTable the IMP scoring wrote)."""
    events = _by_event(matches)
    done: set[str] = set()
    for key, board in boards:
        event = (board.tag("Event") or "").strip()
        if event in events and event not in done:
            done.add(event)
            tables = [table for table in board.tables if table.name != "TotalScoreTable"]
            tables.append(vp_total_table(events[event], scale))
            board = dataclasses.replace(board, tables=tuple(tables))
        yield key, board


def render_matches_text(matches: Sequence[MatchResult], scale: VpScale) -> Iterable[str]:
    """Each event's matches with their VPs, the standings after each round and in total."""
    for event, members in _by_event(matches).items():
        title = scale.describe(match.boards for match in members)
        yield f"== {event or '(no event)'}: victory points, {title} =="
        yield "round home                 visit                imps          vp"
        for match in members:
            yield (
                f"{match.round or '-':>5} {match.home:<20} {match.visit:<20} "
                f"{match.home_imps:>4g}-{match.visit_imps:<4g}  "
                f"{match.home_vp:5.2f}-{match.visit_vp:5.2f}"
            )
        rounds = _rounds(members)
        for index, name in enumerate(rounds):
            played = [match for match in members if match.round in rounds[: index + 1]]
            last = index == len(rounds) - 1
            label = "final standings" if last else f"standings after round {name}"
            yield f"-- {label} (tie-break: {TIE_BREAK}) --"
            for standing in team_standings(played):
                yield (
                    f"{standing.rank:>3}. {standing.team:<20} {standing.vp:7.2f} VP  "
                    f"IMPs {standing.imps_won:g}-{standing.imps_lost:g}"
                )


def render_matches_json(
    matches: Sequence[MatchResult], scale: VpScale
) -> Iterable[dict[str, object]]:
    """The same as JSON objects: ``match`` rows, then ``standing`` rows after each round."""
    for _, members in _by_event(matches).items():
        for match in members:
            yield {**match.to_dict(), "scale": scale.describe([match.boards])}
        rounds = _rounds(members)
        for index, name in enumerate(rounds):
            played = [match for match in members if match.round in rounds[: index + 1]]
            after = "total" if index == len(rounds) - 1 else f"round {name}"
            for standing in team_standings(played):
                yield {**standing.to_dict(after), "tie_break": TIE_BREAK}
