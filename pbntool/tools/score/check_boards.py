"""What ``score --check`` compares on each board: ScoreTable rows and the ScoreMP, ScoreIMP
and ScorePercentage tags of its games, against the board's results recomputed.

Exact findings (a row's score against its contract, a game missing from its traveller) are
diagnostics at once; values that depend on the variant of the method become ``Item``s, whose
variant ``variants.choose_variants`` decides per file.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from pbntool.diagnostics import (
    EVT001,
    EVT002,
    EVT003,
    EVT004,
    EVT005,
    EVT006,
    EVT007,
    EVT008,
    EVT018,
    EVT019,
    Code,
    Diagnostic,
)
from pbntool.model import Side
from pbntool.scoring.duplicate import score_ns
from pbntool.scoring.matchpoints import FieldEntry
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.board import board_field, is_team_board, score_board_group
from pbntool.tools.score.field import score_field
from pbntool.tools.score.games import GameEntry, Stated, TableRow
from pbntool.tools.score.grouping import BoardGroup, match_key, placed
from pbntool.tools.score.results import Points
from pbntool.tools.score.values import parse_number, parse_side_number
from pbntool.tools.score.variants import (
    BAM_VARIANTS,
    IMP_VARIANTS,
    MP_VARIANTS,
    PERCENT_VARIANTS,
    RANK_VARIANTS,
    TEAM_VARIANTS,
    Item,
    Variant,
)

__all__ = ["VARIANTS", "BoardCheck", "CheckContext", "check_board_group"]

VARIANTS: dict[str, Sequence[Variant]] = {
    "imp": IMP_VARIANTS,
    "mp": MP_VARIANTS,
    "percentage": PERCENT_VARIANTS,
    "rank": RANK_VARIANTS,
    "team": TEAM_VARIANTS,
    "bam": BAM_VARIANTS,
}
"""The candidate variants of each kind of value, the default first."""

_TAG_KINDS = (
    ("ScoreIMP", "imp", EVT002),
    ("ScoreMP", "mp", EVT001),
    ("ScorePercentage", "percentage", EVT003),
)
_COLUMN_KINDS = (
    ("IMP_NS", "IMP_EW", "imp", EVT006),
    ("MP_NS", "MP_EW", "mp", EVT005),
    ("Percentage_NS", "Percentage_EW", "percentage", EVT007),
)


@dataclass(frozen=True, slots=True)
class CheckContext:
    """What a board's check needs from the event: the method named (by ``--method`` or the
    Scoring tag) with the variants it fixes, and Neuberg's expected count."""

    spec: ScoringSpec | None
    declared: dict[str, str] = field(default_factory=dict)
    """Kind of value → the variant label the method names."""
    expected: int | None = None


@dataclass(slots=True)
class BoardCheck:
    """A board's findings: variant-dependent items, exact diagnostics, and what was checked
    exactly (file, agreed)."""

    items: list[Item] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    exact: list[tuple[str, bool]] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)


def check_board_group(group: BoardGroup, context: CheckContext) -> BoardCheck:
    """Check the stated values of one board's games and score tables."""
    found = BoardCheck()
    first_table = group.table_game
    for game in group.games:
        if game.score_table is not None:
            _check_table(game, context, found)
    if first_table is not None:
        for game in group.games:
            table_owner = _table_of(game, group) or first_table
            _tag_items(game, _entries(table_owner), context, found, expected=None)
        return found
    if _team_method(context, group):
        _team_items(group, context, found)
        return found
    entries = board_field(group)
    for game in group.games:
        _tag_items(game, entries, context, found, context.expected)
    return found


def _table_of(game: GameEntry, group: BoardGroup) -> GameEntry | None:
    """The traveller a game is scored against: its own, else that of another table of its
    team match (a teams event of several matches, each match's traveller in one room)."""
    if game.score_table is not None:
        return game
    if not (game.home_team and game.visit_team):
        return None
    match = match_key(game)
    return next(
        (o for o in group.games if o.score_table is not None and match_key(o) == match), None
    )


def _entries(game: GameEntry) -> list[FieldEntry]:
    assert game.score_table is not None
    return [row.entry for row in game.score_table.rows if row.entry is not None]


def _team_method(context: CheckContext, group: BoardGroup) -> bool:
    method = context.spec.method if context.spec is not None else None
    if method is not None and not method.pairs_rooms:
        return False
    return is_team_board(group)


# --- ScoreTable ------------------------------------------------------------------------------


def _check_table(game: GameEntry, context: CheckContext, found: BoardCheck) -> None:
    table = game.score_table
    assert table is not None
    rows = [row for row in table.rows if row.entry is not None]
    entries = [row.entry for row in rows if row.entry is not None]
    for row in table.rows:
        _check_row_score(game, row, found)
    _check_own_result(game, entries, found)
    for ns_column, ew_column, kind, code in _COLUMN_KINDS:
        if ns_column not in table.columns and ew_column not in table.columns:
            continue
        computed = {
            variant.label: score_field(entries, variant.spec)
            for variant in _candidates(kind, context)
        }
        for index, row in enumerate(rows):
            for column, side in ((ns_column, Side.NS), (ew_column, Side.EW)):
                cell = row.cell(column)
                value = _cell_number(cell)
                if cell is None or value is None:
                    continue
                values = {
                    label: _side_value(points[index], side, _variant(kind, label))
                    for label, points in computed.items()
                }
                found.items.append(
                    _item(kind, code, f"ScoreTable {column}", cell, value, game, values, context)
                )
    if "Rank" in table.columns:
        _rank_items(game, rows, context, found)


def _candidates(kind: str, context: CheckContext) -> Sequence[Variant]:
    declared = context.declared.get(kind)
    variants = VARIANTS[kind]
    if declared is None:
        return variants
    return [variant for variant in variants if variant.label == declared]


def _variant(kind: str, label: str) -> Variant:
    return next(variant for variant in VARIANTS[kind] if variant.label == label)


def _item(
    kind: str,
    code: Code,
    name: str,
    stated: Stated,
    value: float,
    game: GameEntry,
    computed: dict[str, float | None],
    context: CheckContext,
) -> Item:
    return Item(kind, code, name, stated, value, game, computed, context.declared.get(kind))


def _cell_number(cell: Stated | None) -> float | None:
    if cell is None or cell.text.startswith("^"):
        return None
    return parse_number(cell.text)


def _side_value(points: Points, side: Side, variant: Variant) -> float | None:
    if variant.value == "percentage":
        return points.ns_percentage if side is Side.NS else points.ew_percentage
    return points.ns if side is Side.NS else points.ew


def _check_row_score(game: GameEntry, row: TableRow, found: BoardCheck) -> None:
    """EVT004: Score_NS / Score_EW against the row's contract, declarer and result."""
    contract, vulnerability = row.contract, game.vulnerability
    if contract is None or vulnerability is None or contract.level is None:
        return
    if not contract.is_passed_out and (row.declarer is None or row.tricks is None):
        return
    if contract.is_passed_out:
        computed = 0
    else:
        assert row.declarer is not None and row.tricks is not None
        computed = score_ns(contract, row.declarer, vulnerability, row.tricks)
    for column, expected in (("Score_NS", computed), ("Score_EW", -computed)):
        cell = row.cell(column)
        value = _cell_number(cell)
        if cell is None or value is None:
            continue
        agreed = value == expected
        found.exact.append((game.key.file, agreed))
        if agreed:
            continue
        vulnerable = row.declarer is not None and vulnerability.is_vulnerable(row.declarer.side)
        found.diagnostics.append(
            placed(
                EVT004.at(
                    column=column,
                    stated=f'"{cell.text}"',
                    contract=str(contract),
                    declarer=row.declarer.letter if row.declarer is not None else "nobody",
                    tricks=row.tricks if row.tricks is not None else "no",
                    vul=", vulnerable" if vulnerable else ", not vulnerable",
                    computed=expected,
                ),
                game,
                cell.place,
            )
        )


def _check_own_result(game: GameEntry, entries: Sequence[FieldEntry], found: BoardCheck) -> None:
    own = game.score_ns
    table = game.score_table
    if own is None or table is None:
        return
    listed = {entry.score_ns for entry in entries if entry.score_ns is not None}
    agreed = own in listed
    found.exact.append((game.key.file, agreed))
    if not agreed:
        found.diagnostics.append(placed(EVT018.at(score=f"NS {own}"), game, table.place))


def _rank_items(
    game: GameEntry, rows: Sequence[TableRow], context: CheckContext, found: BoardCheck
) -> None:
    scores = sorted(
        entry.score_ns
        for row in rows
        if (entry := row.entry) is not None and entry.score_ns is not None
        for _ in range(entry.count)
    )
    position = 1
    for row in rows:
        entry = row.entry
        cell = row.cell("Rank")
        if entry is None or entry.score_ns is None:
            continue
        best = len(scores) - bisect_right(scores, entry.score_ns) + 1
        value = _cell_number(cell)
        if cell is not None and value is not None:
            computed: dict[str, float | None] = {
                RANK_VARIANTS[0].label: float(best),
                RANK_VARIANTS[1].label: float(position),
            }
            found.items.append(
                _item("rank", EVT008, "ScoreTable Rank", cell, value, game, computed, context)
            )
        position += entry.count


# --- game tags -------------------------------------------------------------------------------


def _tag_items(
    game: GameEntry,
    entries: Sequence[FieldEntry],
    context: CheckContext,
    found: BoardCheck,
    expected: int | None,
) -> None:
    """ScoreMP, ScoreIMP and ScorePercentage of a game, against the field ``entries``."""
    for tag, kind, code in _TAG_KINDS:
        stated = game.stated.get(tag)
        if stated is None:
            continue
        own = game.entry
        if own is None:
            found.notes.append(_not_checked(game, tag, stated, "the game's result is not known"))
            continue
        if len(entries) < 2 and kind != "percentage":
            reason = "the board has no other result to compare with"
            found.notes.append(_not_checked(game, tag, stated, reason))
            continue
        side_value = _tag_number(stated, game)
        if side_value is None:
            found.notes.append(_not_checked(game, tag, stated, "the value cannot be read"))
            continue
        value, side = side_value
        shown = {"prefix": f"{side.letters} " if _has_side(stated) else "", "sign": 1}
        if kind != "imp" and value < 0:
            value, side = -value, side.other  # OKbridge's "EW -38.20" gives NS 38.20
            shown["sign"] = -1
        values: dict[str, float | None] = {}
        for variant in _candidates(kind, context):
            neuberg = expected if kind != "imp" else None
            points = _probe_points(own, entries, variant.spec, neuberg)
            values[variant.label] = _side_value(points, side, variant)
        item = _item(kind, code, tag, stated, value, game, values, context)
        item.arguments.update(shown)
        found.items.append(item)


def _probe_points(
    own: FieldEntry,
    entries: Sequence[FieldEntry],
    spec: ScoringSpec,
    expected: int | None,
) -> Points:
    for entry, points in zip(entries, score_field(entries, spec, expected), strict=True):
        if entry.score_ns is not None and entry.score_ns == own.score_ns:
            return points
    return score_field([*entries, own], spec, expected)[-1]


def _tag_number(stated: Stated, game: GameEntry) -> tuple[float, Side] | None:
    """The stated number and the side it is for (a bare number is the declarer's side's)."""
    number = parse_side_number(stated.text)
    if number is None:
        return None
    side = number.side
    if side is None:
        if game.declarer is None:
            return None
        side = game.declarer.side
    return number.value, side


def _has_side(stated: Stated) -> bool:
    number = parse_side_number(stated.text)
    return number is not None and number.side is not None


def _not_checked(game: GameEntry, name: str, stated: Stated, reason: str) -> Diagnostic:
    return placed(
        EVT019.at(name=name, stated=f'"{stated.text}"', reason=reason), game, stated.place
    )


def _team_items(group: BoardGroup, context: CheckContext, found: BoardCheck) -> None:
    """ScoreIMP (and board-a-match points) of the two rooms of each match."""
    if not any("ScoreIMP" in game.stated for game in group.games):
        return
    spec = context.spec or ScoringSpec(Method.IMP)
    scoring = score_board_group(
        group, spec if spec.method.pairs_rooms else ScoringSpec(Method.IMP), None
    )
    found.notes.extend(scoring.problems)
    by_game = {result.key.game: result for result in scoring.games}
    kind = "bam" if spec.method is Method.BAM else "team"
    for game in group.games:
        stated = game.stated.get("ScoreIMP")
        if stated is None:
            continue
        result = by_game.get(game.key)
        side_value = _tag_number(stated, game)
        if result is None or result.points.ns is None:
            reason = "no other room of the match to compare with"
            found.notes.append(_not_checked(game, "ScoreIMP", stated, reason))
            continue
        if side_value is None:
            found.notes.append(_not_checked(game, "ScoreIMP", stated, "the value cannot be read"))
            continue
        value, side = side_value
        computed = result.points.ns if side is Side.NS else result.points.ew
        label = VARIANTS[kind][0].label
        values: dict[str, float | None] = {label: computed}
        item = _item(kind, EVT002, "ScoreIMP", stated, value, game, values, context)
        item.arguments.update(prefix=f"{side.letters} " if _has_side(stated) else "", sign=1)
        found.items.append(item)
