"""``pbntool render``: hand records people can look at, as one HTML page or a PDF."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, BinaryIO, TextIO, cast

import typer

from pbntool.cli.common import app, batch_command, iter_batch_records, pipe_safe
from pbntool.cli.manual import command
from pbntool.diagnostics import ARC008, Diagnostic, Severity
from pbntool.formats.html.options import Paper, RenderOptions, SuitColours
from pbntool.model import Board, Tag
from pbntool.records import Record, validate_record
from pbntool.run.batch import BatchOptions, UsageError
from pbntool.run.outputs import fit_names, output_stem
from pbntool.run.report import Tally
from pbntool.run.tasks import OutputFormat, format_diagnostic
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.text.edit import AtomicFile, InputFiles, WriteRefused, inside_directory_problem
from pbntool.text.inputs import Input

__all__ = ["render"]


class Sheet(StrEnum):
    """What ``render`` writes."""

    HTML = "html"
    PDF = "pdf"


SHEET_SUFFIX = {Sheet.HTML: ".html", Sheet.PDF: ".pdf"}


@command(app)
@pipe_safe
@batch_command
def render(
    inputs: BatchOptions,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="OUT.html or OUT.pdf (the suffix chooses the format); an existing directory "
            "(or a path ending in /) gets one sheet per input.",
            show_default="stdout, HTML",
        ),
    ] = None,
    to: Annotated[
        Sheet | None,
        typer.Option("--to", case_sensitive=False, help="html or pdf (default: from -o)."),
    ] = None,
    per_page: Annotated[
        int, typer.Option("--per-page", help="Boards per printed page: 1, 2, 4, 6 or 8.")
    ] = 1,
    paper: Annotated[Paper, typer.Option("--paper", case_sensitive=False)] = Paper.A4,
    colours: Annotated[
        SuitColours,
        typer.Option(
            "--colours",
            case_sensitive=False,
            help="two: red hearts and diamonds; four: four colours; plain: no colour.",
        ),
    ] = SuitColours.TWO,
    travellers: Annotated[
        bool,
        typer.Option(
            "--travellers",
            help="Add each board's results: its ScoreTable, or every table's result in the "
            "inputs (grouped as score groups them, one diagram per board), with matchpoints or "
            "IMPs when the event is scored.",
        ),
    ] = False,
    method: Annotated[
        Method | None,
        typer.Option(
            "--method",
            "-m",
            case_sensitive=False,
            help="With --travellers: score the results so (default: each event's Scoring tag; "
            "none: the results alone).",
        ),
    ] = None,
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="Solve the boards that state no double-dummy tricks (needs pbntool\\[dd]).",
        ),
    ] = False,
    split: Annotated[
        int | None,
        typer.Option(
            "--split", help="At most N boards per output file (needs -o).", show_default="no limit"
        ),
    ] = None,
) -> None:
    """Render boards as printable hand records: compass diagrams, auction, play, double dummy.

    The boards become one HTML page (stdout, or -o OUT.html) or a PDF (-o OUT.pdf, the pdf
    extra), 1 to 8 boards a printed page, with two- or four-colour suits, each board's
    results (--travellers) and its double-dummy table (as stated, or solved with --dd).
    Boards with errors are still drawn from what is known, with a note naming the errors.

    Inputs: {inputs}.

    Examples:
        pbntool render -o hands.html fixtures/sample/event.pbn
            A page to print from a browser, one board a page.
        pbntool render --per-page 4 --colours four -o four.html fixtures/sample/event.pbn
            Four boards a page, with four-colour suits.

    Exit 1: findings at or above --fail-on (errors by default), or --max-errors reached.
    """
    sheet = to or _sheet_of(output)
    try:
        options = RenderOptions(per_page, paper, colours, travellers)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if split is not None and (split < 1 or not output):
        raise UsageError("--split needs -o FILE or -o DIR and at least 1 board per file")
    if sheet is Sheet.PDF:
        if output is None:
            raise UsageError("a PDF needs -o OUT.pdf (or -o DIR/)")
        from pbntool.formats.pdf import PdfUnavailable, check_pdf_support

        try:
            check_pdf_support()
        except PdfUnavailable as error:
            typer.echo(f"pbntool render: {error}", err=True)
            raise typer.Exit(2) from None
    if method is not None and not travellers:
        raise UsageError("--method scores the travellers: give --travellers too")
    if dd:
        _check_solver()
    forced = None if method is None else ScoringSpec(method)
    if sheet is Sheet.HTML and not travellers and not dd:
        raise typer.Exit(_render_in_parallel(inputs, options, output, split))
    raise typer.Exit(_render_all(inputs, sheet, options, output, split, dd, forced))


def _render_in_parallel(
    inputs: BatchOptions, options: RenderOptions, output: str | None, split: int | None
) -> int:
    """An HTML sheet on the batch engine, as ``convert --to html`` writes it: ``-j`` workers
    read, check and draw the boards, this process joins them into the page(s)."""
    from pbntool.cli.convert import run_batch_conversion
    from pbntool.formats import Format
    from pbntool.run.tasks import ConvertTask

    task = ConvertTask(
        Format.HTML,
        check=True,
        quiet=inputs.quiet,
        marks=split is not None,
        options=options,
        notes=True,  # a board with errors is drawn with a note naming them
        shown=Severity.ERROR,
    )
    if output is not None and not _is_directory(output) and split is None:
        output = output if output.lower().endswith(".html") else output + ".html"
    return run_batch_conversion(inputs, task, output, split)


def _sheet_of(output: str | None) -> Sheet:
    if output is not None and output.lower().endswith(".pdf"):
        return Sheet.PDF
    return Sheet.HTML


def _check_solver() -> None:
    from pbntool.tools.dd.solver import SolverUnavailable, load_solver

    try:
        load_solver()
    except SolverUnavailable as error:
        typer.echo(f"pbntool render --dd: {error}", err=True)
        raise typer.Exit(2) from None


def _is_directory(output: str) -> bool:
    return output.endswith(("/", "\\")) or Path(output).is_dir()


class _Outputs:
    """Opens the sheets: one stream, one per input under a directory, and ``--split`` parts."""

    def __init__(
        self,
        sheet: Sheet,
        options: RenderOptions,
        output: str | None,
        split: int | None,
        inputs: InputFiles,
    ) -> None:
        self.sheet, self.options = sheet, options
        self.output, self.split = output, split
        self.directory = output is not None and _is_directory(output)
        self.writer: object | None = None
        self.file: AtomicFile | None = None
        self.inputs = inputs
        self.key: str | None = None
        self.part = 0
        self.boards = 0

    def writer_for(self, record: Record) -> object:
        key = record.file if self.directory else ""
        full = self.split is not None and self.boards >= self.split
        if self.writer is None or key != self.key or full:
            self.part = 0 if key != self.key else self.part
            self.finish()
            self.key = key
            self.part += 1
            self.writer = self._open(record.file)
        self.boards += 1
        return self.writer

    def _open(self, file: str) -> object:
        from pbntool.formats.html import HtmlWriter

        suffix = SHEET_SUFFIX[self.sheet]
        if self.output is None:
            return HtmlWriter(sys.stdout, self.options)
        if self.directory:
            stem = output_stem(Input(file, None))
            if self.split is not None:
                stem = stem.with_name(f"{stem.name}-{self.part:04d}")
            relative = stem.with_name(stem.name + suffix)
            root = Path(self.output)
            fitted, limit = fit_names(root, relative)
            if limit is not None:  # a name longer than the file system takes: shortened
                found = ARC008.at(name=str(root / relative), limit=limit, target=str(root / fitted))
                placed = Diagnostic(found.code, found.severity, found.message, file)
                sys.stderr.write(format_diagnostic(placed, OutputFormat.text))
            path = root.joinpath(*fitted.parts)
        else:
            path = Path(self.output)
            path = path.with_name(path.name.removesuffix(suffix))
            if self.split is not None:
                path = path.with_name(f"{path.name}-{self.part:04d}")
            path = path.with_name(path.name + suffix) if path.suffix != suffix else path
        if self.directory:
            problem = inside_directory_problem(Path(self.output), path)
            if problem is not None:
                raise WriteRefused(f"{path}: {problem}")
        path.parent.mkdir(parents=True, exist_ok=True)
        binary = self.sheet is Sheet.PDF
        # The one write path: never one of the inputs, renamed into place when complete.
        self.file = AtomicFile(path, binary=binary, inputs=self.inputs)
        if binary:
            from pbntool.formats.pdf import PdfWriter

            return PdfWriter(cast(BinaryIO, self.file.stream), self.options)
        return HtmlWriter(cast(TextIO, self.file.stream), self.options)

    def finish(self, completed: bool = True) -> None:
        """Close the sheet open now: kept when ``completed``, else dropped."""
        writer, file = self.writer, self.file
        self.writer, self.file, self.boards = None, None, 0
        try:
            if completed and writer is not None:
                writer.close()  # type: ignore[attr-defined]
            if completed and file is not None:
                file.commit()
        finally:
            if file is not None:
                file.abort()  # nothing left to drop once committed


def _render_all(
    inputs: BatchOptions,
    sheet: Sheet,
    options: RenderOptions,
    output: str | None,
    split: int | None,
    dd: bool,
    forced: ScoringSpec | None,
) -> int:
    report = Tally(inputs.fail_on)
    outputs = _Outputs(sheet, options, output, split, inputs.input_files())
    completed = False
    try:
        for record, board in _records_to_draw(inputs, report, options.travellers, forced):
            found = list(validate_record(record))
            if board is not None:
                if dd:
                    board = _with_double_dummy(board)
                writer = outputs.writer_for(record)
                writer.write(board, record.file, found)  # type: ignore[attr-defined]
            report.count(record, found)
            if not inputs.quiet:
                for diagnostic in found:
                    if diagnostic.severity >= Severity.ERROR:
                        sys.stderr.write(format_diagnostic(diagnostic, OutputFormat.text))
        if outputs.writer is None and not outputs.directory:
            outputs.writer = outputs._open("")  # no boards: still an (empty) sheet
        completed = True
    finally:
        outputs.finish(completed)
    if not inputs.quiet:
        typer.echo(report.summary(), err=True)
    return report.exit_code()


def _records_to_draw(
    inputs: BatchOptions, report: Tally, travellers: bool, forced: ScoringSpec | None
) -> Iterator[tuple[Record, Board | None]]:
    """Each record read, with the board to draw for it (None: drawn with an earlier table's)."""
    records = iter_batch_records(inputs, report)
    if not travellers:
        yield from ((record, record.board) for record in records)
        return
    from pbntool.tools.score.travellers import with_travellers

    yield from with_travellers(records, forced)


def _with_double_dummy(board: Board) -> Board:
    """The board with DoubleDummyTricks, OptimumScore and ParContract solved, when it states
    none and its deal is full (the tags are what the sheet reads)."""
    from pbntool.tools.dd.boards import board_job
    from pbntool.tools.dd.solver import analyse
    from pbntool.tools.dd.tags import TAG_NAMES, double_dummy_tricks, optimum_score, par_contract

    if any(board.tag(name) for name in TAG_NAMES) or any(
        table.name == "OptimumResultTable" for table in board.tables
    ):
        return board
    job = board_job(board)
    if isinstance(job, str):
        return board
    analysis = analyse(job.masks, job.vulnerability, job.dealer)
    tags = [Tag("DoubleDummyTricks", double_dummy_tricks(analysis.table))]
    if analysis.par is not None:
        tags.append(Tag("OptimumScore", optimum_score(analysis.par)))
        tags.append(Tag("ParContract", par_contract(analysis.par)))
    return replace(board, tags=(*board.tags, *tags))
