"""Boards with their event scores written in, for ``score --format pbn``.

Each game gets the tags of its own result (``ScoreMP`` and ``ScorePercentage`` for
matchpoints, ``ScoreIMP`` for the IMP methods; rubber and Chicago deals ``ScoreRubber``, and
rubber deals ``ScoreRubberHistory``), its board's ``ScoreTable`` (every table's result, in
place of any ScoreTable it had), and the first game of each event the event's
``TotalScoreTable``.  Side-score tags are written for North-South (``NS 12.5``); PBN's
side-score form gives East-West's value from it.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from pbntool.model import Board, Table, TableColumn, Tag
from pbntool.scoring.methods import Method
from pbntool.scoring.rubber import (
    RubberDeal,
    RubberKind,
    format_score_rubber,
    format_score_rubber_history,
)
from pbntool.tools.score.games import GameKey
from pbntool.tools.score.render import number_text
from pbntool.tools.score.results import BoardResults, EventScores, ScoredResult, Standing
from pbntool.tools.score.rubber import RubberScores

__all__ = ["Keyed", "annotate_boards", "annotate_rubber_boards", "score_table", "total_score_table"]

_IMP_METHODS = (Method.IMP, Method.BUTLER, Method.CROSS_IMP)
_Getter = Callable[[ScoredResult], float | None]


Keyed = tuple[GameKey, Board]
"""A board with the key of its game (file and first line)."""


def annotate_boards(boards: Iterable[Keyed], scores: EventScores) -> Iterator[Keyed]:
    """The boards with their scores, tables and (first game of each event) standings."""
    events_done: set[tuple[str, str]] = set()
    for key, board in boards:
        results = scores.board(key)
        if results is None:
            yield key, board
            continue
        own = scores.game(key)
        updated = _with_tags(board, score_tags(results.method, own))
        tables = [table for table in board.tables if table.name != "ScoreTable"]
        tables.append(score_table(_own_match(results, own)))
        event = (results.event, results.section)
        if event not in events_done:
            events_done.add(event)
            standings = [s for s in scores.standings if (s.event, s.section) == event]
            if standings:
                tables = [table for table in tables if table.name != "TotalScoreTable"]
                tables.append(total_score_table(standings, results.method))
        yield key, dataclasses.replace(updated, tables=tuple(tables))


def score_tags(method: Method, result: ScoredResult | None) -> dict[str, str]:
    """The tags a game's own result gets, as ``score --format pbn`` writes them:
    ``ScoreMP`` and ``ScorePercentage`` for matchpoints, ``ScoreIMP`` for the IMP methods,
    nothing for the others (PBN has no tag for board-a-match or total points).

    >>> from pbntool.tools.score.results import Points, ScoredResult
    >>> from pbntool.tools.score.games import GameKey, ResultKey
    >>> result = ScoredResult(ResultKey(GameKey("e.pbn", 1)), 420, 1, Points(3.0, 5.0, 37.5, 62.5))
    >>> score_tags(Method.MP, result)
    {'ScoreMP': 'NS 3', 'ScorePercentage': 'NS 37.50'}
    """
    if result is None or result.points.ns is None:
        return {}
    if method is Method.MP:
        tags = {"ScoreMP": f"NS {number_text(result.points.ns)}"}
        if result.points.ns_percentage is not None:
            tags["ScorePercentage"] = f"NS {number_text(result.points.ns_percentage)}"
        return tags
    if method in _IMP_METHODS:
        return {"ScoreIMP": f"NS {number_text(result.points.ns)}"}
    return {}


def _with_tags(board: Board, values: Mapping[str, str]) -> Board:
    """The board with these tags set (replaced where present, else added)."""
    if not values:
        return board
    tags = [
        tag._replace(value=values[tag.name], written=None, inherited=False)
        if tag.name in values and not tag.duplicate
        else tag
        for tag in board.tags
    ]
    present = {tag.name for tag in board.tags}
    tags.extend(Tag(name, value) for name, value in values.items() if name not in present)
    return dataclasses.replace(board, tags=tuple(tags))


def _element(text: str | None) -> str:
    """A table element: ``-`` for nothing, quoted when it holds spaces or quotes."""
    if text is None or text == "":
        return "-"
    if any(character.isspace() or character in '"[]{};' for character in text):
        return '"' + text.replace('"', "'") + '"'
    return text


def _own_match(board: BoardResults, own: ScoredResult | None) -> BoardResults:
    """A team board played by several matches: the game's traveller lists its own match's
    two rooms (their IMPs are against each other, not against the field)."""
    if board.method not in (Method.IMP, Method.BAM) or own is None:
        return board
    teams = {own.pair_ns, own.pair_ew}
    if None in teams:
        return board
    rows = tuple(r for r in board.results if {r.pair_ns, r.pair_ew} == teams)
    if len(rows) != 2 or len(rows) == len(board.results):
        return board
    return dataclasses.replace(board, results=rows)


def score_table(board: BoardResults) -> Table:
    """The board's ScoreTable: every result with its score and points (PBN §13.3)."""
    with_pairs = any(result.pair_ns or result.pair_ew for result in board.results)
    columns = [TableColumn("Rank", width=3, align="R")]
    if with_pairs:
        columns += [TableColumn("PairId_NS"), TableColumn("PairId_EW")]
    columns += [
        TableColumn("Contract", width=5, align="L"),
        TableColumn("Declarer", width=1),
        TableColumn("Result", width=2, align="R"),
        TableColumn("Score_NS", width=5, align="R"),
    ]
    points = _point_columns(board.method)
    columns += [TableColumn(name, width=6, align="R") for name, _ in points]
    columns.append(TableColumn("Multiplicity"))
    scores = sorted(
        result.score_ns
        for result in board.results
        if result.score_ns is not None
        for _ in range(result.count)
    )
    rows = []
    for result in board.results:
        rank = (
            "-"
            if result.score_ns is None
            else str(len(scores) - bisect_right(scores, result.score_ns) + 1)
        )
        row = [rank]
        if with_pairs:
            row += [_element(result.pair_ns), _element(result.pair_ew)]
        row += [
            _element(result.contract),
            _element(result.declarer),
            _element(None if result.tricks is None else str(result.tricks)),
            _element(result.artificial or number_text(result.score_ns)),
        ]
        row += [_element(number_text(getter(result))) for _, getter in points]
        row.append(str(result.count))
        rows.append(tuple(row))
    header = ";".join(str(column) for column in columns)
    return Table("ScoreTable", header, tuple(columns), tuple(rows))


def _point_columns(method: Method) -> list[tuple[str, _Getter]]:
    """The point columns of a method's ScoreTable (board-a-match and total points have none:
    PBN defines no column for them)."""
    if method is Method.MP:
        return [
            ("MP_NS", lambda result: result.points.ns),
            ("MP_EW", lambda result: result.points.ew),
            ("Percentage_NS", lambda result: result.points.ns_percentage),
            ("Percentage_EW", lambda result: result.points.ew_percentage),
        ]
    if method in _IMP_METHODS:
        return [
            ("IMP_NS", lambda result: result.points.ns),
            ("IMP_EW", lambda result: result.points.ew),
        ]
    return []


def total_score_table(standings: Sequence[Standing], method: Method) -> Table:
    """The event's TotalScoreTable: rank, pair, boards played, totals and means."""
    names: tuple[str, ...]
    if method is Method.MP:
        names = ("TotalMP", "TotalPercentage", "MeanMP")
    elif method in _IMP_METHODS:
        names = ("TotalIMP", "MeanIMP")
    else:
        names = ("TotalScore", "MeanScore")
    columns = [
        TableColumn("Rank", width=3, align="R"),
        TableColumn("PairId"),
        TableColumn("NrBoards", width=3, align="R"),
        *(TableColumn(name, width=8, align="R") for name in names),
    ]
    rows = []
    for standing in standings:
        values = {
            "TotalMP": standing.total,
            "TotalIMP": standing.total,
            "TotalScore": standing.total,
            "MeanMP": standing.mean,
            "MeanIMP": standing.mean,
            "MeanScore": standing.mean,
            "TotalPercentage": standing.percentage,
        }
        rows.append(
            (
                str(standing.rank),
                _element(standing.name),
                str(standing.boards),
                *(number_text(values[name]) for name in names),
            )
        )
    header = ";".join(str(column) for column in columns)
    return Table("TotalScoreTable", header, tuple(columns), tuple(rows))


def annotate_rubber_boards(
    boards: Iterable[Keyed], sessions: Sequence[RubberScores], kind: RubberKind
) -> Iterator[Keyed]:
    """The boards with ScoreRubber (and, for rubber bridge, ScoreRubberHistory)."""
    deals: dict[GameKey, RubberDeal] = {}
    for scored in sessions:
        for game, played in zip(scored.games, scored.session.deals, strict=True):
            deals[game.key] = played
    for key, board in boards:
        found = deals.get(key)
        if found is None or not found.play.scorable:
            yield key, board
            continue
        values = {"ScoreRubber": format_score_rubber(found.lines)}
        if kind is RubberKind.RUBBER:
            values["ScoreRubberHistory"] = format_score_rubber_history(found.before)
        yield key, _with_tags(board, values)
