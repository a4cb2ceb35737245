"""Checks that a file ``pbntool fix`` wrote differs from its input only where it said.

The check knows nothing of how fix edits: it decodes both files line by line (keeping each
line's ending), takes out of the output every line fix reported inserting, and then needs
each remaining line to be its input line with exactly the reported replacements made at the
reported columns, and nothing else.  So a byte changed anywhere else (an ending, a space, a
comment, the encoding) fails it.

Test files import it as ``from fixcheck import ...`` (``tests/`` is on ``sys.path``).
"""

from __future__ import annotations

import codecs
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pbntool.diagnostics import Diagnostic

__all__ = ["decode_lines", "differences_outside_reports", "line_endings"]

_EOL = re.compile(r"\r\n|\r|\n")
_CHANGE = re.compile(
    r"^(?P<what>.*?) (?P<old>absent|\"[^\"]*\"|=\d+=|\d+) → (?P<new>\"[^\"]*\"|=\d+=|\d+)"
)
_CHANGE_CODES = frozenset(f"FIX{n:03d}" for n in range(1, 11))


@dataclass(frozen=True, slots=True)
class _Reported:
    line: int
    column: int
    tag: str
    old: str | None
    new: str


def decode_lines(data: bytes) -> tuple[str, list[tuple[str, str]]]:
    """The encoding and ``(text, ending)`` lines of a file, decoded as the reader decodes it
    (BOM and UTF-16 by pattern, else each line UTF-8, Windows-1252 or Latin-1)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        codec = "utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"
        return codec + "+bom", _split(data[2:].decode(codec))
    if len(data) >= 4 and data[1] == 0 and data[3] == 0 and data[0] and data[2]:
        return "utf-16-le", _split(data.decode("utf-16-le"))
    if len(data) >= 4 and data[0] == 0 and data[2] == 0 and data[1] and data[3]:
        return "utf-16-be", _split(data.decode("utf-16-be"))
    encoding = "bytes"
    if data.startswith(codecs.BOM_UTF8):
        encoding, data = "utf-8+bom", data[3:]
    pieces = []
    for raw in data.split(b"\n"):
        for codec in ("utf-8", "cp1252", "latin-1"):
            try:
                pieces.append(raw.decode(codec))
                break
            except UnicodeDecodeError:
                continue
    return encoding, _split("\n".join(pieces))


def _split(text: str) -> list[tuple[str, str]]:
    lines, start = [], 0
    for match in _EOL.finditer(text):
        lines.append((text[start : match.start()], match.group()))
        start = match.end()
    if start < len(text):
        lines.append((text[start:], ""))
    return lines


def line_endings(lines: Sequence[tuple[str, str]]) -> set[str]:
    return {ending for _, ending in lines}


def _reports(diagnostics: Sequence[Diagnostic]) -> list[_Reported]:
    found = []
    for diagnostic in diagnostics:
        if diagnostic.code not in _CHANGE_CODES:
            continue
        match = _CHANGE.match(diagnostic.message)
        assert match is not None, diagnostic.message
        assert diagnostic.line is not None and diagnostic.column is not None
        old, new = match.group("old"), match.group("new")
        found.append(
            _Reported(
                diagnostic.line,
                diagnostic.column,
                match.group("what").split(" ")[0],
                None if old == "absent" else _bare(old),
                _bare(new),
            )
        )
    return found


def _bare(text: str) -> str:
    if text.startswith('"'):
        return text[1:-1]
    return text.strip("=")


def differences_outside_reports(
    before: bytes, after: bytes, diagnostics: Sequence[Diagnostic]
) -> list[str]:
    """Every difference between ``before`` and ``after`` that no diagnostic accounts for
    (empty when the output is the input with exactly the reported changes).

    Inserted lines must end as the line above them does; an inserted tag that shares a line
    must be followed by one space.
    """
    problems: list[str] = []
    encoding, old_lines = decode_lines(before)
    new_encoding, new_lines = decode_lines(after)
    if encoding != new_encoding:
        problems.append(f"encoding {encoding} became {new_encoding}")
    by_line: dict[int, list[_Reported]] = defaultdict(list)
    for report in _reports(diagnostics):
        by_line[report.line].append(report)
    j = 0
    for number in range(1, len(old_lines) + 2):
        here = by_line.get(number, [])
        pending = [r for r in here if r.old is None and r.tag != "Deal"]
        # Whole lines inserted before this line.
        while j < len(new_lines):
            pair = new_lines[j][0].strip()
            match = next((r for r in pending if pair == f'[{r.tag} "{r.new}"]'), None)
            if match is None:
                break
            above = (
                new_lines[j - 1][1]
                if j > 0
                else new_lines[j + 1][1]
                if j + 1 < len(new_lines)
                else ""
            )
            if new_lines[j][1] != above and not (j == len(new_lines) - 1 and new_lines[j][1] == ""):
                problems.append(f"line {number}: inserted {pair} ends {new_lines[j][1]!r}")
            pending.remove(match)
            here = [r for r in here if r is not match]
            j += 1
        if number > len(old_lines):
            break
        old, old_end = old_lines[number - 1]
        if j >= len(new_lines):
            problems.append(f"line {number} is missing from the output")
            return problems
        new, new_end = new_lines[j]
        j += 1
        last = number == len(old_lines)
        if old_end != new_end and not (last and old_end == "" and j < len(new_lines)):
            problems.append(f"line {number}: ending {old_end!r} became {new_end!r}")
        expected = _apply(old, here, number, problems)
        if expected != new:
            problems.append(f"line {number}: {old!r} became {new!r}, expected {expected!r}")
    if j != len(new_lines):
        problems.append(f"{len(new_lines) - j} unexplained line(s) at the end of the output")
    return problems


def _apply(old: str, reports: list[_Reported], number: int, problems: list[str]) -> str:
    """The input line with the reported replacements and same-line insertions made."""
    edits: list[tuple[int, int, int, str]] = []
    for rank, report in enumerate(reports):
        if report.old is None and report.tag != "Deal":
            start = report.column - len(report.tag) - 4  # the "[" of the tag that follows
            if old[start : start + 1] != "[":
                problems.append(f"line {number}: no tag at column {start + 1} for {report.tag}")
            edits.append((start, rank, 0, f'[{report.tag} "{report.new}"] '))
            continue
        start = report.column - 1
        written = report.old or ""
        if old[start : start + len(written)] != written:
            problems.append(f"line {number}: no {written!r} at column {report.column}")
        replacement = report.new if report.old is not None else " " + report.new
        edits.append((start, rank, len(written), replacement))
    text = old
    # Right to left; of two insertions at one column the one reported first ends up first.
    for start, _, length, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[start + length :]
    return text
