"""Find the same deal wherever it appears: across files, formats and (optionally) rotations.

Each record with a full deal gets an ``Occurrence``: where it is, its deal key
(``pbntool.deals``), and its result (contract, declarer, tricks) seen from the canonical
orientation.  ``DuplicateIndex`` gathers them; a ``DealGroup`` is a deal seen more than once,
either as **copies** (every record has the same result, or none: the same board recorded
again) or at **several tables** (different results: the deal was played more than once).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from pbntool.deals import DealKey, deal_key, hand_masks
from pbntool.diagnostics import printable
from pbntool.model import Seat
from pbntool.records import Record
from pbntool.rules.outcome import board_outcome

__all__ = ["DealGroup", "DuplicateIndex", "GroupKind", "Occurrence", "occurrence_of"]


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One record of a deal.  ``result`` is ``contract declarer tricks`` with the declarer
    given in the canonical orientation (so rotated copies compare equal), ``-`` if unknown."""

    file: str
    board: int | None
    line: int
    key: str
    rotation: int
    result: str

    def place(self) -> str:
        board = "" if self.board is None else f" board {self.board}"
        return f"{printable(self.file)}:{self.line}{board}"

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "board": self.board,
            "line": self.line,
            "rotation": self.rotation,
            "result": self.result,
        }


def occurrence_of(record: Record, rotations: bool = False) -> Occurrence | None:
    """The occurrence of a record's deal, or None when the record has no full deal."""
    board = record.board
    if board is None or board.deal is None:
        return None
    masks = hand_masks(board.deal)
    if masks is None:
        return None
    key: DealKey = deal_key(masks, rotations)
    outcome = board_outcome(board)
    if outcome.contract is None:
        result = "-"
    elif outcome.contract.is_passed_out:
        result = "Pass"
    else:
        declarer = _rotated(outcome.declarer, key.rotation)
        tricks = "?" if outcome.tricks is None else str(outcome.tricks)
        result = f"{outcome.contract} {declarer} {tricks}"
    return Occurrence(record.file, board.number, record.line, key.text, key.rotation, result)


def _rotated(seat: Seat | None, steps: int) -> str:
    return "?" if seat is None else seat.next(steps).letter


class GroupKind(Enum):
    """What a repeated deal is."""

    COPIES = "copies"
    """Every record has the same result (or none): the same board recorded again."""
    TABLES = "tables"
    """The records have different results: the deal was played at several tables."""


@dataclass(slots=True)
class DealGroup:
    """Every occurrence of one deal, in input order."""

    key: str
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def results(self) -> list[str]:
        """The distinct results, in order of first appearance."""
        return list(dict.fromkeys(occurrence.result for occurrence in self.occurrences))

    @property
    def kind(self) -> GroupKind:
        return GroupKind.COPIES if len(self.results) == 1 else GroupKind.TABLES

    def first_with_result(self, result: str) -> Occurrence:
        return next(o for o in self.occurrences if o.result == result)

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "kind": self.kind.value,
            "count": len(self.occurrences),
            "results": len(self.results),
            "records": [occurrence.to_dict() for occurrence in self.occurrences],
        }

    def text(self) -> str:
        """A heading and one line per record, marking repeats of an earlier result."""
        count, results = len(self.occurrences), len(self.results)
        what = "copies" if self.kind is GroupKind.COPIES else f"{results} results: several tables"
        lines = [f"deal {self.key}: {count} records ({what})"]
        for occurrence in self.occurrences:
            notes = []
            first = self.first_with_result(occurrence.result)
            if first is not occurrence and self.kind is GroupKind.TABLES:
                notes.append(f"same result as {first.file}:{first.line}")
            if occurrence.rotation:
                notes.append(
                    f"rotated {occurrence.rotation} seat{'s' if occurrence.rotation > 1 else ''}"
                )
            suffix = f" ({'; '.join(notes)})" if notes else ""
            lines.append(f"  {occurrence.place()}: {occurrence.result}{suffix}")
        return "\n".join(lines)


@dataclass(slots=True)
class DuplicateIndex:
    """Occurrences by deal key (and, with ``by_result``, by result too)."""

    by_result: bool = False
    records: int = 0
    """Records with a full deal."""
    without_deal: int = 0
    """Boards that could not be compared (no full deal)."""
    _groups: dict[str, DealGroup] = field(default_factory=dict)
    _seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, occurrence: Occurrence | None) -> bool:
        """Record an occurrence; True when it repeats one already seen (a duplicate to drop).

        With ``by_result`` only a record with the same deal *and* the same result repeats.
        """
        if occurrence is None:
            self.without_deal += 1
            return False
        self.records += 1
        group = self._groups.get(occurrence.key)
        if group is None:
            group = self._groups[occurrence.key] = DealGroup(occurrence.key)
        group.occurrences.append(occurrence)
        if not self.by_result:
            return len(group.occurrences) > 1
        identity = (occurrence.key, occurrence.result)
        if identity in self._seen:
            return True
        self._seen.add(identity)
        return False

    def groups(self) -> Iterator[DealGroup]:
        """Deals seen more than once, in order of first appearance."""
        return (group for group in self._groups.values() if len(group.occurrences) > 1)

    @property
    def distinct(self) -> int:
        """The number of different deals seen."""
        return len(self._groups)
