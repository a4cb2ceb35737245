"""Scoring one board: its field (the results compared), each result's points, and each
game's own result scored against the field."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbntool.diagnostics import Diagnostic
from pbntool.scoring.matchpoints import FieldEntry
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.field import (
    closed_room_points,
    field_datum,
    field_top,
    score_field,
    team_points,
)
from pbntool.tools.score.games import GameEntry, ResultKey
from pbntool.tools.score.grouping import BoardGroup, MatchPair, match_key, pair_rooms
from pbntool.tools.score.results import NO_POINTS, BoardResults, Points, ScoredResult

__all__ = ["BoardScoring", "board_field", "is_team_board", "probe_game", "score_board_group"]


@dataclass(frozen=True, slots=True)
class BoardScoring:
    """A board scored: its results, each game's own result, what counts for the standings."""

    board: BoardResults
    games: tuple[ScoredResult, ...]
    credited: tuple[ScoredResult, ...]
    problems: tuple[Diagnostic, ...] = ()
    partial: bool = False
    """The board has a traveller that names no pairs: its pairs are credited from the games."""


def board_field(group: BoardGroup) -> list[FieldEntry]:
    """The entries compared on a board: its traveller's rows, else its games' results."""
    table_game = group.table_game
    if table_game is not None and table_game.score_table is not None:
        return [row.entry for row in table_game.score_table.rows if row.entry is not None]
    return [game.entry for game in group.games if game.entry is not None]


def score_board_group(group: BoardGroup, spec: ScoringSpec, expected: int | None) -> BoardScoring:
    """Score a board with a comparing method.

    Team methods (``imp``, ``bam``) pair the open and closed rooms when the board has no
    traveller and its games name rooms (or are exactly two); otherwise ``imp`` scores the
    field with ``spec.field_imps`` (cross-IMPs or Butler) and ``bam`` against the field.

    Args:
        group: The board's games.
        spec: The method.
        expected: Matchpoints: Neuberg's expected number of results.
    """
    method = spec.method
    if method.pairs_rooms and is_team_board(group):
        return _score_team_board(group, spec)
    if method.pairs_rooms:
        spec = replace(spec, method=Method.BAM if method is Method.BAM else spec.field_imps)
    entries, results = _field_results(group)
    points = score_field(entries, spec, expected)
    scored = tuple(
        replace(result, points=value) for result, value in zip(results, points, strict=True)
    )
    event, section = group.event_key
    board = BoardResults(
        event,
        section,
        group.number,
        spec.method,
        scored,
        top=field_top(entries, spec, expected),
        datum=field_datum(entries, spec),
    )
    probes = tuple(
        probe
        for game in group.games
        if (probe := probe_game(game, entries, scored, spec, expected)) is not None
    )
    rows = [result for result in scored if result.key.row is not None]
    if rows and any(result.pair_ns or result.pair_ew for result in rows):
        credited: tuple[ScoredResult, ...] = tuple(rows)
    else:
        credited = probes if rows else scored
    return BoardScoring(board, probes, credited, partial=bool(rows) and credited is probes)


def is_team_board(group: BoardGroup) -> bool:
    """Pair rooms when the board has no traveller and its games name rooms (or are two)."""
    if group.table_game is not None:
        return False
    played = [game for game in group.games if game.entry is not None]
    if len(played) == 2 or any(game.room is not None for game in played):
        return True
    return _two_rooms_per_match(played)


def _two_rooms_per_match(played: list[GameEntry]) -> bool:
    """No Room tags, but every table names its match (HomeTeam and VisitTeam, either way
    round) and each match played the board at two tables: a teams event of several matches."""
    if not played or not all(game.home_team and game.visit_team for game in played):
        return False
    return all(count == 2 for count in Counter(match_key(game) for game in played).values())


def _field_results(group: BoardGroup) -> tuple[list[FieldEntry], list[ScoredResult]]:
    table_game = group.table_game
    entries: list[FieldEntry] = []
    results: list[ScoredResult] = []
    if table_game is not None and table_game.score_table is not None:
        for row in table_game.score_table.rows:
            if row.entry is None:
                continue
            entries.append(row.entry)
            results.append(
                ScoredResult(
                    ResultKey(table_game.key, row.index),
                    row.entry.score_ns,
                    row.entry.count,
                    NO_POINTS,
                    row.pair_ns,
                    row.pair_ew,
                    None if row.contract is None else str(row.contract),
                    None if row.declarer is None else row.declarer.letter,
                    row.tricks,
                    _artificial_label(row.entry),
                )
            )
        return entries, results
    for game in group.games:
        entry = game.entry
        if entry is None:
            continue
        entries.append(entry)
        results.append(_game_result(game, entry, NO_POINTS))
    return entries, results


def probe_game(
    game: GameEntry,
    entries: Sequence[FieldEntry],
    scored: Sequence[ScoredResult],
    spec: ScoringSpec,
    expected: int | None,
) -> ScoredResult | None:
    """A game's own result scored against the board's field."""
    entry = game.entry
    if entry is None:
        return None
    for result in scored:
        if result.key.game == game.key and result.key.row is None:
            return result
    if entry.score_ns is not None:
        for result in scored:
            if result.score_ns == entry.score_ns:
                return _game_result(game, entry, result.points)
    # Not in the field (EVT018 in a check): scored as one more result of the board.
    points = score_field([*entries, entry], spec, expected)[-1]
    return _game_result(game, entry, points)


def _game_result(game: GameEntry, entry: FieldEntry, points: Points) -> ScoredResult:
    return ScoredResult(
        ResultKey(game.key),
        entry.score_ns,
        1,
        points,
        _pair(game, "NS"),
        _pair(game, "EW"),
        None if game.contract is None else str(game.contract),
        None if game.declarer is None else game.declarer.letter,
        game.tricks,
        _artificial_label(entry),
        game.room,
    )


def _pair(game: GameEntry, side: str) -> str | None:
    """A pair's name: its PairNS/PairEW id, else its two players' names."""
    if side == "NS":
        if game.pair_ns:
            return game.pair_ns
        first, second = game.players[0], game.players[2]
    else:
        if game.pair_ew:
            return game.pair_ew
        first, second = game.players[3], game.players[1]
    if first is None or second is None:
        return None
    return " & ".join(sorted((first, second)))


def _artificial_label(entry: FieldEntry) -> str | None:
    if entry.is_real:
        return None
    ns = entry.artificial_ns.label if entry.artificial_ns is not None else "-"
    ew = entry.artificial_ew.label if entry.artificial_ew is not None else "-"
    return f"{ns}/{ew}"


def _score_team_board(group: BoardGroup, spec: ScoringSpec) -> BoardScoring:
    pairs, problems = pair_rooms(group)
    scored: list[ScoredResult] = []
    credited: list[ScoredResult] = []
    for pair in pairs:
        open_result, closed_result = _score_pair(pair, spec.method)
        scored += [open_result, closed_result]
        credited.append(open_result)  # one board of the match: home NS, visitors EW
    paired = {result.key.game for result in scored}
    for game in group.games:
        entry = game.entry
        if entry is not None and game.key not in paired:
            scored.append(_game_result(game, entry, NO_POINTS))
    order = {game.key: index for index, game in enumerate(group.games)}
    scored.sort(key=lambda result: order[result.key.game])
    event, section = group.event_key
    board = BoardResults(event, section, group.number, spec.method, tuple(scored))
    return BoardScoring(board, tuple(scored), tuple(credited), tuple(problems))


def _score_pair(pair: MatchPair, method: Method) -> tuple[ScoredResult, ScoredResult]:
    """The open room (home team NS) and the closed room (home team EW) of one match."""
    open_entry, closed_entry = pair.open.entry, pair.closed.entry
    assert open_entry is not None and closed_entry is not None
    home = team_points(open_entry, closed_entry, method)
    home_team, visit_team = pair.match
    open_result = _game_result(pair.open, open_entry, home)
    closed_result = _game_result(pair.closed, closed_entry, closed_room_points(home))
    return (
        replace(open_result, pair_ns=home_team, pair_ew=visit_team),
        replace(closed_result, pair_ns=visit_team, pair_ew=home_team),
    )
