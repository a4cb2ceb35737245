"""``dd --fill``: the edits that write a board's double-dummy tags into its PBN file.

Existing tags are rewritten in place (their value, or for OptimumResultTable the whole
section); missing ones are inserted together, on lines of their own, before the game's
first section (Auction, Play, a table) or after its last tag.  Nothing else in the file
changes.  A board that already carries any of the tags is left alone unless ``force``.
"""

from __future__ import annotations

import io
import traceback
from collections.abc import Iterator
from dataclasses import dataclass

from pbntool.diagnostics import DDA007, DDA009, INT001, Diagnostic
from pbntool.formats.pbn import iter_records
from pbntool.formats.pbn.edit import GameSpans
from pbntool.formats.pbn.fast import source_map
from pbntool.records import Record
from pbntool.text.lines import Edit, LineEditor
from pbntool.tools.dd.boards import analysis_of, table_jobs
from pbntool.tools.dd.check import has_annotations, par_conditions
from pbntool.tools.dd.jobs import Job, solve_in_order
from pbntool.tools.dd.solver import DDAnalysis
from pbntool.tools.dd.tags import (
    TAG_NAMES,
    double_dummy_tricks,
    optimum_result_rows,
    optimum_score,
    par_contract,
)

__all__ = ["FillResult", "PbnFiller", "fill_record"]


@dataclass(frozen=True, slots=True)
class FillResult:
    """The edits for one board, the tags they write, and anything worth telling the user."""

    edits: tuple[Edit, ...]
    written: tuple[str, ...]
    skipped: bool = False
    """The board already had double-dummy tags and ``force`` was not given."""
    diagnostics: tuple[Diagnostic, ...] = ()


def fill_record(record: Record, analysis: DDAnalysis, *, force: bool = False) -> FillResult:
    """The edits that write ``analysis`` into the record's game (a PBN record)."""
    board = record.board
    source = source_map(record.locator)
    if board is None or source is None:
        return FillResult((), ())
    if has_annotations(board) and not force:
        return FillResult((), (), skipped=True)
    spans = GameSpans(source)
    values = {"DoubleDummyTricks": double_dummy_tricks(analysis.table)}
    diagnostics: list[Diagnostic] = []
    if analysis.par is not None:
        values["OptimumScore"] = optimum_score(analysis.par)
        values["ParContract"] = par_contract(analysis.par)
    else:
        _, missing = _missing(record)
        diagnostics.append(
            record.locate(
                DDA007.at(
                    ("tag", "Deal"),
                    names="OptimumScore and ParContract",
                    done="written",
                    missing=missing,
                )
            )
        )
    inherited = {tag.name for tag in board.tags if tag.inherited}
    edits: list[Edit] = []
    inserts: list[str] = []
    written: list[str] = []
    for name in TAG_NAMES:
        if name in inherited or (name != "OptimumResultTable" and name not in values):
            continue  # a "##" default is not overridden
        written.append(name)
        if name == "OptimumResultTable":
            header, rows = optimum_result_rows(analysis.table)
            section = "\n".join([f'[OptimumResultTable "{header}"]', *rows])
            span = spans.section_span(name)
            if span is None:
                inserts.append(section)
            else:
                start, end, comments = span
                edits += spans.edits(start, end, "\n".join([section, *comments]))
            continue
        value_span = spans.value_span(name)
        if value_span is not None:
            edits += spans.edits(*value_span, values[name])
        elif spans.tag(name) is None:
            inserts.append(f'[{name} "{values[name]}"]')
        else:
            return _refused(record, name, "tag pair is malformed")
    if inserts:
        where = spans.insertion()
        if where.followed and inserts[-1].startswith("[OptimumResultTable"):
            inserts.insert(0, inserts.pop())  # a plain tag ends the data of the table
        text = where.before + "\n".join(inserts) + where.after
        edits += spans.edits(where.offset, where.offset, text)
    return FillResult(tuple(edits), tuple(written), diagnostics=tuple(diagnostics))


def _refused(record: Record, name: str, reason: str) -> FillResult:
    """No tag of the board is written (each board's tags are written together or not)."""
    refusal = record.locate(DDA009.at(("tag", name), reason=f"the {name} {reason}"))
    return FillResult((), (), diagnostics=(refusal,))


def _missing(record: Record) -> tuple[bool, str]:
    assert record.board is not None
    vulnerability, dealer = par_conditions(record.board)
    words = [
        word
        for word, known in (("vulnerability", vulnerability), ("dealer", dealer))
        if known is None
    ]
    return bool(words), " and ".join(words)


@dataclass
class PbnFiller:
    """``--fill`` for one PBN file: iterate ``records()`` (each record with what was found
    about it, as the boards are solved), then ``data`` holds the file with the tags written.

    Only the boards that will be written are solved (with ``workers`` processes).
    """

    original: bytes
    name: str
    force: bool = False
    workers: int = 1
    data: bytes = b""
    filled: int = 0
    skipped: int = 0

    def records(self) -> Iterator[tuple[Record, list[Diagnostic]]]:
        out = io.BytesIO()
        editor = LineEditor(io.BytesIO(self.original), out)
        stream = iter_records(io.BytesIO(self.original), self.name, fast=False)
        for record, outcome in solve_in_order(self._jobs(table_jobs(stream)), self.workers):
            found: list[Diagnostic] = []
            board = record.board
            if board is not None and has_annotations(board) and not self.force:
                self.skipped += 1
            else:
                analysis, found = analysis_of(record, outcome)
                if analysis is not None:
                    found += self._fill(record, analysis, editor)
            yield record, found
        editor.finish()
        self.data = out.getvalue()

    def _jobs(
        self, jobs: Iterator[tuple[Record, Job | None]]
    ) -> Iterator[tuple[Record, Job | None]]:
        for record, job in jobs:
            board = record.board
            skip = board is not None and has_annotations(board) and not self.force
            yield record, None if skip else job

    def _fill(self, record: Record, analysis: DDAnalysis, editor: LineEditor) -> list[Diagnostic]:
        try:
            result = fill_record(record, analysis, force=self.force)
        except Exception as error:  # a bug of ours: this board is left as it was
            detail = traceback.format_exception_only(error)[-1].strip()
            return [record.locate(INT001.at(skipped="filling this board", error=detail))]
        refusal = editor.apply(result.edits)
        if refusal is not None:  # the board's tags are written together or not at all
            return [record.locate(DDA009.at(("tag", "Deal"), reason=refusal.reason))]
        self.filled += bool(result.edits)
        return list(result.diagnostics)
