"""What readers produce: boards with the diagnostics found while reading them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from pbntool.diagnostics import Diagnostic, DiagnosticError, Path, Severity
from pbntool.model import Board, pickle_by_fields
from pbntool.rules import check_board

__all__ = ["Locator", "ParseResult", "Record", "place", "strict_boards", "validate_record"]


class Locator(Protocol):
    """Maps a diagnostic's model path to a position in the source."""

    def offset(self, path: Path | None) -> int | None:
        """Offset in the game text, if the path can be placed."""

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of an offset."""


@dataclass(frozen=True, slots=True)
class Record:
    """One board read from a file (or, with ``board`` None, findings not tied to a board).

    ``diagnostics`` are the reader's findings, already placed (file, line, column, board);
    ``validate_record`` adds the Laws checks.
    """

    board: Board | None
    diagnostics: tuple[Diagnostic, ...]
    file: str
    line: int
    """First line of the game in the file."""
    locator: Locator | None = field(default=None, compare=False, repr=False)

    def locate(self, diagnostic: Diagnostic) -> Diagnostic:
        """Fill in file, line, column and board from the diagnostic's path."""
        number = self.board.number if self.board is not None else None
        return place(diagnostic, self.file, self.line, self.locator, number)


def place(
    diagnostic: Diagnostic, file: str, line: int, locator: Locator | None, board: int | None
) -> Diagnostic:
    """The diagnostic with its file, board, and the line and column its path points at
    (the game's first line when the path cannot be placed)."""
    column = None
    if locator is not None:
        offset = locator.offset(diagnostic.path)
        if offset is not None:
            line, column = locator.position(offset)
    return dataclasses.replace(diagnostic, file=file, line=line, column=column, board=board)


@dataclass(frozen=True, slots=True)
class ParseResult:
    """Everything read from one input: its boards and every diagnostic, in file order."""

    boards: tuple[Board, ...]
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return all(d.severity < Severity.ERROR for d in self.diagnostics)


def validate_record(record: Record) -> tuple[Diagnostic, ...]:
    """The record's reader diagnostics plus the Laws checks, ordered by position."""
    if record.board is None:
        return record.diagnostics
    found = list(record.diagnostics)
    found.extend(record.locate(d) for d in check_board(record.board))
    found.sort(key=_position_key)
    return tuple(found)


def _position_key(diagnostic: Diagnostic) -> tuple[int, int]:
    return (diagnostic.line or 0, diagnostic.column or 0)


def collect(records: Iterable[Record], validate: bool) -> ParseResult:
    """Gather records into a ``ParseResult``."""
    boards: list[Board] = []
    diagnostics: list[Diagnostic] = []
    for record in records:
        if record.board is not None:
            boards.append(record.board)
        diagnostics.extend(validate_record(record) if validate else record.diagnostics)
    return ParseResult(tuple(boards), tuple(diagnostics))


def strict_boards(records: Iterable[Record], validate: bool = False) -> list[Board]:
    """Boards, or ``DiagnosticError`` with every error when any was found."""
    result = collect(records, validate)
    errors = [d for d in result.diagnostics if d.severity >= Severity.ERROR]
    if errors:
        raise DiagnosticError(errors)
    return list(result.boards)


pickle_by_fields(Record, ParseResult)  # compiled, a frozen dataclass cannot unpickle itself
