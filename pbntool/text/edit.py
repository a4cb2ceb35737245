"""Writing files without losing anything the user has: the one write path of every command.

Every command that writes a file (``convert``, ``select``, ``score``, ``dedupe``, ``render``,
``fix``, ``dd --fill``) writes through ``atomic_write``:

* the output is refused (``WriteRefused``, exit 2, the input untouched) when it is one of the
  run's inputs (``InputFiles``: by device and inode, so through any link or spelling);
* the data goes to a temporary file in the target's own directory, is flushed and fsync'd, and
  is renamed over the target only when complete: an interruption, a full disk or a bug leaves
  the target as it was and no temporary file (``SIGTERM``/``SIGHUP`` unwind through the same
  path, see ``exit_on_signals``);
* a symbolic link keeps pointing where it did: the file it points to is replaced; the new
  file gets the old one's mode and (when allowed) owner; a file with several hard links is
  rewritten in place, after the complete copy was written beside it, so every link sees it;
* ``locked_in_place`` takes an advisory lock on a file edited in place, so a second
  ``fix -i`` on the same file waits for the first and then reads its result: no lost update.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import fcntl
import io
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Any

__all__ = [
    "AtomicFile",
    "InputFiles",
    "WriteRefused",
    "atomic_write",
    "check_not_input",
    "exit_on_signals",
    "inside_directory_problem",
    "interruption",
    "locked_in_place",
    "plain_file_problem",
    "plain_utf8",
    "write_error",
    "write_whole",
]


class WriteRefused(Exception):
    """An output that must not be written, with the reason (a usage error: exit 2)."""


WHOLE_WRITE_CHARS = 1 << 16
"""Texts at least this long go to the stream's file in a checked loop (``write_whole``)."""


def write_whole(stream: IO[str], text: str) -> None:
    """``stream.write(text)``, and no part of a long text dropped in silence.

    A text longer than the stream's buffer goes straight to the file, and when a pipe's
    reader leaves (``| head``) after the system took part of it, ``BufferedWriter.write``
    returns the short count without an error; ``TextIOWrapper`` ignores that count.  The
    rest was dropped and, if it was the last write, the command exited 0 instead of 141.
    Here the bytes of a long text are written until all are taken: the write after a short
    one raises (``BrokenPipeError``, or the disk's error)."""
    if len(text) < WHOLE_WRITE_CHARS or not plain_utf8(stream):
        stream.write(text)
        return
    assert isinstance(stream, io.TextIOWrapper)
    stream.flush()
    data = memoryview(text.encode("utf-8", stream.errors or "strict"))
    while data:
        data = data[stream.buffer.write(data) :]


def plain_utf8(stream: IO[str]) -> bool:
    """Whether ``stream`` is a UTF-8 text stream over a file with no line-end translation:
    its file then holds the text's UTF-8 bytes (encoded with ``stream.errors``).  A
    ``TextIOWrapper`` does not tell its ``newline``: the streams this is asked about are
    pbntool's own (stdout, and ``AtomicFile``'s ``newline=""``), and a stream opened with
    ``newline="\\r\\n"`` would wrongly pass."""
    if not isinstance(stream, io.TextIOWrapper) or os.linesep != "\n":
        return False
    try:
        stream.fileno()
        encoding = codecs.lookup(stream.encoding).name
    except (OSError, ValueError, LookupError):  # io.UnsupportedOperation is both
        return False
    return encoding == "utf-8"


def write_error(target: str | Path, error: OSError) -> str:
    """One line saying that ``target`` could not be written, and why."""
    reason = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        reason = "no space left on the device"
    elif error.errno == errno.EFBIG:
        reason = "file too large (a file size limit was reached)"
    return f"cannot write {target}: {reason}"


@dataclass
class InputFiles:
    """The files on disk that a run reads (device and inode of each), so no output replaces one.

    Directories are walked (names and a stat each) the first time an output that exists is
    checked, not before: an output that does not exist yet, or a device (``/dev/null``, a
    terminal), cannot replace an input, and walking a large tree twice, once before the run
    could start, cost as much as its first walk.  Archives count as the one file they are;
    stdin and links to read are resolved like any path.
    """

    paths: tuple[str, ...] = ()
    follow_symlinks: bool = False
    _ids: set[tuple[int, int]] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, paths: Iterable[str], follow_symlinks: bool = False) -> InputFiles:
        kept = (p for p in paths if not (p == "-" or "://" in p or p.startswith("www.")))
        return cls(tuple(kept), follow_symlinks)

    @property
    def ids(self) -> set[tuple[int, int]]:
        """Device and inode of every input file (walked on first use)."""
        if self._ids is None:
            found: set[tuple[int, int]] = set()
            for path in self.paths:
                _add_tree(found, Path(path), self.follow_symlinks)
            self._ids = found
        return self._ids

    def holds(self, target: str | Path) -> bool:
        """Whether ``target`` (following links) is one of the inputs."""
        try:
            info = os.stat(target)
        except OSError:
            return False  # not there yet: no input is lost by writing it
        if stat.S_ISCHR(info.st_mode):
            return False  # a device: writing to it replaces no file
        return (info.st_dev, info.st_ino) in self.ids


def _add_tree(found: set[tuple[int, int]], path: Path, follow_symlinks: bool) -> None:
    try:
        if path.is_dir():
            for root, _dirs, files in os.walk(path, followlinks=follow_symlinks):
                for name in files:
                    _add(found, Path(root, name))
        else:
            _add(found, path)
    except OSError:
        pass  # an input that cannot be looked at is reported when it is read


def _add(found: set[tuple[int, int]], path: Path) -> None:
    with contextlib.suppress(OSError):
        info = path.stat()
        found.add((info.st_dev, info.st_ino))


def check_not_input(target: str | Path, inputs: InputFiles | None) -> None:
    """``WriteRefused`` when ``target`` is one of the run's inputs."""
    if inputs is not None and inputs.holds(target):
        raise WriteRefused(
            f"will not write {target}: it is one of the inputs (nothing was changed; "
            "write to another file or directory)"
        )


def inside_directory_problem(root: Path, target: Path) -> str | None:
    """Why ``target`` must not be written under ``-o root/`` (None: it may): its directory,
    once made, must be inside ``root`` by every link, and it must not be a link itself."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot make its directory: {error.strerror or error}"
    real_root = os.path.realpath(root)
    real_parent = os.path.realpath(target.parent)
    if real_parent != real_root and not real_parent.startswith(real_root + os.sep):
        return f"its directory leads out of {root} (a symbolic link)"
    if target.is_symlink():
        return "it is a symbolic link"
    return None


def plain_file_problem(path: Path | None, name: str) -> str | None:
    """Why an input cannot be edited in place (None when it is a regular file on disk)."""
    if path is None:
        return (
            f"{name} is not a file on disk (stdin, an archive member or a link): it cannot "
            "be changed in place; write the result with -o instead"
        )
    try:
        info = os.stat(path)
    except OSError as error:
        return f"cannot change {name} in place: {error.strerror or error}"
    if not stat.S_ISREG(info.st_mode):
        return f"{name} is not a regular file: it cannot be changed in place"
    return None


def _final_target(target: Path) -> Path:
    """The file a write to ``target`` replaces: the end of a chain of symbolic links."""
    if target.is_symlink():
        return Path(os.path.realpath(target))
    return target


def _is_special(target: Path) -> bool:
    """Whether ``target`` exists and is neither a regular file nor a directory (a device, a
    named pipe, a socket): a write goes to it, it is never replaced."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_pending: set[str] = set()
"""Temporary files being written now (removed if a signal ends the run)."""

_HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Run a block that a signal must not cut in two: Ctrl-C, SIGTERM and SIGHUP that arrive
    meanwhile are only noted, and delivered to their own handlers when it ends.

    Python runs signal handlers in the main thread between two bytecodes: a SIGTERM landing
    after ``mkstemp`` made the file but before it was in ``_pending`` left it behind (CI
    caught it once).  Handlers rather than a signal mask: a mask holds nothing back when
    another thread (a progress bar) takes the signal for the process.  Elsewhere than in the
    main thread (where handlers cannot be set) the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    previous: dict[signal.Signals, Any] = {}
    try:
        for signum in _HELD_SIGNALS:
            handler = signal.getsignal(signum)
            if handler is not None:  # None: set outside Python, so it cannot be put back
                previous[signum] = handler
                signal.signal(signum, note)
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for held in arrived:
            signal.raise_signal(held)


def _prefix(name: str, limit: int = 200) -> str:
    """The start of a temporary file's name: the target's, cut so that the temporary name
    (with its dot, random part and ``.tmp``) stays within a file name's 255 bytes."""
    while len(name.encode("utf-8", "surrogateescape")) > limit:
        name = name[:-1]
    return name


class AtomicFile:
    """A stream whose data replaces ``target`` on ``commit`` (or at the end of a ``with``
    block that raised nothing); ``abort`` (or an exception) leaves the target as it was.

    ``binary`` gives a byte stream, else text (``encoding``, line ends as written).  Raises
    ``WriteRefused`` before anything is written when ``target`` is one of ``inputs``, and
    ``OSError`` (the target untouched) when the write fails.

    A target that is not a regular file (``/dev/null``, ``/dev/stdout``, a named pipe) is
    written to directly: there is no file to replace, and renaming over it would put a
    regular file in place of the device.
    """

    def __init__(
        self,
        target: str | Path,
        *,
        binary: bool = False,
        inputs: InputFiles | None = None,
        encoding: str = "utf-8",
    ) -> None:
        self.target = _final_target(Path(target))
        check_not_input(self.target, inputs)
        self._temporary: str | None = None
        try:
            self._raw = self._open_raw()
            self.stream: IO[Any] = (
                self._raw if binary else io.TextIOWrapper(self._raw, encoding=encoding, newline="")
            )
        except BaseException:  # Ctrl-C included: the temporary file goes with the error
            self._drop_temporary()
            raise
        self._done = False

    def _open_raw(self) -> IO[bytes]:
        if _is_special(self.target):
            # Outside ``_signals_held``: opening a named pipe waits for its reader, and
            # Ctrl-C must still end that wait.
            return open(self.target, "wb")
        directory = self.target.parent if str(self.target.parent) else Path(".")
        # No signal may land between making the temporary file and recording it (in
        # ``_pending`` for SIGTERM's handler, in this object for ``abort``): they wait for the
        # end of the block, where what they raise finds the file recorded.
        with _signals_held():
            handle, self._temporary = tempfile.mkstemp(
                dir=directory, prefix=f".{_prefix(self.target.name)}.", suffix=".tmp"
            )
            _pending.add(self._temporary)
        return os.fdopen(handle, "wb")

    def commit(self) -> None:
        """Flush, fsync and rename the complete file over the target."""
        if self._done:
            return
        try:
            self.stream.flush()
            if self._temporary is None:  # a device or a pipe: written as it went
                self.stream.close()
                return
            os.fsync(self._raw.fileno())
            self.stream.close()
            _replace(Path(self._temporary), self.target)
        finally:
            self.abort()

    def abort(self) -> None:
        """Drop what was written (the target stays as it was)."""
        self._done = True
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()
        self._drop_temporary()

    def _drop_temporary(self) -> None:
        if self._temporary is None:
            return
        # Removed before it is forgotten: a signal in between finds it still in ``_pending``.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._temporary)
        _pending.discard(self._temporary)

    def __enter__(self) -> IO[Any]:
        return self.stream

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()


def atomic_write(
    target: str | Path,
    *,
    binary: bool = False,
    inputs: InputFiles | None = None,
    encoding: str = "utf-8",
) -> AtomicFile:
    """``AtomicFile`` for a ``with`` block: ``with atomic_write(path) as out: ...``."""
    return AtomicFile(target, binary=binary, inputs=inputs, encoding=encoding)


def _replace(temporary: Path, path: Path) -> None:
    """Put the complete ``temporary`` in ``path``'s place, keeping mode, owner and links."""
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and old.st_nlink > 1 and stat.S_ISREG(old.st_mode):
        _rewrite_in_place(temporary, path)
        return
    if old is not None:
        os.chmod(temporary, stat.S_IMODE(old.st_mode))
        with contextlib.suppress(PermissionError):
            os.chown(temporary, old.st_uid, old.st_gid)
    else:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
    os.replace(temporary, path)
    _sync_directory(path.parent)


def _rewrite_in_place(temporary: Path, path: Path) -> None:
    """A hard-linked file: copy the finished data over it, so every name sees the new data.
    Not atomic, so no signal stops it half way: the file is either as it was or complete."""
    with _signals_held(), open(temporary, "rb") as source, open(path, "r+b") as target:
        shutil.copyfileobj(source, target)
        target.truncate()
        target.flush()
        os.fsync(target.fileno())


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):
        descriptor = os.open(directory if str(directory) else ".", os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


@contextlib.contextmanager
def locked_in_place(path: Path, name: str) -> Iterator[None]:
    """Hold an advisory lock on ``path`` while it is read, fixed and replaced.

    A second process waits (saying so on stderr) and then works on the file the first one
    left: the lock is taken on the file the path names *now*, again if it was replaced while
    waiting.
    """
    while True:
        stream = open(path, "rb")  # noqa: SIM115 - closed below or when the lock is released
        try:
            try:
                fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                sys.stderr.write(f"pbntool: waiting for another pbntool to finish with {name}\n")
                fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
            if _same_file(stream, path):
                yield
                return
        finally:
            stream.close()


def _same_file(stream: IO[bytes], path: Path) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return True  # gone: the edit reports it when it reads
    held = os.fstat(stream.fileno())
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def exit_on_signals() -> None:
    """Make SIGTERM and SIGHUP end the run like an exception (exit 128 + the signal), so every
    write in progress unwinds and removes its temporary file."""

    def stop(signum: int, frame: FrameType | None) -> None:
        for temporary in list(_pending):
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise SystemExit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave it
            signal.signal(signum, stop)


def interruption(error: BaseException) -> SystemExit | KeyboardInterrupt | None:
    """The exit (``exit_on_signals``) or Ctrl-C that ``error`` wraps, if any.  Python 3.11
    wraps what a signal handler raises in a RuntimeError when it lands while a class is
    being made (``__set_name__``): a run imports some modules late, and a SIGTERM there
    ended with a traceback instead of its exit code."""
    cause = error.__cause__
    while cause is not None:
        if isinstance(cause, (SystemExit, KeyboardInterrupt)):
            return cause
        cause = cause.__cause__
    return None
