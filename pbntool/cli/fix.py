"""``pbntool fix``: fill in or correct what each record determines, with minimal edits.

Where the fixed bytes go: ``--in-place`` (each file replaced atomically, and only when
something changed), ``-o OUT`` (a file, or a directory for several inputs), else stdout
(one input).  ``--dry-run`` writes nothing and ``--diff`` prints a unified diff instead of
the fixed text.  Each change is a FIX diagnostic; they go to stdout when the fixed text does
not, else to stderr.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Annotated, BinaryIO

import typer

from pbntool.cli.common import (
    OutputFormat,
    Paths,
    app,
    pipe_safe,
    print_diagnostic,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import ARC007, ARC008, Diagnostic
from pbntool.formats import read_input
from pbntool.run.report import Tally
from pbntool.text.edit import (
    InputFiles,
    WriteRefused,
    inside_directory_problem,
    plain_file_problem,
    write_error,
)
from pbntool.text.inputs import Input, iter_inputs

if TYPE_CHECKING:
    from pbntool.tools.fix import FixOptions, FixResult, Report

__all__ = ["fix"]

# pbntool.tools.fix is imported when the command runs, so that the other commands do not pay for
# it at start-up; tests/test_fix_cli.py checks this list against pbntool.tools.fix.VALUE_TAGS.
TAG_LIST = "Dealer, Vulnerable, Deal, Contract, Declarer, Result, Score, Note"

OnlyOption = Annotated[
    list[str] | None,
    typer.Option(help=f"Change only these tags (repeatable, comma-separated): {TAG_LIST}."),
]
SkipOption = Annotated[
    list[str] | None,
    typer.Option(help="Do not change these tags (repeatable, comma-separated)."),
]


@dataclass(frozen=True, slots=True)
class _Plan:
    """Where each input's fixed bytes go."""

    in_place: bool
    output: Path | None
    into_directory: bool
    to_stdout: bool
    diff: bool
    roots: tuple[Path, ...]
    """Directories named on the command line (their inputs keep their path below -o DIR)."""
    inputs: InputFiles = field(default_factory=InputFiles)
    """The files read: no output may replace one."""
    taken: set[str] = field(default_factory=set)
    """Output paths given to an input already (each input gets its own)."""


@command(app)
@pipe_safe
def fix(
    paths: Paths,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite each file (only if it changes).")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write here: a file, or a directory (DIR/) for several.",
            show_default="stdout",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", "-n", help="Write nothing; list what would change.")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print a unified diff instead of the fixed text.")
    ] = False,
    only: OnlyOption = None,
    skip: SkipOption = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="How changes are listed.")
    ] = OutputFormat.text,
    event: Annotated[
        bool,
        typer.Option(
            "--event",
            help="Also fill ScoreMP, ScoreIMP and ScorePercentage from scoring each event "
            "(with the method its Scoring tag names) over all the inputs.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary line.")] = False,
) -> None:
    """Fill in or correct what each PBN record determines by itself; change nothing else.

    Dealer, Vulnerable, the fourth hand, Contract, Declarer, Result, Score and note numbers
    are filled in when missing and corrected when the rest of the record contradicts them
    (docs/fix.md says when); every other byte stays as it was: comments, layout, line ends
    and encoding.  Each change is a FIX finding, file:line:column: info FIXnnn old → new:
    why.  The fixed text goes to stdout (one input), back into each file (--in-place: only
    when it changes, atomically) or under -o; --dry-run and --diff write nothing.

    Inputs: PBN files (another format is FIX012), directories (every file in them),
    archives and - for stdin (their fixed text goes to stdout or -o: only a file on disk
    can be fixed --in-place).

    Examples:
        pbntool fix --dry-run fixtures/sample/
            List what would change in every file of a folder; exit 1 if something would.
        pbntool fix --diff fixtures/sample/event.pbn
            Show the changes as a unified diff; nothing is written.

    Exit 1: an input is not PBN (FIX012), or, with --dry-run or --diff alone, a change is
    due.
    """
    from pbntool.tools.fix import FixOptions

    paths = paths or []
    if not paths:
        raise typer.BadParameter("give the files to fix (or - for stdin)", param_hint="PATH")
    sources = list(iter_inputs(paths))
    options = FixOptions(only=_chosen_tags(only, skip))
    if event:
        if "-" in paths:
            raise typer.BadParameter("--event reads its inputs twice: not stdin", param_hint="-")
        from pbntool.tools.fix.from_event import event_score_source

        records = (record for source in sources for record in read_input(source))
        options = FixOptions(only=options.only, event_scores=event_score_source(records))
    plan = _plan(sources, paths, in_place, output, dry_run, diff)
    checking = (dry_run or diff) and not in_place and output is None
    # Changes are listed on stdout unless the fixed text or the diff goes there.
    listed = sys.stderr if plan.to_stdout or diff else sys.stdout
    tally = Tally(fixing=True, changes_fail=checking)

    def report(diagnostic: Diagnostic) -> None:
        print_diagnostic(diagnostic, output_format, listed)
        tally.count_diagnostic(diagnostic)

    for source in sources:
        tally.inputs += 1
        result = _fix_one(source, options, plan, report)
        tally.boards += result.boards
        tally.changes += result.changes
        tally.changed_inputs += result.changed
        tally.refused += result.refused
    listed.flush()
    raise typer.Exit(tally.finish(sys.stderr, quiet=quiet))


def _chosen_tags(only: list[str] | None, skip: list[str] | None) -> frozenset[str]:
    from pbntool.tools.fix import FIXABLE_TAGS, only_tags

    try:
        chosen = only_tags(_names(only)) if only else frozenset(FIXABLE_TAGS)
        skipped = only_tags(_names(skip)) if skip else frozenset()
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--only/--skip") from None
    return chosen - skipped


def _names(option: list[str]) -> list[str]:
    return [name.strip() for item in option for name in item.split(",") if name.strip()]


def _plan(
    sources: list[Input],
    paths: list[str],
    in_place: bool,
    output_text: str | None,
    dry_run: bool,
    diff: bool,
) -> _Plan:
    output = Path(output_text) if output_text else None
    if in_place and output is not None:
        raise typer.BadParameter("give --in-place or --output, not both", param_hint="--in-place")
    if dry_run and (in_place or output is not None):
        raise typer.BadParameter("--dry-run writes nothing", param_hint="--dry-run")
    if in_place and "-" in paths:
        raise typer.BadParameter("stdin cannot be fixed in place", param_hint="--in-place")
    to_stdout = not (in_place or output is not None or dry_run or diff)
    if to_stdout and len(sources) > 1:
        raise typer.BadParameter(
            "several inputs: give --in-place, --output DIR, --dry-run or --diff",
            param_hint="PATH",
        )
    roots = tuple(Path(path) for path in paths if path != "-" and Path(path).is_dir())
    # A directory: one that exists or is named with a trailing slash, or several inputs.
    named_dir = output_text is not None and output_text.endswith(("/", os.sep))
    into_directory = output is not None and (
        named_dir or output.is_dir() or len(sources) > 1 or bool(roots)
    )
    inputs = InputFiles.of(paths)
    return _Plan(in_place, output, into_directory, to_stdout, diff, roots, inputs)


def _fix_one(source: Input, options: FixOptions, plan: _Plan, report: Report) -> FixResult:
    from pbntool.tools.fix import FixResult, fix_input
    from pbntool.tools.fix.files import fix_in_place, fix_to_path, unified_diff

    if source.problem is not None:
        result = FixResult(source.name, fixed=False, report=report)
        result.add(source.problem)
        return result
    refusal = plain_file_problem(source.path, source.name) if plan.in_place else None
    if refusal is not None:
        return _refused(source, source.name, refusal, report)
    opener = _opener(source)
    before = _read_all(opener) if plan.diff else None
    after: bytes | None = None
    if plan.in_place and source.path is not None:
        try:
            result = fix_in_place(source.path, options, report)
        except OSError as error:
            return _refused(source, source.name, _reason(error), report)
        after = source.path.read_bytes() if plan.diff and result.fixed else None
    elif plan.output is not None:
        target, refusal, shortened = _target(source, plan)
        if refusal is not None:
            return _refused(source, str(target), refusal, report)
        try:
            result = fix_to_path(opener, source.name, target, options, report, plan.inputs)
        except WriteRefused:
            return _refused(source, str(target), "it is one of the inputs", report)
        except OSError as error:
            return _refused(source, str(target), _reason(error), report)
        if shortened is not None:
            wanted, limit = shortened
            found = ARC008.at(name=wanted, limit=limit, target=str(target))
            result.add(Diagnostic(found.code, found.severity, found.message, source.name))
        after = target.read_bytes() if plan.diff and result.fixed else None
    elif plan.to_stdout:
        result = fix_input(opener, source.name, sys.stdout.buffer, options, report)
        sys.stdout.buffer.flush()
    else:
        fixed = io.BytesIO() if plan.diff else None
        result = fix_input(opener, source.name, fixed, options, report)
        after = fixed.getvalue() if fixed is not None and result.fixed else None
    if before is not None and after is not None:
        for line in unified_diff(before, after, source.name):
            sys.stdout.write(line + "\n")
    return result


def _opener(source: Input) -> Callable[[], BinaryIO]:
    """Opens the input from its start, as often as fix needs (stdin is read once)."""
    path = source.path
    if path is None:
        # stdin (already sniffed: source.open() replays it) or an archive member: read once.
        with source.open() as stream:
            data = stream.read()
        return lambda: io.BytesIO(data)
    return lambda: open(path, "rb")


def _read_all(opener: Callable[[], BinaryIO]) -> bytes | None:
    try:
        with opener() as stream:
            return stream.read()
    except OSError:
        return None


def _reason(error: OSError) -> str:
    """Why a write failed, as ARC007 says it ("output X not written: <reason>")."""
    return write_error(error.filename or "it", error).partition(": ")[2]


def _refused(source: Input, target: str, reason: str, report: Report) -> FixResult:
    from pbntool.tools.fix import FixResult

    result = FixResult(source.name, fixed=False, report=report)
    found = ARC007.at(target=target, reason=reason)
    result.add(Diagnostic(found.code, found.severity, found.message, source.name))
    return result


def _target(source: Input, plan: _Plan) -> tuple[Path, str | None, tuple[str, int] | None]:
    """Where an input's fixed copy goes, and why it must not (None: it may): ``-o`` itself,
    or a path inside it that keeps the input's path below the directory named on the
    command line (an archive member's below the archive's name); every input gets a path of
    its own, and none leads out of the directory.  A name longer than the file system takes
    is shortened: then also the name wanted and the limit (for ARC008)."""
    assert plan.output is not None
    if not plan.into_directory:
        return plan.output, None, None
    from pbntool.run.outputs import fit_names

    relative = _relative(source, plan)
    fitted, limit = fit_names(plan.output, relative)
    target = plan.output / _unique(fitted, plan.taken)
    shortened = None if limit is None else (str(plan.output / relative), limit)
    try:
        return target, inside_directory_problem(plan.output, target), shortened
    except OSError as error:  # a path longer than the system allows, and the like
        return target, f"cannot write: {error.strerror or error}", shortened


def _relative(source: Input, plan: _Plan) -> PurePosixPath:
    if source.path is not None:
        for root in plan.roots:
            if source.path.is_relative_to(root):
                return PurePosixPath(source.path.relative_to(root).as_posix())
        return PurePosixPath(source.path.name)
    relative = source.relative or "stdin.pbn"
    parts = [part for part in relative.split("/") if part not in ("", ".", "..")]
    path = PurePosixPath(*parts) if parts else PurePosixPath("stdin.pbn")
    return path if path.suffix else path.with_suffix(".pbn")


def _unique(relative: PurePosixPath, taken: set[str]) -> PurePosixPath:
    """``relative``, or ``name-2.pbn``, ``name-3.pbn`` … when another input has it."""
    candidate, number = relative, 1
    while candidate.as_posix().lower() in taken:
        number += 1
        candidate = relative.with_name(f"{relative.stem}-{number}{relative.suffix}")
    taken.add(candidate.as_posix().lower())
    return candidate
