"""Where a minimal edit goes in a PBN game's text: the span of a tag value or a section, the
place a missing tag is inserted, as ``Edit``s of the one minimal-edit engine
(``pbntool.text.lines``) at the reader's file lines and columns.

Everything here works on the reader's game text and its offsets (``SourceMap``, ``RawTag``).
A missing tag goes where the export order (PBN §15.3: the mandatory tags in their fixed
order, then the other identification tags alphabetically) puts it among the tags the game
has: after the nearest tag that comes before it in that order, and after that tag's
commentary, so no comment changes owner.  It never goes after a section that needs it before
(Dealer before the Auction; Deal, Declarer and Contract before the Play).  ``fix`` places
its changes with ``value_edit`` and ``insertion``; ``dd --fill`` with ``GameSpans``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbntool.formats.pbn.decode import SourceMap
from pbntool.formats.pbn.reader import RawTag, unescape
from pbntool.formats.pbn.tags import MANDATORY_TAGS, SECTION_TAGS
from pbntool.text.lines import Edit, EditKind

__all__ = [
    "GameSpans",
    "Insertion",
    "Placed",
    "escape",
    "insertion",
    "tag_key",
    "value_edit",
    "value_span",
]

_WORD = re.compile(r"\S+")
# Commentary that follows a game's last tag on later lines (kept before inserted tags).
_TRAILING_COMMENTARY = re.compile(r"(?:\n[ \t]*(?:\{[^}]*\}|;[^\n]*|%[^\n]*)[^\n\[]*)*")
_MANDATORY_INDEX = {name: index for index, name in enumerate(MANDATORY_TAGS)}
_NEEDED_BY = {"Dealer": "Auction", "Deal": "Play", "Declarer": "Play", "Contract": "Play"}
"""The section a tag must come before (PBN §7, §8)."""


@dataclass(frozen=True, slots=True)
class Insertion:
    """Where inserted tags go: ``offset`` in the game, the text to put before and after
    them, and whether more of the game follows (then the last inserted tag must not be a
    section, or what follows would be read as its data)."""

    offset: int
    before: str
    after: str
    followed: bool


@dataclass(frozen=True, slots=True)
class Placed:
    """An edit and the file position to report it at (where the new value starts)."""

    edit: Edit
    line: int
    column: int


def tag_key(name: str) -> tuple[int, str]:
    """A tag's place in the export order of identification tags."""
    index = _MANDATORY_INDEX.get(name)
    if index is not None:
        return (index, "")
    return (len(MANDATORY_TAGS), name.lower())


def escape(value: str) -> str:
    """A value as a PBN string's content (``\\"`` and ``\\\\``)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def value_span(text: str, raw_tag: RawTag) -> tuple[int, int] | None:
    """``(start, end)`` of a tag's value as written (between its quotes) in the game text, or
    None when the tag pair is malformed (no quotes around the value)."""
    start = raw_tag.value_offset
    if start < 1 or text[start - 1 : start] != '"':
        return None
    position = start
    length = len(text)
    while position < length:
        char = text[position]
        if char == "\\" and position + 1 < length and text[position + 1] != "\n":
            position += 2
            continue
        if char == '"':
            break
        if char == "\n":
            return None
        position += 1
    else:
        return None
    if unescape(text[start:position]) != raw_tag.value:
        return None
    return start, position


def value_edit(
    source: SourceMap, raw_tag: RawTag, new: str, part: tuple[int, int] | None
) -> Placed | str:
    """The edit that makes ``raw_tag``'s value ``new`` (or puts ``new`` in place of the part
    ``part`` of it); a string says why there is none."""
    text = source.block.text
    span = value_span(text, raw_tag)
    if span is None:
        return f"the {raw_tag.name} tag pair is malformed"
    start, end = span
    written = text[start:end]
    if part is not None:
        if "\\" in written:
            return f"the {raw_tag.name} value has escape sequences"
        start, end = start + part[0], start + part[1]
    line, column = source.position(start)
    replaced = text[start:end]
    if replaced:
        edit = Edit(EditKind.REPLACE, line, column, replaced, escape(new))
    else:
        # Nothing to replace (an empty value, or an addition at its end): insert where the
        # line holds the character that follows, the closing quote.
        edit = Edit(EditKind.INSERT, line, column, text[end : end + 1], escape(new))
    return Placed(edit, line, column)


def insertion(
    source: SourceMap,
    tags: list[RawTag],
    name: str,
    value: str,
    order: int,
    next_game: RawTag | None,
) -> Placed:
    """The edit that inserts the tag pair ``[name "value"]`` into the game.

    ``tags`` are the game's tag pairs in file order, ``next_game`` the first tag of a game
    that follows in the same block (games run together, PBN137).  ``order`` orders tags
    inserted at one place.
    """
    pair = f'[{name} "{escape(value)}"]'
    before = _insert_before(source, tags, name, next_game)
    text = source.block.text
    if before is None:
        last = text.rfind("\n") + 1
        line, _ = source.position(last)
        edit = Edit(EditKind.LINE_AFTER, line, 1, text[last:], pair, order)
        return Placed(edit, line + 1, len(name) + 4)
    line, column = source.position(before.offset)
    indent = text[before.offset - column + 1 : before.offset]
    if indent.strip():
        # The tag that follows shares its line with something: insert on that line.
        edit = Edit(EditKind.INSERT, line, column, "[", pair + " ", order)
        return Placed(edit, line, column + len(name) + 3)
    edit = Edit(EditKind.LINE_BEFORE, line, 1, indent + "[", indent + pair, order)
    return Placed(edit, line, len(indent) + len(name) + 4)


def _insert_before(
    source: SourceMap, tags: list[RawTag], name: str, next_game: RawTag | None
) -> RawTag | None:
    """The tag the new one goes just before (None: at the end of the game's text)."""
    key = tag_key(name)
    # The tag pairs that count: the first of each name (a repeated tag is ignored by readers).
    effective = set(map(id, source.tags.values()))
    identification = [
        t
        for t in tags
        if id(t) in effective and t.name not in SECTION_TAGS and t.name != "Note" and t.data is None
    ]
    earlier = [t for t in identification if tag_key(t.name) < key]
    later = [t for t in identification if tag_key(t.name) > key]
    target: RawTag | None
    if earlier:
        anchor = max(earlier, key=lambda t: (tag_key(t.name), t.offset))
        target = next((t for t in tags if t.offset > anchor.offset), next_game)
    elif later:
        target = min(later, key=lambda t: (tag_key(t.name), t.offset))
    else:
        target = tags[0] if tags else next_game
    section = source.tags.get(_NEEDED_BY.get(name, ""))
    if section is not None and (target is None or target.offset > section.offset):
        target = section
    return target


class GameSpans:
    """Spans (text offsets in the game) of the parts of one game that edits touch."""

    def __init__(self, source: SourceMap) -> None:
        self.source = source
        self.text = source.block.text

    def tag(self, name: str) -> RawTag | None:
        return self.source.tags.get(name)

    def value_span(self, name: str) -> tuple[int, int] | None:
        """The text between the quotes of a tag's value (None: no such tag, or its pair is
        malformed)."""
        raw = self.tag(name)
        return None if raw is None else value_span(self.text, raw)

    def section_span(self, name: str) -> tuple[int, int, list[str]] | None:
        """From a section's ``[`` to the end of its last element, with the source text of
        any commentary written between its elements (a replacement must keep it)."""
        raw = self.tag(name)
        if raw is None:
            return None
        value = self.value_span(name)
        close = self.text.find("]", value[1] if value else raw.value_offset)
        end = close + 1 if close >= 0 else raw.value_offset
        comments: list[tuple[int, str]] = []
        for kind, piece, offset, _comment in raw.data or []:
            if kind == "comment":
                comments.append((offset, _comment_text(self.text, offset)))
            elif kind == "string":
                end = max(end, offset + len(piece))
            else:
                words = list(_WORD.finditer(piece))
                if words:
                    end = max(end, offset + words[-1].end())
        return raw.offset, end, [text for offset, text in comments if offset < end]

    def element_offsets(self, name: str) -> list[int]:
        """The offset of every element of a section's data, in order."""
        raw = self.tag(name)
        offsets: list[int] = []
        for kind, piece, offset, _comment in (raw.data or []) if raw is not None else []:
            if kind == "data":
                offsets.extend(offset + word.start() for word in _WORD.finditer(piece))
            elif kind == "string":
                offsets.append(offset)
        return offsets

    def insertion(self) -> Insertion:
        """Where new tags go.

        Before the game's first section (Auction, Play, a table, a note, an unknown
        section), on lines of their own; in a game with no section, after its last tag and
        the commentary that follows it.
        """
        sections = [
            raw
            for raw in self.source.tags.values()
            if raw.name in SECTION_TAGS or raw.name == "Note" or raw.data is not None
        ]
        if sections:
            first = min(sections, key=lambda raw: raw.offset)
            line_start = self.text.rfind("\n", 0, first.offset) + 1
            if self.text[line_start : first.offset].strip():
                return Insertion(first.offset, "", "\n", False)  # shares a line with a tag
            return Insertion(line_start, "", "\n", False)  # a tag follows: nothing to guard
        last = max(self.source.tags.values(), key=lambda raw: raw.offset)
        line_end = self.text.find("\n", last.offset)
        line_end = len(self.text) if line_end < 0 else line_end
        trailing = _TRAILING_COMMENTARY.match(self.text, line_end)
        end = trailing.end() if trailing else line_end
        return Insertion(end, "\n", "", bool(self.text[end:].strip()))

    def edits(self, start: int, end: int, text: str) -> list[Edit]:
        """The line edits that put ``text`` in place of the game text from ``start`` to
        ``end`` (an insertion when they are equal); a ``"\\n"`` in ``text`` becomes the
        line end of its line.  Lines wholly inside the span are removed; the rest of the
        span's last line, if any, stays on a line of its own."""
        line, column = self.source.position(start)
        end_line, _ = self.source.position(end)
        game = self.text
        if end_line == line:
            if start == end:
                following = game[end : end + 1].replace("\n", "")
                return [Edit(EditKind.INSERT, line, column, following, text)]
            return [Edit(EditKind.REPLACE, line, column, game[start:end], text)]
        first_end = game.index("\n", start)
        found = [Edit(EditKind.REPLACE, line, column, game[start:first_end], text)]
        line_start = first_end + 1
        for number in range(line + 1, end_line + 1):
            line_end = game.find("\n", line_start)
            line_end = len(game) if line_end < 0 else line_end
            if number < end_line or line_end == end:
                found.append(Edit(EditKind.DELETE_LINE, number, 1, game[line_start:line_end], ""))
            else:
                found.append(Edit(EditKind.REPLACE, number, 1, game[line_start:end], ""))
            line_start = line_end + 1
        return found


def _comment_text(text: str, offset: int) -> str:
    """The source text of the comment starting at ``offset`` (``{...}`` or ``;...``)."""
    if text.startswith("{", offset):
        close = text.find("}", offset)
        return text[offset : close + 1 if close >= 0 else len(text)]
    end = text.find("\n", offset)
    return text[offset : len(text) if end < 0 else end]
