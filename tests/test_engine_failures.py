"""A failing worker or task costs one unit, never the batch, and never prints a traceback.

A worker process that dies (``os._exit``) breaks the pool: the unit is run again in the main
process and new workers take the next units.  A task that raises in the main process too
becomes one INT001 record for that unit.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import dumps
from pbntool.records import Record
from pbntool.run.engine import (
    GROUP_UNITS,
    UNBOUNDED,
    InlineEngine,
    ProcessEngine,
    UnitResult,
    run_ordered,
)
from pbntool.run.tasks import Entry, Renderer
from pbntool.run.units import Work, plan_input
from pbntool.text.inputs import Input


@dataclass(frozen=True, slots=True)
class DiesInWorkers:
    """Renders board numbers; a worker process exits abruptly on its first record."""

    marks = False

    def renderer(self) -> Renderer:
        def render(record: Record) -> Entry:
            if multiprocessing.parent_process() is not None:
                os._exit(3)
            number = record.board.number if record.board is not None else None
            return Entry(f"{number}\n", "", record.board is not None)

        return render


@dataclass(frozen=True, slots=True)
class AlwaysFails:
    marks = False

    def renderer(self) -> Renderer:
        def render(record: Record) -> Entry:
            raise ValueError("a bug in a task")

        return render


class _Raising:
    def done(self) -> bool:
        return True

    def result(self) -> UnitResult:
        raise RuntimeError("the worker went away")


class FailingEngine:
    window = 2
    window_weight = UNBOUNDED

    def submit(self, task: object, work: Work) -> _Raising:
        return _Raising()

    def planned_all(self) -> None:
        pass

    def close(self, cancel: bool = False) -> None:
        pass


def _source(boards: int) -> Input:
    data = dumps(list(random_boards(51, boards))).encode()
    return Input("f.pbn", None, opener=lambda: io.BytesIO(data))


def test_a_dead_worker_costs_nothing_but_time(monkeypatch: object) -> None:
    os.environ["PBNTOOL_SLICE_CHARS"] = "20000"
    try:
        engine = ProcessEngine(2)
        results = list(run_ordered(plan_input(_source(300), None, True), DiesInWorkers(), engine))
        engine.close()
    finally:
        del os.environ["PBNTOOL_SLICE_CHARS"]
    text = "".join(chunk.out for _, result in results for chunk in result.chunks)
    assert text == "".join(f"{number}\n" for number in range(1, 301))
    assert len(results) > 3


def test_a_unit_that_fails_everywhere_is_one_int001_record() -> None:
    results = list(run_ordered(plan_input(_source(5), None, True), AlwaysFails(), FailingEngine()))
    chunks = [chunk for _, result in results for chunk in result.chunks]
    findings = [finding for chunk in chunks for finding in chunk.findings]
    assert [code for code, _, _ in findings] == ["INT001"]
    assert findings[0][2]  # counted as input not read: exit code 2
    assert "internal error" in chunks[0].err and "a bug in a task" in chunks[0].err


def test_inline_engine_is_the_reference() -> None:
    results = list(run_ordered(plan_input(_source(7), None, True), DiesInWorkers(), InlineEngine()))
    text = "".join(chunk.out for _, result in results for chunk in result.chunks)
    assert text == "".join(f"{number}\n" for number in range(1, 8))


class PlainWriter:
    """A writer that numbers its boards: not a FragmentWriter (no begin/resume)."""

    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream
        self.count = 0

    def write(self, board: object, file: str | None = None) -> list[object]:
        self.count += 1
        self.stream.write(f"<{self.count}:{getattr(board, 'number', None)}>")
        return []

    def close(self) -> None:
        self.stream.write("END\n")


def test_a_writer_without_fragments_converts_in_one_process(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from typer.testing import CliRunner

    from pbntool.cli import app
    from pbntool.formats import REGISTRY, Format

    plain = dataclasses.replace(REGISTRY[Format.XML], writer=f"{__name__}:PlainWriter")
    monkeypatch.setitem(REGISTRY, Format.XML, plain)
    path = Path(str(tmp_path)) / "x.pbn"
    path.write_text(dumps(list(random_boards(52, 4))), encoding="utf-8", newline="")
    result = CliRunner().invoke(app, ["convert", str(path), "--to", "xml", "-j", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "<1:1><2:2><3:3><4:4>END\n"
    # -o DIR/: one process too, one writer per output file (WholeFileDestination).
    out = Path(str(tmp_path)) / "out"
    result = CliRunner().invoke(app, ["convert", str(path), "--to", "xml", "-o", f"{out}/"])
    assert result.exit_code == 0, result.output
    assert [p.read_text() for p in out.iterdir()] == ["<1:1><2:2><3:3><4:4>END\n"]


@dataclass(frozen=True, slots=True)
class FailsInWorkersOn:
    """Renders board numbers and files; raises in a worker on the records of one file."""

    name: str
    marks = False

    def renderer(self) -> Renderer:
        def render(record: Record) -> Entry:
            if multiprocessing.parent_process() is not None and record.file.endswith(self.name):
                raise ValueError("a bug that only workers meet")
            number = record.board.number if record.board is not None else None
            return Entry(f"{Path(record.file).name} {number}\n", "", record.board is not None)

        return render


def _small_files(folder: Path, count: int) -> list[Input]:
    inputs = []
    for index in range(count):
        path = folder / f"f{index:03}.pbn"
        path.write_text(dumps(list(random_boards(60 + index, 1))), encoding="utf-8")
        inputs.append(Input(str(path), path, size=path.stat().st_size))
    return inputs


def _output(inputs: list[Input], task: object, engine: object) -> str:
    planned = (plan for source in inputs for plan in plan_input(source, None, True))
    results = run_ordered(planned, task, engine)  # type: ignore[arg-type]
    return "".join(chunk.out for _, result in results for chunk in result.chunks)


@pytest.mark.parametrize("task", [FailsInWorkersOn("f007.pbn"), DiesInWorkers()], ids=repr)
def test_small_files_go_to_workers_in_groups_and_a_failure_costs_its_own_units(
    tmp_path: Path, task: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small local files travel in groups (one round trip to a worker for many files); a
    unit that fails in a worker, or a worker that dies with a group, is run again here, and
    the output is what one process gives."""
    inputs = _small_files(tmp_path, 3 * GROUP_UNITS // 2)
    expected = _output(inputs, FailsInWorkersOn("none"), InlineEngine())
    engine = ProcessEngine(2, inline_budget=0)  # the pool starts with the first unit
    sent: list[str] = []
    send = engine._send

    def counted(function, *arguments):  # type: ignore[no-untyped-def]
        sent.append(function.__name__)
        return send(function, *arguments)

    monkeypatch.setattr(engine, "_send", counted)
    try:
        got = _output(inputs, task, engine)
    finally:
        engine.close()
    if isinstance(task, DiesInWorkers):
        expected = "".join(f"{line.split()[1]}\n" for line in expected.splitlines())
    assert got == expected
    assert set(sent) == {"run_group"}
    assert 2 <= len(sent) < len(inputs) // 4
