"""Score a whole event: every result of every board, and the totals of each pair or team.

``score_event`` is the library entry point; ``score --check`` and ``fix`` use the same
computation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbntool.diagnostics import Diagnostic
from pbntool.records import Record
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.board import board_field, score_board_group
from pbntool.tools.score.games import GameEntry, GameKey, game_entry
from pbntool.tools.score.grouping import BoardGroup, GroupBy, group_games
from pbntool.tools.score.results import BoardResults, EventScores, ScoredResult
from pbntool.tools.score.standings import rank_standings

__all__ = [
    "EventOptions",
    "event_methods",
    "expected_results",
    "group_spec",
    "read_games",
    "score_event",
    "score_games",
]


@dataclass(frozen=True, slots=True)
class EventOptions:
    """How to score an event: the method (None: each event's ``Scoring`` tag) and grouping."""

    spec: ScoringSpec | None = None
    group_by: GroupBy = GroupBy.AUTO


def read_games(records: Iterable[Record]) -> list[GameEntry]:
    """The entries of the records that hold a board."""
    games = []
    for record in records:
        entry = game_entry(record)
        if entry is not None:
            games.append(entry)
    return games


def score_event(records: Iterable[Record], options: EventOptions | None = None) -> EventScores:
    """Score every result of an event, and every pair's or team's total.

    This is the entry point for other modules (``fix`` writes ``ScoreMP``, ``ScoreIMP`` and
    ``ScorePercentage`` back from it):

    >>> import pbntool
    >>> from pbntool.tools.score import score_event, EventOptions
    >>> from pbntool.scoring.methods import Method, ScoringSpec
    >>> records = []  # e.g. list(pbntool.read("event.pbn")) for each file of the event
    >>> scores = score_event(records, EventOptions(ScoringSpec(Method.MP)))
    >>> scores.boards, scores.standings
    ((), ())

    Each game's own result is ``scores.game(GameKey(record.file, record.line))``: a
    ``ScoredResult`` whose ``points.ns`` / ``points.ew`` are matchpoints (MP1), IMPs, BAM
    points or total points, and ``points.ns_percentage`` the percentage for matchpoints.
    ``pbntool.tools.score.annotate.score_tags(board.method, result)`` gives the ``ScoreMP`` /
    ``ScorePercentage`` / ``ScoreIMP`` values to write (``board`` is the ``BoardResults``
    holding the result; ``scores.methods[(event, section)].method`` names the method too).
    Per pair or team: ``scores.standings``; per board: ``scores.boards``.
    The results of a board are grouped as ``options.group_by`` says (``GroupBy.AUTO``: Event,
    Section and Board, refined by the deal; a ScoreTable brings every table's result).

    Args:
        records: The records of every file of the event, in reading order.
        options: The method (None: each event's ``Scoring`` tag, else duplicate scores) and
            the grouping.

    Returns:
        The scores, with the grouping's warnings (EVT015, EVT016) as diagnostics.
    """
    return score_games(read_games(records), options or EventOptions())


def score_games(games: Sequence[GameEntry], options: EventOptions) -> EventScores:
    """``score_event`` on games already read."""
    groups, found = group_games(games, options.group_by)
    diagnostics: list[Diagnostic] = list(found)
    methods = event_methods(games, options.spec)
    expected = expected_results(groups, methods)
    boards: list[BoardResults] = []
    own: dict[GameKey, ScoredResult] = {}
    credited: list[tuple[BoardResults, Sequence[ScoredResult]]] = []
    partial: set[tuple[str, str]] = set()
    board_of: dict[GameKey, int] = {}
    for group in groups:
        spec = group_spec(group, methods) or ScoringSpec(Method.DUPLICATE)
        if spec.method in (Method.RUBBER, Method.CHICAGO):
            continue
        scoring = score_board_group(group, spec, expected.get(group.event_key))
        diagnostics.extend(scoring.problems)
        board_of.update((game.key, len(boards)) for game in group.games)
        boards.append(scoring.board)
        own.update((result.key.game, result) for result in scoring.games)
        credited.append((scoring.board, scoring.credited))
        if scoring.partial:
            partial.add(group.event_key)
    standings = rank_standings(credited, methods, partial)
    return EventScores(tuple(boards), tuple(standings), own, methods, tuple(diagnostics), board_of)


def event_methods(
    games: Sequence[GameEntry], forced: ScoringSpec | None
) -> dict[tuple[str, str], ScoringSpec]:
    """The method of each event: the forced one, else its first readable Scoring tag."""
    methods: dict[tuple[str, str], ScoringSpec] = {}
    for game in games:
        if game.event_key in methods:
            continue
        if forced is not None:
            methods[game.event_key] = forced
        elif game.scoring is not None:
            spec = ScoringSpec.from_tag(game.scoring)
            if spec is not None:
                methods[game.event_key] = spec
    return methods


def group_spec(
    group: BoardGroup, methods: Mapping[tuple[str, str], ScoringSpec]
) -> ScoringSpec | None:
    """A board's method: the one its events were given (``--method``, else their Scoring
    tags), from the first of its games whose event has one; a board found across files may
    mix games with and without Event and Scoring tags."""
    for game in group.games:
        spec = methods.get(game.event_key)
        if spec is not None:
            return spec
    return None


def expected_results(
    groups: Sequence[BoardGroup], methods: Mapping[tuple[str, str], ScoringSpec]
) -> dict[tuple[str, str], int]:
    """Neuberg's expected count: the largest number of results of a board in each event."""
    largest: dict[tuple[str, str], int] = defaultdict(int)
    for group in groups:
        spec = group_spec(group, methods)
        if spec is None or spec.method is not Method.MP or not spec.neuberg:
            continue
        count = sum(entry.count for entry in board_field(group) if entry.is_real)
        largest[group.event_key] = max(largest[group.event_key], count)
    return dict(largest)
