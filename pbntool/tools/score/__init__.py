"""Event scoring: the results of a whole event grouped by board, scored with a method, the
pairs' and teams' totals, and the check of the scores a file states.

``score_event(records, options)`` is the entry point: it returns ``EventScores``, keyed so that
each game's score can be written back into the game (``EventScores.game(GameKey(file,
line))``).  ``check_event`` compares what the files state with the same computation.
"""

from __future__ import annotations

from pbntool.tools.score.compute import EventOptions, read_games, score_event, score_games
from pbntool.tools.score.games import GameEntry, GameKey, ResultKey
from pbntool.tools.score.grouping import BoardGroup, GroupBy
from pbntool.tools.score.results import BoardResults, EventScores, Points, ScoredResult, Standing

__all__ = [
    "BoardGroup",
    "BoardResults",
    "EventOptions",
    "EventScores",
    "GameEntry",
    "GameKey",
    "GroupBy",
    "Points",
    "ResultKey",
    "ScoredResult",
    "Standing",
    "read_games",
    "score_event",
    "score_games",
]
