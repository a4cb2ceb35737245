"""How side-score values are written (``420``, ``NS -420``, ``EW +50``, ``NS 3 EW -3``), so
that a value ``pbntool fix`` writes looks like the ones the file already has.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from pbntool.model import Seat

__all__ = [
    "ScoreForm",
    "ScoreFormKind",
    "SideForm",
    "format_number",
    "format_side_score",
    "read_side_form",
    "scan_score_form",
]

Number = int | Decimal

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_SIDE_VALUE = re.compile(
    rf"(?P<bare>{_NUMBER})"
    rf"|(?P<first>NS|EW)(?P<gap>\s*)(?P<one>{_NUMBER})"
    rf"(?:(?P<between>\s*)(?P<second>NS|EW)\s*(?P<two>{_NUMBER}))?",
    re.I,
)


@dataclass(frozen=True, slots=True)
class SideForm:
    """The shape of one side-score value: which sides it names, in which order and case,
    the blank after a side, and whether positive numbers carry a ``+``.

    ``sides`` is empty for the bare form, which is from declarer's point of view.
    """

    sides: tuple[str, ...] = ("NS",)
    plus: bool = False
    gap: str = " "
    between: str = " "


def read_side_form(text: str) -> SideForm | None:
    """The form of a written side-score value, or None when it is not one.

    >>> read_side_form("NS -450")
    SideForm(sides=('NS',), plus=False, gap=' ', between=' ')
    >>> read_side_form("+1430").sides, read_side_form("+1430").plus
    ((), True)
    """
    match = _SIDE_VALUE.fullmatch(text.strip()) if len(text) <= 60 else None
    if match is None:
        return None
    plus = "+" in text
    if match.group("bare") is not None:
        return SideForm((), plus)
    sides = tuple(side for side in (match.group("first"), match.group("second")) if side)
    return SideForm(sides, plus, match.group("gap"), match.group("between") or " ")


def format_number(value: Number, plus: bool = False) -> str:
    """``420``, ``-50``, ``52.38``; ``+`` before a positive number when ``plus``.

    >>> format_number(Decimal("52.380")), format_number(7, plus=True), format_number(Decimal("-2"))
    ('52.380', '+7', '-2')
    """
    text = str(value) if isinstance(value, int) else format(value, "f")
    if plus and value > 0:
        return "+" + text
    return text


def format_side_score(
    form: SideForm, ns: Number | None, ew: Number | None, declarer: Seat | None
) -> str | None:
    """A side-score value in ``form``: each side named gets its own value; the bare form
    gets declarer's side's.  None when a needed value (or the declarer) is unknown.

    >>> format_side_score(SideForm(("NS",)), -450, 450, Seat.EAST)
    'NS -450'
    >>> format_side_score(SideForm(()), -450, 450, Seat.EAST)
    '450'
    """
    by_side = {"NS": ns, "EW": ew}
    if not form.sides:
        if declarer is None:
            # No declarer: only a passed-out board's 0 needs no point of view.
            return "0" if ns == 0 and (ew is None or ew == 0) else None
        value = by_side[declarer.side.letters]
        return None if value is None else format_number(value, form.plus)
    parts = []
    for index, side in enumerate(form.sides):
        value = by_side[side.upper()]
        if value is None:
            return None
        gap = form.gap if index == 0 else " "
        parts.append(f"{side}{gap}{format_number(value, form.plus)}")
    return form.between.join(parts)


class ScoreFormKind(Enum):
    """A file's way of writing Score."""

    DECLARER = "declarer"
    """Bare numbers, from declarer's point of view (``420``, ``-50``)."""
    NS = "ns"
    """Always from North-South's point of view (``NS 420``, ``NS -50``)."""
    EW = "ew"
    """Always from East-West's point of view."""
    DECLARING_SIDE = "declaring side"
    """The declaring side named with its own score (``NS 420``, ``EW -100``): what fix writes
    when the file shows no form of its own."""


@dataclass(frozen=True, slots=True)
class ScoreForm:
    """The form a file uses for Score, for scores written where the board has none."""

    kind: ScoreFormKind = ScoreFormKind.DECLARING_SIDE
    plus: bool = False

    def side_form(self, declarer: Seat | None) -> SideForm:
        """The form of one Score value on a board with this declarer."""
        if self.kind is ScoreFormKind.DECLARER:
            return SideForm((), self.plus)
        if self.kind is ScoreFormKind.NS:
            return SideForm(("NS",), self.plus)
        if self.kind is ScoreFormKind.EW:
            return SideForm(("EW",), self.plus)
        return SideForm((declarer.side.letters if declarer is not None else "NS",), self.plus)


# Escaped quotes cannot occur inside a side-score, so a plain pattern finds every Score value.
_SCORE_TAG = re.compile(r'\[[ \t]*Score[ \t]*"([^"\n]{0,60})"')


def scan_score_form(chunks: Iterable[str]) -> ScoreForm:
    """The form most of a text's Score values have (``DECLARING_SIDE`` when it has none, or
    when it names both sides equally often)."""
    counts = {ScoreFormKind.DECLARER: 0, ScoreFormKind.NS: 0, ScoreFormKind.EW: 0}
    signed = unsigned = 0
    for chunk in chunks:
        if "Score" not in chunk:
            continue
        for match in _SCORE_TAG.finditer(chunk):
            form = read_side_form(match.group(1))
            if form is None:
                continue
            if not form.sides:
                counts[ScoreFormKind.DECLARER] += 1
            else:
                counts[ScoreFormKind.NS if form.sides[0].upper() == "NS" else ScoreFormKind.EW] += 1
            if form.plus:
                signed += 1
            elif "-" not in match.group(1):
                unsigned += 1
    plus = signed > unsigned
    named = counts[ScoreFormKind.NS] + counts[ScoreFormKind.EW]
    if named == 0 and counts[ScoreFormKind.DECLARER] == 0:
        return ScoreForm(ScoreFormKind.DECLARING_SIDE, plus)
    if counts[ScoreFormKind.DECLARER] >= named:
        return ScoreForm(ScoreFormKind.DECLARER, plus)
    # Mostly one side named: that side's view.  Both sides named often: each board names
    # a side by a rule we cannot see (the declaring side, the home pair), so name the
    # declaring side, which says who declared.
    major = (
        ScoreFormKind.NS
        if counts[ScoreFormKind.NS] >= counts[ScoreFormKind.EW]
        else ScoreFormKind.EW
    )
    if min(counts[ScoreFormKind.NS], counts[ScoreFormKind.EW]) * 10 >= named:
        return ScoreForm(ScoreFormKind.DECLARING_SIDE, plus)
    return ScoreForm(major, plus)
