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
    if scores is None:
        yield from ((record, record.board) for record in held)
        return
    drawn = _first_tables(held, games, scores)
    # The boards that get the computed traveller, annotated in one pass.
    keyed = [
        (game.key, board)
        for record, game in zip(held, games, strict=True)
        if game is not None and (board := record.board) is not None and id(record) in drawn
        and (scored or not _has_traveller(board))
    ]  # fmt: skip
    annotated = dict(annotate_boards(keyed, scores))
    for record, game in zip(held, games, strict=True):
        board = record.board
        if board is None or game is None or scores.board(game.key) is None:
            yield record, board
        elif id(record) not in drawn:
            yield record, None
        elif game.key in annotated:
            tables = annotated[game.key].tables
            kept = tuple(table for table in tables if table.name != "TotalScoreTable")
            yield record, dataclasses.replace(board, tables=kept)
        else:
            yield record, board  # the file's own traveller, when there is nothing to score


def _first_tables(
    records: list[Record], games: list[GameEntry | None], scores: EventScores
) -> set[int]:
    """The records (by ``id``) that draw their board: the first table of each board."""
    seen: set[int] = set()
    first: set[int] = set()
    for record, game in zip(records, games, strict=True):
        results = scores.board(game.key) if game is not None else None
        if results is not None and id(results) not in seen:
            seen.add(id(results))
            first.add(id(record))
    return first


def _has_traveller(board: Board) -> bool:
    return any(table.name == "ScoreTable" and table.rows for table in board.tables)
