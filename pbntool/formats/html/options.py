"""What ``pbntool render`` may change about a sheet: one small frozen object, picklable, so the
same options reach the writers of the main process and of the workers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["PAGE_SIZES", "PER_PAGE", "Paper", "RenderOptions", "SuitColours"]


class SuitColours(StrEnum):
    """How suit symbols are coloured."""

    TWO = "two"
    """Red hearts and diamonds, black spades and clubs (as on cards)."""
    FOUR = "four"
    """Spades black, hearts red, diamonds orange, clubs green."""
    PLAIN = "plain"
    """Every symbol in the text colour."""


class Paper(StrEnum):
    """The printed page."""

    A4 = "a4"
    LETTER = "letter"


PAGE_SIZES: dict[Paper, tuple[float, float]] = {
    Paper.A4: (210.0, 297.0),
    Paper.LETTER: (215.9, 279.4),
}
"""Width and height of each paper in millimetres."""

PER_PAGE: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 8: (2, 4)}
"""Boards per printed page and how they are laid out: (columns, rows)."""


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """Options of an HTML or PDF sheet."""

    per_page: int = 1
    paper: Paper = Paper.A4
    colours: SuitColours = SuitColours.TWO
    travellers: bool = False
    """Show each board's results (its ScoreTable)."""
    script: bool = True
    """Include the script that steps through the play (the page works without it)."""

    def __post_init__(self) -> None:
        if self.per_page not in PER_PAGE:
            choices = ", ".join(map(str, PER_PAGE))
            raise ValueError(f"per_page must be one of {choices}, not {self.per_page}")

    @property
    def grid(self) -> tuple[int, int]:
        """(columns, rows) of boards on a printed page."""
        return PER_PAGE[self.per_page]
