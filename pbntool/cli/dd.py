"""``pbntool dd``: double-dummy tables and par; ``--check`` and ``--fill`` the tags that carry
them; ``--contract`` for one contract's tricks.  Needs the extra ``pbntool[dd]``."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbntool.cli.common import (
    EXIT_UNREADABLE,
    FromOption,
    OutputFormat,
    Paths,
    app,
    iter_records,
    pipe_safe,
    plural,
    print_diagnostic,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import ARC007, DDA008, SRC003, Diagnostic, Severity
from pbntool.formats import SNIFF_BYTES, Format, detect_format
from pbntool.model import Contract, Seat
from pbntool.records import Record
from pbntool.run.engine import available_cores
from pbntool.run.guard import guarded
from pbntool.run.report import Tally
from pbntool.text.edit import InputFiles, atomic_write, locked_in_place, plain_file_problem
from pbntool.text.inputs import Input, iter_inputs
from pbntool.tools.dd import (
    PbnFiller,
    SolverUnavailable,
    analysis_of,
    check_record,
    contract_jobs,
    load_solver,
    par_conditions,
    solve_in_order,
    table_jobs,
)
from pbntool.tools.dd.check import stated_tags
from pbntool.tools.dd.report import analysis_dict, analysis_text, contract_dict, contract_text
from pbntool.tools.select.kinds import Kind, parse_literal

__all__ = ["dd"]


@command(app)
@pipe_safe
def dd(
    paths: Paths,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Solve boards on this many of DDS's own threads (0: one per core).",
            show_default="0: one per core",
        ),
    ] = 0,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text or JSON lines.")
    ] = OutputFormat.text,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Verify DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract.",
        ),
    ] = False,
    fill: Annotated[
        bool, typer.Option("--fill", help="Write those tags into PBN files (minimal edits).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="With --fill, rewrite boards already annotated.")
    ] = False,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="With --fill, rewrite the files themselves.")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="With --fill, write the one input's result here.",
            show_default="stdout",
        ),
    ] = None,
    contract: Annotated[
        str | None,
        typer.Option("--contract", help="Tricks and score of this contract, e.g. 4S or 3NTX."),
    ] = None,
    declarer: Annotated[
        str | None,
        typer.Option("--declarer", help="With --contract: N, E, S or W (default: all four)."),
    ] = None,
    source_format: FromOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
) -> None:
    """Double-dummy table (tricks for each declarer and strain) and par of every board.

    Each full deal is solved (the dd extra: pip install 'pbntool[dd]'): the tricks each
    seat takes in each strain and the par score and contracts, as text or JSON lines.
    --check compares them with the DoubleDummyTricks, OptimumResultTable, OptimumScore and
    ParContract tags the file states; --fill writes those tags into PBN files with minimal
    edits; --contract gives the tricks and score of one contract.

    Inputs: files in any readable format, directories, archives, handviewer links, or - for
    stdin (--fill writes PBN files only).

    Examples:
        pbntool dd fixtures/sample/event.pbn
            The double-dummy table and par of every board.
        pbntool dd --contract 3NT fixtures/sample/event.pbn
            The tricks 3NT takes for each declarer on each board, and its score.

    Exit 1: errors in the input, or, with --check, a stated tag that differs.
    """
    paths = paths or []
    if not paths:
        raise typer.BadParameter("give the files to analyse (or - for stdin)", param_hint="PATH")
    _check_options(check, fill, force, in_place, output, contract, declarer, paths)
    try:
        load_solver()
    except SolverUnavailable as error:
        typer.echo(f"pbntool dd: {error}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    report = Tally()
    jobs = jobs or available_cores()  # DDS's batch calls spread over its own threads
    if fill:
        _fill(paths, jobs, force, in_place, output, report, quiet)
    elif contract is not None:
        wanted = _parse_contract(contract)
        seats = (Seat.from_letter(declarer.strip()),) if declarer else tuple(Seat)
        _contracts(paths, source_format, jobs, wanted, seats, output_format, report, quiet)
    else:
        _analyse(paths, source_format, jobs, check, output_format, report, quiet)
    raise typer.Exit(report.exit_code())


def _usage(message: str) -> None:
    typer.echo(f"pbntool dd: {message}", err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def _check_options(
    check: bool,
    fill: bool,
    force: bool,
    in_place: bool,
    output: str | None,
    contract: str | None,
    declarer: str | None,
    paths: list[str],
) -> None:
    if sum((check, fill, contract is not None)) > 1:
        _usage("--check, --fill and --contract do not go together")
    if not fill and (force or in_place or output):
        _usage("--force, --in-place and --output go with --fill")
    if in_place and output:
        _usage("--in-place or --output, not both")
    if in_place and "-" in paths:
        _usage("--in-place cannot rewrite stdin")
    if declarer is not None:
        if contract is None:
            _usage("--declarer goes with --contract")
        if declarer.strip().upper() not in ("N", "E", "S", "W"):
            _usage(f"--declarer {declarer!r}: expected N, E, S or W")
    if contract is not None:
        _parse_contract(contract)


def _parse_contract(text: str) -> Contract:
    try:
        parsed = parse_literal(Kind.CONTRACT, text)
    except ValueError as error:
        _usage(f"--contract: {error}")
    assert isinstance(parsed, Contract)
    if not parsed.level:
        _usage("--contract needs a bid contract, such as 4S")
    return parsed


# --- the table and par, and --check -------------------------------------------------------------


def _analyse(
    paths: list[str],
    source_format: Format | None,
    jobs: int,
    check: bool,
    output_format: OutputFormat,
    report: Tally,
    quiet: bool,
) -> None:
    """Print each board's table and par, or (``check``) what its tags get wrong."""
    out = sys.stdout
    solved = checked = 0
    records = iter_records(paths, report, source_format)
    for record, outcome in solve_in_order(table_jobs(records), jobs):
        analysis, ours = analysis_of(record, outcome)
        if analysis is not None:
            solved += 1
            if check:
                checked += record.board is not None and bool(stated_tags(record.board))
                found, failure = guarded(record, check_record, record, analysis)
                ours += found or []
                ours += [failure] if failure is not None else []
            elif output_format is OutputFormat.json:
                out.write(json.dumps(analysis_dict(record, analysis)) + "\n")
            else:
                out.write(analysis_text(record, analysis))
        report.count(record, [*record.diagnostics, *ours])
        _emit(record, ours, quiet, output_format if check else None)
    out.flush()
    if not quiet:
        extra = f"; {plural(solved, 'board')} solved"
        if check:
            extra += f", {plural(checked, 'board')} with double-dummy tags checked"
        typer.echo(report.summary(extra), err=True)


def _emit(
    record: Record, ours: list[Diagnostic], quiet: bool, findings: OutputFormat | None
) -> None:
    """The reader's errors go to stderr (its warnings are ``validate``'s business); our own
    findings are the output with ``--check`` (``findings`` is then their format), else notes
    on stderr."""
    if not quiet:
        for diagnostic in record.diagnostics:
            if diagnostic.severity >= Severity.ERROR:
                print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
    for diagnostic in ours:
        if findings is not None:
            print_diagnostic(diagnostic, findings, sys.stdout)
        elif not quiet:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)


# --- --contract ---------------------------------------------------------------------------------


def _contracts(
    paths: list[str],
    source_format: Format | None,
    jobs: int,
    contract: Contract,
    seats: tuple[Seat, ...],
    output_format: OutputFormat,
    report: Tally,
    quiet: bool,
) -> None:
    """For each board and declarer: the contract's tricks double dummy, and its score."""
    assert contract.strain is not None
    out = sys.stdout
    records = iter_records(paths, report, source_format)
    for record, outcome in solve_in_order(contract_jobs(records, contract.strain, seats), jobs):
        ours: list[Diagnostic] = []
        if isinstance(outcome, tuple):
            vulnerability = par_conditions(record.board)[0] if record.board else None
            for seat, tricks in zip(seats, outcome, strict=True):
                if output_format is OutputFormat.json:
                    line = contract_dict(record, contract, seat, tricks, vulnerability)
                    out.write(json.dumps(line) + "\n")
                else:
                    out.write(contract_text(record, contract, seat, tricks, vulnerability))
        else:
            ours = analysis_of(record, outcome)[1]
        report.count(record, [*record.diagnostics, *ours])
        _emit(record, ours, quiet, None)
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)


# --- --fill -------------------------------------------------------------------------------------


def _fill(
    paths: list[str],
    jobs: int,
    force: bool,
    in_place: bool,
    output: str | None,
    report: Tally,
    quiet: bool,
) -> None:
    """Write the tags into each PBN input: to stdout, ``--output`` or the file itself."""
    sources = list(iter_inputs(paths))
    if output is not None and len(sources) != 1:
        _usage("--output takes one input; use --in-place for several")
    files = InputFiles.of(paths)
    filled = skipped = 0
    for source in sources:
        report.inputs += 1
        refusal = plain_file_problem(source.path, source.name) if in_place else None
        if source.problem is None and refusal is not None:
            found = ARC007.at(target=source.name, reason=refusal)
            problem = Diagnostic(found.code, found.severity, found.message, source.name)
            report.count(Record(None, (problem,), source.name, 0), [problem])
            _emit(Record(None, (), source.name, 0), [problem], quiet, None)
            continue
        lock = (
            locked_in_place(source.path, source.name)
            if in_place and source.path is not None
            else contextlib.nullcontext()
        )
        with lock:
            counts = _fill_one(source, jobs, force, in_place, output, files, report, quiet)
        filled, skipped = filled + counts[0], skipped + counts[1]
    if not quiet:
        extra = f"; {plural(filled, 'board')} filled, {skipped} already annotated (kept)"
        typer.echo(report.summary(extra), err=True)


def _fill_one(
    source: Input,
    jobs: int,
    force: bool,
    in_place: bool,
    output: str | None,
    files: InputFiles,
    report: Tally,
    quiet: bool,
) -> tuple[int, int]:
    """Fill one input; returns the boards filled and those already annotated."""
    problem = source.problem
    data = b""
    if problem is None:
        try:
            data = _read_source(source)
        except OSError as error:
            problem = _input_problem(source.name, error.strerror or str(error))
    if problem is not None:
        report.count(Record(None, (problem,), source.name, 0), [problem])
        _emit(Record(None, (), source.name, 0), [problem], quiet, None)
        return 0, 0
    form = detect_format(data[:SNIFF_BYTES], source.name)
    if form is not Format.PBN:
        _not_pbn(source.name, form, report, quiet)
        _write(source.path, data, data, in_place, output, files)
        return 0, 0
    filler = PbnFiller(data, source.name, force=force, workers=jobs)
    for record, found in filler.records():
        report.count(record, [*record.diagnostics, *found])
        _emit(record, found, quiet, None)
    _write(source.path, data, filler.data, in_place, output, files)
    return filler.filled, filler.skipped


def _input_problem(name: str, reason: str) -> Diagnostic:
    found = SRC003.at(reason=reason)
    return Diagnostic(found.code, found.severity, found.message, name)


def _not_pbn(name: str, form: Format | None, report: Tally, quiet: bool) -> None:
    note = DDA008.at(form=form.value.upper() if form is not None else "unrecognised")
    placed = Diagnostic(note.code, note.severity, note.message, name, 1, 1)
    report.count(Record(None, (placed,), name, 1), [placed])
    _emit(Record(None, (), name, 1), [placed], quiet, None)


def _write(
    path: Path | None,
    original: bytes,
    data: bytes,
    in_place: bool,
    output: str | None,
    files: InputFiles,
) -> None:
    """The filled bytes to the file itself (only when changed), ``--output`` or stdout, all
    through the one write path (``pbntool.text.edit``)."""
    if in_place:
        assert path is not None
        if data != original:
            with atomic_write(path, binary=True) as stream:
                stream.write(data)
        return
    if output is not None and output != "-":
        with atomic_write(output, binary=True, inputs=files) as stream:
            stream.write(data)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _read_source(source: Input) -> bytes:
    """The bytes of an input: a file, or stdin (already sniffed: ``source.open`` replays it)."""
    if source.path is not None:
        return source.path.read_bytes()
    with source.open() as stream:
        return stream.read()
