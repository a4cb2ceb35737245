"""Work units: an input, or a slice of a large input cut where its format allows, as data.

The main process *plans* (``plan_input``): a local file smaller than any slice is one unit
that the worker opens itself (this process does not read it); any other input it reads once,
cheaply, and cuts into ``Work`` by its format's splitter (the ``splitter`` of its
``FormatSpec``: PBN into runs of games, JSON Lines into runs of lines, LIN into slices cut
before a line that starts a table, see ``pbntool.formats.pbn.split``, ``json.split`` and
``lin.split``); an input of a format with no splitter (XML), or one its splitter declines, is
one unit.  A worker *runs* a unit (``read_work``) into records, which a task renders; records
never travel.

What a splitter guarantees (``pbntool.formats.split``): cuts only where the format's reader
has nothing in flight, positions (line numbers) of every record right in each slice, and — if
the reader carries state from record to record — a way to start from it and check it.
"""

from __future__ import annotations

import importlib
import io
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Protocol, cast

from pbntool.diagnostics import INT001, SRC007
from pbntool.formats import (
    Format,
    detect_format,
    read_failure,
    read_input,
    refused_content,
    spec_of,
)
from pbntool.formats.split import (
    SLICE_CHARS,
    SMALLEST_SLICE_SHARE,
    Planned,
    Work,
    WorkOutcome,
    done,
    failure_record,
    slice_chars,
)
from pbntool.records import Record
from pbntool.text.inputs import Input, replay
from pbntool.text.spooled import SpooledInput, spool_input

__all__ = [
    "SLICE_CHARS",
    "Planned",
    "Work",
    "WorkOutcome",
    "failure_record",
    "plan_input",
    "read_work",
    "slice_chars",
]

SNIFF_BYTES = 1 << 16


class Splitter(Protocol):
    """A format's splitter module (``FormatSpec.splitter``)."""

    def plan(
        self, source: Input, stream: BinaryIO, head: bytes, local: bool
    ) -> Iterator[Planned] | None:
        """The units of one input (None: do not split this one)."""

    def read_unit(self, work: Work, outcome: WorkOutcome) -> Iterator[Record]:
        """The records of one of the units it planned (run in a worker)."""


def splitter_of(form: Format | None) -> Splitter | None:
    """The splitter of a format (None: inputs of that format are read whole)."""
    target = None if form is None else spec_of(form).splitter
    return None if target is None else cast(Splitter, importlib.import_module(target))


def read_work(work: Work, outcome: WorkOutcome) -> Iterator[Record]:
    """The records of a unit, in order (run in a worker); fills ``outcome`` when done."""
    if work.kind == "record":
        assert work.record is not None
        yield work.record
    elif work.kind == "path":
        assert work.path is not None
        yield from read_input(Input(work.name, Path(work.path)), work.form)
    elif work.kind == "bytes":
        data = work.data or b""
        source = Input(work.name, None, opener=lambda: io.BytesIO(data))
        yield from read_input(source, work.form)
    else:
        splitter = splitter_of(work.form)
        assert splitter is not None, f"no splitter reads {work.kind} units"
        yield from splitter.read_unit(work, outcome)


# --- planning (main process) --------------------------------------------------------------------


def plan_input(
    source: Input, form: Format | None, local: bool, whole: bool = False
) -> Iterator[Planned]:
    """The units of one input, in order; reads the input (and must finish before the next
    input is asked for).  ``local``: workers can open local files themselves; ``whole``: the
    input is one unit, never split (a dialect reads it in order)."""
    name = source.name
    if source.problem is not None:
        yield done(name, Record(None, (source.problem,), name, 0))
        return
    if local and source.path is not None and _too_small_to_cut(source):
        # One unit whatever its format: the worker opens, sniffs and reads the file (what a
        # folder of small files costs this process is then a stat each, not a read and a
        # sniff, which were a fifth of the run's work and kept ``-j 2`` far from 2).
        path, weight = str(source.path), source.size or 0
        yield Planned(name, lambda: Work(name, "path", form, path=path, weight=weight))
        return
    try:
        stream = source.open()
    except OSError as error:
        yield done(name, failure_record(name, read_failure(error)))
        return
    try:
        yield from _plan_stream(source, stream, form, local, whole)
        stopped = source.failure()
        if stopped is not None:
            yield done(name, Record(None, (stopped,), name, 0))
    finally:
        if source.path is not None or source.opener is not None:
            stream.close()


def _too_small_to_cut(source: Input) -> bool:
    """Whether no splitter would cut this input (it is no bigger than the smallest slice)."""
    return source.size is not None and source.size <= slice_chars() // SMALLEST_SLICE_SHARE


def _plan_stream(
    source: Input, stream: BinaryIO, form: Format | None, local: bool, whole: bool
) -> Iterator[Planned]:
    name = source.name
    try:
        head = stream.read(SNIFF_BYTES)
    except OSError as error:
        yield done(name, failure_record(name, read_failure(error)))
        return
    refused = None if form is not None else refused_content(head, name)
    form = form or detect_format(head, name)
    again = replay(head, stream)
    if form is None or refused is not None:
        yield done(name, failure_record(name, refused or SRC007.at(), line=1))
        return
    splitter = None if whole else splitter_of(form)
    units = None if splitter is None else splitter.plan(source, again, head, local)
    if units is not None:
        yield from _guarded(name, units)
    elif local and source.path is not None:
        weight = source.size or 0
        yield Planned(name, lambda: Work(name, "path", form, path=str(source.path), weight=weight))
    else:
        yield from _guarded(name, _plan_bytes(name, again, form, local))


def _guarded(name: str, planned: Iterator[Planned]) -> Iterator[Planned]:
    """Units until the input fails to read; then one unit with the failure."""
    try:
        yield from planned
    except OSError as error:
        yield done(name, failure_record(name, read_failure(error)))
    except Exception as error:  # a bug of ours must cost one input, not the batch
        detail = traceback.format_exception_only(error)[-1].strip()
        diagnostic = INT001.at(skipped="the rest of this input", error=detail)
        yield done(name, failure_record(name, diagnostic))


def _plan_bytes(name: str, stream: BinaryIO, form: Format, local: bool) -> Iterator[Planned]:
    """One unit of an input with no path, read whole: a large one from a copy on disk when
    the workers are local (``spool_input``: memory stays bounded), else sent as bytes."""
    kept, failure = spool_input(stream, to_disk=local)
    if isinstance(kept, SpooledInput):
        # The unit holds the copy: it is removed once the unit's result is written.
        yield Planned(name, lambda: _spooled_work(name, form, kept))
    elif kept or failure is None:
        data = kept
        yield Planned(name, lambda: Work(name, "bytes", form, data=data, weight=len(data)))
    if failure is not None:
        raise failure


def _spooled_work(name: str, form: Format, spooled: SpooledInput) -> Work:
    return Work(name, "path", form, path=spooled.path, weight=spooled.size)
