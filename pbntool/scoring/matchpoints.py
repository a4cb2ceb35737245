"""Matchpoints: each result of a board against every other result of the same board.

A *field* is the list of results of one board, each a North-South score with the number of
tables that had it (a ScoreTable's ``Multiplicity``), or an artificial score given to one or
both sides (an average, or a percentage written ``^60``).  Real scores are compared with each
other; artificial ones are not compared but receive their percentage of the top.

Formulas (``n`` real results on the board, ``N`` the number of results the board should have
had, the *expected* count):

* MP1 (the PBN default, ``ScoreMP``): 2 per lower score and 1 per equal score; top 2(n - 1).
  MP2: 1 and ½; top n - 1.
* Neuberg, when n < N: MP' = (MP + 1)·N/n - 1 in MP1 units (MP' = (MP + ½)·N/n - ½ in MP2), on
  the top of N results.  It gives a board with fewer results the same weight as the others.
* Percentage (``PercentBase.STANDARD``) = MP / top * 100; a lone result gets 50.
  ``PercentBase.INCLUSIVE`` counts each result as also tying with itself:
  (MP1 + 1) / (2·n) * 100, so the top is just under 100 (used by the multi-centre Fifth
  Friday Tournament file of the corpus).
* Artificial scores: A (average) 50 %, A+ 60 %, A- 40 % of the top; ``^p`` gives p %.
  A table given an artificial score still played the board's movement, so the board's
  expected count includes it: the real results are factored with Neuberg from the n results
  actually obtained to the N tables (real and artificial), and the artificial score is its
  percentage of that board's top 2(N - 1), as Compscore and the EBU's *White Book* (§3.7.3,
  "Neuberg after an adjusted score") do.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "Artificial",
    "FieldEntry",
    "MatchpointScale",
    "MatchpointScore",
    "PercentBase",
    "matchpoint_top",
    "neuberg",
    "score_matchpoints",
]


class MatchpointScale(Enum):
    """How much a beaten and a tied score are worth."""

    MP1 = "MP1"
    """2 per lower score, 1 per equal score (PBN's definition of ``ScoreMP``)."""
    MP2 = "MP2"
    """1 per lower score, ½ per equal score."""

    @property
    def per_beaten(self) -> float:
        """Matchpoints for each lower score."""
        return 2.0 if self is MatchpointScale.MP1 else 1.0


class PercentBase(Enum):
    """How a matchpoint score becomes a percentage."""

    STANDARD = "standard"
    """MP / top * 100: the top gets 100, the bottom 0."""
    INCLUSIVE = "inclusive"
    """(MP1 + 1) / (2·n) * 100: the result also ties with itself, so the top is below 100."""


@dataclass(frozen=True, slots=True)
class Artificial:
    """An artificial score for one side: a percentage of the top, and its IMP equivalent.

    >>> Artificial.parse("A+"), Artificial.parse("^55").percentage
    (Artificial(label='A+', percentage=60.0, imps=3.0), 55.0)
    """

    label: str
    percentage: float
    imps: float | None = None
    """IMPs the average is worth in IMP scoring (A 0, A+ +3, A- -3; None for ``^p``)."""

    @classmethod
    def parse(cls, text: str) -> Artificial | None:
        """``A``, ``A+``, ``A-`` (also ``AVG``, ``AVG+``, ``AVG-``, with an optional ``^``) or
        ``^p`` for a percentage; None for anything else."""
        word = text.strip().upper().removeprefix("^")
        word = word.replace("AVG", "A").replace("AVE", "A")
        if word in _AVERAGES:
            return _AVERAGES[word]
        if text.strip().startswith("^"):
            try:
                value = float(word)
            except ValueError:
                return None
            if 0.0 <= value <= 100.0:
                return cls(text.strip(), value)
        return None

    @property
    def mirror(self) -> Artificial:
        """The average the opponents get by default (A+ ↔ A-, A ↔ A, p ↔ 100 - p)."""
        if self.label in _MIRROR:
            return _AVERAGES[_MIRROR[self.label]]
        return Artificial(f"^{_number(100.0 - self.percentage)}", 100.0 - self.percentage)


_AVERAGES = {
    "A": Artificial("A", 50.0, 0.0),
    "A+": Artificial("A+", 60.0, 3.0),
    "A-": Artificial("A-", 40.0, -3.0),
}
_MIRROR = {"A": "A", "A+": "A-", "A-": "A+"}


def _number(value: float) -> str:
    return f"{value:g}"


@dataclass(frozen=True, slots=True)
class FieldEntry:
    """One result of a board: a real North-South score, or artificial scores for the sides.

    ``count`` tables had this result.  An entry with ``score_ns`` None takes no part in the
    comparisons; its sides receive their ``Artificial`` percentage (a side with None gets
    nothing: the entry is about the other side only).
    """

    score_ns: int | None
    count: int = 1
    artificial_ns: Artificial | None = None
    artificial_ew: Artificial | None = None

    @property
    def is_adjusted(self) -> bool:
        """An artificial score given to a table instead of a result (it counts as a table)."""
        return self.score_ns is None and (
            self.artificial_ns is not None or self.artificial_ew is not None
        )

    @property
    def is_real(self) -> bool:
        """True for a score that was played and is compared with the others."""
        return self.score_ns is not None


@dataclass(frozen=True, slots=True)
class MatchpointScore:
    """What one entry of the field scores: matchpoints and percentages for each side."""

    ns: float | None
    ew: float | None
    ns_percentage: float | None
    ew_percentage: float | None
    top: float


def matchpoint_top(results: int, scale: MatchpointScale = MatchpointScale.MP1) -> float:
    """The top on a board with ``results`` results.

    >>> matchpoint_top(13), matchpoint_top(13, MatchpointScale.MP2)
    (24.0, 12.0)
    """
    return max(results - 1, 0) * scale.per_beaten


def neuberg(
    points: float, results: int, expected: int, scale: MatchpointScale = MatchpointScale.MP1
) -> float:
    """Neuberg's formula: matchpoints scored among ``results`` results, scaled to ``expected``.

    >>> neuberg(10, results=9, expected=10)
    11.222222222222221
    >>> neuberg(8, results=9, expected=9)
    8.0
    """
    if results <= 0 or expected == results:
        return float(points)
    half = scale.per_beaten / 2
    return (points + half) * expected / results - half


def score_matchpoints(
    field: Sequence[FieldEntry],
    *,
    scale: MatchpointScale = MatchpointScale.MP1,
    expected: int | None = None,
    base: PercentBase = PercentBase.STANDARD,
) -> tuple[MatchpointScore, ...]:
    """Matchpoint every entry of a board's field.

    Args:
        field: The board's results; ``count`` copies of each are compared.
        scale: MP1 (2/1) or MP2 (1/½).
        expected: How many results the board should have had; when more than the real
            results, Neuberg's formula scales the matchpoints (default: no scaling).
        base: How matchpoints become percentages.

    Returns:
        One score per entry, in order.

    >>> field = [FieldEntry(420), FieldEntry(420), FieldEntry(450), FieldEntry(-50)]
    >>> [s.ns for s in score_matchpoints(field)]
    [3.0, 3.0, 6.0, 0.0]
    >>> score_matchpoints(field)[2].ns_percentage, score_matchpoints(field)[2].ew
    (100.0, 0.0)
    """
    expanded = sorted(
        entry.score_ns for entry in field if entry.score_ns is not None for _ in range(entry.count)
    )
    results = len(expanded)
    artificial = sum(entry.count for entry in field if entry.is_adjusted)
    target = max(expected or 0, results + artificial)
    top = matchpoint_top(target, scale)
    return tuple(_score_entry(entry, expanded, target, scale, base, top) for entry in field)


def _score_entry(
    entry: FieldEntry,
    expanded: list[int],
    target: int,
    scale: MatchpointScale,
    base: PercentBase,
    top: float,
) -> MatchpointScore:
    if entry.score_ns is None:
        ns = _artificial(entry.artificial_ns, top)
        ew = _artificial(entry.artificial_ew, top)
        return MatchpointScore(
            ns,
            ew,
            None if entry.artificial_ns is None else entry.artificial_ns.percentage,
            None if entry.artificial_ew is None else entry.artificial_ew.percentage,
            top,
        )
    results = len(expanded)
    lower = bisect_left(expanded, entry.score_ns)
    equal = bisect_right(expanded, entry.score_ns) - lower - 1
    raw = scale.per_beaten * lower + scale.per_beaten / 2 * equal
    raw_ew = matchpoint_top(results, scale) - raw
    ns = neuberg(raw, results, target, scale)
    ew = neuberg(raw_ew, results, target, scale)
    if base is PercentBase.INCLUSIVE:
        whole = scale.per_beaten * results
        ns_pct = (raw + scale.per_beaten / 2) / whole * 100
        ew_pct = 100.0 - ns_pct
    elif top > 0:
        ns_pct, ew_pct = ns / top * 100, ew / top * 100
    else:
        ns_pct = ew_pct = 50.0
    return MatchpointScore(ns, ew, ns_pct, ew_pct, top)


def _artificial(artificial: Artificial | None, top: float) -> float | None:
    return None if artificial is None else artificial.percentage / 100 * top
