"""``fix`` for PBN: read the games, decide the changes, and edit the bytes in place.

The file is read twice at once: by the PBN reader, for the games and their offsets, and by
the ``LineEditor``, which copies the bytes and applies the edits as it goes.  Memory holds
about one game.  A third, quick pass beforehand finds the form the file writes Score in.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.diagnostics import FIX008, FIX009, FIX011, Diagnostic
from pbntool.formats.pbn import iter_records
from pbntool.formats.pbn.decode import SourceMap
from pbntool.formats.pbn.edit import Placed, insertion, tag_key, value_edit, value_span
from pbntool.formats.pbn.fast import source_map
from pbntool.formats.pbn.reader import GameBlock, RawTag
from pbntool.formats.pbn.sections import decode_note, note_references
from pbntool.formats.pbn.tags import TABLE_TAGS
from pbntool.records import Record
from pbntool.text.lines import Edit, EditKind, LineEditor
from pbntool.text.source import DecodedText
from pbntool.tools.fix.derive import ValueFix, derive_fixes, quoted
from pbntool.tools.fix.event import EventScoreSource, event_fixes
from pbntool.tools.fix.forms import ScoreForm, scan_score_form
from pbntool.tools.fix.notes import renumber

__all__ = ["Change", "fix_pbn", "plan_game"]

_PASSED_ON = frozenset({"INT001"})
"""Reader findings that ``fix`` reports too: a game it could not read is a game it left
as it was."""
_NOTE_INDEX = re.compile(r" *(\d+)")
_NOTE_TROUBLE = frozenset({"PBN129"})
"""Findings after which note numbering is left alone: notes given in one section for
references in the other (the reader moves them, and renumbering would have to follow)."""


_Key = tuple[int, int, int, int]


def _key(placed: Placed) -> _Key:
    """Where a change sorts among the changes of a file: by the line its text ends up
    before or on, lines inserted above a line before edits on it, then in order."""
    edit = placed.edit
    if edit.kind is EditKind.LINE_BEFORE:
        return (edit.line, 0, edit.order, 0)
    if edit.kind is EditKind.LINE_AFTER:
        return (edit.line + 1, 0, edit.order, 0)
    return (edit.line, 1, edit.column, edit.order)


@dataclass(frozen=True, slots=True)
class Change:
    """Edits that make one change, applied all or none, with what to report once applied."""

    edits: tuple[Edit, ...]
    reported: tuple[tuple[_Key, Diagnostic], ...]
    """What to report, each with where it sorts in the file (``_key``)."""
    name: str
    new: str
    """What is changed and what it would become, as FIX011 says them if it is refused."""
    refused: str | None = None
    """Why the change cannot be made at all (then ``edits`` is empty)."""

    @property
    def key(self) -> _Key:
        """Where the change sorts: its first report's place."""
        return min(key for key, _ in self.reported)


@dataclass
class _Run:
    """What one file's fix needs to know as it goes."""

    name: str
    only: frozenset[str]
    score_form: ScoreForm
    event_scores: EventScoreSource | None
    reported: list[tuple[_Key, Diagnostic]] = field(default_factory=list)
    """Every change made or refused, and games the reader could not read, with where each
    sorts in the file."""
    boards: int = 0
    changes: int = 0


def fix_pbn(
    open_input: Callable[[], BinaryIO],
    name: str,
    out: BinaryIO | None,
    *,
    only: frozenset[str],
    event_scores: EventScoreSource | None,
    report: Callable[[Diagnostic], None],
) -> tuple[int, int]:
    """Fix one PBN input, writing the result to ``out`` (None: a dry run).

    ``open_input`` opens the input from its start; it is called three times.  Each change
    made, each one refused and each game that could not be read goes to ``report``, in file
    order, as soon as its block of text is done.

    Returns:
        The number of boards read, and the number of changes made (one per diagnostic).
    """
    form = ScoreForm()
    if "Score" in only:
        with closing(open_input()) as stream:
            form = scan_score_form(DecodedText(stream))
    run = _Run(name, only, form, event_scores)
    with closing(open_input()) as raw, closing(open_input()) as readable:
        editor = LineEditor(raw, out)
        for block in _blocks(iter_records(readable, name, fast=False), run):
            changes = _plan_block(block, run)
            for change in sorted(changes, key=lambda c: c.key):
                _apply(editor, change, run)
            _report(run, report)
        editor.finish()
    _report(run, report)
    return run.boards, run.changes


def _report(run: _Run, report: Callable[[Diagnostic], None]) -> None:
    """Pass on what a block produced, in file order (blocks follow each other in the file,
    so each block's findings come after the previous block's)."""
    run.reported.sort(key=lambda item: item[0])
    for _, diagnostic in run.reported:
        report(diagnostic)
    run.reported.clear()


def _apply(editor: LineEditor, change: Change, run: _Run) -> None:
    reason = change.refused
    if reason is None:
        refusal = editor.apply(change.edits)
        if refusal is None:
            run.reported.extend(change.reported)
            run.changes += len(change.reported)
            return
        reason = refusal.reason
    key, first = change.reported[0]
    refused = FIX011.at(name=change.name, new=change.new, reason=reason)
    placed = dataclasses.replace(
        refused, file=first.file, line=first.line, column=first.column, board=first.board
    )
    run.reported.append((key, placed))


def _blocks(records: Iterable[Record], run: _Run) -> Iterator[list[Record]]:
    """Games grouped by the block of text they were read from (one, unless they ran
    together); findings that belong to no game are passed on or dropped here."""
    group: list[Record] = []
    block: GameBlock | None = None
    for record in records:
        source = source_map(record.locator)
        if record.board is None or source is None or source.raw is None:
            run.reported.extend(
                ((d.line or 0, -1, 0, 0), d) for d in record.diagnostics if d.code in _PASSED_ON
            )
            continue
        run.boards += 1
        if source.block is not block and group:
            yield group
            group = []
        block = source.block
        group.append(record)
    if group:
        yield group


def _plan_block(records: list[Record], run: _Run) -> list[Change]:
    changes: list[Change] = []
    for index, record in enumerate(records):
        following = records[index + 1] if index + 1 < len(records) else None
        next_game = _first_tag(following)
        changes.extend(plan_game(record, run, index, next_game))
    return changes


def _first_tag(record: Record | None) -> RawTag | None:
    if record is None:
        return None
    source = source_map(record.locator)
    assert source is not None and source.raw is not None
    return source.raw.tags[0] if source.raw.tags else None


def plan_game(record: Record, run: _Run, game: int, next_game: RawTag | None) -> list[Change]:
    """Every change one game needs, placed in its text."""
    board, source = record.board, source_map(record.locator)
    assert board is not None and source is not None and source.raw is not None
    fixes = derive_fixes(board, only=run.only, score_form=run.score_form)
    if run.event_scores is not None:
        scores = run.event_scores(record)
        if scores:
            fixes.extend(event_fixes(board, scores, run.only))
    place = _Placer(record, source, game, next_game)
    changes = [place.value(fix) for fix in fixes]
    if "Note" in run.only and not any(d.code in _NOTE_TROUBLE for d in record.diagnostics):
        changes.extend(place.notes())
    return changes


@dataclass
class _Placer:
    """Turns one game's changes into edits at file positions."""

    record: Record
    source: SourceMap
    game: int
    next_game: RawTag | None

    @property
    def tags(self) -> list[RawTag]:
        assert self.source.raw is not None
        return self.source.raw.tags

    def value(self, fix: ValueFix) -> Change:
        arguments = {"old": quoted(fix.old), "new": quoted(fix.new_value)} | fix.arguments
        raw_tag = self.source.tags.get(fix.tag)
        if raw_tag is None:
            order = self.game * 1000 + tag_key(fix.tag)[0]
            placed = insertion(
                self.source, self.tags, fix.tag, fix.new_value, order, self.next_game
            )
            return self._change(
                fix.code.at(None, **arguments), placed, fix.tag, quoted(fix.new_value)
            )
        found = value_edit(self.source, raw_tag, fix.new, fix.span)
        if isinstance(found, str):
            line, column = self.source.position(raw_tag.offset)
            return self._refused(
                fix.code.at(None, **arguments), line, column, fix.tag, quoted(fix.new_value), found
            )
        return self._change(fix.code.at(None, **arguments), found, fix.tag, quoted(fix.new_value))

    def notes(self) -> list[Change]:
        """Renumbering of each section's notes and references (one change per section)."""
        changes = []
        for section in ("Auction", "Play"):
            change = self._section_notes(section)
            if change is not None:
                changes.append(change)
        return changes

    def _section_notes(self, section: str) -> Change | None:
        section_tag = self.source.tags.get(section)
        board = self.record.board
        assert board is not None
        decoded = board.auction if section == "Auction" else board.play
        if section_tag is None or decoded is None:
            return None  # no section, or one the reader could not open (a bad seat)
        notes = self._notes_of(section)
        if notes is None:
            return None
        references = list(note_references(section_tag.data or []))
        plan = renumber([index for _, index in notes], [number for number, _, _ in references])
        if plan is None:
            return None
        where = f"{section.lower()} section"
        placed: list[Placed] = []
        reported: list[tuple[_Key, Diagnostic]] = []
        text = self.source.block.text
        for (raw_tag, old), new in zip(notes, plan.notes, strict=True):
            if new == old:
                continue
            span = value_span(text, raw_tag)
            index = _NOTE_INDEX.match(text, span[0]) if span is not None else None
            if index is None:
                return None
            item = self._at(index.start(1), index.group(1), str(new))
            placed.append(item)
            count = len(plan.notes)
            found = FIX008.at(old=old, new=new, section=where, count=count)
            reported.append((_key(item), self._placed(found, item)))
        for (old, offset, length), new in zip(references, plan.references, strict=True):
            if new == old:
                continue
            item = self._at(offset, text[offset : offset + length], str(new))
            placed.append(item)
            found = FIX009.at(old=old, new=new, section=where)
            reported.append((_key(item), self._placed(found, item)))
        if not placed:
            return None
        edits = tuple(item.edit for item in placed)
        name = f"the notes of the {where}"
        return Change(edits, tuple(reported), name, f"1 to {len(plan.notes)}")

    def _notes_of(self, section: str) -> list[tuple[RawTag, int]] | None:
        """The Note tags written in a section (``Auction`` or ``Play``), with their indices,
        found as the reader finds them: a Note belongs to the section tag before it.  None
        when a Note cannot be read or lies outside both sections (the reader then attaches
        it by its references, which renumbering would have to follow)."""
        found: list[tuple[RawTag, int]] = []
        current = ""
        for raw_tag in self.tags:
            if raw_tag.name in ("Auction", "Play") or raw_tag.name in TABLE_TAGS:
                current = raw_tag.name
            if raw_tag.name != "Note":
                continue
            if current not in ("Auction", "Play"):
                return None
            note, _ = decode_note(raw_tag.value)
            if note is None:
                return None
            if current == section:
                found.append((raw_tag, note.index))
        return found

    def _at(self, offset: int, old: str, new: str) -> Placed:
        line, column = self.source.position(offset)
        return Placed(Edit(EditKind.REPLACE, line, column, old, new), line, column)

    def _placed(self, diagnostic: Diagnostic, placed: Placed) -> Diagnostic:
        board = self.record.board
        return dataclasses.replace(
            diagnostic,
            file=self.record.file,
            line=placed.line,
            column=placed.column,
            board=board.number if board is not None else None,
        )

    def _change(self, diagnostic: Diagnostic, placed: Placed, name: str, new: str) -> Change:
        reported = ((_key(placed), self._placed(diagnostic, placed)),)
        return Change((placed.edit,), reported, name, new)

    def _refused(
        self, diagnostic: Diagnostic, line: int, column: int, name: str, new: str, reason: str
    ) -> Change:
        board = self.record.board
        placed = dataclasses.replace(
            diagnostic,
            file=self.record.file,
            line=line,
            column=column,
            board=board.number if board is not None else None,
        )
        return Change((), (((line, 1, column, 0), placed),), name, new, refused=reason)
