"""The precision a file states its values to, inferred per column from the values themselves.

A value's precision is normally the decimals it is written with (``52.83`` to 0.01).  Some
programs pad values of a coarser precision: OKbridge writes ``94.60`` for a percentage it
rounded to 0.1 (and ``99.02`` only where it kept two decimals), so checking ``94.60`` to
±0.005 reports hundreds of false disagreements.  Written digits are uniform, so in a column
of honest two-decimal values about one value in ten ends in 0; a column (the values of one
kind, such as matchpoints, written with the same number of decimals in one file: a ScoreTable
column with its ScoreMP tags) where most values end in 0 is padded, and its values that end in 0 are
checked to one decimal fewer.  (PBN's table headers give a width and an alignment only,
never a precision, so the values are all there is to go by.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbntool.diagnostics import EVT017, Diagnostic
from pbntool.tools.score.grouping import placed
from pbntool.tools.score.values import decimals
from pbntool.tools.score.variants import Item

__all__ = ["MIN_VALUES", "PADDED_SHARE", "ColumnPrecision", "infer_precisions"]

PADDED_SHARE = 0.5
"""A column is padded when more than this share of its values end in 0 (honest digits: 0.1)."""

MIN_VALUES = 20
"""Fewer values than this are too few to tell padding from chance."""


@dataclass(frozen=True, slots=True)
class ColumnPrecision:
    """What was inferred for one column: the decimals written and those stated."""

    file: str
    name: str
    written: int
    stated: int
    ending_in_zero: int
    values: int

    def describe(self) -> str:
        """``values to 0.1 padded to 2 decimals (697 of 792 end in 0)``."""
        unit = f"{10**-self.stated:.{self.stated}f}" if self.stated else "1"
        return (
            f"values to {unit} padded to {self.written} decimals "
            f"({self.ending_in_zero} of {self.values} end in 0)"
        )


def infer_precisions(items: Sequence[Item]) -> tuple[list[ColumnPrecision], list[Diagnostic]]:
    """Set ``Item.decimals`` for the values of padded columns; say so with EVT017 per column."""
    columns: dict[tuple[str, str, int], list[Item]] = defaultdict(list)
    for item in items:
        columns[(item.game.key.file, item.kind, decimals(item.stated.text))].append(item)
    found: list[ColumnPrecision] = []
    notes: list[Diagnostic] = []
    for (file, _, _), members in columns.items():
        name = " and ".join(sorted({item.name for item in members}))
        precision = _padded(file, name, members)
        if precision is None:
            continue
        for item in members:
            if _ends_in_zero(item.stated.text, precision.written):
                item.decimals = precision.stated
        found.append(precision)
        first = min(members, key=lambda item: (item.stated.place.line, item.stated.place.column))
        what = f"the {name} values of this file"
        notes.append(
            placed(
                EVT017.at(what=what, variant=precision.describe()), first.game, first.stated.place
            )
        )
    return found, notes


def _padded(file: str, name: str, members: Iterable[Item]) -> ColumnPrecision | None:
    texts = [item.stated.text for item in members]
    written = {decimals(text) for text in texts}
    if len(written) != 1:
        return None
    places = written.pop()
    if places == 0:
        return None
    zeros = sum(_ends_in_zero(text, places) for text in texts)
    if len(texts) < MIN_VALUES or zeros <= PADDED_SHARE * len(texts):
        return None
    return ColumnPrecision(file, name, places, places - 1, zeros, len(texts))


def _ends_in_zero(text: str, places: int) -> bool:
    digits = text.strip()
    return decimals(digits) == places and digits.endswith("0")
