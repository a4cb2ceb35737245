"""The hook for event scores: ScoreMP, ScoreIMP and ScorePercentage from the event's results.

Matchpoints and IMPs are not a fact about one record: they compare it with the other
results of the same board.  Event scoring (``pbntool score``) works them out over every
input; this module only turns its answer for one game into edits of that game's tags.  The
answer comes through an ``EventScoreSource``: a function that, given a game's ``Record``,
returns the values of that game (or None when it has none)::

    def source(record: Record) -> EventScores | None:
        return computed.get((record.file, record.line))

    fix_input(..., FixOptions(event_scores=source))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from pbntool.diagnostics import FIX010
from pbntool.model import Board, Seat
from pbntool.records import Record
from pbntool.rules import auction_outcome
from pbntool.tools.fix.derive import ValueFix, quoted
from pbntool.tools.fix.forms import Number, SideForm, format_side_score, read_side_form

__all__ = ["EVENT_TAGS", "EventScoreSource", "EventScores", "SideValues", "event_fixes"]

EVENT_TAGS = ("ScoreIMP", "ScoreMP", "ScorePercentage")
"""The side-score tags event scoring decides, in export (alphabetical) order."""


@dataclass(frozen=True, slots=True)
class SideValues:
    """One tag's value for each side, as event scoring gives it (None for a side not given).

    Matchpoints and percentages of the two sides are not negations of each other
    (``NS 60`` goes with ``EW 40``), so both are carried.  Give Decimals rounded as the
    event's scoring rounds them: they are written as given.
    """

    ns: Number | None
    ew: Number | None


EventScores = Mapping[str, SideValues]
"""One game's values by tag name (``ScoreMP``, ``ScoreIMP``, ``ScorePercentage``)."""

EventScoreSource = Callable[[Record], EventScores | None]
"""Given a game, its event values (None when event scoring has nothing for it)."""

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def event_fixes(board: Board, scores: EventScores, only: frozenset[str]) -> list[ValueFix]:
    """The changes that make the board's ScoreMP/ScoreIMP/ScorePercentage say ``scores``.

    A tag the board has keeps its form (sides named, ``+`` signs); an absent or unknown one
    is written ``NS v`` (``EW v`` when only East-West's value is known).  A value that agrees
    with the new one at its own precision (``52.4`` for 52.38) is left alone.
    """
    fixes = []
    declarer = _declarer(board)
    for name in EVENT_TAGS:
        given = scores.get(name)
        if given is None or name not in only:
            continue
        fix = _event_fix(board, name, given, declarer)
        if fix is not None:
            fixes.append(fix)
    return fixes


def _event_fix(
    board: Board, name: str, given: SideValues, declarer: Seat | None
) -> ValueFix | None:
    tag = next((t for t in board.tags if t.name == name and not t.duplicate), None)
    if tag is not None and (tag.written or tag.inherited):
        return None  # inherited with # or ##: the value is not this game's to edit
    written = None if tag is None else tag.value
    form: SideForm | None = None
    if written is not None and written.strip() not in ("", "?"):
        form = read_side_form(written)
        if form is None or _agrees(written, form, given, declarer):
            return None
    if form is None:
        form = SideForm(("NS",)) if given.ns is not None else SideForm(("EW",))
    new = format_side_score(form, given.ns, given.ew, declarer)
    if new is None or new == written:
        return None
    return ValueFix(FIX010, name, written, new, {"name": name, "old": quoted(written)})


def _agrees(written: str, form: SideForm, given: SideValues, declarer: Seat | None) -> bool:
    """Each number written equals the new value of its side, rounded to its precision."""
    numbers = _NUMBER.findall(written)
    sides = list(form.sides) or ([declarer.side.letters] if declarer is not None else [])
    if len(sides) != len(numbers):
        return False
    for side, text in zip(sides, numbers, strict=True):
        value = given.ns if side.upper() == "NS" else given.ew
        if value is None:
            continue
        try:
            stated = Decimal(text)
            exponent = stated.as_tuple().exponent
            rounded = Decimal(value).quantize(Decimal(1).scaleb(int(exponent)))
        except (InvalidOperation, ValueError):
            return False
        if rounded != stated:
            return False
    return True


def _declarer(board: Board) -> Seat | None:
    if board.declarer is not None:
        return board.declarer
    if board.auction is not None:
        outcome = auction_outcome(board.auction)
        if outcome.complete:
            return outcome.declarer
    return None
