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

__all__ = ["INPUT_PREFIX", "SpooledInput", "remove_abandoned", "spool_input"]

INPUT_PREFIX = "pbntool-input-"
_COPY_CHUNK = 1 << 20


class SpooledInput:
    """A file holding a copy of an input; removed when this object is (or at exit)."""

    __slots__ = ("__weakref__", "path", "size")

    def __init__(self, path: str, size: int = 0) -> None:
        self.path = path
        self.size = size
        weakref.finalize(self, _remove_file, path)


def spool_input(stream: BinaryIO) -> tuple[SpooledInput | None, OSError | None]:
    """The rest of ``stream`` copied to a file, and the error that ended reading it, if
    any (what was read before it is in the file).  None when no file can be made here: the
    caller then holds the input in memory, as before.  A write that fails (a full disk)
    raises: the input cannot be read whole, and says so."""
    directory = _directory()
    if directory is None:
        return None, None
    try:
        handle, path = tempfile.mkstemp(dir=directory, suffix=".input")
    except OSError:
        return None, None
    spooled = SpooledInput(path)
    failure: OSError | None = None
    with open(handle, "wb") as copy:
        while True:
            try:
                chunk = stream.read(_COPY_CHUNK)
            except OSError as error:
                failure = error
                break
            if not chunk:
                break
            copy.write(chunk)
            spooled.size += len(chunk)
    return spooled, failure


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
