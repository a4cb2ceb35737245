"""Scores compared across tables in IMPs or board-a-match points.

All scores are North-South points; each function gives North-South's result (East-West's
is its negation for IMPs, its complement to 1 for board-a-match).

* Teams (``team_imps``): the two tables of a match, IMPs of the difference (1962 scale).
* Butler (``butler_datum``): IMPs against a datum, the mean of the board's scores without the
  ``discard`` highest and lowest ones, rounded to the nearest 10 (a mean ending in exactly 5
  rounds away from zero).  ``discard=0`` is PBN's ``Butler`` (the mean of all scores),
  ``discard=1`` its ``Butler-2`` (without the two extreme scores).
* Cross-IMPs (``cross_imps``): IMPs against every other score; reported as the sum (PBN
  ``Cross``), divided by the number of scores (``Cross1``) or by the number of comparisons
  (``Cross2``, the average per comparison).
* Board-a-match (``board_a_match``): 1 for a higher score than the other table, ½ for an equal
  one, 0 for a lower one; against a field, the average over every comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum

from pbntool.scoring.duplicate import imps

__all__ = [
    "CrossAverage",
    "average_cross_imps",
    "board_a_match",
    "butler_datum",
    "cross_imp_totals",
    "cross_imps",
    "field_board_a_match",
    "team_imps",
]


class CrossAverage(Enum):
    """How a cross-IMP total is reported."""

    TOTAL = "Cross"
    """The sum of the IMPs against every other score."""
    PER_SCORE = "Cross1"
    """The sum divided by the number of scores."""
    PER_COMPARISON = "Cross2"
    """The sum divided by the number of comparisons (scores - 1)."""


def team_imps(score_ns: int, other_ns: int) -> int:
    """IMPs for the North-South pair that scored ``score_ns`` against the other table.

    >>> team_imps(620, 170), team_imps(-100, 110)
    (10, -5)
    """
    return imps(score_ns - other_ns)


def butler_datum(scores: Sequence[int], discard: int = 1) -> int:
    """The Butler datum of a board's North-South scores.

    Args:
        scores: Every score of the board (a score that several tables had, several times).
        discard: How many of the highest and of the lowest scores are left out; when that
            would leave nothing, all scores are used.

    Returns:
        The mean, rounded to the nearest 10.

    Raises:
        ValueError: For an empty list of scores.

    >>> butler_datum([620, 620, 170, 650, -100])
    470
    >>> butler_datum([620, 620, 170, 650, -100], discard=0)
    390
    """
    if not scores:
        raise ValueError("a Butler datum needs at least one score")
    ordered = sorted(scores)
    if discard > 0 and len(ordered) > 2 * discard:
        ordered = ordered[discard:-discard]
    mean = Decimal(sum(ordered)) / Decimal(len(ordered)) / 10
    rounded = mean.copy_abs().quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(rounded) * 10 * (-1 if mean < 0 else 1)


def cross_imps(
    score_ns: int, field: Sequence[int], average: CrossAverage = CrossAverage.PER_COMPARISON
) -> float:
    """Cross-IMPs of one score against the other scores of its board.

    Args:
        score_ns: The score to rate; it must be one of ``field``.
        field: Every score of the board, ``score_ns`` included once.
        average: The sum, or its average per score or per comparison.

    Returns:
        IMPs for North-South (0 on a board with a single score).

    >>> cross_imps(620, [620, 170, -100])
    11.0
    >>> cross_imps(620, [620, 170, -100], CrossAverage.TOTAL)
    22.0
    """
    total = sum(imps(score_ns - other) for other in field)  # itself adds imps(0) = 0
    return average_cross_imps(total, len(field), average)


def cross_imp_totals(field: Sequence[int]) -> dict[int, int]:
    """The cross-IMP total of each distinct score of a field (one computation per pair of
    distinct scores, however many tables had them).

    >>> cross_imp_totals([620, 170, -100, 620])
    {620: 22, 170: -13, -100: -31}
    """
    counts = Counter(field)
    return {
        score: sum(count * imps(score - other) for other, count in counts.items())
        for score in counts
    }


def average_cross_imps(total: float, scores: int, average: CrossAverage) -> float:
    """A cross-IMP total reported as the sum or averaged per score or per comparison."""
    if average is CrossAverage.TOTAL:
        return float(total)
    if average is CrossAverage.PER_SCORE:
        return total / scores if scores else 0.0
    return total / (scores - 1) if scores > 1 else 0.0


def board_a_match(score_ns: int, other_ns: int) -> float:
    """Board-a-match points for North-South against the other table: 1, ½ or 0.

    >>> board_a_match(420, 400), board_a_match(-50, -50), board_a_match(100, 110)
    (1.0, 0.5, 0.0)
    """
    if score_ns > other_ns:
        return 1.0
    return 0.5 if score_ns == other_ns else 0.0


def field_board_a_match(score_ns: int, field: Sequence[int]) -> float:
    """Board-a-match against every other score of the field, averaged (0 to 1).

    >>> field_board_a_match(420, [420, 400, 450, 420])
    0.5
    """
    comparisons = len(field) - 1
    if comparisons <= 0:
        return 0.5
    points = sum(board_a_match(score_ns, other) for other in field) - 0.5  # minus itself
    return points / comparisons
