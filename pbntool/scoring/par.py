"""What can be said about a par score (``OptimumScore``) without a double-dummy solver.

``achievable_scores`` lists every North-South score some contract, declarer and number of
tricks give at a vulnerability: a par score outside it cannot be right.  ``par`` is the par
of a double-dummy table (as ``OptimumResultTable`` or ``DoubleDummyTricks`` state it): the
score and the contracts, as DDS's ``DealerPar`` gives them; ``par_score`` only the score.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from pbntool.model import Contract, Doubling, Seat, Side, Strain, Vulnerability
from pbntool.scoring.duplicate import duplicate_score

__all__ = ["ParContract", "ParResult", "achievable_scores", "outbid", "par", "par_score"]

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


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: ``declarers`` is ``N``/``E``/``S``/``W`` when only that seat takes
    the most tricks in the strain, ``NS``/``EW`` when both partners do; ``margin`` is over-
    (positive) or under-tricks (negative, for a sacrifice)."""

    level: int
    strain: Strain
    doubling: Doubling
    declarers: str
    margin: int

    @property
    def side(self) -> Side:
        return Side.NS if self.declarers[0] in "NS" else Side.EW

    @property
    def contract_text(self) -> str:
        """``4S``, ``5HX``, ``3NT``."""
        return f"{self.level}{self.strain.letter}{self.doubling.suffix}"

    def __str__(self) -> str:
        result = "=" if self.margin == 0 else f"{self.margin:+d}"
        return f"{self.contract_text}{result} by {self.declarers}"


@dataclass(frozen=True, slots=True)
class ParResult:
    """Par: North-South's score and the contracts that reach it (none when the par is to
    pass the board out), in DDS's order (``_dds_order``)."""

    score_ns: int
    contracts: tuple[ParContract, ...]

    @property
    def passed_out(self) -> bool:
        return not self.contracts

    @property
    def side(self) -> Side:
        """The side that declares the par contracts (North-South for a pass-out)."""
        return self.contracts[0].side if self.contracts else Side.NS


def par_score(
    tricks: Mapping[tuple[Seat, Strain], int], vulnerability: Vulnerability, dealer: Seat
) -> int:
    """The North-South par score of a double-dummy table (tricks by declarer and strain).

    >>> table = {(seat, strain): 6 for seat in Seat for strain in Strain}
    >>> table[Seat.NORTH, Strain.SPADES] = 10  # North makes 4S; East-West can do nothing
    >>> par_score(table, Vulnerability.NONE, Seat.EAST)
    420
    """
    return par(tricks, vulnerability, dealer).score_ns


def par(
    tricks: Mapping[tuple[Seat, Strain], int], vulnerability: Vulnerability, dealer: Seat
) -> ParResult:
    """The par of a double-dummy table (tricks by declarer and strain): DDS's ``DealerPar``.

    Par is the end of an auction in which both sides know the table: a side may bid any
    contract above the last one, a contract that goes down is doubled, one that makes is not,
    and the dealer's side has the first chance to bid.  The score is worked out by backward
    induction over the 35 contracts; the par contracts are those that score it and that the
    opponents cannot profitably outbid, at the lowest such level of each strain.

    >>> table = {(seat, strain): 6 for seat in Seat for strain in Strain}
    >>> table[Seat.NORTH, Strain.SPADES] = 11
    >>> table[Seat.SOUTH, Strain.SPADES] = 11
    >>> [str(contract) for contract in par(table, Vulnerability.NONE, Seat.EAST).contracts]
    ['4S+1 by NS']
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

    score = opening(first, opening(first.other, 0))
    contracts = []
    for side in Side:
        for strain in Strain:
            for rank, (level, ranked_strain) in enumerate(_RANKED):
                if ranked_strain is not strain or values[side][rank] != score:
                    continue
                if _unbeaten(values[side.other][rank + 1 :], side.other, score):
                    contracts.append(_contract(tricks, side, level, strain, vulnerability))
                    break
    return ParResult(score, tuple(sorted(contracts, key=_dds_order)))


def _dds_order(contract: ParContract) -> tuple[int, int]:
    """DDS lists the contracts that take more tricks first; among equals, made contracts
    from the highest strain (NT, S, ... C) and sacrifices from the lowest (C, D, ... NT)."""
    tricks = contract.level + 6 + contract.margin
    strain = int(contract.strain)
    return (-tricks, strain if contract.margin < 0 else -strain)


def outbid(
    tricks: Mapping[tuple[Seat, Strain], int],
    vulnerability: Vulnerability,
    declaring: Side,
    level: int,
    strain: Strain,
    score: int,
) -> bool:
    """True when the side that does not declare ``level strain`` has a higher contract that
    scores better for it than ``score`` (North-South's view): then it is no par contract,
    whatever it scores.

    >>> ns, ew = (Seat.NORTH, Seat.SOUTH), (Seat.EAST, Seat.WEST)
    >>> table = {(seat, strain): 6 if seat in ns else 5 for seat in Seat for strain in Strain}
    >>> table.update({(seat, Strain.SPADES): 8 for seat in ns})
    >>> table.update({(seat, Strain.HEARTS): 7 for seat in ew})
    >>> outbid(table, Vulnerability.NONE, Side.NS, 1, Strain.SPADES, 110)  # 2HX-1 costs 100
    True
    >>> outbid(table, Vulnerability.NONE, Side.NS, 2, Strain.SPADES, 110)
    False
    """
    other = declaring.other
    rank = _RANKED.index((level, strain))
    return not _unbeaten(_side_values(tricks, vulnerability, other)[rank + 1 :], other, score)


def _unbeaten(higher: list[int], other: Side, score: int) -> bool:
    """No higher contract of ``other`` scores better for it than ``score``."""
    return (
        all(value <= score for value in higher)
        if other is Side.NS
        else all(value >= score for value in higher)
    )


_SEATS = {Side.NS: (Seat.NORTH, Seat.SOUTH), Side.EW: (Seat.EAST, Seat.WEST)}


def _contract(
    tricks: Mapping[tuple[Seat, Strain], int],
    side: Side,
    level: int,
    strain: Strain,
    vulnerability: Vulnerability,
) -> ParContract:
    seats = _SEATS[side]
    taken = max(tricks[seat, strain] for seat in seats)
    declarers = "".join(seat.letter for seat in seats if tricks[seat, strain] == taken)
    margin = taken - level - 6
    doubling = Doubling.UNDOUBLED if margin >= 0 else Doubling.DOUBLED
    return ParContract(level, strain, doubling, declarers, margin)


def _side_values(
    tricks: Mapping[tuple[Seat, Strain], int], vulnerability: Vulnerability, side: Side
) -> list[int]:
    """North-South scores of each contract declared by the side's better declarer in it."""
    vulnerable = vulnerability.is_vulnerable(side)
    sign = 1 if side is Side.NS else -1
    values = []
    for level, strain in _RANKED:
        taken = max(tricks[seat, strain] for seat in _SEATS[side])
        made = taken >= level + 6
        doubling = Doubling.UNDOUBLED if made else Doubling.DOUBLED
        values.append(sign * duplicate_score(Contract(level, strain, doubling), vulnerable, taken))
    return values
