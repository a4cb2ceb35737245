"""Where ``convert`` writes: one stream, one file per input (``-o DIR``), and ``--split N``.

Parts rendered by workers are joined here; the header and footer of each output file come
from a writer of the main process (see ``pbntool.formats.writing.FragmentWriter``).  Under
``-o DIR`` nothing is ever written outside DIR: output paths are built from safe names only (archive
members with unsafe names are never read), every directory on the way is checked after it is
made, a symbolic link is never written through, an input is never overwritten, and two inputs
never share an output.  A refused output is an ``ARC007`` diagnostic, not an exception.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TextIO, cast

from pbntool.diagnostics import ARC007, ARC008, Diagnostic
from pbntool.formats import SPECS, Format, spec_of
from pbntool.formats.writing import BoardWriter, open_writer
from pbntool.model import Board
from pbntool.run.spool import SpoolCopier, spool_ready
from pbntool.run.tasks import Chunk
from pbntool.text.edit import AtomicFile, InputFiles, inside_directory_problem, write_whole
from pbntool.text.inputs import Input

__all__ = [
    "Destination",
    "DirectoryDestination",
    "FileDestination",
    "StreamDestination",
    "WholeFileDestination",
    "fit_names",
    "output_stem",
]


def _input_suffixes() -> tuple[str, ...]:
    """Suffixes an output name drops from its input's name: every format's, longest first."""
    suffixes = {suffix for spec in SPECS for suffix in spec.suffixes} | {".txt"}
    return tuple(sorted(suffixes, key=lambda suffix: (-len(suffix), suffix)))


class Destination:
    """Receives chunks in order, with the input they came from."""

    def write(self, source: Input, chunk: Chunk) -> list[Diagnostic]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        """The run failed: drop the output file being written (finished ones stay)."""


@dataclass
class _Output:
    """One open output file (or stream) and its writer; a file is complete only once
    ``finish`` renamed it into place (``abort`` drops it)."""

    stream: TextIO
    writer: BoardWriter
    file: AtomicFile | None = None
    boards: int = 0

    def finish(self) -> None:
        self.writer.close()
        self.stream.flush()
        if self.file is not None:
            self.file.commit()

    def abort(self) -> None:
        if self.file is not None:
            self.file.abort()


_OpenNext = Callable[[], tuple[_Output | None, list[Diagnostic]]]


class StreamDestination(Destination):
    """Everything into one stream (stdout, or ``-o FILE`` without ``--split``)."""

    def __init__(self, stream: TextIO, form: Format, options: object | None = None) -> None:
        self._output = _Output(stream, open_writer(form, stream, options))
        self._begun = False
        self._spooled = SpoolCopier(stream)

    def write(self, source: Input, chunk: Chunk) -> list[Diagnostic]:
        if chunk.out or chunk.spool is not None:
            if not self._begun:
                self._output.writer.begin()  # type: ignore[attr-defined]
                self._begun = True
            if chunk.spool is not None:
                self._spooled.copy(chunk.spool)
            else:
                self._spooled.flush()  # the text before this one first
                write_whole(self._output.stream, chunk.out)
        return []

    def takes_spooled(self) -> bool:
        """Whether spooled chunks can go into this stream byte for byte (``spool_ready``)."""
        return spool_ready(self._output.stream)

    def close(self) -> None:
        self._spooled.flush()
        self._output.finish()

    def abort(self) -> None:
        self._spooled.drop()


@dataclass
class _Splitter:
    """Cuts a run of board texts into files of at most ``limit`` boards."""

    limit: int | None
    current: _Output | None = None

    def feed(self, chunk: Chunk, open_next: _OpenNext) -> list[Diagnostic]:
        text, marks = chunk.out, chunk.marks or ()
        if not text:
            return []
        if self.limit is None or not marks:
            return self._write(text, chunk.boards, open_next)
        problems: list[Diagnostic] = []
        start = 0
        for mark in marks:
            problems += self._write(text[start:mark], 1, open_next)
            start = mark
        if start < len(text):
            problems += self._write(text[start:], 0, open_next)
        return problems

    def _write(self, text: str, boards: int, open_next: _OpenNext) -> list[Diagnostic]:
        full = self.current is not None and self.current.boards >= (self.limit or 0)
        if full and self.limit is not None and boards:
            self.end()
        problems: list[Diagnostic] = []
        if self.current is None:
            self.current, problems = open_next()
            if self.current is None:
                return problems
        self.current.stream.write(text)
        self.current.boards += boards
        return problems

    def end(self) -> None:
        if self.current is not None:
            self.current.finish()
            self.current = None

    def abort(self) -> None:
        if self.current is not None:
            self.current.abort()
            self.current = None


@dataclass
class _Target:
    """Makes the files of one output name: ``x.jsonl`` or ``x-0001.jsonl``, ``x-0002.jsonl``."""

    root: Path
    relative: PurePosixPath
    form: Format
    split: bool
    source: Input
    written: set[str]
    inputs: InputFiles | None = None
    part: int = 0
    refused: bool = False
    options: object | None = None
    """The writer's own options (see ``open_writer``)."""

    def open_file(self) -> tuple[AtomicFile | None, list[Diagnostic]]:
        """The next output file (binary when the format's writer takes bytes), or the ARC007
        that refused it (and every later one of this name)."""
        if self.refused:
            return None, []
        self.part += 1
        spec = spec_of(self.form)
        suffix = spec.output_suffix
        part = f"-{self.part:04d}" if self.split else ""
        limit = _name_max(self.root)
        relative, shortened = _fitting(self.relative, part + suffix, limit)
        target = self.root.joinpath(*relative.parts)
        found: list[Diagnostic] = []
        if shortened:
            wanted = self.root.joinpath(*self.relative.parts)
            shown = _shown(f"{wanted}{part}{suffix}")
            found.append(self._placed(ARC008.at(name=shown, limit=limit, target=str(target))))
        try:
            problem = _refusal(self.root, target, self.source, self.written, self.inputs)
        except OSError as error:  # a path longer than the system allows, and the like
            problem = f"cannot write: {error.strerror or error}"
        file = None
        if problem is None:
            try:
                file = AtomicFile(target, binary=spec.binary)
            except OSError as error:
                problem = f"cannot write: {error.strerror or error}"
        if problem is not None:
            self.refused = True
            found.append(self._placed(ARC007.at(target=_shown(str(target)), reason=problem)))
            return None, found
        assert file is not None
        self.written.add(os.path.realpath(target))
        return file, found

    def open_next(self) -> tuple[_Output | None, list[Diagnostic]]:
        file, problems = self.open_file()
        if file is None:
            return None, problems
        writer = open_writer(self.form, file.stream, self.options)
        writer.begin()  # type: ignore[attr-defined]
        return _Output(cast(TextIO, file.stream), writer, file), problems

    def _placed(self, diagnostic: Diagnostic) -> Diagnostic:
        return Diagnostic(
            diagnostic.code, diagnostic.severity, diagnostic.message, self.source.name
        )


NAME_MAX = 255
"""Bytes in one file or directory name on most file systems (used when the system does not
say)."""


def fit_names(root: Path, relative: PurePosixPath) -> tuple[PurePosixPath, int | None]:
    """``relative`` (under ``root``) with every name the file system would refuse as too long
    shortened, its suffix kept; and the limit in bytes when a name was (else None)."""
    limit = _name_max(root)
    suffix = relative.suffix if len(relative.suffix) <= 16 else ""
    stem = relative.with_name(relative.name[: len(relative.name) - len(suffix)] or "input")
    fitted, changed = _fitting(stem, suffix, limit)
    return fitted, (limit if changed else None)


def _name_max(root: Path) -> int:
    """The longest name (in bytes) the file system under ``root`` takes."""
    try:
        return int(os.pathconf(root, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return NAME_MAX


def _fitting(relative: PurePosixPath, ending: str, limit: int) -> tuple[PurePosixPath, bool]:
    """``relative`` (its last name followed by ``ending``) with every name longer than
    ``limit`` bytes shortened: its start, ``~`` and 8 hex digits of a hash of the whole name
    (so two long names that start alike stay apart); and whether any was."""
    parts = list(relative.parts)
    changed = False
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        tail = ending if last else ""
        if len((part + tail).encode("utf-8", "surrogateescape")) <= limit:
            continue
        digest = hashlib.sha256(part.encode("utf-8", "surrogateescape")).hexdigest()[:8]
        room = limit - len(tail.encode("utf-8", "surrogateescape")) - 9
        start = part[: max(room, 1)]  # a character is at least one byte
        while len(start) > 1 and len(start.encode("utf-8", "surrogateescape")) > room:
            start = start[:-1]
        parts[index] = f"{start}~{digest}"
        changed = True
    if not parts:
        parts = ["input"]
    parts[-1] += ending
    return PurePosixPath(*parts), changed


def _shown(name: str, keep: int = 160) -> str:
    """A path fit to print on one line of a finding."""
    return name if len(name) <= keep else f"{name[: keep // 2]}…{name[-keep // 2 :]}"


def _refusal(
    root: Path, target: Path, source: Input, written: set[str], inputs: InputFiles | None
) -> str | None:
    """Why ``target`` must not be written (None when it may)."""
    problem = inside_directory_problem(root, target)
    if problem is not None:
        return problem
    if os.path.join(os.path.realpath(target.parent), target.name) in written:
        return "another input was already written there"
    if source.path is not None and target.exists():
        try:
            if os.path.samefile(source.path, target):
                return "it is the input itself"
        except OSError:
            pass
    if inputs is not None and inputs.holds(target):
        return "it is one of the inputs (not read yet, or read already)"
    return None


def output_stem(source: Input) -> PurePosixPath:
    """The output path of an input under DIR, without suffix (``dir/x`` for ``dir/x.pbn``)."""
    relative = source.relative or PurePosixPath(source.name.replace("!", "/")).name or "input"
    path = PurePosixPath(*[part for part in relative.split("/") if part not in ("", ".", "..")])
    if not path.parts:
        path = PurePosixPath("input")
    name = path.name
    for suffix in _input_suffixes():
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return path.with_name(name[: -len(suffix)])
    return path


@dataclass
class DirectoryDestination(Destination):
    """``-o DIR``: one output per input (``--split N``: files of at most N boards each)."""

    root: Path
    form: Format
    split: int | None = None
    inputs: InputFiles | None = None
    options: object | None = None
    _written: set[str] = field(default_factory=set)
    _source: Input | None = None
    _target: _Target | None = None
    _splitter: _Splitter | None = None

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)

    def write(self, source: Input, chunk: Chunk) -> list[Diagnostic]:
        if source is not self._source:
            self._end()
            self._source = source
            stem = output_stem(source)
            self._target = _Target(
                self.root,
                stem,
                self.form,
                self.split is not None,
                source,
                self._written,
                self.inputs,
                options=self.options,
            )
            self._splitter = _Splitter(self.split)
        assert self._splitter is not None and self._target is not None
        return self._splitter.feed(chunk, self._target.open_next)

    def _end(self) -> None:
        if self._splitter is not None:
            self._splitter.end()

    def close(self) -> None:
        self._end()

    def abort(self) -> None:
        if self._splitter is not None:
            self._splitter.abort()


@dataclass
class FileDestination(Destination):
    """``-o FILE --split N``: ``FILE-0001.ext``, ``FILE-0002.ext`` … of N boards each."""

    path: Path
    form: Format
    split: int
    inputs: InputFiles | None = None
    options: object | None = None
    _written: set[str] = field(default_factory=set)
    _target: _Target | None = None
    _splitter: _Splitter | None = None

    def write(self, source: Input, chunk: Chunk) -> list[Diagnostic]:
        if self._target is None:
            stem = output_stem(Input(self.path.name, None, relative=self.path.name))
            root = self.path.parent if str(self.path.parent) else Path(".")
            self._target = _Target(
                root,
                stem,
                self.form,
                True,
                source,
                self._written,
                self.inputs,
                options=self.options,
            )
            self._splitter = _Splitter(self.split)
        assert self._splitter is not None
        self._target.source = source
        return self._splitter.feed(chunk, self._target.open_next)

    def close(self) -> None:
        if self._splitter is not None:
            self._splitter.end()

    def abort(self) -> None:
        if self._splitter is not None:
            self._splitter.abort()


# --- writers that write whole files ------------------------------------------------------------


def _not_written(losses: list[Diagnostic]) -> bool:
    """Whether the writer refused the board outright (OUT021: it is not in the file)."""
    return any(loss.code == "OUT021" for loss in losses)


@dataclass
class _WholeOutput:
    """One output file of a whole-file writer, and how many boards it holds."""

    file: AtomicFile
    writer: BoardWriter
    boards: int = 0

    def finish(self) -> None:
        """Write the file (the writer renders it at close) and rename it into place; a file
        that holds no board is dropped (there is nothing a machine could read in it)."""
        if not self.boards:
            self.file.abort()
            return
        try:
            self.writer.close()
            self.file.stream.flush()
        except BaseException:
            self.file.abort()
            raise
        self.file.commit()


@dataclass
class WholeFileDestination:
    """``-o DIR`` and ``--split N`` for formats whose writer renders a whole file at once (a
    DUP trailer and a DLM header name the board range; USEBIO puts the standings before the
    boards): boards reach one writer per output file, in this process.

    Under ``-o DIR`` each input gets its own file, named as for text formats; with ``--split
    N`` every output (per input under DIR, else ``FILE-0001.ext`` … across the inputs) holds
    at most N boards.  A board the writer refuses (OUT021) does not count towards N.  Files
    go through ``AtomicFile`` (binary for binary formats: no newline translation), so a run
    that fails leaves no partial file.
    """

    root: Path
    form: Format
    split: int | None = None
    inputs: InputFiles | None = None
    directory: bool = True
    """True: ``-o DIR`` (one output name per input); False: ``-o FILE --split N``."""
    _written: set[str] = field(default_factory=set)
    _source: Input | None = None
    _target: _Target | None = None
    _current: _WholeOutput | None = None

    def __post_init__(self) -> None:
        if self.directory:
            self.root.mkdir(parents=True, exist_ok=True)

    def write(self, source: Input, board: Board, file: str | None = None) -> list[Diagnostic]:
        """Write one board of ``source``; returns the writer's losses and any refusal."""
        problems: list[Diagnostic] = []
        if self._target is None or (self.directory and source is not self._source):
            self._end()
            self._target = self._new_target(source)
        self._source = source
        self._target.source = source
        full = self._current is not None and self.split is not None
        if full and self._current is not None and self._current.boards >= (self.split or 0):
            self._end()
        if self._current is None:
            opened, problems = self._target.open_file()
            if opened is None:
                return problems
            self._current = _WholeOutput(opened, open_writer(self.form, opened.stream))
        losses = self._current.writer.write(board, file)
        if not _not_written(losses):
            self._current.boards += 1
        return problems + losses

    def _new_target(self, source: Input) -> _Target:
        if self.directory:
            stem = output_stem(source)
            split = self.split is not None
            return _Target(self.root, stem, self.form, split, source, self._written, self.inputs)
        stem = output_stem(Input(self.root.name, None, relative=self.root.name))
        parent = self.root.parent if str(self.root.parent) else Path(".")
        return _Target(parent, stem, self.form, True, source, self._written, self.inputs)

    def _end(self) -> None:
        current, self._current = self._current, None
        if current is not None:
            current.finish()

    def close(self) -> None:
        self._end()

    def abort(self) -> None:
        current, self._current = self._current, None
        if current is not None:
            current.file.abort()
