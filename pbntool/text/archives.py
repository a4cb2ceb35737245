"""Archives read as untrusted streams: zip, tar (plain, gzip, bzip2, xz) and single compressed
files, never unpacked to disk.

Every member is a byte stream with bounds: decompression stops at ``Limits.max_member_bytes``
or when output outgrows its compressed input by more than ``Limits.max_ratio`` (a bomb), and
each stops with a diagnostic, not an exception.  Names that could escape an output directory
(absolute, ``..``, control characters) are refused, links and special members are not
followed, and nesting is bounded.  The display name of a member is ``archive!member``.

Members are produced lazily and one at a time: a member's stream is only valid until the
next member is asked for (a compressed tar can only be read forwards).
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import re
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import BinaryIO, cast

from pbntool.diagnostics import (
    ARC001,
    ARC002,
    ARC003,
    ARC004,
    ARC005,
    ARC006,
    Diagnostic,
)

__all__ = [
    "ARCHIVE_SUFFIXES",
    "ArchiveError",
    "Limits",
    "Member",
    "RunBudget",
    "iter_members",
    "sniff_archive",
    "status",
    "strip_archive_suffix",
]

ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
SNIFF = 512
"""Bytes needed to recognise an archive (a tar header's magic is at offset 257)."""

SPOOL_IN_MEMORY = 64 << 20
"""A zip that is not a seekable file (stdin, a member) is buffered: in memory up to this."""

_CORRUPT = (
    zipfile.BadZipFile,
    tarfile.TarError,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    gzip.BadGzipFile,
)


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what reading an archive may cost."""

    max_member_bytes: int = 4 << 30
    """Largest decompressed member (and largest decompressed single-file stream)."""
    max_ratio: float = 200.0
    """Largest ratio of decompressed to compressed bytes, checked past ``ratio_floor``."""
    ratio_floor: int = 8 << 20
    """Below this many decompressed bytes the ratio is not checked (tiny files compress well)."""
    max_depth: int = 3
    """Archives inside archives up to this depth are read."""
    max_total_bytes: int | None = None
    """Decompressed bytes all the archives of one run may produce together (``--max-total-
    size``); None: ``max_ratio`` times their compressed bytes, at least ``ratio_floor``, so
    that a thousand small archives each under the floor do not each get a floor."""


@dataclass(slots=True)
class RunBudget:
    """What the archives of one run have produced so far, against ``Limits.max_total_bytes``
    (or the ratio over all of them): one per ``iter_inputs`` call, shared by every archive
    (and archive in an archive) it opens."""

    limits: Limits
    compressed: int = 0
    """Compressed bytes of the run's archives read so far (the ratio's denominator)."""
    used: int = 0
    spent: bool = False

    def allowed(self) -> int:
        limits = self.limits
        if limits.max_total_bytes is not None:
            return limits.max_total_bytes
        return max(limits.ratio_floor, int(limits.max_ratio * self.compressed))

    def reason(self) -> str:
        if self.limits.max_total_bytes is not None:
            return (
                f"the archives of this run have produced more than {self.allowed()} "
                "decompressed bytes in all (--max-total-size)"
            )
        return (
            f"the archives of this run have produced more than {self.allowed()} decompressed "
            f"bytes in all (the ratio limit of {self.limits.max_ratio:g} over all of them; "
            "--max-total-size sets another budget)"
        )


class ArchiveError(OSError):
    """Reading a member failed or was stopped; ``diagnostic`` says why (no line: the member)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class Member:
    """A member of an archive: a stream to read, or a problem that stops it being read."""

    name: str
    """Display name, ``archive!path`` (nested: ``outer.zip!inner.tar!path``)."""
    path: str
    """The member's path inside its archive (``/`` separated, safe)."""
    opener: Callable[[], BinaryIO] | None
    status: Callable[[], Diagnostic | None] | None = None
    """After the member was read: why its data ended early (limits, corruption), if it did."""
    problem: Diagnostic | None = None
    whole: bool = False
    """The one file a compressed (not archived) input holds, named like the input."""


def sniff_archive(head: bytes) -> str | None:
    """``zip``, ``gzip``, ``bzip2``, ``xz``, ``tar`` or None, from an input's first bytes."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if re.match(rb"BZh[1-9]1AY&SY", head):
        return "bzip2"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    return None


def strip_archive_suffix(name: str) -> str:
    """``a.tar.gz`` → ``a``, ``x.pbn.gz`` → ``x.pbn``: where an archive's output goes."""
    lower = name.lower()
    for suffix in (*ARCHIVE_SUFFIXES, *COMPRESSED_SUFFIXES):
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name + ".d"


def unsafe_name(path: str) -> str | None:
    """Why a member path could escape an output directory (None when it is safe)."""
    if not path:
        return "empty name"
    if re.search(r"[\x00-\x1f\x7f]", path):
        return "control character in the name"
    unified = path.replace("\\", "/")
    if unified.startswith("/") or re.match(r"[A-Za-z]:", unified):
        return "absolute path"
    if ".." in unified.split("/"):
        return "'..' component"
    return None


def _clean(path: str) -> str:
    """A safe member path in ``/`` form without empty or ``.`` parts."""
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    return str(PurePosixPath(*parts)) if parts else "."


class _Counting(io.RawIOBase):
    """Counts the bytes read from a compressed stream (the denominator of the ratio)."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.raw.read(len(buffer))
        buffer[: len(data)] = data
        self.count += len(data)
        return len(data)


@dataclass(slots=True)
class _Budget:
    """Decompressed bytes all members of one archive may produce together: a member under
    ``ratio_floor`` escapes the ratio check, but a thousand of them do not."""

    allowed: int
    used: int = 0


class _Bounded(io.RawIOBase):
    """A decompressed stream that stops at the limits.

    A limit reached or a failure of the archive ends the data cleanly (the reader finishes
    what it has) and leaves ``failure`` set: whoever read the stream reports it afterwards.
    """

    def __init__(
        self,
        stream: BinaryIO,
        limits: Limits,
        compressed: Callable[[], int],
        outer: _Bounded | None = None,
        budget: _Budget | None = None,
        run: RunBudget | None = None,
        counted: int = 0,
    ) -> None:
        self._stream = stream
        self._limits = limits
        self._compressed = compressed
        self._outer = outer
        self._budget = budget
        self._run = run
        self._counted = counted
        """Compressed bytes already added to the run's budget for this stream (a zip adds
        its whole size when opened; a compressed stream adds them as they are read)."""
        self.produced = 0
        self.failure: Diagnostic | None = None

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if not self.closed:
            # Closing a broken member must not hide what was read from it.
            with contextlib.suppress(Exception):
                self._stream.close()
        super().close()

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.failure is not None:
            return 0
        try:
            data = self._stream.read(len(buffer))
        except _CORRUPT as error:
            self._fail(_corrupt(error, "the rest of this member"))
            return 0
        except (NotImplementedError, RuntimeError) as error:
            self._fail(ARC005.at(reason=str(error)))
            return 0
        allowed = self._within_run(self._within_budget(self._allowed(len(data))))
        self.produced += allowed
        buffer[:allowed] = data[:allowed]
        return allowed

    def _fail(self, diagnostic: Diagnostic) -> None:
        outer = self._outer.failure if self._outer is not None else None
        self.failure = outer or diagnostic

    def _within_budget(self, size: int) -> int:
        """How much of ``size`` bytes the archive's budget still allows (sets ``failure``)."""
        budget = self._budget
        if budget is None or self.failure is not None:
            return size
        if budget.used + size > budget.allowed:
            reason = (
                f"its archive has produced more than {budget.allowed} decompressed bytes in "
                f"all (the ratio limit of {self._limits.max_ratio:g} over the whole archive)"
            )
            self._fail(ARC002.at(size=budget.allowed, reason=reason))
            size = max(0, budget.allowed - budget.used)
        budget.used += size
        return size

    def _within_run(self, size: int) -> int:
        """How much of ``size`` bytes the run's budget still allows (sets ``failure``)."""
        run = self._run
        if run is None or self.failure is not None:
            return size
        if self._counted >= 0:  # a compressed stream: its bytes read so far count
            now = self._compressed()
            run.compressed += max(0, now - self._counted)
            self._counted = now
        allowed = run.allowed()
        if run.used + size > allowed:
            self._fail(ARC002.at(size=allowed, reason=run.reason()))
            run.spent = True
            size = max(0, allowed - run.used)
        run.used += size
        return size

    def _allowed(self, size: int) -> int:
        """How much of ``size`` new bytes may be delivered (sets ``failure`` past a limit)."""
        limits = self._limits
        total = self.produced + size
        if total > limits.max_member_bytes:
            reason = f"larger than the limit of {limits.max_member_bytes} bytes"
            self._fail(ARC002.at(size=limits.max_member_bytes, reason=reason))
            return max(0, limits.max_member_bytes - self.produced)
        if total > limits.ratio_floor:
            compressed = max(1, self._compressed())
            if total > limits.max_ratio * compressed:
                allowed = max(limits.ratio_floor, int(limits.max_ratio * compressed))
                reason = (
                    f"more than {limits.max_ratio:g}x its {compressed} compressed bytes "
                    f"(the ratio limit of {limits.max_ratio:g})"
                )
                self._fail(ARC002.at(size=allowed, reason=reason))
                return max(0, min(size, allowed - self.produced))
        return size


def _corrupt(error: BaseException, skipped: str) -> Diagnostic:
    return ARC001.at(reason=str(error) or type(error).__name__, skipped=skipped)


def _problem(name: str, path: str, diagnostic: Diagnostic) -> Member:
    return Member(name, path, None, problem=_placed(diagnostic, name))


def _placed(diagnostic: Diagnostic, name: str) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, name)


def _buffered(stream: BinaryIO) -> BinaryIO:
    """A seekable copy of a stream (zip needs random access): memory first, then a temp file."""
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - returned
    while chunk := stream.read(1 << 20):
        spool.write(chunk)
    spool.seek(0)
    return spool  # type: ignore[return-value]


def iter_members(
    stream: BinaryIO,
    name: str,
    kind: str,
    limits: Limits,
    depth: int = 1,
    run: RunBudget | None = None,
) -> Iterator[Member]:
    """The members of an archive stream of ``kind`` (see ``sniff_archive``), in stored order.

    ``name`` is the archive's display name; failures become members with a ``problem``.
    ``run``: the budget this archive shares with the other archives of the run.
    """
    if depth > limits.max_depth:
        yield _problem(name, "", ARC006.at(depth=limits.max_depth))
        return
    if run is not None and run.spent:
        reason = f"{run.reason()}; this archive is not read"
        yield _problem(name, "", ARC002.at(size=0, reason=reason))
        return
    try:
        if kind == "zip":
            yield from _zip_members(stream, name, limits, run)
        elif kind == "tar":
            yield from _tar_members(stream, name, limits, None, run)
        else:
            yield from _compressed_members(stream, name, kind, limits, run)
    except ArchiveError as error:
        yield Member(name, "", None, problem=_placed(error.diagnostic, name))
    except (*_CORRUPT, OSError) as error:
        yield _problem(name, "", _corrupt(error, "the rest of the archive"))


def _zip_members(
    stream: BinaryIO, name: str, limits: Limits, run: RunBudget | None
) -> Iterator[Member]:
    seekable = stream.seekable() if hasattr(stream, "seekable") else False
    archive = zipfile.ZipFile(stream if seekable else _buffered(stream))
    with archive:
        compressed = sum(info.compress_size for info in archive.infolist())
        budget = _Budget(max(limits.ratio_floor, int(limits.max_ratio * compressed)))
        if run is not None:
            run.compressed += compressed
        members = archive.infolist()
        for index, info in enumerate(members):
            if budget.used >= budget.allowed:
                yield _over_budget(f"{name}!{info.filename}", budget, len(members) - index)
                return
            if run is not None and run.spent:
                yield _over_run(f"{name}!{info.filename}", run, len(members) - index)
                return
            display = f"{name}!{info.filename}"
            mode = info.external_attr >> 16
            if info.is_dir():
                continue
            reason = unsafe_name(info.filename)
            if reason is not None:
                yield _problem(display, "", ARC003.at(name=repr(info.filename), reason=reason))
            elif stat.S_ISLNK(mode):
                reason = "links in archives are never followed"
                yield _problem(display, "", ARC004.at(kind="link", reason=reason))
            elif info.flag_bits & 0x1:
                reason = "encrypted (no password is ever asked for)"
                yield _problem(display, "", ARC005.at(reason=reason))
            else:
                opener, state = _zip_opener(archive, info, limits, budget, run)
                yield Member(display, _clean(info.filename), opener, state)


def _over_budget(name: str, budget: _Budget, left: int) -> Member:
    """One finding for the members of an archive left when its budget is spent."""
    reason = (
        f"its archive reached its budget of {budget.allowed} decompressed bytes; this "
        f"member and the {left - 1} after it are not read"
    )
    return _problem(name, "", ARC002.at(size=0, reason=reason))


def _over_run(name: str, run: RunBudget, left: int) -> Member:
    """One finding for the members of an archive left when the run's budget is spent."""
    reason = f"{run.reason()}; this member and the {left - 1} after it are not read"
    return _problem(name, "", ARC002.at(size=0, reason=reason))


def _zip_opener(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    limits: Limits,
    budget: _Budget,
    run: RunBudget | None,
) -> tuple[Callable[[], BinaryIO], Callable[[], Diagnostic | None]]:
    opened: list[_Bounded] = []

    def opener() -> BinaryIO:
        try:
            raw = archive.open(info)
        except (NotImplementedError, RuntimeError, zipfile.BadZipFile) as error:
            raise ArchiveError(ARC005.at(reason=str(error))) from None
        compressed = info.compress_size
        bounded = _Bounded(
            cast(BinaryIO, raw), limits, lambda: compressed, budget=budget, run=run, counted=-1
        )
        opened.append(bounded)
        return cast(BinaryIO, io.BufferedReader(bounded, buffer_size=1 << 20))

    def state() -> Diagnostic | None:
        return opened[-1].failure if opened else None

    return opener, state


def _tar_members(
    stream: BinaryIO,
    name: str,
    limits: Limits,
    outer: _Bounded | None,
    run: RunBudget | None = None,
) -> Iterator[Member]:
    """Regular members of a tar read forwards; links, special files and unsafe names are
    reported; the walk ends when a member's data (or the stream under it) failed."""
    with tarfile.open(fileobj=stream, mode="r|") as archive:
        for info in archive:
            display = f"{name}!{info.name}"
            if info.isdir():
                continue
            reason = unsafe_name(info.name)
            if reason is not None:
                yield _problem(display, "", ARC003.at(name=repr(info.name), reason=reason))
            elif info.issym() or info.islnk():
                reason = f"links in archives are never followed (to {info.linkname!r})"
                yield _problem(display, "", ARC004.at(kind="link", reason=reason))
            elif not info.isfile():
                reason = "only regular files are read"
                yield _problem(display, "", ARC004.at(kind="special file", reason=reason))
            elif info.size > limits.max_member_bytes:
                reason = f"declared larger than the limit of {limits.max_member_bytes} bytes"
                yield _problem(display, "", ARC002.at(size=info.size, reason=reason))
            else:
                extracted = archive.extractfile(info)
                assert extracted is not None  # regular files always extract
                bounded = _Bounded(cast(BinaryIO, extracted), limits, _given_size(info.size), outer)
                reader = cast(BinaryIO, io.BufferedReader(bounded, buffer_size=1 << 20))
                yield Member(display, _clean(info.name), _given(reader), status(bounded))
                if bounded.failure is not None:
                    return  # a tar cannot be read past a member whose data failed
            if outer is not None and outer.failure is not None:
                return
            if run is not None and run.spent:
                reason = f"{run.reason()}; the members after it are not read"
                yield _problem(name, "", ARC002.at(size=0, reason=reason))
                return


def _given_size(size: int) -> Callable[[], int]:
    return lambda: size


def _given(stream: BinaryIO) -> Callable[[], BinaryIO]:
    return lambda: stream


def status(bounded: _Bounded) -> Callable[[], Diagnostic | None]:
    """What went wrong while the stream was read (None when nothing did)."""
    return lambda: bounded.failure


def _decompressor(kind: str, raw: BinaryIO) -> BinaryIO:
    """The decompressing reader of a gzip, bzip2 or xz stream (closed with the archive)."""
    if kind == "gzip":
        return cast(BinaryIO, gzip.GzipFile(fileobj=raw, mode="rb"))
    if kind == "bzip2":
        return cast(BinaryIO, bz2.BZ2File(raw, mode="rb"))
    return cast(BinaryIO, lzma.LZMAFile(raw, mode="rb"))


def _compressed_members(
    stream: BinaryIO, name: str, kind: str, limits: Limits, run: RunBudget | None = None
) -> Iterator[Member]:
    """A gzip/bzip2/xz stream: a compressed tar, or one compressed file named like the input."""
    counting = _Counting(stream)
    decompressed = _decompressor(kind, cast(BinaryIO, io.BufferedReader(counting)))
    bounded = _Bounded(decompressed, limits, lambda: counting.count, run=run)
    buffered = io.BufferedReader(bounded, buffer_size=1 << 20)
    head = buffered.peek(SNIFF)[:SNIFF]
    reader = cast(BinaryIO, buffered)
    if sniff_archive(head) == "tar":
        yield from _tar_members(reader, name, limits, bounded, run)
        return
    inner = strip_archive_suffix(PurePosixPath(name.replace("!", "/")).name)
    yield Member(name, inner, _given(reader), status(bounded), whole=True)
