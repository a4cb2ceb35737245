"""RBN and RBX text: records of labelled values, paragraphs and comment lines, with their lines.

Nothing here knows what a label means (``reader.py`` and ``writer.py`` do).  An RBN record is a
block of ``L data`` lines ended by a blank line; a ``{...}`` paragraph may run over several lines
(a blank line inside one ends it, with CLB013); a ``%`` line is a comment.  Consecutive ``I``
lines are one value (since RBN 3.0 the item list may run over several lines).  An RBX record is
one line of groups: ``L{data}`` a value, ``{text}`` a paragraph, ``%{text}`` a comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.diagnostics import CLB010, CLB013, Diagnostic
from pbntool.formats.sniffing import STRUCTURE, name_suffix

__all__ = [
    "BOARD_LABELS",
    "CARRIED",
    "LABELS",
    "Block",
    "Item",
    "line_starts",
    "rbn_blocks",
    "rbx_blocks",
    "read_text",
    "sniff",
    "sniff_rbx",
]

LABELS = "DTLESFKNBHACPRMI0123456789"
CARRIED = "DTLESFKNBH"
"""Labels whose value holds for the later records that leave them out."""
BOARD_LABELS = frozenset("HACPRB")
"""A block with none of these is no board: it only sets carried values (a file header)."""

_LINE = re.compile(r"([A-Z0-9])(?: (.*))?")
_RBX_GROUP = re.compile(r"([A-Z0-9%]?)\{([^}]*)\}")


@dataclass(frozen=True, slots=True, eq=False)
class Item:
    """One thing of a record: a labelled value, a paragraph or a comment line (compared by
    identity: two equal paragraphs of one RBX line are two items)."""

    kind: str
    """``label``, ``paragraph`` or ``comment``."""
    text: str
    line: int
    label: str = ""


@dataclass
class Block:
    """One record as read: its items in order, and what could not be read of it."""

    items: list[Item] = field(default_factory=list)
    first_line: int = 0
    findings: list[Diagnostic] = field(default_factory=list)

    @property
    def labels(self) -> set[str]:
        return {item.label for item in self.items if item.kind == "label"}

    def add_label(self, label: str, text: str, line: int) -> None:
        last = self.items[-1] if self.items else None
        if label == "I" and last is not None and last.kind == "label" and last.label == "I":
            self.items[-1] = Item("label", f"{last.text} {text}".strip(), last.line, "I")
            return
        self.items.append(Item("label", text, line, label))


def read_text(stream: BinaryIO, limit: int) -> tuple[str, bool]:
    """The text of at most ``limit`` bytes (UTF-8, else Windows-1252), and whether it was cut."""
    data = stream.read(limit + 1)
    cut = len(data) > limit
    data = data[:limit]
    try:
        return data.decode("utf-8-sig"), cut
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), cut


def line_starts(lines: list[str]) -> list[int]:
    """The character offset of each line's start (line 1 first)."""
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def rbn_blocks(lines: list[str]) -> Iterator[Block]:
    """The records of an RBN text (see the module docstring)."""
    block = Block()
    paragraph: list[str] | None = None
    opened = 0
    for number, line in enumerate(lines, start=1):
        text = line.rstrip("\r")
        if paragraph is not None:
            if not text.strip():
                block.findings.append(CLB013.at(("line", opened), format="RBN", line=number))
                block.items.append(Item("paragraph", _joined(paragraph), opened))
                paragraph = None
            else:
                paragraph.append(text)
                if text.rstrip().endswith("}"):
                    block.items.append(Item("paragraph", _joined(paragraph)[:-1].strip(), opened))
                    paragraph = None
                continue
        if not text.strip():
            if block.items or block.findings:
                yield block
            block = Block()
            continue
        block.first_line = block.first_line or number
        if text.startswith("{"):
            paragraph, opened = [text[1:]], number
            if text.rstrip().endswith("}"):
                block.items.append(Item("paragraph", _joined(paragraph)[:-1].strip(), number))
                paragraph = None
            continue
        if text.startswith("%"):
            block.items.append(Item("comment", text[1:], number))
            continue
        found = _LINE.fullmatch(text)
        if found is None or found.group(1) not in LABELS:
            block.findings.append(CLB010.at(("line", number), format="RBN", text=repr(text[:40])))
            continue
        block.add_label(found.group(1), found.group(2) or "", number)
    if paragraph is not None:
        block.findings.append(CLB013.at(("line", opened), format="RBN", line=len(lines)))
        block.items.append(Item("paragraph", _joined(paragraph), opened))
    if block.items or block.findings:
        yield block


def _joined(lines: list[str]) -> str:
    """A paragraph's lines as one text: its line breaks kept, the space at its ends not."""
    return "\n".join(line.rstrip() for line in lines).strip()


def rbx_blocks(lines: list[str]) -> Iterator[Block]:
    """The records of an RBX text, one per non-blank line."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        block = Block(first_line=number)
        groups = list(_RBX_GROUP.finditer(text))
        if not groups or "".join(group.group(0) for group in groups) != text:
            block.findings.append(CLB010.at(("line", number), format="RBX", text=repr(text[:40])))
            yield block
            continue
        for group in groups:
            label, value = group.group(1), group.group(2)
            if label == "%":
                block.items.append(Item("comment", value, number))
            elif label == "":
                block.items.append(Item("paragraph", value.strip(), number))
            elif label not in LABELS:
                text = repr(group.group(0)[:40])
                block.findings.append(CLB010.at(("line", number), format="RBX", text=text))
            else:
                block.add_label(label, value, number)
        yield block


# --- detection -----------------------------------------------------------------------------


def sniff(head: bytes, name: str) -> int:
    """Every non-blank line that is not a ``{`` paragraph or ``%`` comment is ``L data`` with
    an RBN label, and one is an ``H X:`` line (a cut last line is not looked at)."""
    text = head.decode("latin-1")
    lines = text.split("\n")
    if len(head) >= (1 << 16):
        lines = lines[:-1]
    labelled = stray = 0
    has_hands = False
    in_paragraph = False
    named = name_suffix(name) == ".rbn"
    for line in lines:
        line = line.rstrip("\r")
        if in_paragraph:
            in_paragraph = bool(line.strip()) and not line.rstrip().endswith("}")
            continue
        if not line.strip() or line.startswith("%"):
            continue
        if line.startswith("{"):
            in_paragraph = not line.rstrip().endswith("}")
            continue
        found = _LINE.fullmatch(line)
        if found is None or found.group(1) not in LABELS:
            if not named:
                return 0  # only a file named .rbn may have stray lines: stop looking
            stray += 1
            continue
        labelled += 1
        has_hands = has_hands or re.match(r"H [NESW][:;]", line) is not None
    if not labelled or not has_hands:
        return 0
    if stray:  # a damaged file is taken only when its name says so
        return STRUCTURE - 20 if named and stray < labelled else 0
    return STRUCTURE + (5 if named else 0)


_RBX_LINE = re.compile(r"(?:[A-Z0-9%]?\{[^}]*\})+")


def sniff_rbx(head: bytes, name: str) -> int:
    """Every non-blank line is ``L{data}`` groups (``{text}`` paragraphs and ``%{text}``
    comments among them), with an ``H{X:`` group."""
    text = head.decode("latin-1")
    if len(head) >= (1 << 16):
        text = text[: text.rfind("\n") + 1]  # a cut last line is not looked at
    lines = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if not _RBX_LINE.fullmatch(line):
            return 0  # the first line that is not groups decides (PBN heads stop at once)
        lines.append(line)
    if not lines:
        return 0
    if not any(re.search(r"H\{[NESW][:;]", line) for line in lines):
        return 0
    return STRUCTURE + (5 if name_suffix(name) == ".rbx" else 0)
