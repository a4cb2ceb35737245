"""Where a change goes in a PBN game's text: the span of a tag value, or the place a missing
tag is inserted.

Everything here works on the reader's game text and its offsets (``SourceMap``, ``RawTag``)
and turns them into ``Edit``s at file lines and columns.  A missing tag goes where the
export order (PBN §15.3: the mandatory tags in their fixed order, then the other
identification tags alphabetically) puts it among the tags the game has: after the nearest
tag that comes before it in that order, and after that tag's commentary, so no comment
changes owner.  It never goes after a section that needs it before (Dealer before the
Auction; Deal, Declarer and Contract before the Play).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbntool.formats.pbn.decode import SourceMap
from pbntool.formats.pbn.reader import RawTag, unescape
from pbntool.formats.pbn.tags import MANDATORY_TAGS, SECTION_TAGS
from pbntool.tools.fix.lines import Edit, EditKind

__all__ = ["Placed", "insertion", "tag_key", "value_edit", "value_span"]

_MANDATORY_INDEX = {name: index for index, name in enumerate(MANDATORY_TAGS)}
_NEEDED_BY = {"Dealer": "Auction", "Deal": "Play", "Declarer": "Play", "Contract": "Play"}
"""The section a tag must come before (PBN §7, §8)."""


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
