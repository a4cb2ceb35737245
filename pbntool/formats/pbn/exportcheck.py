"""Export-format rules (PBN §15.3), checked in files that declare ``% EXPORT``.

Import format is free; a file that says it is in export format promises one tag per line at
the start of the line, CRLF line ends, no tabs, single spaces, four calls or cards per line,
the mandatory tags in order before the other tags, and canonical values.  Each broken promise
is an EXP001 warning, at most one per kind and game.
"""

from __future__ import annotations

import functools
import re

from pbntool.diagnostics import EXP001, Diagnostic
from pbntool.formats.pbn.reader import RawGame, RawTag
from pbntool.formats.pbn.tags import MANDATORY_TAGS, TABLE_TAGS
from pbntool.model import Board

__all__ = ["check_export", "export_board_problems", "plain_export_lines"]

_MANDATORY_ORDER = {name: index for index, name in enumerate(MANDATORY_TAGS)}
_TOKENS = re.compile(r"\S+")
_AUCTION_AND_PLAY = frozenset({"Auction", "Play"})
_SECTION_LIKE = TABLE_TAGS | {"Note"}


def check_export(
    raw: RawGame, board: Board, resolved: dict[str, str], *, report_lf: bool
) -> list[Diagnostic]:
    """The export-format findings of one game."""
    found: list[Diagnostic] = []
    text = raw.block.text
    first = ("offset", raw.tags[0].offset)
    if report_lf:
        found.append(EXP001.at(first, detail="line ends are LF; export format uses CRLF"))
    if "\t" in text:
        found.append(EXP001.at(("offset", text.index("\t")), detail="tab character"))
    misplaced = next((tag for tag in raw.tags if tag.offset and text[tag.offset - 1] != "\n"), None)
    if misplaced is not None:
        detail = f"tag {misplaced.name} does not start its own line"
        found.append(EXP001.at(("offset", misplaced.offset), detail=detail))
    found.extend(_check_sections(raw))
    found.extend(_check_order(board, first))
    found.extend(_check_values(board, resolved))
    return found


def export_board_problems(board: Board, resolved: dict[str, str]) -> bool:
    """Whether the board breaks an export rule that needs no source text (tag order, values)."""
    return bool(_check_order(board, ("offset", 0)) or _check_values(board, resolved))


def _check_sections(raw: RawGame) -> list[Diagnostic]:
    """Single spaces and at most four calls or cards per line in the auction and play."""
    found: list[Diagnostic] = []
    for tag in raw.tags:
        if tag.name not in ("Auction", "Play") or not tag.data:
            continue
        problem = _section_problem(tag)
        if problem is not None:
            found.append(EXP001.at(("offset", problem[0]), detail=problem[1]))
    return found


def _section_problem(tag: RawTag) -> tuple[int, str] | None:
    item = "calls" if tag.name == "Auction" else "cards"
    for kind, text, offset, _comment in tag.data or []:
        if kind != "data" or plain_export_lines(text):
            continue
        start = 0
        for line in text.split("\n"):
            body = line.rstrip()
            if "  " in body:
                return offset + start + body.index("  "), "more than one space between tokens"
            moves = [m for m in _TOKENS.finditer(body) if m.group()[0] not in "=$!?*+^"]
            if len(moves) > 4:
                return offset + start + moves[4].start(), f"more than four {item} on a line"
            start += len(line) + 1
    return None


_PLAIN_SECTION = re.compile(r"(?:\S+(?: \S+){0,3} *\n)*(?:\S+(?: \S+){0,3} *)?")


def plain_export_lines(text: str) -> bool:
    """True when every line has at most four single-spaced tokens (the usual case), so the
    careful per-token scan can be skipped."""
    return _PLAIN_SECTION.fullmatch(text) is not None


def _check_order(board: Board, first: tuple[str, int]) -> list[Diagnostic]:
    """Mandatory tags in their order, and no identification tag after the sections."""
    found: list[Diagnostic] = []
    names = tuple(tag.name for tag in board.tags if not tag.inherited)
    tables = frozenset(table.name for table in board.tables)
    out_of_order, late = _order_problems(names, tables)
    if out_of_order:
        found.append(EXP001.at(first, detail="mandatory tags are not in the export order"))
    if late is not None:
        detail = f"tag {late} comes after the auction or play section"
        found.append(EXP001.at(("tag", late), detail=detail))
    return found


def _check_values(board: Board, resolved: dict[str, str]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    first_seat = resolved.get("Deal", "")[:1].upper()
    dealer = board.dealer
    if dealer is not None and first_seat and first_seat in "NESW" and first_seat != dealer.letter:
        detail = "Deal does not start with the dealer's hand"
        found.append(EXP001.at(("tag_value", "Deal"), detail=detail))
    vulnerable = resolved.get("Vulnerable")
    if board.vulnerability is not None and vulnerable != board.vulnerability.value:
        detail = f'Vulnerable "{vulnerable}" is not written as "{board.vulnerability.value}"'
        found.append(EXP001.at(("tag_value", "Vulnerable"), detail=detail))
    return found


@functools.lru_cache(maxsize=256)
def _order_problems(names: tuple[str, ...], tables: frozenset[str]) -> tuple[bool, str | None]:
    """Whether the mandatory tags are out of order, and the first identification tag after
    the sections.  Cached: the games of one file mostly share one tag layout."""
    sections = _SECTION_LIKE | tables
    last, out_of_order, in_sections, late = -1, False, False, None
    for name in names:
        position = _MANDATORY_ORDER.get(name, -1)
        if position >= 0:
            out_of_order = out_of_order or position < last
            last = position
        if name in _AUCTION_AND_PLAY:
            in_sections = True
        elif in_sections and late is None and name not in sections:
            late = name
    return out_of_order, late
