"""Board number ranges: ``--boards 1-8,12,20-``.

>>> ranges = parse_board_ranges("1-8,12,20-")
>>> [n for n in (1, 8, 9, 12, 19, 20, 400) if n in ranges]
[1, 8, 12, 20, 400]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BoardRanges", "parse_board_ranges"]

_RANGE = re.compile(r"\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*")


@dataclass(frozen=True, slots=True)
class BoardRanges:
    """Inclusive ranges of board numbers; ``None`` as an upper bound means no end."""

    ranges: tuple[tuple[int, int | None], ...]

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        return any(low <= number and (high is None or number <= high) for low, high in self.ranges)

    def __str__(self) -> str:
        return ",".join(
            str(low) if high == low else f"{low}-{'' if high is None else high}"
            for low, high in self.ranges
        )


def parse_board_ranges(text: str) -> BoardRanges:
    """Parse ``1-8,12,20-``; raises ``ValueError`` saying which part is wrong."""
    ranges: list[tuple[int, int | None]] = []
    for part in text.split(","):
        match = _RANGE.fullmatch(part)
        if match is None:
            raise ValueError(f"{part.strip()!r} is not a board number or a range like 1-8")
        low = int(match.group(1))
        high: int | None = low
        if match.group(2):
            high = int(match.group(3)) if match.group(3) else None
        if high is not None and high < low:
            raise ValueError(f"{part.strip()!r}: the range ends before it starts")
        ranges.append((low, high))
    return BoardRanges(tuple(ranges))
