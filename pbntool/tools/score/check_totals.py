"""``score --check`` for TotalScoreTable: each row against itself (a mean is its total over
the boards played), against the ranking, and against the pair's results on the boards when
the event's method is known, the pair can be found, and the boards hold all its results
(not when a traveller names no pairs and only the files' own games could be credited).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbntool.diagnostics import EVT009, Diagnostic
from pbntool.scoring.methods import Method
from pbntool.tools.score.games import GameEntry, Stated
from pbntool.tools.score.grouping import placed
from pbntool.tools.score.results import EventScores, Standing
from pbntool.tools.score.values import parse_number
from pbntool.tools.score.variants import agrees, format_value

__all__ = ["check_total_tables"]

_MEANS = (("TotalScore", "MeanScore"), ("TotalIMP", "MeanIMP"), ("TotalMP", "MeanMP"))
_RANKED_BY = (
    "TotalVP",  # pbntool's victory points column (score --vp --format pbn)
    "TotalPercentage",
    "MeanPercentage",
    "TotalMP",
    "MeanMP",
    "TotalIMP",
    "MeanIMP",
    "TotalScore",
    "MeanScore",
    "Percentage",
    "MP",
    "IMP",
    "Score",
)
"""The column a TotalScoreTable is ranked by: the first of these it has."""

Checked = list[tuple[str, bool, str]]


def check_total_tables(
    games: Sequence[GameEntry], scores: EventScores, tolerance: float | None
) -> tuple[list[Diagnostic], Checked]:
    """Check every TotalScoreTable of the games.

    Returns:
        The findings, and (file, agreed, code) for every value checked.
    """
    diagnostics: list[Diagnostic] = []
    checked: Checked = []
    for game in games:
        table = game.total_table
        if table is None:
            continue
        standings = {
            _name_key(standing.name): standing
            for standing in scores.standings
            if (standing.event, standing.section) == game.event_key and standing.complete
        }
        spec = scores.methods.get(game.event_key)
        method = spec.method if spec is not None else None
        for row in table.rows:
            _check_means(game, row, tolerance, diagnostics, checked)
            _check_standing(game, row, standings, method, tolerance, diagnostics, checked)
        _check_ranks(game, table.rows, diagnostics, checked)
    return diagnostics, checked


def _number(row: Mapping[str, Stated], column: str) -> tuple[Stated, float] | None:
    cell = row.get(column)
    if cell is None or cell.text.startswith("^"):
        return None
    value = parse_number(cell.text)
    return None if value is None else (cell, value)


def _report(
    game: GameEntry,
    cell: Stated,
    column: str,
    computed: float,
    detail: str,
    diagnostics: list[Diagnostic],
) -> None:
    finding = EVT009.at(
        column=column,
        stated=f'"{cell.text}"',
        detail=detail,
        computed=format_value(computed, cell),
    )
    diagnostics.append(placed(finding, game, cell.place))


def _check_means(
    game: GameEntry,
    row: Mapping[str, Stated],
    tolerance: float | None,
    diagnostics: list[Diagnostic],
    checked: Checked,
) -> None:
    boards = _number(row, "NrBoards")
    if boards is None or boards[1] <= 0:
        return
    for total_column, mean_column in _MEANS:
        total, mean = _number(row, total_column), _number(row, mean_column)
        if total is None or mean is None:
            continue
        computed = total[1] / boards[1]
        agreed = agrees(mean[0], mean[1], computed, tolerance)
        checked.append((game.key.file, agreed, "EVT009"))
        if not agreed:
            detail = f"{total_column} {total[0].text} over NrBoards {boards[0].text}"
            _report(game, mean[0], mean_column, computed, detail, diagnostics)


def _check_ranks(
    game: GameEntry,
    rows: Sequence[Mapping[str, Stated]],
    diagnostics: list[Diagnostic],
    checked: Checked,
) -> None:
    column = next((name for name in _RANKED_BY if any(name in row for row in rows)), None)
    if column is None:
        return
    merits = [value[1] if (value := _number(row, column)) is not None else None for row in rows]
    # A two-winner movement ranks North-South and East-West apart: with a Direction column,
    # a row is ranked among the rows of its own direction.
    groups = [_direction(row) for row in rows]
    for row, merit, group in zip(rows, merits, groups, strict=True):
        rank = _number(row, "Rank")
        if rank is None or merit is None:
            continue
        field = [
            other
            for other, other_group in zip(merits, groups, strict=True)
            if other is not None and other_group == group
        ]
        computed = 1 + sum(1 for other in field if other > merit)
        # Equal as written, the rows may still differ beyond the written decimals: any rank
        # from the best to the worst of the tied rows is right.
        lowest = sum(1 for other in field if other >= merit)
        agreed = computed <= rank[1] <= lowest
        checked.append((game.key.file, agreed, "EVT009"))
        if not agreed:
            _report(game, rank[0], "Rank", computed, f"the order of {column}", diagnostics)


def _direction(row: Mapping[str, Stated]) -> str:
    """``NS`` or ``EW`` from a row's Direction cell; empty for a one-winner row."""
    cell = row.get("Direction")
    text = "" if cell is None else cell.text.strip().upper()
    return text if text in ("NS", "EW") else ""


_STANDING_COLUMNS = {
    Method.MP: (("TotalMP", "total"), ("TotalPercentage", "percentage"), ("MeanMP", "mean")),
    Method.CROSS_IMP: (("TotalIMP", "total"), ("MeanIMP", "mean")),
    Method.BUTLER: (("TotalIMP", "total"), ("MeanIMP", "mean")),
    Method.IMP: (("TotalIMP", "total"), ("MeanIMP", "mean")),
    Method.TOTAL: (("TotalScore", "total"), ("MeanScore", "mean")),
}


def _check_standing(
    game: GameEntry,
    row: Mapping[str, Stated],
    standings: Mapping[str, Standing],
    method: Method | None,
    tolerance: float | None,
    diagnostics: list[Diagnostic],
    checked: Checked,
) -> None:
    if method not in _STANDING_COLUMNS:
        return
    names = [row[column].text for column in ("PairId", "Names") if column in row]
    standing = next(
        (standings[key] for name in names if (key := _name_key(name)) in standings), None
    )
    if standing is None:
        return
    columns = (*_STANDING_COLUMNS[method], ("NrBoards", "boards"))
    for column, attribute in columns:
        value = _number(row, column)
        computed = getattr(standing, attribute)
        if value is None or computed is None:
            continue
        agreed = agrees(value[0], value[1], float(computed), tolerance)
        checked.append((game.key.file, agreed, "EVT009"))
        if not agreed:
            detail = f"the results of {standing.name} on the boards"
            _report(game, value[0], column, float(computed), detail, diagnostics)


def _name_key(name: str) -> str:
    """Names compared without order or spacing: ``"B;A"`` and ``"A & B"`` are one pair."""
    parts = [part.strip() for part in name.replace("&", ";").split(";") if part.strip()]
    return ";".join(sorted(parts)) if len(parts) > 1 else name.strip()
