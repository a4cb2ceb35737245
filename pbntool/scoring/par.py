"""What can be said about a par score (``OptimumScore``) without a double-dummy solver.

``achievable_scores`` lists every North-South score some contract, declarer and number of
tricks give at a vulnerability: a par score outside it cannot be right.
"""

from __future__ import annotations

import functools

from pbntool.model import Contract, Doubling, Side, Strain, Vulnerability
from pbntool.scoring.duplicate import duplicate_score

__all__ = ["achievable_scores"]


@functools.cache
def achievable_scores(vulnerability: Vulnerability) -> frozenset[int]:
    """Every North-South duplicate score at ``vulnerability`` (0 for a passed-out board).

    >>> scores = achievable_scores(Vulnerability.NONE)
    >>> 420 in scores, -1430 in scores, 425 in scores
    (True, True, False)
    """
    scores = {0}
    for side in Side:
        vulnerable = vulnerability.is_vulnerable(side)
        sign = 1 if side is Side.NS else -1
        for level in range(1, 8):
            for strain in Strain:
                for doubling in Doubling:
                    contract = Contract(level, strain, doubling)
                    for tricks in range(14):
                        scores.add(sign * duplicate_score(contract, vulnerable, tricks))
    return frozenset(scores)
