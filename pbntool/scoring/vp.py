"""Victory points: a team match's IMP margin converted with a VP scale.

* ``WBF_CONTINUOUS`` (2013): two decimals, 20-0, the blitz margin ``15 * sqrt(boards)``;
  ``VP(M) = 10 + 10 * (1 - tau**(3M/X)) / (1 - tau**3)`` with ``tau`` the golden ratio's
  inverse, rounded half up to two decimals (WBF Scoring Panel, *The New WBF IMP to VP Scales*,
  2012; checked against the published 14- and 20-board values, docs/scoring.md).
* ``WBF_DISCRETE``: integer VPs, bands built from the continuous curve (each band's top is the
  largest margin whose continuous VP is below v + 1/2; the draw band no wider than the 11-VP
  band and no band narrower than the one before).
* ``table_scale``: a club's own table, rows ``imps_from,vp_winner`` ascending.

The loser gets the scale's total less the winner's VP.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

__all__ = [
    "TAU",
    "VpScale",
    "blitz_margin",
    "read_scale_csv",
    "table_scale",
    "wbf_continuous",
    "wbf_discrete",
    "wbf_discrete_bands",
]

TAU = (math.sqrt(5) - 1) / 2
"""The inverse of the golden ratio: tau**3 is the continuous curve's ratio."""

_R = TAU**3


def blitz_margin(boards: int) -> float:
    """The IMP margin that wins 20-0 on the WBF scales: ``15 * sqrt(boards)`` (60 for 16)."""
    return 15 * math.sqrt(boards)


def _continuous(margin: float, boards: int) -> float:
    blitz = blitz_margin(boards)
    if margin >= blitz:
        return 20.0
    rest: float = _R ** (margin / blitz)
    return 10 + 10 * (1 - rest) / (1 - _R)


def _half_up(value: float, places: int) -> float:
    quantum = Decimal(1).scaleb(-places)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def wbf_continuous(margin: int, boards: int) -> tuple[float, float]:
    """(winner's VP, loser's VP) of the WBF continuous scale; a negative margin swaps them.

    >>> wbf_continuous(20, 16), wbf_continuous(2, 14), wbf_continuous(-60, 16)
    ((15.0, 5.0), (10.66, 9.34), (0.0, 20.0))
    """
    winner = _half_up(_continuous(abs(margin), boards), 2)
    loser = _half_up(20 - winner, 2)
    return (winner, loser) if margin >= 0 else (loser, winner)


def wbf_discrete_bands(boards: int) -> list[int]:
    """The top margin of the bands of 10..19 VP on the WBF discrete scale (margins above the
    last win 20).

    >>> wbf_discrete_bands(20)
    [1, 5, 9, 14, 19, 25, 31, 39, 48, 60]
    """
    blitz = blitz_margin(boards)
    tops = [
        math.floor(blitz * math.log(1 - (1 - _R) * (v + 0.5 - 10) / 10) / math.log(_R))
        for v in range(10, 20)
    ]
    changed = True
    while changed:
        changed = False
        widths = [2 * tops[0] + 1] + [tops[i] - tops[i - 1] for i in range(1, len(tops))]
        for index in range(1, len(widths)):
            if widths[index] < widths[index - 1]:
                tops[index - 1] -= 1  # the band before the narrowing gives up its top margin
                changed = True
                break
    return tops


def wbf_discrete(margin: int, boards: int) -> tuple[int, int]:
    """(winner's VP, loser's VP) of the WBF discrete (integer) scale.

    >>> wbf_discrete(1, 20), wbf_discrete(2, 20), wbf_discrete(61, 20), wbf_discrete(-9, 20)
    ((10, 10), (11, 9), (20, 0), (8, 12))
    """
    tops = wbf_discrete_bands(boards)
    size = abs(margin)
    winner = next((10 + index for index, top in enumerate(tops) if size <= top), 20)
    return (winner, 20 - winner) if margin >= 0 else (20 - winner, winner)


@dataclass(frozen=True, slots=True)
class VpScale:
    """A VP scale by name: the WBF scales, or a table of ``(imps_from, vp_winner)`` bands."""

    name: str
    bands: tuple[tuple[int, float], ...] = ()
    total: float = 20.0

    def convert(self, margin: int, boards: int) -> tuple[float, float]:
        """(VP of the side whose margin it is, VP of the other) for an IMP margin."""
        if self.name == "wbf":
            return wbf_continuous(margin, boards)
        if self.name == "wbf-discrete":
            home, visit = wbf_discrete(margin, boards)
            return float(home), float(visit)
        winner = self.bands[0][1]
        for start, value in self.bands:
            if abs(margin) >= start:
                winner = value
        loser = self.total - winner
        return (winner, loser) if margin >= 0 else (loser, winner)

    def describe(self, boards: Iterable[int]) -> str:
        """``WBF continuous scale (2013), 16 boards`` — which scale, for how many boards."""
        counts = ", ".join(str(count) for count in sorted(set(boards)))
        title = {
            "wbf": "WBF continuous VP scale (2013)",
            "wbf-discrete": "WBF discrete VP scale (2013)",
        }.get(self.name, f"VP scale {self.name}")
        return f"{title} for {counts} boards" if counts else title


def table_scale(name: str, bands: Sequence[tuple[int, float]]) -> VpScale:
    """A club's scale: ``bands`` ascending from the draw row (0 IMPs); the total is twice the
    draw's VP."""
    ordered = tuple(sorted(bands))
    if not ordered or ordered[0][0] != 0:
        raise ValueError("a VP table starts with the draw: a row for 0 IMPs")
    return VpScale(name, ordered, 2 * ordered[0][1])


def read_scale_csv(path: Path) -> VpScale:
    """A scale from a CSV file of ``imps_from,vp_winner`` rows (a header row is skipped)."""
    bands: list[tuple[int, float]] = []
    with open(path, encoding="utf-8", newline="") as stream:
        for row in csv.reader(stream):
            if len(row) < 2 or not row[0].strip():
                continue
            try:
                bands.append((int(row[0]), float(row[1])))
            except ValueError:
                if bands:
                    raise
    return table_scale(path.name, bands)
