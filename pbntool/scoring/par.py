"""What can be said about a par score (``OptimumScore``) without a double-dummy solver.

``achievable_scores`` lists every North-South score some contract, declarer and number of
tricks give at a vulnerability: a par score outside it cannot be right.  ``par_score`` is the
par of a double-dummy table (as ``OptimumResultTable`` or ``DoubleDummyTricks`` state it).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from pbntool.model import Contract, Doubling, Seat, Side, Strain, Vulnerability
from pbntool.scoring.duplicate import duplicate_score

__all__ = ["achievable_scores", "par_score"]

_RANKED = tuple(
    (level, strain)
    for level in range(1, 8)
    for strain in (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP)
)
"""Every contract in the order of the auction (1C lowest, 7NT highest)."""


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


def par_score(
    tricks: Mapping[tuple[Seat, Strain], int], vulnerability: Vulnerability, dealer: Seat
) -> int:
    """The North-South par score of a double-dummy table (tricks by declarer and strain).

    Par is the end of an auction in which both sides know the table: a side may bid any
    contract above the last one, a contract that goes down is doubled, one that makes is not,
    and the dealer's side has the first chance to bid (DDS's ``DealerPar``).  Worked out by
    backward induction over the 35 contracts.

    >>> table = {(seat, strain): 6 for seat in Seat for strain in Strain}
    >>> table[Seat.NORTH, Strain.SPADES] = 10  # North makes 4S; East-West can do nothing
    >>> par_score(table, Vulnerability.NONE, Seat.EAST)
    420
    """
    values = {side: _side_values(tricks, vulnerability, side) for side in Side}
    first = Side.NS if dealer in (Seat.NORTH, Seat.SOUTH) else Side.EW

    @functools.cache
    def after(rank: int, declaring: Side) -> int:
        """The outcome once ``declaring`` has bid contract ``rank``, the other side to act."""
        other = declaring.other
        outcomes = [values[declaring][rank]]
        outcomes += [after(higher, other) for higher in range(rank + 1, len(_RANKED))]
        return max(outcomes) if other is Side.NS else min(outcomes)

    def opening(side: Side, then: int) -> int:
        """The outcome when ``side`` may open (passing leads to ``then``)."""
        outcomes = [then, *(after(rank, side) for rank in range(len(_RANKED)))]
        return max(outcomes) if side is Side.NS else min(outcomes)

    return opening(first, opening(first.other, 0))


def _side_values(
    tricks: Mapping[tuple[Seat, Strain], int], vulnerability: Vulnerability, side: Side
) -> list[int]:
    """North-South scores of each contract declared by the side's better declarer in it."""
    vulnerable = vulnerability.is_vulnerable(side)
    sign = 1 if side is Side.NS else -1
    seats = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)
    values = []
    for level, strain in _RANKED:
        taken = max(tricks[seat, strain] for seat in seats)
        made = taken >= level + 6
        doubling = Doubling.UNDOUBLED if made else Doubling.DOUBLED
        values.append(sign * duplicate_score(Contract(level, strain, doubling), vulnerable, taken))
    return values
