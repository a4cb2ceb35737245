"""The small value syntaxes of event scoring: numbers in side-score form and table cells.

``ScoreMP``, ``ScoreIMP`` and ``ScorePercentage`` use PBN's side-score form (``v``, ``NS v``,
``EW v``, or both sides) with decimals.  Table cells may be quoted, ``-`` (not applicable),
``?`` (unknown) or marked artificial with a leading ``^``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbntool.model import Side

__all__ = [
    "SideNumber",
    "cell_text",
    "decimals",
    "parse_number",
    "parse_side_number",
]

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)", re.ASCII)
_SIDE_NUMBER = re.compile(
    r"\s*(?:(NS|EW)\s*)?([+-]?(?:\d+\.?\d*|\.\d+))"
    r"(?:\s*(NS|EW)\s*([+-]?(?:\d+\.?\d*|\.\d+)))?\s*",
    re.I | re.ASCII,
)


def parse_number(text: str) -> float | None:
    """A number as PBN writes it (``+1430``, ``-2.5``, ``100.``); None for anything else.

    >>> parse_number("+10"), parse_number("55.71"), parse_number("100."), parse_number("-")
    (10.0, 55.71, 100.0, None)
    """
    text = text.strip()
    if _NUMBER.fullmatch(text) is None:
        return None
    return float(text)


def decimals(text: str) -> int:
    """How many decimals a number is written with (its precision).

    >>> decimals("0.53"), decimals("12"), decimals("100.")
    (2, 0, 0)
    """
    _, dot, fraction = text.strip().partition(".")
    return len(fraction) if dot else 0


@dataclass(frozen=True, slots=True)
class SideNumber:
    """A side-score number: ``value`` for ``side`` (None: the declarer's side), and the
    other side's value when both are written."""

    value: float
    side: Side | None
    text: str
    """The number as written, for its precision."""
    other: float | None = None


def parse_side_number(text: str) -> SideNumber | None:
    """Read ``v``, ``NS v``, ``EW v``, ``NS v EW w``; None when the text is not of that form.

    >>> parse_side_number("EW -38.20")
    SideNumber(value=-38.2, side=<Side.EW: 1>, text='-38.20', other=None)
    """
    match = _SIDE_NUMBER.fullmatch(text)
    if match is None:
        return None
    first, value, second, other = match.groups()
    if first is None and second is not None:
        return None
    side = None if first is None else Side.NS if first.upper() == "NS" else Side.EW
    if second is not None and side is not None and second.upper() == side.letters:
        return None
    return SideNumber(float(value), side, value, None if other is None else float(other))


def cell_text(element: str) -> str:
    """A table element without its quotes (``"670"`` → ``670``)."""
    if len(element) >= 2 and element[0] == '"' and element[-1] == '"':
        return element[1:-1].strip()
    return element
