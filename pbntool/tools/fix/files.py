"""Where fixed bytes go: the same file (atomically), another file, a stream, or a diff.

A file is only ever replaced by a complete copy: the fixed text is written to a temporary
file beside the target, flushed to disk, given the target's permissions and renamed over
it.  An interruption leaves the target as it was (and no temporary file behind), and an
input ``fix`` does not change is not rewritten at all.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from pbntool.text.source import DecodedText
from pbntool.tools.fix import DEFAULT_OPTIONS, FixOptions, FixResult, Report, fix_input

__all__ = ["fix_in_place", "fix_to_path", "unified_diff"]


def fix_in_place(
    path: Path, options: FixOptions = DEFAULT_OPTIONS, report: Report | None = None
) -> FixResult:
    """Fix a file where it is; it is replaced only when something changed."""

    def opener() -> BinaryIO:
        return open(path, "rb")

    return _fix_atomically(opener, str(path), path, options, report, keep=False)


def fix_to_path(
    opener: Callable[[], BinaryIO],
    name: str,
    target: Path,
    options: FixOptions = DEFAULT_OPTIONS,
    report: Report | None = None,
) -> FixResult:
    """Fix an input into ``target`` (written even when nothing changed; not written when the
    input could not be fixed at all)."""
    return _fix_atomically(opener, name, target, options, report, keep=True)


def _fix_atomically(
    opener: Callable[[], BinaryIO],
    name: str,
    target: Path,
    options: FixOptions,
    report: Report | None,
    keep: bool,
) -> FixResult:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            result = fix_input(opener, name, out, options, report)
            out.flush()
            os.fsync(out.fileno())
        if result.fixed and (keep or result.changed):
            _copy_mode(target, temporary)
            os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    return result


def _copy_mode(target: Path, temporary: str) -> None:
    """Give the new file the permissions of the one it replaces (mkstemp makes it 0600)."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)


def unified_diff(before: bytes, after: bytes, name: str) -> Iterator[str]:
    """The change as a unified diff of the decoded text (line ends shown as ``\\n``)."""
    old = "".join(DecodedText(io.BytesIO(before))).splitlines()
    new = "".join(DecodedText(io.BytesIO(after))).splitlines()
    yield from difflib.unified_diff(old, new, name, f"{name} (fixed)", lineterm="")
