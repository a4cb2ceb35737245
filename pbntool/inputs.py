"""Turn command-line paths into inputs: files, directories (recursive) and ``-`` for stdin."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pbntool.diagnostics import SRC003, Diagnostic

__all__ = ["READABLE_SUFFIXES", "Input", "iter_inputs"]

READABLE_SUFFIXES = frozenset({".pbn", ".lin"})
"""Suffixes picked up when walking a directory (case-insensitive)."""


@dataclass(frozen=True, slots=True)
class Input:
    """One thing to read: a named byte stream, or the reason it cannot be read."""

    name: str
    path: Path | None
    problem: Diagnostic | None = None
    data: bytes | None = None
    """The input itself, for one given on the command line (a handviewer link)."""

    def open(self) -> BinaryIO:
        """The byte stream (stdin for ``-``)."""
        if self.data is not None:
            return io.BytesIO(self.data)
        if self.path is None:
            return sys.stdin.buffer
        return open(self.path, "rb")


_LINK = re.compile(r"(?i)(?:https?://|www\.)\S*(?:[?&](?:lin|linurl)=|handviewer\.html\?)")
"""A handviewer link given on the command line instead of a file name."""


def _unreadable(name: str, reason: str) -> Input:
    diagnostic = SRC003.at(reason=reason)
    return Input(
        name, None, Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, name)
    )


def iter_inputs(arguments: list[str]) -> Iterator[Input]:
    """Files named on the command line (whatever their suffix), the readable files found by
    walking directories (sorted, so output is deterministic), ``-`` for stdin, and
    handviewer links (``https://…handviewer.html?lin=…``) given as arguments."""
    for argument in arguments:
        if argument == "-":
            yield Input("<stdin>", None)
            continue
        if _LINK.match(argument) and not Path(argument).exists():
            yield Input("<link>", None, data=argument.encode("utf-8"))
            continue
        path = Path(argument)
        if path.is_dir():
            yield from _walk(path)
        elif path.is_file():
            yield Input(argument, path)
        elif path.exists():
            yield _unreadable(argument, "not a regular file")
        else:
            yield _unreadable(argument, "no such file or directory")


def _walk(root: Path) -> Iterator[Input]:
    problems: list[OSError] = []
    found: list[Path] = []
    for directory, subdirectories, files in os.walk(root, onerror=problems.append):
        subdirectories.sort()
        for name in files:
            if Path(name).suffix.lower() in READABLE_SUFFIXES:
                found.append(Path(directory, name))
    for problem in problems:
        yield _unreadable(str(problem.filename or root), problem.strerror or str(problem))
    for path in sorted(found):
        yield Input(str(path), path)
