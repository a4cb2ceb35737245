"""The whole ``score`` computation for a set of games: event scores for the events that compare
tables, rubber or Chicago sessions for the events played that way.

Each event's method is ``--method`` when given, else its Scoring tag; events that name none
are left to the per-board duplicate listing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.rubber import RubberKind
from pbntool.tools.score.compute import EventOptions, event_methods, score_games
from pbntool.tools.score.games import GameEntry
from pbntool.tools.score.grouping import GroupBy, group_games
from pbntool.tools.score.results import EventScores
from pbntool.tools.score.rubber import RubberScores, score_rubbers

__all__ = ["ScoreRun", "names_a_method", "run_scores"]

_RUBBER_KINDS = {Method.RUBBER: RubberKind.RUBBER, Method.CHICAGO: RubberKind.CHICAGO}


@dataclass(frozen=True, slots=True)
class ScoreRun:
    """Event scores, and the rubber and Chicago sessions, of one ``score`` run."""

    scores: EventScores | None
    rubbers: tuple[tuple[RubberKind, tuple[RubberScores, ...]], ...]


def names_a_method(games: Sequence[GameEntry], group_by: GroupBy = GroupBy.AUTO) -> bool:
    """True when some event's Scoring tag names a method that has something to do: rubber or
    Chicago, or a comparing method with a board that has a traveller or more than one result.

    A file whose boards were each played once (hand records, the deals of a lesson) is listed
    board by board even when its games say ``Scoring "IMP"``.
    """
    methods = event_methods(games, None)
    if any(spec.method in _RUBBER_KINDS for spec in methods.values()):
        return True
    compared = [
        game
        for game in games
        if (spec := methods.get(game.event_key)) is not None and spec.method.compares_tables
    ]
    groups, _ = group_games(compared, group_by)
    return any(
        group.table_game is not None or sum(1 for game in group.games if game.entry) > 1
        for group in groups
    )


def run_scores(
    games: Sequence[GameEntry], forced: ScoringSpec | None, group_by: GroupBy = GroupBy.AUTO
) -> ScoreRun:
    """Score every event of ``games`` with its method."""
    methods = event_methods(games, forced)
    by_kind: dict[RubberKind, list[GameEntry]] = {}
    compared: list[GameEntry] = []
    for game in games:
        spec = methods.get(game.event_key)
        kind = _RUBBER_KINDS.get(spec.method) if spec is not None else None
        if kind is not None:
            by_kind.setdefault(kind, []).append(game)
        elif spec is not None:
            compared.append(game)
    scores = score_games(compared, EventOptions(forced, group_by)) if compared else None
    rubbers = tuple(
        (kind, tuple(score_rubbers(sequence, kind))) for kind, sequence in by_kind.items()
    )
    return ScoreRun(scores, rubbers)
