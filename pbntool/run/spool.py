"""Rendered output that goes from a worker process to the output file without passing through
the main process's memory.

``convert -j N`` renders about 3 KB of JSON a board in the workers.  Sent back through the
pool's pipe, every byte was pickled, written to the pipe, read from it in 64 KiB pieces,
joined, unpickled into a string and encoded again for the output: on 100,000 boards about a
second of the main process's CPU, taken from the workers on the same cores.  A worker that
has a spool directory (in ``/dev/shm``, memory, when the system has one) writes the text of
a unit, or of a group of small units, to one file there instead, and each chunk says where
its text is (``Chunk.spool``); the main process copies it into the output with
``os.sendfile`` (in the kernel) and deletes the file after the chunk that ends it.

Only a consumer that writes chunks to one stream in order takes spooled chunks
(``StreamDestination``): ``convert`` sets ``Batch.spool`` only then, and only for a stream
that gives the same bytes (``spool_ready``).  The files of a run live in one private
directory named after the main process, removed when the engine closes (also on Ctrl-C,
SIGTERM and SIGHUP, which unwind through it); one left by a killed run is removed by the
next run that spools.  Spooling is an optimisation only: no directory, a full
``/dev/shm`` or text that does not encode leaves the text in the chunk, as before.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from typing import IO, TypeVar

from pbntool.formats.split import slice_chars
from pbntool.run.tasks import Chunk, Spooled
from pbntool.text.edit import plain_utf8
from pbntool.text.spooled import remove_abandoned

__all__ = [
    "SpoolCopier",
    "SpoolDirectory",
    "Spooled",
    "open_spool_directory",
    "set_worker_directory",
    "spool_ready",
    "spool_threshold",
    "spooled_results",
]


def spool_threshold() -> int:
    """A unit (or group) whose chunks hold less text than a slice of input sends it through
    the pipe: a spool file costs its system calls and new memory pages, which pays only on
    a large text (measured: the groups of a folder of small files ran no faster spooled).
    ``PBNTOOL_SLICE_CHARS`` moves it with the slices (the tests spool small inputs so)."""
    return slice_chars()


SHARED_MEMORY = "/dev/shm"
PREFIX = "pbntool-spool-"


class SpoolDirectory:
    """The main process's spool directory (``None`` path when the system offers none)."""

    def __init__(self) -> None:
        self.path = open_spool_directory()

    def close(self) -> None:
        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None


def open_spool_directory(root: str = SHARED_MEMORY) -> str | None:
    """A new private directory in ``root`` (memory), or None where there is none or it
    refuses; spool directories of runs that no longer exist are removed first."""
    if not os.path.isdir(root):
        return None
    remove_abandoned(root, PREFIX)
    try:
        return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=root)
    except OSError:
        return None


_worker_directory: str | None = None
"""In a worker process: where it spools (set by the pool's initializer)."""


def set_worker_directory(path: str | None) -> None:
    global _worker_directory
    _worker_directory = path


R = TypeVar("R")


def spooled_results(results: list[R]) -> list[R]:
    """In a worker: ``results`` (``UnitResult``s, or exceptions of a group) with their
    chunks' text moved to one spool file, when there is a spool directory and enough text."""
    directory = _worker_directory
    if directory is None:
        return results
    chunks = [chunk for result in results for chunk in _chunks_of(result) if chunk.out]
    if sum(len(chunk.out) for chunk in chunks) < spool_threshold():
        return results
    try:
        encoded = [chunk.out.encode("utf-8") for chunk in chunks]
    except UnicodeEncodeError:  # the main process reports it as it writes the text
        return results
    path = _write_spool(directory, encoded)
    if path is None:
        return results
    places: list[Spooled] = []
    offset = 0
    for data in encoded:
        places.append(Spooled(path, offset, len(data), len(places) == len(encoded) - 1))
        offset += len(data)
    _replace_texts(results, iter(places))
    return results


_counter = 0


def _write_spool(directory: str, pieces: Sequence[bytes]) -> str | None:
    global _counter
    _counter += 1
    path = os.path.join(directory, f"{os.getpid()}-{_counter}")
    try:
        with open(path, "wb") as spool:
            for piece in pieces:
                spool.write(piece)
    except OSError:  # /dev/shm full (64 MB in a default container) or gone: use the pipe
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    return path


def _chunks_of(result: object) -> list[Chunk]:
    chunks = getattr(result, "chunks", None)
    return chunks if isinstance(chunks, list) else []


def _replace_texts(results: list[R], places: Iterator[Spooled]) -> None:
    """Each chunk with text, in the order ``spooled_results`` wrote them, points to its
    place instead (the results' chunk lists are the worker's own, about to be pickled)."""
    for result in results:
        chunks = _chunks_of(result)
        for index, chunk in enumerate(chunks):
            if chunk.out:
                chunks[index] = chunk._replace(out="", spool=next(places))


def spool_ready(stream: IO[str]) -> bool:
    """Whether spooled bytes copied into ``stream``'s file are what writing the text to
    ``stream`` would give: ``pbntool.text.edit.plain_utf8``, with strict errors (the
    workers encode strictly)."""
    return plain_utf8(stream) and getattr(stream, "errors", None) == "strict"


class SpoolCopier:
    """Appends spooled texts to a stream (``spool_ready``), in the kernel where it can.

    Consecutive chunks of one spool file are copied together (a group of small files
    returns a dozen chunks per file, each contiguous with the one before: one ``sendfile``
    a chunk was 12,000 system calls on a folder of 1,500 files).  Call ``flush`` before
    writing anything else to the stream; the file is deleted once its last chunk is out.
    """

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self._pending: Spooled | None = None
        """The range of a spool file still to copy (``last``: it ends the file)."""

    def copy(self, spool: Spooled) -> None:
        pending = self._pending
        if pending is not None and (pending.path, pending.offset + pending.size) == (
            spool.path,
            spool.offset,
        ):
            self._pending = Spooled(
                spool.path, pending.offset, pending.size + spool.size, spool.last
            )
        else:
            self.flush()
            self._pending = spool
        if spool.last:
            self.flush()

    def flush(self) -> None:
        """Copy what is pending into the stream."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        self.stream.flush()
        with open(pending.path, "rb") as source:
            target = self.stream.fileno()
            if not _sendfile(source.fileno(), target, pending.offset, pending.size):
                source.seek(pending.offset)
                buffer = self.stream.buffer  # type: ignore[attr-defined]
                buffer.write(source.read(pending.size))
                buffer.flush()
        _done_with(pending)

    def drop(self) -> None:
        """Forget what is pending (the run failed: the output is dropped)."""
        self._pending = None


def _sendfile(source: int, target: int, offset: int, size: int) -> bool:
    """Copy with ``os.sendfile``; False when nothing was copied and it cannot (a terminal,
    a system without it): the caller copies through memory then.  An error after a part
    was copied is raised (a full disk, a closed pipe), as a write's would be."""
    start, end = offset, offset + size
    while offset < end:
        try:
            sent = os.sendfile(target, source, offset, end - offset)
        except (AttributeError, OSError) as error:
            if offset == start and _unsupported(error):
                return False
            raise
        if sent == 0:
            raise OSError("the spool file ended early")
        offset += sent
    return True


def _unsupported(error: Exception) -> bool:
    return isinstance(error, AttributeError) or (
        isinstance(error, OSError) and error.errno in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP)
    )


def _done_with(spool: Spooled) -> None:
    if spool.last:
        with contextlib.suppress(OSError):
            os.unlink(spool.path)
