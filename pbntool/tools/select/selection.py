"""Which boards ``pbntool select`` keeps: board number ranges and a ``--where`` expression."""

from __future__ import annotations

from dataclasses import dataclass

from pbntool.records import Record
from pbntool.tools.select.compiler import Query
from pbntool.tools.select.ranges import BoardRanges

__all__ = ["Selection"]


@dataclass(frozen=True, slots=True)
class Selection:
    """A board is selected when its number is in ``boards`` (if given) and ``query`` holds
    (if given).  Picklable, so worker processes can apply it."""

    query: Query | None = None
    boards: BoardRanges | None = None

    def accepts(self, record: Record) -> bool:
        """Whether the record holds a board this selection keeps."""
        board = record.board
        if board is None:
            return False
        if self.boards is not None and board.number not in self.boards:
            return False
        return self.query is None or self.query.matches(record)
