"""Scoring methods: what ``score --method`` names, and what a PBN ``Scoring`` tag asks for.

A ``ScoringSpec`` is a method plus its variant options, a frozen value passed to the event
scorer.  ``ScoringSpec.from_tag`` reads the ``Scoring`` tag (PBN §4.12: one basic system and
modifiers separated by ``;``, e.g. ``IMP;Butler-2`` or ``MP;MP2``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

from pbntool.scoring.comparison import CrossAverage
from pbntool.scoring.matchpoints import MatchpointScale, PercentBase

__all__ = ["Method", "ScoringSpec"]


class Method(Enum):
    """A way of scoring the results of an event."""

    DUPLICATE = "duplicate"
    """Each table's duplicate score on its own (no comparison)."""
    MP = "mp"
    """Matchpoints and percentages."""
    IMP = "imp"
    """IMPs between the two tables of a team match (open and closed room)."""
    BUTLER = "butler"
    """IMPs against a datum (the mean of the board's scores, without the extremes)."""
    CROSS_IMP = "cross-imp"
    """IMPs against every other score of the board."""
    BAM = "bam"
    """Board-a-match: 1, ½ or 0 against the other table (averaged against a field)."""
    TOTAL = "total"
    """Total points: the sum of the duplicate scores."""
    RUBBER = "rubber"
    """Rubber bridge: the deals of a file in sequence."""
    CHICAGO = "chicago"
    """Chicago: four-deal cycles."""

    @property
    def compares_tables(self) -> bool:
        """True for the methods that compare the results of a board across tables."""
        return self not in (Method.DUPLICATE, Method.RUBBER, Method.CHICAGO, Method.TOTAL)

    @property
    def pairs_rooms(self) -> bool:
        """True for the team methods that compare an open room with a closed room."""
        return self in (Method.IMP, Method.BAM)


@dataclass(frozen=True, slots=True)
class ScoringSpec:
    """A method and the options of its variants.

    >>> ScoringSpec.from_tag("IMP;Butler-2").method, ScoringSpec.from_tag("IMP;Butler-2").discard
    (<Method.BUTLER: 'butler'>, 1)
    >>> ScoringSpec.from_tag("MP;MP2").scale
    <MatchpointScale.MP2: 'MP2'>
    """

    method: Method
    scale: MatchpointScale = MatchpointScale.MP1
    base: PercentBase = PercentBase.STANDARD
    neuberg: bool = True
    """Scale the matchpoints of a board with fewer results than the event's largest field."""
    discard: int = 1
    """Butler: highest and lowest scores left out of the datum (0: the mean of all)."""
    cross: CrossAverage = CrossAverage.PER_COMPARISON
    field_imps: Method = Method.CROSS_IMP
    """What ``imp`` does on a board played at more than two tables of one match (a traveller):
    cross-IMPs or Butler."""

    @classmethod
    def from_tag(cls, value: str) -> ScoringSpec | None:
        """The method a ``Scoring`` tag names, or None when it names none we score.

        ``Instant`` (an InstantScoreTable), ``Experts`` (an expert datum), ``IMP_1948`` and
        ``IMP_1961`` (older IMP scales) are not supported and give None.
        """
        fields = [part.strip().lower() for part in value.split(";") if part.strip()]
        method: Method | None = None
        spec = cls(Method.MP)
        for word in fields:
            if word in _BASIC:
                method = method or _BASIC[word]
            elif word in _UNSUPPORTED:
                return None
            elif word in _MODIFIERS:
                spec, method = _MODIFIERS[word](spec, method)
        if method is None:
            return None
        return replace(spec, method=method)


_BASIC = {
    "mp": Method.MP,
    "matchpoints": Method.MP,
    "matchpoint": Method.MP,
    "imp": Method.IMP,
    "imps": Method.IMP,
    "bam": Method.BAM,
    "rubber": Method.RUBBER,
    "chicago": Method.CHICAGO,
    "cavendish": Method.CROSS_IMP,
    "total": Method.TOTAL,
}
_UNSUPPORTED = {"instant", "experts", "imp_1948", "imp_1961"}


Modifier = Callable[[ScoringSpec, "Method | None"], tuple[ScoringSpec, "Method | None"]]
"""A ``Scoring`` modifier: how it changes the spec and the method."""


def _butler(discard: int) -> Modifier:
    def apply(spec: ScoringSpec, method: Method | None) -> tuple[ScoringSpec, Method | None]:
        return replace(spec, discard=discard, field_imps=Method.BUTLER), Method.BUTLER

    return apply


def _cross(average: CrossAverage) -> Modifier:
    def apply(spec: ScoringSpec, method: Method | None) -> tuple[ScoringSpec, Method | None]:
        return replace(spec, cross=average, field_imps=Method.CROSS_IMP), Method.CROSS_IMP

    return apply


def _scale(scale: MatchpointScale) -> Modifier:
    def apply(spec: ScoringSpec, method: Method | None) -> tuple[ScoringSpec, Method | None]:
        return replace(spec, scale=scale), method or Method.MP

    return apply


_MODIFIERS: dict[str, Modifier] = {
    "butler": _butler(0),
    "butler-2": _butler(1),
    "cross": _cross(CrossAverage.TOTAL),
    "cross1": _cross(CrossAverage.PER_SCORE),
    "cross2": _cross(CrossAverage.PER_COMPARISON),
    "mp1": _scale(MatchpointScale.MP1),
    "mp2": _scale(MatchpointScale.MP2),
}
