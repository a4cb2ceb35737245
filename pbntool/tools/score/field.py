"""Scoring one board's field with a method: the points of every result."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from pbntool.scoring.comparison import (
    average_cross_imps,
    board_a_match,
    butler_datum,
    cross_imp_totals,
    field_board_a_match,
    team_imps,
)
from pbntool.scoring.duplicate import imps
from pbntool.scoring.matchpoints import Artificial, FieldEntry, score_matchpoints
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.results import NO_POINTS, Points

__all__ = ["closed_room_points", "field_datum", "field_top", "score_field", "team_points"]


def score_field(
    entries: Sequence[FieldEntry], spec: ScoringSpec, expected: int | None = None
) -> list[Points]:
    """Score every entry of a board's field with a field method (see ``_score_field``); the
    last few fields are remembered, since a check scores each field with every variant."""
    return list(_remembered(tuple(entries), spec, expected))


@functools.lru_cache(maxsize=512)
def _remembered(
    entries: tuple[FieldEntry, ...], spec: ScoringSpec, expected: int | None
) -> tuple[Points, ...]:
    return tuple(_score_field(entries, spec, expected))


def _score_field(
    entries: Sequence[FieldEntry], spec: ScoringSpec, expected: int | None = None
) -> list[Points]:
    """Score every entry of a board's field with a field method (MP, Butler, cross-IMPs,
    board-a-match against the field, total points; ``imp`` uses ``spec.field_imps``).

    Args:
        entries: The board's results.
        spec: The method and its variant.
        expected: Matchpoints: Neuberg's expected number of results (None: no scaling).
    """
    method = spec.method
    if method is Method.IMP:
        method = spec.field_imps
    if method is Method.MP:
        target = expected if spec.neuberg else None
        return [
            Points(mp.ns, mp.ew, mp.ns_percentage, mp.ew_percentage)
            for mp in score_matchpoints(entries, scale=spec.scale, expected=target, base=spec.base)
        ]
    scores = [e.score_ns for e in entries if e.score_ns is not None for _ in range(e.count)]
    if method is Method.BUTLER:
        datum = butler_datum(scores, spec.discard) if scores else None
        return [_imp_points(e, None if datum is None else _minus(e, datum)) for e in entries]
    if method is Method.CROSS_IMP:
        totals = cross_imp_totals(scores)
        return [
            _imp_points(
                e,
                None
                if e.score_ns is None
                else average_cross_imps(totals[e.score_ns], len(scores), spec.cross),
            )
            for e in entries
        ]
    if method is Method.BAM:
        return [_bam_points(e, scores) for e in entries]
    return [_total_points(e) for e in entries]


def _minus(entry: FieldEntry, datum: int) -> float | None:
    return None if entry.score_ns is None else float(imps(entry.score_ns - datum))


def _imp_points(entry: FieldEntry, ns: float | None) -> Points:
    if entry.score_ns is not None:
        return Points(ns, None if ns is None else -ns)
    return Points(_artificial_imps(entry.artificial_ns), _artificial_imps(entry.artificial_ew))


def _artificial_imps(artificial: Artificial | None) -> float | None:
    return None if artificial is None else artificial.imps


def _bam_points(entry: FieldEntry, scores: list[int]) -> Points:
    if entry.score_ns is None:
        ns, ew = entry.artificial_ns, entry.artificial_ew
        return Points(
            None if ns is None else ns.percentage / 100, None if ew is None else ew.percentage / 100
        )
    ns_points = field_board_a_match(entry.score_ns, scores)
    return Points(ns_points, 1 - ns_points)


def _total_points(entry: FieldEntry) -> Points:
    if entry.score_ns is None:
        return NO_POINTS
    return Points(float(entry.score_ns), float(-entry.score_ns))


def field_top(
    entries: Sequence[FieldEntry], spec: ScoringSpec, expected: int | None
) -> float | None:
    if spec.method is not Method.MP:
        return None
    tables = sum(entry.count for entry in entries if entry.is_real or entry.is_adjusted)
    target = max(expected or tables, tables) if spec.neuberg else tables
    return max(target - 1, 0) * spec.scale.per_beaten


def field_datum(entries: Sequence[FieldEntry], spec: ScoringSpec) -> int | None:
    """Butler: the board's datum; None for other methods."""
    if spec.method is not Method.BUTLER:
        return None
    scores = [e.score_ns for e in entries if e.score_ns is not None for _ in range(e.count)]
    return butler_datum(scores, spec.discard) if scores else None


def team_points(open_entry: FieldEntry, closed_entry: FieldEntry, method: Method) -> Points:
    """Points of the open room's NS (the home team) and EW (the visitors)."""
    if open_entry.score_ns is not None and closed_entry.score_ns is not None:
        if method is Method.BAM:
            won = board_a_match(open_entry.score_ns, closed_entry.score_ns)
            return Points(won, 1 - won)
        gained = float(team_imps(open_entry.score_ns, closed_entry.score_ns))
        return Points(gained, -gained)
    ns = open_entry.artificial_ns if open_entry.score_ns is None else closed_entry.artificial_ew
    ew = open_entry.artificial_ew if open_entry.score_ns is None else closed_entry.artificial_ns
    if method is Method.BAM:
        return Points(
            None if ns is None else ns.percentage / 100, None if ew is None else ew.percentage / 100
        )
    return Points(_artificial_imps(ns), _artificial_imps(ew))


def closed_room_points(points: Points) -> Points:
    """The closed room: its NS are the visitors, its EW the home team."""
    return Points(points.ew, points.ns)
