"""Totals per pair or team, ranked: what a TotalScoreTable lists."""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.results import BoardResults, ScoredResult, Standing

__all__ = ["rank_standings"]


@dataclass(slots=True)
class _Tally:
    boards: int = 0
    total: float = 0.0
    tops: float = 0.0
    names: set[str] = field(default_factory=set)


def rank_standings(
    credited: Sequence[tuple[BoardResults, Sequence[ScoredResult]]],
    methods: Mapping[tuple[str, str], ScoringSpec],
    partial: set[tuple[str, str]] | None = None,
) -> list[Standing]:
    """Each event's pairs or teams, ranked by percentage (matchpoints) or total; events in
    ``partial`` are marked incomplete (see ``Standing.complete``)."""
    by_event: dict[tuple[str, str], dict[str, _Tally]] = defaultdict(dict)
    directional = _directional_events(credited)
    for board, results in credited:
        event = (board.event, board.section)
        tallies = by_event[event]
        for result in results:
            for side, name, points in (
                ("NS", result.pair_ns, result.points.ns),
                ("EW", result.pair_ew, result.points.ew),
            ):
                if name is None or points is None:
                    continue
                label = f"{side} {name}" if event in directional else name
                tally = tallies.setdefault(label, _Tally())
                tally.boards += result.count
                tally.total += points * result.count
                tally.tops += (board.top or 0.0) * result.count
    standings: list[Standing] = []
    for event, tallies in by_event.items():
        spec = methods.get(event, ScoringSpec(Method.DUPLICATE))
        ranked = _ranked(event, tallies, spec.method)
        if partial and event in partial:
            ranked = [dataclasses.replace(standing, complete=False) for standing in ranked]
        standings.extend(ranked)
    return standings


def _directional_events(
    credited: Sequence[tuple[BoardResults, Sequence[ScoredResult]]],
) -> set[tuple[str, str]]:
    """Events whose pair ids are per direction (a Mitchell): one id sits NS at one table and
    EW at another of the same board."""
    found: set[tuple[str, str]] = set()
    for board, results in credited:
        if board.method in (Method.IMP, Method.BAM):
            continue
        north_south = {result.pair_ns for result in results if result.pair_ns}
        east_west = {result.pair_ew for result in results if result.pair_ew}
        if north_south & east_west:
            found.add((board.event, board.section))
    return found


def _ranked(event: tuple[str, str], tallies: dict[str, _Tally], method: Method) -> list[Standing]:
    rows = []
    for name, tally in tallies.items():
        percentage = tally.total / tally.tops * 100 if method is Method.MP and tally.tops else None
        mean = tally.total / tally.boards if tally.boards else 0.0
        rows.append((name, tally, percentage, mean))

    def merit(row: tuple[str, _Tally, float | None, float]) -> float:
        # Rounded: equal totals summed in another order must tie, not differ in the 15th digit.
        return round(row[2] if row[2] is not None else row[1].total, 9)

    rows.sort(key=lambda row: (-merit(row), _natural(row[0])))
    standings: list[Standing] = []
    for position, (name, tally, percentage, mean) in enumerate(rows):
        rank = position + 1
        if position and merit(rows[position - 1]) == merit((name, tally, percentage, mean)):
            rank = standings[-1].rank
        standings.append(
            Standing(rank, name, tally.boards, tally.total, mean, percentage, event[0], event[1])
        )
    return standings


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts pair 2 before pair 13."""
    parts = re.split(r"(\d+)", name)
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in parts if part)
