"""Note numbering: a section's notes numbered 1, 2, ... with no gap and no repeat.

PBN gives each section (auction, play) its own note indices 1-32, unique within the
section (§7.3).  Files from converters number with gaps (``1, 3, 4``), restart at 1 for every
alert (two ``Note "1:..."`` in one section), or use 0.  ``renumber`` works out new numbers
for the notes and, with them, for the references that point at them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MAX_NOTES", "Renumbering", "renumber"]

MAX_NOTES = 32


@dataclass(frozen=True, slots=True)
class Renumbering:
    """New numbers: ``notes[i]`` for the i-th Note of the section (in file order), and
    ``references[j]`` for its j-th note reference."""

    notes: tuple[int, ...]
    references: tuple[int, ...]


def renumber(notes: Sequence[int], references: Sequence[int]) -> Renumbering | None:
    """New numbers for a section whose notes are not numbered ``1..n`` exactly once each.

    Notes keep their order by number (ties in file order).  A reference to a number that
    several notes share goes to the k-th of them at its k-th occurrence, which is how files
    that restart at 1 for every alert read.  None when the numbering is already right, and
    when it cannot be repaired without guessing: a reference to a number no note has, a
    repeated number with a different count of references, or more than 32 notes.

    >>> renumber([1, 3, 4], [1, 3, 4])
    Renumbering(notes=(1, 2, 3), references=(1, 2, 3))
    >>> renumber([1, 1], [1, 1])
    Renumbering(notes=(1, 2), references=(1, 2))
    >>> renumber([1, 2], [2, 1]) is None
    True
    """
    count = len(notes)
    if count == 0 or sorted(notes) == list(range(1, count + 1)):
        return None
    if count > MAX_NOTES:
        return None
    given = Counter(notes)
    used = Counter(references)
    if any(number not in given for number in used):
        return None
    if any(times > 1 and used[number] not in (0, times) for number, times in given.items()):
        return None
    order = sorted(range(count), key=lambda index: (notes[index], index))
    new_notes = [0] * count
    for rank, index in enumerate(order, start=1):
        new_notes[index] = rank
    by_number: dict[int, list[int]] = {}
    for index in sorted(range(count)):
        by_number.setdefault(notes[index], []).append(new_notes[index])
    seen: Counter[int] = Counter()
    new_references = []
    for number in references:
        choices = by_number[number]
        new_references.append(choices[seen[number]] if len(choices) > 1 else choices[0])
        seen[number] += 1
    return Renumbering(tuple(new_notes), tuple(new_references))
