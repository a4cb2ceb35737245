"""A copy on disk of an input that has no path of its own (stdin, an archive member).

A worker process opens a local file by its path.  An input without one was read whole into
the main process's memory and sent as bytes, when its format has no splitter that streams
it (LIN's slices may have to be read again from an unclean cut; most other formats are read
whole): a LIN file of 120 MB on stdin took 1.2 GB.  Copied to a file a megabyte at a time,
it is read like any local file, in the memory of one.

The copies of a run live in one private directory of the system's temporary directory (on
disk: ``/dev/shm`` would be memory again), named after the main process.  A copy is removed
when the last unit that reads it is gone (each holds its ``SpooledInput``), what is left at
exit (Ctrl-C and SIGTERM unwind to it), and the directory of a run killed outright by the
next run that spools an input.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import weakref
from typing import BinaryIO

__all__ = ["HELD_BYTES", "INPUT_PREFIX", "SpooledInput", "remove_abandoned", "spool_input"]

INPUT_PREFIX = "pbntool-input-"
_COPY_CHUNK = 1 << 20


class SpooledInput:
    """A file holding a copy of an input; removed when this object is (or at exit)."""

    __slots__ = ("__weakref__", "path", "size")

    def __init__(self, path: str, size: int = 0) -> None:
        self.path = path
        self.size = size
        weakref.finalize(self, _remove_file, path)


HELD_BYTES = 8 << 20
"""An input no longer than this is held in memory, not copied (an archive of many small
members makes no file for each)."""


def spool_input(stream: BinaryIO, to_disk: bool) -> tuple[SpooledInput | bytes, OSError | None]:
    """The rest of ``stream``, and the error that ended reading it, if any (what was read
    before it is kept).  As bytes when it ends within ``HELD_BYTES``, when not ``to_disk``
    (workers that cannot open a local file), or when no file can be made here; else copied
    to a file, a megabyte at a time.  A write that fails (a full disk) raises: the input
    cannot be read, and says so."""
    held = HELD_BYTES if to_disk else None
    head, failure = _read_up_to(stream, None if held is None else held + 1)
    if failure is not None or held is None or len(head) <= held:
        return head, failure
    directory = _directory()
    try:
        if directory is None:
            raise OSError("no temporary directory")
        handle, path = tempfile.mkstemp(dir=directory, suffix=".input")
    except OSError:
        rest, failure = _read_up_to(stream, None)
        return head + rest, failure
    spooled = SpooledInput(path, len(head))
    with open(handle, "wb") as copy:
        copy.write(head)
        while True:
            chunk, failure = _read_up_to(stream, _COPY_CHUNK)
            copy.write(chunk)
            spooled.size += len(chunk)
            if failure is not None or len(chunk) < _COPY_CHUNK:
                return spooled, failure


def _read_up_to(stream: BinaryIO, size: int | None) -> tuple[bytes, OSError | None]:
    """Up to ``size`` bytes (None: all), fewer only at the end or on a read error."""
    chunks: list[bytes] = []
    count = 0
    try:
        while size is None or count < size:
            chunk = stream.read(_COPY_CHUNK if size is None else min(_COPY_CHUNK, size - count))
            if not chunk:
                break
            chunks.append(chunk)
            count += len(chunk)
    except OSError as error:
        return b"".join(chunks), error
    return b"".join(chunks), None


_directories: list[str] = []
"""This process's spool directory for inputs, once made (none made: empty)."""


def _directory() -> str | None:
    if _directories:
        return _directories[0]
    root = tempfile.gettempdir()
    remove_abandoned(root, INPUT_PREFIX)
    try:
        path = tempfile.mkdtemp(prefix=f"{INPUT_PREFIX}{os.getpid()}-", dir=root)
    except OSError:
        return None
    _directories.append(path)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def _remove_file(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def remove_abandoned(root: str, prefix: str) -> None:
    """Remove the directories ``<prefix><pid>-…`` of ``root`` whose process is gone (a run
    killed with SIGKILL leaves its own behind)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(root):
            if not name.startswith(prefix):
                continue
            pid = name[len(prefix) :].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True
