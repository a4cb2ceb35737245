"""Event scores for ``fix --event``: ScoreMP, ScoreIMP and ScorePercentage of every game,
from event scoring over all the inputs (``pbntool.tools.score``), in the form ``fix`` edits.

Matchpoints and IMPs compare a result with the other results of its board, so every input
is read once to score the events (each with the method its ``Scoring`` tag names), then the
games are fixed one by one with their own values.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from pbntool.records import Record
from pbntool.scoring.methods import Method
from pbntool.tools.fix.event import EventScores, EventScoreSource, SideValues
from pbntool.tools.score.games import GameKey, game_entry
from pbntool.tools.score.grouping import GroupBy
from pbntool.tools.score.render import number_text
from pbntool.tools.score.results import EventScores as ComputedScores
from pbntool.tools.score.run import run_scores

__all__ = ["event_score_source"]

_IMP_METHODS = (Method.IMP, Method.BUTLER, Method.CROSS_IMP)


def event_score_source(records: Iterable[Record]) -> EventScoreSource:
    """Score the events of ``records``; the source ``FixOptions.event_scores`` takes."""
    games = [entry for entry in map(game_entry, records) if entry is not None]
    computed = run_scores(games, None, GroupBy.AUTO).scores
    values: dict[GameKey, EventScores] = {}
    if computed is not None:
        for game in games:
            found = _game_values(computed, game.key)
            if found:
                values[game.key] = found

    def source(record: Record) -> EventScores | None:
        return values.get(GameKey(record.file, record.line))

    return source


def _game_values(computed: ComputedScores, key: GameKey) -> EventScores:
    board = computed.board(key)
    result = computed.game(key)
    if board is None or result is None or result.points.ns is None:
        return {}
    if board.method is Method.MP:
        found = {"ScoreMP": _sides(result.points.ns, result.points.ew)}
        if result.points.ns_percentage is not None:
            found["ScorePercentage"] = _sides(
                result.points.ns_percentage, result.points.ew_percentage
            )
        return found
    if board.method in _IMP_METHODS:
        ew = result.points.ew if result.points.ew is not None else -result.points.ns
        return {"ScoreIMP": _sides(result.points.ns, ew)}
    return {}


def _sides(ns: float | None, ew: float | None) -> SideValues:
    """Values rounded as score tables write them (whole numbers, else two decimals)."""
    return SideValues(_decimal(ns), _decimal(ew))


def _decimal(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(number_text(value))
