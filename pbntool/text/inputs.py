"""Turn command-line paths into inputs: files, directories (recursive, filtered by globs),
``-`` for stdin, lists of paths (``--files-from``), and archive members.

Archives (zip, tar, tar.gz/bz2/xz, gz/bz2/xz) are recognised by content, read without
unpacking, and expanded into their members (see ``pbntool.text.archives``); a member's name is
``archive!path``.  Directory trees and archives are untrusted: symbolic links leading out of a
tree are not followed unless asked, and what cannot be read becomes an ``Input`` carrying the
diagnostic, so the batch goes on.

An input from an archive can only be read until the next input is asked for (a compressed tar
reads forwards only): read each input before taking the next.
"""

from __future__ import annotations

import dataclasses
import errno
import fnmatch
import functools
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from pbntool.diagnostics import ARC004, SRC003, SRC008, Diagnostic
from pbntool.text.archives import (
    ARCHIVE_SUFFIXES,
    COMPRESSED_SUFFIXES,
    SNIFF,
    Limits,
    Member,
    RunBudget,
    iter_members,
    sniff_archive,
    strip_archive_suffix,
)

__all__ = [
    "CONTAINER_SUFFIXES",
    "Input",
    "Prefixed",
    "Selection",
    "input_bytes",
    "iter_inputs",
    "read_path_list",
    "readable_suffixes",
    "replay",
    "use_data_suffixes",
]

CONTAINER_SUFFIXES = frozenset(ARCHIVE_SUFFIXES) | frozenset(COMPRESSED_SUFFIXES)
"""Archives and compressed files: always opened when walking (their members are then chosen
by the data suffixes)."""

_data_suffixes: frozenset[str] = frozenset()
_readable_endings: tuple[str, ...] = tuple(CONTAINER_SUFFIXES)
"""``readable_suffixes()`` as ``str.endswith`` takes them (one call a file in a walk)."""


def use_data_suffixes(suffixes: frozenset[str]) -> None:
    """Set the suffixes of the data files a walk picks up.  The format registry calls this
    when it is imported (``pbntool.formats``): this layer does not know the formats."""
    global _data_suffixes, _readable_endings
    _data_suffixes = frozenset(suffix.lower() for suffix in suffixes)
    _readable_endings = tuple(sorted(readable_suffixes()))


def readable_suffixes() -> frozenset[str]:
    """Suffixes picked up when walking a directory or an archive (case-insensitive), unless
    ``--include`` says otherwise: the formats' data suffixes, archives and compressed files."""
    return _data_suffixes | CONTAINER_SUFFIXES


@dataclass(frozen=True, slots=True)
class Input:
    """One thing to read: a named byte stream, or the reason it cannot be read."""

    name: str
    """What diagnostics call it: a path, ``<stdin>`` or ``archive!member``."""
    path: Path | None
    """A regular file on disk (None for stdin and archive members)."""
    problem: Diagnostic | None = None
    opener: Callable[[], BinaryIO] | None = field(default=None, compare=False, repr=False)
    """Opens the stream when it is not ``path`` (stdin already sniffed, archive members)."""
    relative: str | None = None
    """Where ``convert -o DIR`` writes its output, relative to DIR (``/`` separated)."""
    size: int | None = None
    """Bytes on disk, when known (for progress)."""
    status: Callable[[], Diagnostic | None] | None = field(default=None, compare=False, repr=False)
    """After reading: why the data ended early (an archive's limit or corruption), if it did."""

    def failure(self) -> Diagnostic | None:
        """The finding to report after reading, placed at this input (None: all was read)."""
        found = self.status() if self.status is not None else None
        return None if found is None else _placed(found, self.name)

    def open(self) -> BinaryIO:
        """The byte stream (stdin for ``-``)."""
        if self.opener is not None:
            return self.opener()
        if self.path is None:
            return sys.stdin.buffer
        return open(self.path, "rb")


@dataclass(frozen=True, slots=True)
class Selection:
    """Which files of a tree or an archive are read, and how far to trust them."""

    include: tuple[str, ...] = ()
    """Globs a file must match (default: the readable suffixes)."""
    exclude: tuple[str, ...] = ()
    """Globs that leave a file or a whole directory out."""
    follow_symlinks: bool = False
    """Follow symbolic links that lead out of a directory tree."""
    limits: Limits = field(default_factory=Limits)
    run: RunBudget | None = None
    """The decompression budget the archives of one run share (``iter_inputs`` gives each
    call its own)."""

    def wants(self, relative: str) -> bool:
        """Whether a file found in a tree or an archive at ``relative`` is read."""
        if self.excluded(relative):
            return False
        if self.include:
            return any(_matches(pattern, relative) for pattern in self.include)
        return relative.lower().endswith(_readable_endings)

    def excluded(self, relative: str) -> bool:
        return any(_matches(pattern, relative) for pattern in self.exclude)


def _matches(pattern: str, relative: str) -> bool:
    """A glob with a ``/`` matches the path from the root; one without matches the name.
    ``**/`` also matches no directory at all.  Case is ignored (``*.pbn`` matches ``X.PBN``,
    as files from Windows are often named)."""
    pattern, relative = pattern.lower(), relative.lower()
    if "/" not in pattern:
        return fnmatch.fnmatchcase(PurePosixPath(relative).name, pattern)
    if pattern.startswith("**/") and _matches(pattern[3:], relative):
        return True
    return fnmatch.fnmatchcase(relative, pattern)


def _unreadable(name: str, reason: str) -> Input:
    return Input(name, None, _placed(SRC003.at(reason=reason), name))


def _placed(diagnostic: Diagnostic, name: str) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, name)


def read_path_list(stream: Iterable[str]) -> Iterator[str]:
    """Paths listed one per line (``--files-from``); blank lines are skipped."""
    for line in stream:
        path = line.rstrip("\r\n")
        if path.strip():
            yield path


def iter_inputs(arguments: Iterable[str], selection: Selection | None = None) -> Iterator[Input]:
    """Files named on the command line (whatever their suffix), the files found by walking
    directories (in sorted order, so output is deterministic), ``-`` for stdin, handviewer
    links given as arguments, and the members of archives among all of these."""
    chosen = Selection() if selection is None else selection
    chosen = dataclasses.replace(chosen, run=RunBudget(chosen.limits))
    for argument in arguments:
        if argument == "-":
            yield from _stdin(chosen)
            continue
        path = Path(argument)
        try:
            kind = _path_kind(path)
        except OSError as error:  # a name too long for the system, a loop of links ...
            if _LINK.match(argument):
                kind = None
            else:
                yield _unreadable(_shortened(argument), error.strerror or str(error))
                continue
        if _LINK.match(argument) and kind is None:
            opener = functools.partial(io.BytesIO, argument.encode("utf-8"))
            yield Input("<link>", None, opener=opener, relative="link")
        elif kind == "dir":
            yield from _found_in(argument, _walk(path, chosen))
        elif kind == "file":
            yield from _file(argument, path, path.name, chosen)
        elif kind == "other":
            yield _unreadable(argument, "not a regular file")
        elif path.is_symlink():
            yield _unreadable(argument, "dangling symbolic link")
        else:
            yield _unreadable(argument, "no such file or directory")


def input_bytes(arguments: Iterable[str], selection: Selection | None = None) -> int | None:
    """The bytes on disk of every file ``iter_inputs`` reads for ``arguments``, found by the
    same walk with ``stat`` alone (nothing is opened; an archive counts as its compressed
    size): the total of a progress bar.  None when one of them is stdin, whose size is not
    known; a handviewer link counts nothing, and so does what cannot be read."""
    chosen = Selection() if selection is None else selection
    total = 0
    for argument in arguments:
        if argument == "-":
            return None
        path = Path(argument)
        try:
            kind = _path_kind(path)
        except OSError:
            continue
        if kind == "dir":
            for item in _walk_files(path, chosen):
                if not isinstance(item, Input):
                    total += item[2]
        elif kind == "file":
            total += _size(path)
    return total


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # reported when it is read


def _path_kind(path: Path) -> str | None:
    """``dir``, ``file``, ``other`` or None (nothing there); raises OSError when the name
    itself cannot be looked up (longer than the system allows)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            return None
        raise
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def _shortened(name: str, keep: int = 200) -> str:
    """A name fit to print on one line of a finding."""
    return name if len(name) <= keep else f"{name[: keep // 2]}...{name[-keep // 2 :]}"


_LINK = re.compile(r"(?i)(?:https?://|www\.)\S*(?:[?&](?:lin|linurl)=|handviewer\.html\?)")
"""A handviewer link given on the command line instead of a file name."""


def _found_in(argument: str, found: Iterator[Input]) -> Iterator[Input]:
    """The inputs of a directory, or the finding that it holds none: a mistyped path or an
    empty checkout must not pass a CI job as a clean run."""
    empty = True
    for source in found:
        empty = False
        yield source
    if empty:
        suffixes = ", ".join(sorted(_data_suffixes))
        reason = f"no bridge files found in this directory (looked for {suffixes} and archives)"
        yield _unreadable(argument, reason)


def _stdin(selection: Selection) -> Iterator[Input]:
    stream = sys.stdin.buffer
    head = _peek(stream)
    again = replay(head, stream)
    kind = sniff_archive(head)
    if kind is None:
        yield Input("<stdin>", None, opener=lambda: again, relative="stdin")
        return
    yield from _archive(again, "<stdin>", "stdin", kind, selection, 1)


def _file(
    name: str, path: Path, relative: str, selection: Selection, size: int | None = None
) -> Iterator[Input]:
    """A file (``size``: from the walk's ``stat``), or the members of the archive it is."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            if size is None:
                size = os.fstat(descriptor).st_size
            head = os.read(descriptor, SNIFF)
        finally:
            os.close(descriptor)
    except OSError as error:
        yield _unreadable(name, error.strerror or str(error))
        return
    kind = sniff_archive(head)
    if kind is None:
        yield Input(name, path, relative=relative, size=size)
        return
    if kind == "zip" and (disguised := _disguised_zip(name)) is not None:
        yield Input(name, None, _placed(disguised, name), size=size)
        return
    try:
        with open(path, "rb") as stream:
            yield from _archive(stream, name, relative, kind, selection, 1, size)
    except OSError as error:  # pragma: no cover - it was readable a moment ago
        yield _unreadable(name, error.strerror or str(error))


def _archive(
    stream: BinaryIO,
    name: str,
    relative: str,
    kind: str,
    selection: Selection,
    depth: int,
    size: int | None = None,
) -> Iterator[Input]:
    base = strip_archive_suffix(relative)
    for member in iter_members(stream, name, kind, selection.limits, depth, selection.run):
        # The archive's size goes with the first member read (for progress), none after it.
        if member.problem is not None:
            yield Input(member.name, None, member.problem, relative=None, size=size)
            size = None
            continue
        assert member.opener is not None
        inner = base if member.whole else f"{base}/{member.path}"
        if not member.whole and not selection.wants(member.path):
            continue
        yield from _member(member, inner, selection, depth, size)
        size = None


def _member(
    member: Member, relative: str, selection: Selection, depth: int, size: int | None
) -> Iterator[Input]:
    """A member, or the members of the archive it holds."""
    name = member.name
    assert member.opener is not None
    try:
        stream = member.opener()
        head = _peek(stream)
    except OSError as error:
        diagnostic = getattr(error, "diagnostic", None)
        problem = diagnostic or SRC003.at(reason=error.strerror or str(error))
        yield Input(name, None, _placed(problem, name), size=size)
        return
    again = replay(head, stream)
    kind = sniff_archive(head)
    if kind is None:
        yield Input(
            name, None, opener=lambda: again, relative=relative, size=size, status=member.status
        )
        return
    if kind == "zip" and (disguised := _disguised_zip(name)) is not None:
        yield Input(name, None, _placed(disguised, name), size=size)
        return
    yield from _archive(again, name, relative, kind, selection, depth + 1, size)
    failure = member.status() if member.status is not None else None
    if failure is not None:
        yield Input(name, None, _placed(failure, name))


_NAMED_FORMATS = {
    ".pbn": "PBN",
    ".lin": "LIN",
    ".xml": "XML",
    ".json": "JSON",
    ".jsonl": "JSON",
    ".ndjson": "JSON",
}


def _disguised_zip(name: str) -> Diagnostic | None:
    """SRC008 for a zip named like a data file: an office document (.docx, .xlsx and .odt are
    zips) renamed .pbn, not an archive of boards (those are named .zip)."""
    suffix = PurePosixPath(name.replace("!", "/")).suffix.lower()
    form = _NAMED_FORMATS.get(suffix)
    if form is None:
        return None
    reason = "a zip archive (an office document such as .docx is one); archives are named .zip"
    return SRC008.at(form=form, reason=reason)


def _peek(stream: BinaryIO) -> bytes:
    head = b""
    while len(head) < SNIFF:
        chunk = stream.read(SNIFF - len(head))
        if not chunk:
            break
        head += chunk
    return head


class Prefixed(io.RawIOBase):
    """A raw stream that replays bytes already read before reading on."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def replay(head: bytes, rest: BinaryIO) -> BinaryIO:
    """A buffered stream that gives ``head`` again, then the rest."""
    return io.BufferedReader(Prefixed(head, rest), buffer_size=1 << 20)


# --- directory trees ---------------------------------------------------------------------------


def _walk(root: Path, selection: Selection) -> Iterator[Input]:
    """The inputs of the files under ``root`` (see ``_walk_files``)."""
    for item in _walk_files(root, selection):
        if isinstance(item, Input):
            yield item
        else:
            path, relative, size = item
            yield from _file(str(path), path, relative, selection, size)


def _walk_files(root: Path, selection: Selection) -> Iterator[tuple[Path, str, int] | Input]:
    """The files under ``root`` that are read, as ``(path, relative, size)``, in sorted path order
    (a directory's files and subdirectories interleaved by name, as sorting the full paths
    would give), and what cannot be walked as an ``Input`` with its finding; streamed, without
    recursion (a hostile tree may be deeper than Python's stack).  Nothing is opened."""
    real_root = os.path.realpath(root)
    visited = {real_root}
    stack = [_listing(root, "", selection)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
        elif isinstance(item, Input):
            yield item
        else:
            entry, relative = item
            subdirectories: list[tuple[Path, str]] = []
            yield from _entry(entry, relative, real_root, visited, selection, subdirectories)
            stack.extend(_listing(path, prefix, selection) for path, prefix in subdirectories)


def _listing(
    directory: Path, prefix: str, selection: Selection
) -> Iterator[tuple[os.DirEntry[str], str] | Input]:
    """A directory's entries, sorted by name, less the excluded ones."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as error:
        yield _unreadable(str(directory), error.strerror or str(error))
        return
    for entry in entries:
        relative = f"{prefix}{entry.name}"
        if not selection.excluded(relative):
            yield entry, relative


def _entry(
    entry: os.DirEntry[str],
    relative: str,
    real_root: str,
    visited: set[str],
    selection: Selection,
    subdirectories: list[tuple[Path, str]],
) -> Iterator[tuple[Path, str, int] | Input]:
    name = entry.path
    try:
        is_link = entry.is_symlink()
        found = os.stat(name)  # follows links
    except OSError as error:
        if _is_link(entry):
            if selection.wants(relative):
                yield _link(Path(name), "it points at nothing")
        else:
            yield _unreadable(name, error.strerror or str(error))
        return
    mode = found.st_mode
    if is_link and not stat.S_ISDIR(mode) and not selection.wants(relative):
        return
    if is_link and not selection.follow_symlinks:
        target = os.path.realpath(name)
        if not _inside(target, real_root):
            yield _link(Path(name), "it leads out of the tree (--follow-symlinks follows it)")
            return
        if stat.S_ISDIR(mode):
            return  # a link to a directory of the same tree: that directory is walked anyway
    if stat.S_ISDIR(mode):
        real = os.path.realpath(name)
        if real in visited:
            return  # a cycle of links
        visited.add(real)
        subdirectories.append((Path(name), relative + "/"))
    elif stat.S_ISREG(mode) and selection.wants(relative):
        yield Path(name), relative, found.st_size


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:  # pragma: no cover - lstat failing after scandir listed it
        return False


def _link(path: Path, reason: str) -> Input:
    """A symbolic link that is not followed: a warning, not an unreadable input."""
    name = str(path)
    found = ARC004.at(kind="symbolic link", name=name, reason=reason)
    return Input(name, None, _placed(found, name))


def _inside(target: str, root: str) -> bool:
    return target == root or target.startswith(root.rstrip(os.sep) + os.sep)
