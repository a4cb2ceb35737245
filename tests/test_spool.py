"""Spooled output: a worker's large text goes to a file in memory and from there into the
output, byte for byte what writing the text would give (``pbntool.run.spool``)."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats import Format
from pbntool.formats.pbn.writer import dumps
from pbntool.run import spool
from pbntool.run.engine import InlineEngine, ProcessEngine, UnitResult, run_ordered
from pbntool.run.spool import (
    SpoolCopier,
    open_spool_directory,
    set_worker_directory,
    spool_ready,
    spooled_results,
)
from pbntool.run.tasks import Chunk, ConvertTask
from pbntool.run.units import plan_input
from pbntool.text.inputs import Input

MODULE = [sys.executable, "-m", "pbntool"]


@pytest.fixture
def worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This process as a worker that spools into ``tmp_path`` texts of 100 characters up."""
    monkeypatch.setenv("PBNTOOL_SLICE_CHARS", "100")
    set_worker_directory(str(tmp_path))
    yield tmp_path
    set_worker_directory(None)


def _result(*texts: str) -> UnitResult:
    return UnitResult([Chunk(text, "", 1, 1, (), None) for text in texts])


def _output(tmp_path: Path) -> io.TextIOWrapper:
    return open(tmp_path / "out.txt", "w", encoding="utf-8", newline="")


def test_a_large_text_goes_to_one_file_and_comes_back_byte_for_byte(worker: Path) -> None:
    texts = ["♠AKQ " * 30, "", "x" * 50 + "\n", "é\r\n" * 40]
    error = ValueError("a unit that failed stays an exception")
    results = spooled_results([_result(*texts[:2]), error, _result(*texts[2:])])
    assert results[1] is error
    units = [result for result in results if isinstance(result, UnitResult)]
    chunks = [chunk for result in units for chunk in result.chunks]
    assert all(chunk.out == "" for chunk in chunks)
    places = [chunk.spool for chunk in chunks]
    assert places[1] is None  # no text, nothing to spool
    spooled = [place for place in places if place is not None]
    assert len({place.path for place in spooled}) == 1
    assert [place.last for place in spooled] == [False, False, True]
    assert [place.size for place in spooled] == [len(t.encode()) for t in texts if t]
    sizes = [place.size for place in spooled]
    assert [place.offset for place in spooled] == [0, sizes[0], sizes[0] + sizes[1]]

    out = _output(worker)
    out.write("[header]\n")
    copier = SpoolCopier(out)
    for place in spooled:
        copier.copy(place)
        copier.flush()
        out.write("|")  # text written after a flush lands after the copied text
    copier.flush()
    out.close()
    expected = "[header]\n" + "|".join(t for t in texts if t) + "|"
    assert (worker / "out.txt").read_bytes() == expected.encode()
    assert not Path(spooled[0].path).exists(), "the spool file outlived its last chunk"


def test_consecutive_chunks_of_a_file_are_copied_at_once(
    worker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = spooled_results([_result("a" * 150, "b" * 150), _result("c" * 150)])
    second = spooled_results([_result("d" * 150)])
    places = [chunk.spool for result in (*first, *second) for chunk in result.chunks]
    calls: list[int] = []
    real = os.sendfile

    def counted(target: int, source: int, offset: int, count: int) -> int:
        calls.append(count)
        return real(target, source, offset, count)

    monkeypatch.setattr(os, "sendfile", counted)
    out = _output(worker)
    copier = SpoolCopier(out)
    for place in places:
        assert place is not None
        copier.copy(place)
    copier.flush()
    out.close()
    assert (worker / "out.txt").read_text() == "a" * 150 + "b" * 150 + "c" * 150 + "d" * 150
    assert calls == [450, 150], "one sendfile per spool file"
    assert list(worker.iterdir()) == [worker / "out.txt"]


def test_small_unencodable_or_unwritable_texts_stay_in_the_chunk(worker: Path) -> None:
    small = spooled_results([_result("x" * 99)])
    assert small[0].chunks[0].out == "x" * 99 and small[0].chunks[0].spool is None
    surrogate = "\udc80" + "x" * 200  # the main process reports it as it writes
    assert spooled_results([_result(surrogate)])[0].chunks[0].out == surrogate
    set_worker_directory(str(worker / "gone"))  # as a full or vanished /dev/shm
    assert spooled_results([_result("y" * 200)])[0].chunks[0].out == "y" * 200
    assert list(worker.iterdir()) == []


def test_copier_falls_back_to_memory_where_sendfile_cannot(
    worker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [result] = spooled_results([_result("z" * 300)])
    place = result.chunks[0].spool
    assert place is not None

    def refuse(*args: object) -> int:
        raise OSError(errno.EINVAL, "not for this file")

    monkeypatch.setattr(os, "sendfile", refuse)
    out = _output(worker)
    out.write("a")
    SpoolCopier(out).copy(place)  # the last chunk of its file: copied at once
    out.write("b")
    out.close()
    assert (worker / "out.txt").read_text() == "a" + "z" * 300 + "b"


def test_only_a_utf8_stream_over_a_file_takes_spooled_bytes(tmp_path: Path) -> None:
    assert not spool_ready(io.StringIO())
    with open(tmp_path / "a", "w", encoding="latin-1") as latin:
        assert not spool_ready(latin)
    with open(tmp_path / "b", "w", encoding="utf-8", errors="replace") as lenient:
        assert not spool_ready(lenient)
    with open(tmp_path / "c", "w", encoding="UTF8") as plain:
        assert spool_ready(plain)


def test_directories_of_runs_that_are_gone_are_removed(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    abandoned = tmp_path / f"{spool.PREFIX}{gone.stdout.strip()}-abc"
    abandoned.mkdir()
    (abandoned / "1-1").write_text("left by a killed run")
    alive = tmp_path / f"{spool.PREFIX}{os.getpid()}-def"
    alive.mkdir()
    other = tmp_path / "someone-elses"
    other.mkdir()
    made = open_spool_directory(str(tmp_path))
    assert made is not None and Path(made).parent == tmp_path
    assert Path(made).name.startswith(f"{spool.PREFIX}{os.getpid()}-")
    assert not abandoned.exists()
    assert alive.exists() and other.exists()
    assert open_spool_directory(str(tmp_path / "none")) is None


def test_workers_spool_and_the_engine_removes_the_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real workers: the text of each slice comes back spooled, equal to the text of the
    same units run in this process, and closing the engine removes the spool directory."""
    if not os.path.isdir(spool.SHARED_MEMORY):
        pytest.skip("no /dev/shm on this system: the pipe carries every text")
    monkeypatch.setenv("PBNTOOL_SLICE_CHARS", "20000")
    path = tmp_path / "big.pbn"
    path.write_text(dumps(list(random_boards(11, 120))), encoding="utf-8", newline="")
    task = ConvertTask(Format.JSON)

    def texts(engine: InlineEngine | ProcessEngine) -> list[Chunk]:
        source = Input(str(path), path)
        return [chunk for _, result in run_ordered(plan_input(source, None, True), task, engine)
                for chunk in result.chunks]  # fmt: skip

    expected = "".join(chunk.out for chunk in texts(InlineEngine()))
    engine = ProcessEngine(2, spool=True, inline_budget=0)  # the pool starts at once
    try:
        chunks = texts(engine)
        directory = engine._spool.path if engine._spool is not None else None
        assert directory is not None, "no spool directory (no /dev/shm here?)"
        assert sum(chunk.spool is not None for chunk in chunks) >= 3
        out = _output(tmp_path)
        copier = SpoolCopier(out)
        for chunk in chunks:  # as StreamDestination writes them
            if chunk.spool is not None:
                copier.copy(chunk.spool)
            else:
                copier.flush()
                out.write(chunk.out)
        copier.flush()
        out.close()
    finally:
        engine.close()
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == expected
    assert not Path(directory).exists()


@pytest.mark.slow
def test_convert_with_workers_writes_what_one_process_writes(tmp_path: Path) -> None:
    """Through the CLI, to a file and to stdout (a pipe), spooled with small slices."""
    data = dumps(list(random_boards(29, 700)))
    (tmp_path / "big.pbn").write_text(data, encoding="utf-8", newline="")
    env = {**os.environ, "PBNTOOL_SLICE_CHARS": "8000"}
    before = _spool_directories()

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        command = [*MODULE, "convert", "big.pbn", "--to", "json", "-q", *args]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, check=True)

    run("-j", "1", "-o", "one.json")
    run("-j", "2", "-o", "two.json")
    piped = run("-j", "2")
    one = (tmp_path / "one.json").read_bytes()
    assert one.count(b"\n") == 700
    assert (tmp_path / "two.json").read_bytes() == one
    assert piped.stdout == one
    assert _spool_directories() <= before, "a run left its spool directory"


def _spool_directories() -> set[str]:
    root = Path(spool.SHARED_MEMORY)
    if not root.is_dir():
        return set()
    return {entry.name for entry in root.iterdir() if entry.name.startswith(spool.PREFIX)}
