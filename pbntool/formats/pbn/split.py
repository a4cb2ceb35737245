"""Cutting a PBN input into runs of games for ``-j`` (the splitter of PBN's spec).

PBN games are not independent: inheritance (``#``, ``##``), the version and export escape
lines and pending commentary carry from one game to the next (``FileContext``).  A slice is
started from the best guess of that state known when it is sent (``Carry``) and records what
it read of it; when its turn comes to be written, the guess is checked against the true state
that the slices before it left.  A wrong guess (rare: the first slices of a file, or a value
inherited from a game in another slice that changed) reruns the slice from the true state,
so the output is exactly that of reading the file from start to end, whatever ``-j`` is.  An
input whose guesses keep failing is read slice after slice (each from the true state).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from pbntool.formats import Format
from pbntool.formats.pbn import GamePiece, Piece, RegionPiece, iter_regions, read_pieces
from pbntool.formats.pbn.decode import FileContext
from pbntool.formats.pbn.reader import GameBlock
from pbntool.formats.split import (
    RERUNS_BEFORE_CHAINING,
    SMALLEST_SLICE_SHARE,
    PieceData,
    Planned,
    Work,
    WorkOutcome,
    slice_chars,
    slice_limit,
)
from pbntool.model import Comment, CommentKind
from pbntool.records import Record
from pbntool.text.inputs import Input
from pbntool.text.source import EncodingEvent

__all__ = ["Carry", "Tracker", "plan", "read_unit"]


def plan(source: Input, stream: BinaryIO, head: bytes, local: bool) -> Iterator[Planned]:
    """Runs of about ``slice_chars()`` characters of games, cut where the reader's own
    splitter ends a game (so every line number stays right).  Plain text goes as regions
    that the worker splits into games (``iter_regions``): this process then does a few
    operations per megabyte instead of a few per game, and ``-j 2`` keeps both cores busy."""
    return _plan_pbn(source.name, stream, head)


def read_unit(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    """The records of a run of games, from the state its ``Carry`` guessed."""
    return _read_pbn_slice(work, outcome)


@dataclass(frozen=True, slots=True)
class Carry:
    """What one PBN game passes to the next (the part of ``FileContext`` that changes)."""

    version: tuple[int, int] | None = None
    export: bool = False
    last_values: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    pending: tuple[Comment, ...] = ()
    lf_reported: bool = False

    def agrees(self, true: Carry, reads: dict[str, str | None]) -> bool:
        """Whether a slice started from this guess read what it would have read from ``true``."""
        return (
            self.version == true.version
            and self.export == true.export
            and self.lf_reported == true.lf_reported
            and self.pending == true.pending
            and self.defaults == true.defaults
            and all(true.last_values.get(name) == value for name, value in reads.items())
        )

    def then(self, end: Carry) -> Carry:
        """The state after a slice that started from this one and left ``end`` (whose
        ``last_values`` holds only the values the slice wrote)."""
        return dataclasses.replace(end, last_values={**self.last_values, **end.last_values})


class _Recording(dict[str, str]):
    """``last_values`` that notes which names a slice read before writing them itself."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.written: set[str] = set()
        self.reads: dict[str, str | None] = {}

    def _note(self, key: str) -> None:
        if key not in self.written and key not in self.reads:
            self.reads[key] = dict.get(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return dict.get(self, key, default)

    def __getitem__(self, key: str) -> str:
        self._note(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._note(key)
        return dict.__contains__(self, key)

    def __setitem__(self, key: str, value: str) -> None:
        self.written.add(key)
        dict.__setitem__(self, key, value)

    def update(self, *args: Any, **kwargs: Any) -> None:
        values = dict(*args, **kwargs)
        self.written.update(values)
        dict.update(self, values)

    def delta(self) -> dict[str, str]:
        return {name: dict.__getitem__(self, name) for name in self.written}


def _pack(piece: Piece | RegionPiece) -> PieceData:
    if isinstance(piece, RegionPiece):
        return ("r", piece.text, piece.first_line, piece.lf_only)
    if isinstance(piece, GamePiece):
        block = piece.block
        return (
            "g",
            block.text,
            block.first_line,
            block.unclosed_braces,
            piece.lf_only,
            block.runaway_comments,
            block.dropped_chars,
            block.dropped_lines,
        )
    return ("e", piece.encoding, piece.line, piece.from_bom)


def _unpack(data: PieceData) -> Iterator[Piece]:
    kind = data[0]
    if kind == "r":
        yield from RegionPiece(data[1], data[2], data[3]).games()
    elif kind == "g":
        yield GamePiece(GameBlock(data[1], data[2], data[3], data[5], data[6], data[7]), data[4])
    else:
        yield EncodingEvent(data[1], data[2], data[3])


def _read_pbn_slice(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    carry = work.carry or Carry()
    values = _Recording(carry.last_values)
    context = FileContext(
        work.name,
        version=carry.version,
        export=carry.export,
        last_values=values,
        defaults=dict(carry.defaults),
        pending_commentary=list(carry.pending),
        lf_reported=carry.lf_reported,
    )
    yield from read_pieces((piece for data in work.pieces for piece in _unpack(data)), context)
    outcome.carry = Carry(
        context.version,
        context.export,
        values.delta(),
        dict(context.defaults),
        tuple(context.pending_commentary),
        context.lf_reported,
    )
    outcome.reads = values.reads


@dataclass
class Tracker:
    """The true PBN state after the last slice of an input that was written (main process)."""

    true: Carry = field(default_factory=Carry)
    guess: Carry | None = None
    """A better guess than ``true`` for slices sent before the first one is back."""
    reruns: int = 0
    settled: int = 0
    planned: int = 0


def _head_guess(head: bytes) -> Carry | None:
    """Version and export state from the escape lines that open a file (a guess only)."""
    text = head[:4096].decode("utf-8", errors="replace").lstrip("\ufeff")
    escapes = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("["):
            break
        if stripped.startswith("%"):
            escapes.append(Comment(stripped[1:], CommentKind.ESCAPE))
    if not escapes:
        return None
    context = FileContext("")
    context.note_escape_lines(escapes)
    return Carry(context.version, context.export)


def _plan_pbn(name: str, stream: BinaryIO, head: bytes) -> Iterator[Planned]:
    tracker = Tracker(guess=_head_guess(head))
    batch: list[PieceData] = []
    size = planned = 0  # characters of the slice being filled, of the slices before it
    limit = slice_limit(0)
    lf_seen = False
    # Regions of the smallest slice: a slice is a few of them, so slices can shrink
    # toward the end of the file (``slice_limit``) however the text came in chunks.
    pieces = iter_regions(stream, name, max(1, slice_chars() // SMALLEST_SLICE_SHARE))
    while True:
        try:
            piece = next(pieces, None)
        except Exception:
            if batch:  # what was read before the failure is still read
                yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)
            raise
        if piece is None:
            break
        batch.append(_pack(piece))
        if not isinstance(piece, EncodingEvent):
            size += len(piece.text if isinstance(piece, RegionPiece) else piece.block.text)
            lf_seen = lf_seen or piece.lf_only
        if size >= limit:
            yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)
            planned += size
            batch, size = [], 0
            limit = slice_limit(planned)
    if batch or not tracker.planned:
        yield _pbn_unit(name, tuple(batch), size, tracker, lf_seen)


def _pbn_unit(
    name: str, pieces: tuple[PieceData, ...], size: int, tracker: Tracker, lf_seen: bool
) -> Planned:
    first = tracker.planned == 0
    tracker.planned += 1

    def make() -> Work:
        if first:
            carry = Carry()
        elif tracker.settled or tracker.guess is None:
            carry = tracker.true
        else:
            guess = tracker.guess
            carry = dataclasses.replace(guess, lf_reported=guess.export and lf_seen)
        return Work(name, "pbn", Format.PBN, pieces=pieces, carry=carry, weight=size)

    chained = tracker.reruns >= RERUNS_BEFORE_CHAINING
    return Planned(name, make, barrier=chained and not first, tracker=tracker)
