"""The travellers of hand records: each board's results at every table, for ``render``.

A board's traveller is its own ``ScoreTable`` when the file has one; otherwise, and whenever
its event is scored (a method named by ``--method`` or its Scoring tag), it is what ``score``
computes from the results of every table and file that played the board, with matchpoints or
IMPs beside each result.  Each board is then drawn once: the records of its other tables are
counted and checked, not drawn again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from pbntool.model import Board
from pbntool.records import Record
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.annotate import annotate_boards
from pbntool.tools.score.games import GameEntry, game_entry
from pbntool.tools.score.results import EventScores
from pbntool.tools.score.run import names_a_method, run_scores

__all__ = ["with_travellers"]

_RESULTS_ONLY = ScoringSpec(Method.TOTAL)
"""No method anywhere: the results grouped by board, with no points."""


def with_travellers(
    records: Iterable[Record], forced: ScoringSpec | None = None
) -> Iterator[tuple[Record, Board | None]]:
    """Every record with the board to draw for it: the board with its traveller, or None for
    a table of a board drawn already (with the traveller of all its tables).

    The records of the whole event are held: a traveller needs every table's result.
    """
    held = list(records)
    games = [game_entry(record) for record in held]
    played = [game for game in games if game is not None]
    scored = forced is not None or names_a_method(played)
    run = run_scores(played, forced if scored else _RESULTS_ONLY) if played else None
    scores = run.scores if run is not None else None
    drawn: set[int] = set()
    for record, game in zip(held, games, strict=True):
        yield record, _board_to_draw(record, game, scores, scored, drawn)


def _board_to_draw(
    record: Record,
    game: GameEntry | None,
    scores: EventScores | None,
    scored: bool,
    drawn: set[int],
) -> Board | None:
    board = record.board
    if board is None or game is None or scores is None:
        return board
    results = scores.board(game.key)
    if results is None:
        return board
    if id(results) in drawn:
        return None
    drawn.add(id(results))
    if not scored and any(table.name == "ScoreTable" and table.rows for table in board.tables):
        return board  # the file's own traveller, when there is nothing to score
    [(_, annotated)] = list(annotate_boards([(game.key, board)], scores))
    tables = tuple(table for table in annotated.tables if table.name != "TotalScoreTable")
    return dataclasses.replace(board, tables=tables)
