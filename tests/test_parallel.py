"""Parallel and deterministic: slices of a file, any ``-j``, the same output byte for byte.

Two levels.  In this process, the planner and the engine driver run with a *deferred* engine
(results are computed only when asked for, with several units in flight) and tiny slices, so
that slices are sent with stale guesses of the state PBN games pass on (inheritance, version
and export lines, pending commentary); every record must still equal what reading the file
from start to end gives (hypothesis generates files that exercise each kind of state).
Through real processes, ``validate``, ``convert`` and ``score`` must print exactly the same
bytes for ``-j 1``, ``-j 2`` and ``-j 3`` on generated files, corpus files and an archive.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbntool.dev.generate import random_boards
from pbntool.diagnostics import ARC002
from pbntool.formats import pbn
from pbntool.formats.pbn.writer import dumps
from pbntool.records import Record, validate_record
from pbntool.run.engine import (
    UNBOUNDED,
    InlineEngine,
    ProcessEngine,
    UnitResult,
    run_ordered,
    run_work,
)
from pbntool.run.tasks import Entry, finding
from pbntool.run.units import Planned, Work, failure_record, plan_input
from pbntool.text.inputs import Input

REPO = Path(__file__).resolve().parent.parent
MODULE = [sys.executable, "-m", "pbntool"]


@dataclass(frozen=True, slots=True)
class ReprTask:
    """Renders everything a record holds, so that equal output means equal records."""

    marks = False

    def renderer(self):  # type: ignore[no-untyped-def]
        def render(record: Record) -> Entry:
            found = validate_record(record)
            text = repr((record.board, record.file, record.line, record.diagnostics, found))
            return Entry(text + "\n", "", record.board is not None, tuple(map(finding, found)))

        return render


class _Deferred:
    """A result computed only when asked for, like a future still running elsewhere."""

    def __init__(self, task: ReprTask, work: Work) -> None:
        self._task, self._work = task, work

    def done(self) -> bool:
        return False

    def result(self) -> UnitResult:
        return run_work(self._task, self._work)  # type: ignore[arg-type]


class DeferredEngine:
    """Keeps ``window`` units in flight before the first is run: the later ones are sent
    with the guesses known at that time, as with real workers."""

    def __init__(self, window: int) -> None:
        self.window = window
        self.window_weight = UNBOUNDED

    def submit(self, task: ReprTask, work: Work) -> _Deferred:
        return _Deferred(task, work)

    def planned_all(self) -> None:
        pass

    def close(self, cancel: bool = False) -> None:
        pass


def sequential(data: bytes, name: str = "f.pbn") -> str:
    render = ReprTask().renderer()
    return "".join(render(record).out for record in pbn.iter_records(io.BytesIO(data), name))


def planned_output(
    data: bytes, slice_chars: int, engine: object, name: str = "f.pbn"
) -> tuple[str, list[Planned]]:
    previous = os.environ.get("PBNTOOL_SLICE_CHARS")
    os.environ["PBNTOOL_SLICE_CHARS"] = str(slice_chars)
    try:
        source = Input(name, None, opener=lambda: io.BytesIO(data))
        plans: list[Planned] = []
        out: list[str] = []
        for plan, result in run_ordered(plan_input(source, None, True), ReprTask(), engine):  # type: ignore[arg-type]
            plans.append(plan)
            out.extend(chunk.out for chunk in result.chunks)
        return "".join(out), plans
    finally:
        if previous is None:
            del os.environ["PBNTOOL_SLICE_CHARS"]
        else:
            os.environ["PBNTOOL_SLICE_CHARS"] = previous


# --- generated files that use every kind of carried state ---------------------------------------

_VALUES = st.sampled_from(["Spring", "Autumn", "#", "##Club", "##", ""])


@st.composite
def pbn_files(draw: st.DrawFn) -> bytes:
    """Games with inherited values (#, ##), escape lines, tagless blocks, CRLF or LF."""
    boards = list(random_boards(draw(st.integers(0, 10_000)), draw(st.integers(1, 8))))
    games = dumps(boards).split("\r\n\r\n")
    parts: list[str] = []
    for index, game in enumerate(games):
        if not game.strip():
            continue
        lines = game.split("\r\n")
        out = []
        for line in lines:
            match = re.match(r'\[(Event|Site|Date|Scoring) "', line)
            if match and draw(st.booleans()):
                line = f'[{match.group(1)} "{draw(_VALUES)}"]'
            elif line.startswith("% EXPORT") and draw(st.booleans()):
                continue
            out.append(line)
        if index and draw(st.integers(0, 5)) == 0:
            parts.append(draw(st.sampled_from(["% PBN 1.0", "% EXPORT", "{ between }", "; x"])))
        parts.append("\r\n".join(out))
    newline = draw(st.sampled_from(["\r\n", "\n"]))
    text = "\r\n\r\n".join(parts) + "\r\n"
    return text.replace("\r\n", newline).encode()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=pbn_files(), slice_chars=st.integers(1, 3000), window=st.integers(1, 6))
def test_slices_read_exactly_like_the_whole_file(
    data: bytes, slice_chars: int, window: int
) -> None:
    expected = sequential(data)
    got, _ = planned_output(data, slice_chars, DeferredEngine(window))
    assert got == expected


def _inheriting_file() -> bytes:
    """Games whose Event changes every other game and is inherited in between."""
    boards = list(random_boards(5, 12))
    text = dumps(boards)
    games = text.split("\r\n\r\n")
    events = iter(["A", "#", "B", "#", "C", "#", "#", "D", "#", "E", "#", "#", "F"])
    rewritten = [
        re.sub(r'\[Event "[^"]*"\]', lambda _: f'[Event "{next(events)}"]', game)
        if "[Event" in game
        else game
        for game in games
    ]
    return "\r\n\r\n".join(rewritten).encode()


def test_a_wrong_guess_is_rerun_and_the_output_is_still_exact() -> None:
    data = _inheriting_file()
    expected = sequential(data)
    got, plans = planned_output(data, 1, DeferredEngine(4))
    assert got == expected
    tracker = plans[0].tracker
    assert tracker is not None
    assert tracker.reruns >= 1  # the stale guesses were caught
    assert any(plan.barrier for plan in plans)  # and the file went on slice after slice
    assert "PBN114" not in expected  # every "#" had an earlier value


def test_in_order_engine_never_reruns_and_cuts_at_games() -> None:
    data = _inheriting_file()
    got, plans = planned_output(data, 1, InlineEngine())
    assert got == sequential(data)
    assert len(plans) >= 12
    assert plans[0].tracker is not None and plans[0].tracker.reruns == 0


def test_export_header_guess_avoids_reruns_for_a_plain_export_file() -> None:
    data = dumps(list(random_boards(9, 40))).encode()
    got, plans = planned_output(data, 2000, DeferredEngine(5))
    assert got == sequential(data)
    tracker = plans[0].tracker
    assert tracker is not None and len(plans) > 5
    assert tracker.reruns == 0


def test_corpus_files_with_inheritance_split_exactly(corpus_dir: Path) -> None:
    chosen = []
    for path in sorted(corpus_dir.rglob("*")):
        if path.suffix.lower() == ".pbn" and path.is_file() and path.stat().st_size < 400_000:
            data = path.read_bytes()
            if b'"#' in data or b"% EXPORT" in data:
                chosen.append((path, data))
    assert len(chosen) >= 10
    for path, data in chosen[:40]:
        expected = sequential(data, path.name)
        got, _ = planned_output(data, 700, DeferredEngine(4), path.name)
        assert got == expected, path


def test_a_failure_in_the_middle_keeps_what_was_read() -> None:
    class Failing(io.RawIOBase):
        def __init__(self) -> None:
            # Past the reader's first 1 MiB chunk, so some games are read before it fails.
            games = dumps(list(random_boards(3, 30)))
            self._data = io.BytesIO((games * 90).encode())

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            data = self._data.read(min(len(buffer), 4096))
            if not data:
                raise OSError(5, "Input/output error")
            buffer[: len(data)] = data
            return len(data)

    source = Input("f.pbn", None, opener=lambda: io.BufferedReader(Failing(), 4096))
    results = list(run_ordered(plan_input(source, None, True), ReprTask(), InlineEngine()))
    text = "".join(chunk.out for _, result in results for chunk in result.chunks)
    assert text.count("Board(") >= 1000
    assert sum("SRC003" in line for line in text.splitlines()) == 1
    assert "Input/output error" in text.splitlines()[-1]
    expected_slices = sum(1 for _ in results)
    assert expected_slices >= 2


# --- real processes -------------------------------------------------------------------------------


def _run(args: list[str], cwd: Path, slice_chars: int = 4000) -> tuple[int, bytes, str]:
    env = {**os.environ, "PBNTOOL_SLICE_CHARS": str(slice_chars)}
    done = subprocess.run(
        [*MODULE, *args], cwd=cwd, capture_output=True, timeout=300, env=env, check=False
    )
    err = re.sub(r" in \d+\.\d\d s$", "", done.stderr.decode(), flags=re.M)
    # More jobs than cores are capped with a warning (a 2-core machine runs -j 3 as -j 2).
    err = re.sub(r"^.*-j \d+ is more than the \d+ cores here.*\n", "", err, flags=re.M)
    return done.returncode, done.stdout, err


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """A tree: generated games (some with errors and inheritance), corpus files, a zip."""
    root = tmp_path_factory.mktemp("parallel")
    text = dumps(list(random_boards(17, 300)))
    text = re.sub(r'\[Site "[^"]*"\]', '[Site "#"]', text, count=200)
    text = text.replace('[Result "9"]', '[Result "13"]')  # some CON findings
    (root / "a_generated.pbn").write_text(text, encoding="utf-8", newline="")
    picked = [
        path
        for path in sorted(corpus_dir.rglob("*"))
        if path.suffix.lower() == ".pbn" and path.is_file()
    ][::40]
    for index, path in enumerate(picked):
        (root / f"b_corpus_{index:02d}.pbn").write_bytes(path.read_bytes())
    with zipfile.ZipFile(root / "c_archive.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("inner/x.pbn", dumps(list(random_boards(23, 80))))
        archive.writestr("inner/y.pbn", text[: len(text) // 3])
    return root


COMMANDS = [
    ["validate", "--fail-on", "info"],
    ["validate", "--format", "json"],
    ["convert", "--to", "json"],
    ["convert", "--to", "pbn", "--validate"],
    ["score"],
    ["score", "--format", "json"],
    ["validate", "--max-errors", "7"],
]


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=lambda args: "-".join(args[:3]))
def test_output_is_identical_for_every_job_count(inputs: Path, command: list[str]) -> None:
    counts = (1, 2, 3) if command == COMMANDS[0] else (1, 2)
    runs = [_run([*command, ".", "-j", str(jobs)], inputs) for jobs in counts]
    assert runs[0][1], "the command printed nothing"
    assert all(run == runs[0] for run in runs)


@pytest.mark.slow
def test_one_big_file_is_split_and_uses_every_worker(tmp_path: Path) -> None:
    data = dumps(list(random_boards(31, 600)))
    (tmp_path / "big.pbn").write_text(data, encoding="utf-8", newline="")
    one = _run(["validate", "big.pbn", "-j", "1", "--format", "json"], tmp_path, 20_000)
    two = _run(["validate", "big.pbn", "-j", "2", "--format", "json"], tmp_path, 20_000)
    assert one == two
    assert one[0] == 0 and "600 boards" in one[2]


def _lines(records: Iterator[Record]) -> list[str]:
    return [repr(record.diagnostics) for record in records]


# --- JSON Lines: cut between lines, positions moved to the slice's place -------------------------


def stub_json_reader(stream: io.BufferedIOBase, name: str) -> Iterator[Record]:
    """A line-oriented reader for the splitter's test (the real one lives in jsonio)."""
    import json as json_module

    from pbntool.diagnostics import SRC007
    from pbntool.model import Board

    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            value = json_module.loads(raw)
        except ValueError:
            d = SRC007.at()
            found = (d.__class__(d.code, d.severity, d.message, name, number, 1),)
            yield Record(None, found, name, number)
            continue
        yield Record(Board(number=int(value["board"])), (), name, number)


def test_json_lines_are_cut_between_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from pbntool.formats import REGISTRY, Format

    stub = dataclasses.replace(REGISTRY[Format.JSON], reader=f"{__name__}:stub_json_reader")
    monkeypatch.setitem(REGISTRY, Format.JSON, stub)
    lines = [json_line(index) for index in range(1, 400)]
    lines[57] = "{not json"
    lines[311] = "  "
    data = ("\n".join(lines) + "\n").encode()
    render = ReprTask().renderer()
    whole = "".join(render(r).out for r in stub_json_reader(io.BytesIO(data), "x.jsonl"))  # type: ignore[arg-type]
    got, plans = planned_output(data, 500, DeferredEngine(3), "x.jsonl")
    assert len(plans) > 10
    assert got == whole
    assert "line=58" in got


def json_line(index: int) -> str:
    return f'{{"board": {index}, "deal": null}}'


# --- planning many small files ------------------------------------------------------------------


def test_a_small_local_file_is_planned_by_its_path_unread(tmp_path: Path) -> None:
    """The worker sniffs and reads it; the planner does not open it (it may even be gone by
    then: the worker reports that, as a whole-file read would)."""
    path = tmp_path / "small.pbn"
    path.write_text(dumps(random_boards(5, 2)), encoding="utf-8")
    source = Input(str(path), path, size=path.stat().st_size)
    path.unlink()  # planning must not need the file
    (plan,) = plan_input(source, None, local=True)
    work = plan.prepare()
    assert (work.kind, work.path, work.form, work.weight) == ("path", str(path), None, source.size)
    path.write_text(dumps(random_boards(5, 2)), encoding="utf-8")
    expected = sequential(path.read_bytes(), str(path))
    assert "".join(chunk.out for chunk in run_work(ReprTask(), work).chunks) == expected  # type: ignore[arg-type]
    # A small file that is not local (an archive member, stdin) is still read here.
    remote = Input(str(path), path, size=path.stat().st_size)
    (unit,) = plan_input(remote, None, local=False)
    assert unit.prepare().kind != "path"


@dataclass(frozen=True, slots=True)
class SlowReprTask:
    """``ReprTask`` at a millisecond a record, so that groups wait for a worker."""

    marks = False

    def renderer(self):  # type: ignore[no-untyped-def]
        import time

        render = ReprTask().renderer()

        def slow(record: Record) -> Entry:
            time.sleep(0.001)
            return render(record)  # type: ignore[no-any-return]

        return slow


def test_groups_still_waiting_at_the_end_are_cut_smaller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the last unit is planned, the groups no worker has taken are sent again in
    parts that shrink towards the end, so the workers finish together; the output is the
    same, in the same order."""
    import pbntool.run.engine as engine_module

    sources = []
    for index in range(400):
        path = tmp_path / f"{index:03}.pbn"
        path.write_text(dumps(random_boards(index, 1, play=False)), encoding="utf-8")
        sources.append(Input(str(path), path, size=path.stat().st_size))
    expected = [sequential(source.path.read_bytes(), source.name) for source in sources]  # type: ignore[union-attr]
    # Files of one board weigh a kilobyte: parts shrink to four of them, not thirty-two.
    monkeypatch.setattr(engine_module, "TAIL_PART_WEIGHT", 4 << 10)
    engine = ProcessEngine(2, inline_budget=0)  # the pool starts with the first unit
    sent: list[int] = []
    send = engine._send

    def counted(function, *arguments):  # type: ignore[no-untyped-def]
        if function is engine_module.run_group:
            sent.append(len(arguments[1]))
        return send(function, *arguments)

    monkeypatch.setattr(engine, "_send", counted)

    def planned() -> Iterator[Planned]:
        for source in sources:
            for plan in plan_input(source, None, local=True):
                plan.source = source
                yield plan

    try:
        got = [
            "".join(chunk.out for chunk in result.chunks)
            for _, result in run_ordered(planned(), SlowReprTask(), engine)  # type: ignore[arg-type]
        ]
    finally:
        engine.close()
    assert got == expected
    full = -(-400 // engine_module.GROUP_UNITS)
    assert len(sent) > full + 2, f"no group was cut: {sent}"
    assert sent[-1] < engine_module.GROUP_UNITS // 4, f"the last part is not small: {sent}"


class _Counting:
    """Completes nothing until asked; records the most units and bytes ever in flight."""

    def __init__(self, window: int, window_weight: int) -> None:
        self.window, self.window_weight = window, window_weight
        self.flying: list[Work] = []
        self.most_units = self.most_weight = 0

    def submit(self, task: ReprTask, work: Work) -> _Deferred:
        self.flying.append(work)
        self.most_units = max(self.most_units, len(self.flying))
        self.most_weight = max(self.most_weight, sum(w.weight for w in self.flying))
        engine = self

        class Flying(_Deferred):
            def result(self) -> UnitResult:
                engine.flying.remove(work)
                return super().result()

        return Flying(task, work)

    def planned_all(self) -> None:
        pass

    def close(self, cancel: bool = False) -> None:
        pass


def test_units_in_flight_are_bounded_by_count_and_by_weight(tmp_path: Path) -> None:
    sizes = [100] * 30 + [5000, 5000, 5000] + [100] * 10
    plans = []
    for index, boards in enumerate(size // 100 for size in sizes):
        path = tmp_path / f"{index:02}.pbn"
        path.write_text(dumps(random_boards(index, boards, play=False)), encoding="utf-8")
        plans.append(Input(str(path), path, size=path.stat().st_size))
    weights = [source.size or 0 for source in plans]
    heaviest = max(weights)
    engine = _Counting(window=12, window_weight=2 * heaviest)

    def planned() -> Iterator[Planned]:
        for source in plans:
            yield from plan_input(source, None, local=True)

    results = run_ordered(planned(), ReprTask(), engine)  # type: ignore[arg-type]
    out = [chunk.out for _, result in results for chunk in result.chunks]
    assert "".join(out) == "".join(sequential(Path(s.name).read_bytes(), s.name) for s in plans)
    assert engine.most_units == 12  # the small files fill the count window
    # The three heavy files are never in flight together (by count they could be): the head
    # is settled once the weight in flight reaches the bound.
    assert 2 * heaviest * 0.9 < engine.most_weight < 3 * heaviest


def test_a_record_made_by_the_planner_runs_in_a_worker_once_the_pool_is_up() -> None:
    """A finding the planner made (an archive member over its budget) goes to a worker when
    the pool has started: the record, its board-less diagnostics and all, must unpickle
    there (compiled, a frozen dataclass did not: the worker died and the pool hung)."""
    data = dumps(list(random_boards(5, 3))).encode()
    engine = ProcessEngine(2, inline_budget=0)  # the pool starts with the first unit
    failure = failure_record(
        "a.zip!b.pbn", ARC002.at(size="1048576", reason="the budget ran out"), line=1
    )
    try:
        work = Work("a.pbn", "bytes", None, data=data, weight=len(data))
        first = engine.submit(ReprTask(), work)  # type: ignore[arg-type]
        second = engine.submit(ReprTask(), Work("a.zip!b.pbn", "record", record=failure))  # type: ignore[arg-type]
        assert "ARC002" in "".join(chunk.out for chunk in second.result().chunks)
        assert first.result().chunks
    finally:
        engine.close()


@dataclass(frozen=True, slots=True)
class ProbeTask:
    """Renders, for each record, what ``probe`` (a module-level function, so that it
    pickles) says of the process that reads the unit."""

    probe: Callable[[], str]
    marks = False

    def renderer(self):  # type: ignore[no-untyped-def]
        probe = self.probe

        def render(record: Record) -> Entry:
            return Entry(f"{probe()}\n", "", False, ())

        return render


def sigterm_handler() -> str:
    return repr(signal.getsignal(signal.SIGTERM))


def process_id() -> str:
    return str(os.getpid())


def test_workers_end_on_sigterm_and_leave_the_main_processes_files_alone() -> None:
    """The CLI's SIGTERM handler removes the temporary files of the writes in flight; a
    forked worker must not run it on the main process's files when the pool ends it."""
    from pbntool.text.edit import exit_on_signals

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    exit_on_signals()
    engine = ProcessEngine(2, inline_budget=0)  # the pool starts with the first unit
    try:
        data = dumps(list(random_boards(1, 4))).encode()
        work = Work("a.pbn", "bytes", None, data=data, weight=len(data))
        pending = engine.submit(ProbeTask(sigterm_handler), work)  # type: ignore[arg-type]
        lines = "".join(chunk.out for chunk in pending.result().chunks).splitlines()
        assert set(lines) == {"<Handlers.SIG_DFL: 0>"}
    finally:
        engine.close()
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGHUP, before[1])


def _games_of_regions(data: bytes, limit: int, regions: list[int] | None = None) -> list[object]:
    from pbntool.formats.pbn import RegionPiece, iter_regions

    pieces: list[object] = []
    for piece in iter_regions(io.BytesIO(data), "f.pbn", limit):
        if isinstance(piece, RegionPiece):
            pieces.extend(piece.games())
            if regions is not None:
                regions.append(len(piece.text))
        else:
            pieces.append(piece)
    return pieces


def _region_inputs(corpus: Path | None) -> list[Path]:
    folders = [REPO / "fixtures", REPO / "fuzz"] + ([corpus] if corpus is not None else [])
    files = [path for folder in folders for path in sorted(folder.rglob("*")) if path.is_file()]
    return [path for path in files if path.suffix.lower() in (".pbn", "")]


@pytest.mark.corpus
def test_regions_split_where_the_reader_splits(corpus_dir: Path) -> None:
    """The planner of ``-j`` sends plain text as regions that the worker splits into games
    (``iter_regions``): the games, their lines and the encoding notes between them are those
    the reader's own splitter gives, whatever the region size."""
    inputs = _region_inputs(corpus_dir)
    assert len(inputs) > 700
    regions: list[int] = []
    for path in inputs:
        data = path.read_bytes()
        expected = list(pbn.iter_pieces(io.BytesIO(data), "f.pbn"))
        for limit in (1 << 20, 2000, 150):
            assert _games_of_regions(data, limit, regions) == expected, (path, limit)
    assert len(regions) > 10_000  # most real files are plain text, split in workers
    generated = dumps(list(random_boards(8, 400))).encode()
    sizes: list[int] = []
    assert _games_of_regions(generated, 4096, sizes) == list(pbn.iter_pieces(io.BytesIO(generated)))
    # A region is the limit or a game more (dd's gathering wants every slice but the last
    # at least the unit size).
    assert len(sizes) > 20 and all(4096 <= size < 4096 + 2000 for size in sizes[:-1])


def test_records_merge_into_chunks_unless_they_have_an_error_or_a_payload() -> None:
    from pbntool.diagnostics import Severity
    from pbntool.run.tasks import chunks_of

    warning = ("PBN007", int(Severity.WARNING), False)
    error = ("CON004", int(Severity.ERROR), False)
    entries = [
        Entry("a", "", True),
        Entry("b", "w1", True, (warning,)),
        Entry("c", "w2", False, (warning, warning)),
        Entry("d", "e", True, (error,)),
        Entry("e", "", True),
        Entry("f", "", True, (), payload=7),
    ]
    chunks = chunks_of(entries, want_marks=True)
    assert [(c.out, c.err, c.records, c.boards, len(c.findings)) for c in chunks] == [
        ("abc", "w1w2", 3, 2, 3),  # warnings cannot stop --max-errors: they merge
        ("d", "e", 1, 1, 1),  # --max-errors stops right after the record of its last error
        ("e", "", 1, 1, 0),
        ("f", "", 1, 1, 0),
    ]
    assert chunks[0].marks == (1, 2)  # where each board's text ends
    assert chunks[3].payload == 7


def test_a_mid_sized_input_is_spread_over_the_workers(tmp_path: Path) -> None:
    from pbntool.formats.split import SLICE_CHARS, SPREAD_SLICE_CHARS, spread_slice_chars
    from pbntool.run.batch import Batch, BatchOptions
    from pbntool.run.tasks import ValidateTask

    assert spread_slice_chars(None, 2) is None  # stdin: its size is not known
    assert spread_slice_chars(10 * SLICE_CHARS, 2) is None  # enough default slices
    assert spread_slice_chars(SLICE_CHARS, 1) is None  # one job: nothing to spread
    assert spread_slice_chars(SLICE_CHARS, 2) == SLICE_CHARS // 4  # two slices a worker
    assert spread_slice_chars(SLICE_CHARS // 2, 2) == SPREAD_SLICE_CHARS  # not smaller
    # One unit either way: the default slice size lets the planner send it by its path.
    assert spread_slice_chars(SPREAD_SLICE_CHARS, 2) is None

    path = tmp_path / "event.pbn"
    path.write_text(dumps(list(random_boards(3, 2500))), encoding="utf-8")
    assert SLICE_CHARS < path.stat().st_size < 2 * SLICE_CHARS
    units = {}
    for jobs in (1, 2):
        batch = Batch(BatchOptions(paths=(str(path),), jobs=jobs), ValidateTask())
        units[jobs] = [plan.prepare().weight for plan in batch._plans(local=True)]
    assert len(units[1]) == 2  # a megabyte and the rest: one worker would wait for the other
    assert len(units[2]) >= 4
    assert sum(units[1]) == sum(units[2])

    # Over a quarter of the smallest spread slice but no bigger than it: one unit,
    # sent by its path for a worker to read, with any -j.
    club = tmp_path / "club.pbn"
    club.write_text(dumps(list(random_boards(4, 400))), encoding="utf-8")
    assert SPREAD_SLICE_CHARS // 4 < club.stat().st_size <= SPREAD_SLICE_CHARS
    for jobs in (1, 2):
        batch = Batch(BatchOptions(paths=(str(club),), jobs=jobs), ValidateTask())
        assert [plan.prepare().kind for plan in batch._plans(local=True)] == ["path"]


def test_workers_keep_freed_memory_with_glibc() -> None:
    import platform

    from pbntool.run.engine import keep_freed_memory

    applied = keep_freed_memory()  # what each worker does as it starts
    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert applied


def test_a_run_over_a_folder_starts_its_workers_with_the_first_unit(tmp_path: Path) -> None:
    """One small file named on the command line runs in this process (workers would take
    longer to start than it to read); a folder or a list of files is a sign of many inputs,
    so its first unit goes to a worker instead of keeping both waiting while it runs here."""
    from pbntool.run.batch import BatchOptions
    from pbntool.run.engine import open_engine

    path = tmp_path / "one.pbn"
    path.write_text(dumps(list(random_boards(4, 2))), encoding="utf-8")
    listing = tmp_path / "list.txt"
    listing.write_text(f"{path}\n", encoding="utf-8")
    assert not BatchOptions(paths=(str(path),)).many_inputs()
    assert not BatchOptions(paths=("-",)).many_inputs()
    assert BatchOptions(paths=(str(tmp_path),)).many_inputs()
    assert BatchOptions(paths=(str(path),), files_from=str(listing)).many_inputs()

    work = Work(path.name, "path", None, path=str(path), weight=path.stat().st_size)
    workers: dict[bool, set[int]] = {}
    for inline in (True, False):
        engine = open_engine("local", 2, inline=inline)
        try:
            result = engine.submit(ProbeTask(process_id), work).result()
        finally:
            engine.close()
        workers[inline] = {int(pid) for chunk in result.chunks for pid in chunk.out.split()}
    assert workers[True] == {os.getpid()}
    assert workers[False] and os.getpid() not in workers[False]


def test_slices_shrink_toward_the_end_of_a_file_so_the_workers_finish_together(
    tmp_path: Path,
) -> None:
    """With even slices the last one ran alone (an 11 MB file: 11 slices, one worker idle
    for a slice's time); a file's last slices are a share of what is left, down to the
    smallest slice a splitter cuts, and what is read is the same."""
    from pbntool.formats.split import SLICE_CHARS, slice_limit, slices_of
    from pbntool.run.batch import Batch, BatchOptions
    from pbntool.run.tasks import ValidateTask

    with slices_of(None, (11 * SLICE_CHARS, 2)):
        assert slice_limit(0) == SLICE_CHARS
        assert slice_limit(9 * SLICE_CHARS) == SLICE_CHARS // 2  # 2 MiB left, 4 shares
        assert slice_limit(11 * SLICE_CHARS) == SLICE_CHARS // 4  # never smaller
    assert slice_limit(10 * SLICE_CHARS) == SLICE_CHARS  # no tail given: the default

    path = tmp_path / "season.pbn"
    path.write_text(dumps(list(random_boards(6, 800))), encoding="utf-8")
    units = {}
    os.environ["PBNTOOL_SLICE_CHARS"] = "40000"
    try:
        for jobs in (1, 2):
            batch = Batch(BatchOptions(paths=(str(path),), jobs=jobs), ValidateTask())
            units[jobs] = [plan.prepare().weight for plan in batch._plans(local=True)]
    finally:
        del os.environ["PBNTOOL_SLICE_CHARS"]
    assert sum(units[1]) == sum(units[2])
    assert min(units[1][:-1]) >= 40000  # one job: even slices to the end (then the rest)
    assert units[2][-3] < 40000 and units[2][-2] < 40000 * 3 // 4  # two: the last shrink
    assert min(units[2][:-1]) >= 40000 // 4
