"""The splitter contract: how ``-j`` cuts one input into units that workers read apart.

A format that can be cut names a splitter module in its ``FormatSpec`` (``splitter``); the
module has ``plan(source, stream, head, local)``, which the main process runs to cut an input
into ``Planned`` units (or None: read this input whole), and ``read_unit(work, outcome)``,
which a worker runs to read one unit into records.  What a splitter must guarantee: cuts only
where the format's reader has nothing in flight, positions (line numbers) of every record
right in each slice, and — if the reader carries state from record to record — a way to start
from it and check it, as PBN's does (``Planned.check``).  ``pbntool.run.units`` dispatches.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbntool.diagnostics import Diagnostic
from pbntool.formats import Format
from pbntool.records import Record
from pbntool.text.inputs import Input

if TYPE_CHECKING:
    from pbntool.formats.lin.reader import SliceEnd, SliceStart
    from pbntool.formats.lin.split import LinChain
    from pbntool.formats.pbn.split import Carry, Tracker

__all__ = [
    "RERUNS_BEFORE_CHAINING",
    "SLICE_CHARS",
    "SMALLEST_SLICE_SHARE",
    "PieceData",
    "Planned",
    "Work",
    "WorkOutcome",
    "constant",
    "done",
    "failure_record",
    "slice_chars",
    "slice_limit",
    "slices_of",
]


SLICE_CHARS = 1 << 20
"""About this much text per slice: enough work to hide the cost of sending it (~0.1 s).
``PBNTOOL_SLICE_CHARS`` overrides it (a tuning knob; the tests use tiny slices)."""


SMALLEST_SLICE_SHARE = 4
"""No splitter cuts slices smaller than ``slice_chars() // SMALLEST_SLICE_SHARE`` (LIN's are
the smallest), so a local file of at most that many bytes is one unit of any format, and the
planner sends its path without reading it (``pbntool.run.units.plan_input``)."""


RERUNS_BEFORE_CHAINING = 2
"""After this many wrong guesses in one input, its slices wait for the true state."""


PieceData = tuple[Any, ...]
"""A piece as plain tuples (cheap to pickle): ``("g", text, first_line, braces, lf_only,
runaway_comments)``, ``("r", text, first_line, lf_only)`` (games the worker splits) or
``("e", encoding, line, from_bom)``."""


@dataclass(frozen=True, slots=True)
class Work:
    """One unit of work as data (sent to worker processes or Dask workers).

    ``kind``: ``path`` (a local file the worker reads itself), ``bytes`` (a whole input),
    ``pbn`` (consecutive PBN pieces and the ``Carry`` they start from), ``lines`` (consecutive
    JSON lines from ``first_line``), ``lin`` (a slice of decoded LIN text at ``offset`` and
    ``first_line``, with its ``SliceStart``), ``lin_rest`` (a LIN input from ``offset`` to its
    end, read again from ``path`` or ``data``), ``record`` (one record made by the planner).
    """

    name: str
    kind: str
    form: Format | None = None
    path: str | None = None
    data: bytes | None = None
    pieces: tuple[PieceData, ...] = ()
    carry: Carry | None = None
    first_line: int = 1
    record: Record | None = None
    weight: int = 0
    """Bytes of input (for scheduling and progress)."""
    texts: tuple[str, ...] = ()
    """A LIN slice: its decoded text, cut where the whole-file read cuts it into chunks."""
    offset: int = 0
    """Where a LIN slice starts in the decoded text."""
    lin: SliceStart | None = None


@dataclass(slots=True)
class WorkOutcome:
    """What reading a unit left besides its records: a PBN slice's end state and reads, a
    LIN slice's end."""

    carry: Carry | None = None
    reads: dict[str, str | None] = field(default_factory=dict)
    lin: SliceEnd | None = None


def failure_record(name: str, diagnostic: Diagnostic, line: int | None = None) -> Record:
    """A record of one finding about a whole input, as ``read_input`` makes it."""
    column = None if line is None else 1
    placed = Diagnostic(
        diagnostic.code, diagnostic.severity, diagnostic.message, name, line, column
    )
    return Record(None, (placed,), name, line or 0)


@dataclass
class Planned:
    """A unit as the main process holds it: how to make its ``Work`` when it is sent, and how
    to check its result when its turn comes."""

    name: str
    make: Callable[[], Work]
    barrier: bool = False
    """Send only when every unit before it is written (it needs their true end state)."""
    tracker: Tracker | None = None
    work: Work | None = None
    source: Input | None = None
    """The input this unit belongs to (set by the batch)."""
    chain: LinChain | None = None
    """The slices of one LIN input (see ``LinChain``)."""
    hold: bool = False
    """Write the result only once the next unit of ``chain`` is back (the cut is checked)."""

    def prepare(self) -> Work:
        self.work = self.make()
        return self.work

    def check(self, outcome: WorkOutcome) -> Work | None:
        """None when the result stands; else the work to run again from the true state."""
        tracker, work = self.tracker, self.work
        if tracker is None or work is None or work.carry is None or outcome.carry is None:
            return None
        if work.carry.agrees(tracker.true, outcome.reads):
            tracker.true = tracker.true.then(outcome.carry)
            tracker.settled += 1
            return None
        tracker.reruns += 1
        self.work = dataclasses.replace(work, carry=tracker.true)
        return self.work

    def rerun_done(self, outcome: WorkOutcome) -> None:
        assert self.tracker is not None and outcome.carry is not None
        self.tracker.true = self.tracker.true.then(outcome.carry)
        self.tracker.settled += 1


def done(name: str, record: Record) -> Planned:
    work = Work(name, "record", record=record)
    return Planned(name, lambda: work)


_chosen_chars: list[int] = []
"""The slice size a command chose for the planning in progress (``slices_of``)."""

_tails: list[tuple[int, int] | None] = []
"""The size of the input being planned and the workers it is for (``slices_of``)."""


def slice_chars() -> int:
    """The slice size in force: ``PBNTOOL_SLICE_CHARS``, else the command's (``slices_of``),
    else ``SLICE_CHARS``."""
    value = os.environ.get("PBNTOOL_SLICE_CHARS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    return _chosen_chars[-1] if _chosen_chars else SLICE_CHARS


SPREAD_SLICE_CHARS = 256 << 10
"""The smallest slice ``spread_slice_chars`` chooses (a few dozen milliseconds of work)."""


def spread_slice_chars(size: int | None, jobs: int) -> int | None:
    """A slice size that gives each of ``jobs`` workers two slices of an input of ``size``
    bytes, when the default would give them fewer (None: the default).  With 1 MiB
    slices a 1.1 MB file was two units, one of them tiny, and ``-j 2`` took longer than
    ``-j 1`` (0.34 s against 0.31 s).  An input no bigger than the smallest spread slice is
    one unit either way: None keeps it small enough to be sent by its path unread
    (``SMALLEST_SLICE_SHARE``), where a 256 KiB slice size would have this process read
    every file over 64 KiB."""
    if jobs < 2 or size is None or size >= 2 * jobs * SLICE_CHARS or size <= SPREAD_SLICE_CHARS:
        return None
    return max(size // (2 * jobs), SPREAD_SLICE_CHARS)


def slice_limit(done: int) -> int:
    """The size of the next slice of the input being planned, once ``done`` characters of
    it are planned: ``slice_chars()``, but toward the end of an input whose size and
    workers the command gave (``slices_of``'s ``tail``), a share of what is left (guided
    scheduling), down to the smallest slice a splitter cuts.  With even slices the odd one
    out ran alone: a 5.5 MB file (five slices and a rest) validated with ``-j 2`` in 0.79 s,
    0.72 s with these."""
    chars = slice_chars()
    tail = _tails[-1] if _tails else None
    if tail is None:
        return chars
    size, jobs = tail
    share = (size - done) // (2 * jobs)
    return max(min(chars, share), chars // SMALLEST_SLICE_SHARE, 1)


@contextlib.contextmanager
def slices_of(chars: int | None, tail: tuple[int, int] | None = None) -> Iterator[None]:
    """Splitters asked for a slice size while this is open cut slices of about ``chars``
    characters (None: the default): a command whose work per board is heavy (``dd`` solves
    each deal for a tenth of a second) wants units of a few dozen boards, not of a
    megabyte.  ``tail``: the input's size in bytes and the number of workers, for slices
    that shrink toward its end (``slice_limit``)."""
    if chars is not None:
        _chosen_chars.append(chars)
    _tails.append(tail)
    try:
        yield
    finally:
        _tails.pop()
        if chars is not None:
            _chosen_chars.pop()


def constant(work: Work) -> Callable[[], Work]:
    return lambda: work
