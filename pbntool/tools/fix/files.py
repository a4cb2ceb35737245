"""Where fixed bytes go: the same file (atomically), another file, a stream, or a diff.

A file is only ever replaced by a complete copy, through the one write path
(``pbntool.text.edit``): written beside the target, flushed to disk and renamed over it, with
the target's mode and owner.  An interruption leaves the target as it was (and no temporary
file behind), and an input ``fix`` does not change is not rewritten at all.
"""

from __future__ import annotations

import difflib
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, cast

from pbntool.text.edit import AtomicFile, InputFiles, locked_in_place
from pbntool.text.source import DecodedText
from pbntool.tools.fix import DEFAULT_OPTIONS, FixOptions, FixResult, Report, fix_input

__all__ = ["fix_in_place", "fix_to_path", "unified_diff"]


def fix_in_place(
    path: Path, options: FixOptions = DEFAULT_OPTIONS, report: Report | None = None
) -> FixResult:
    """Fix a file where it is; it is replaced only when something changed.

    The file is locked while it is read and replaced, so two runs on one file take turns
    (the second reads what the first wrote); a symbolic link keeps pointing where it did, and
    the file keeps its mode, owner and hard links (``pbntool.text.edit``).
    """

    def opener() -> BinaryIO:
        return open(path, "rb")

    with locked_in_place(path, str(path)):
        return _fix_atomically(opener, str(path), path, options, report, keep=False)


def fix_to_path(
    opener: Callable[[], BinaryIO],
    name: str,
    target: Path,
    options: FixOptions = DEFAULT_OPTIONS,
    report: Report | None = None,
    inputs: InputFiles | None = None,
) -> FixResult:
    """Fix an input into ``target`` (written even when nothing changed; not written when the
    input could not be fixed at all); ``WriteRefused`` when ``target`` is one of ``inputs``."""
    return _fix_atomically(opener, name, target, options, report, keep=True, inputs=inputs)


def _fix_atomically(
    opener: Callable[[], BinaryIO],
    name: str,
    target: Path,
    options: FixOptions,
    report: Report | None,
    keep: bool,
    inputs: InputFiles | None = None,
) -> FixResult:
    target.parent.mkdir(parents=True, exist_ok=True)
    file = AtomicFile(target, binary=True, inputs=inputs)
    try:
        result = fix_input(opener, name, cast(BinaryIO, file.stream), options, report)
        if result.fixed and (keep or result.changed):
            file.commit()
    finally:
        file.abort()  # nothing to drop once committed
    return result


def unified_diff(before: bytes, after: bytes, name: str) -> Iterator[str]:
    """The change as a unified diff of the decoded text (line ends shown as ``\\n``)."""
    old = "".join(DecodedText(io.BytesIO(before))).splitlines()
    new = "".join(DecodedText(io.BytesIO(after))).splitlines()
    yield from difflib.unified_diff(old, new, name, f"{name} (fixed)", lineterm="")
