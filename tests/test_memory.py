"""Reading streams: memory is bounded by the largest game, not by the size of the file.

Two generated files (``generate.random_boards`` written with ``writer.iter_dump``): 2,000
boards (about 1 MB) and 20,000 boards (about 11 MB; its first 2,000 boards are the small
file).  Validating them record by record, without keeping the records, must reach about the
same peak of Python memory (``tracemalloc``), and the ``pbntool validate`` process must stay
far below 200 MB of resident memory (peak RSS from ``os.wait4``).  These measure memory, never
time.  Generating the boards and tracing allocations over 22,000 boards take about a minute,
hence the ``slow`` marker.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats import pbn
from pbntool.formats.pbn.writer import dumps, iter_dump
from pbntool.records import validate_record
from tests.resident import run_measured

pytestmark = pytest.mark.slow

SMALL, LARGE = 2_000, 20_000
MiB = 1 << 20
RSS_LIMIT = 200 * MiB


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Board count → file: 20,000 distinct boards, the first 2,000 of them in the small file."""
    directory = tmp_path_factory.mktemp("memory")
    paths = {SMALL: directory / f"{SMALL}.pbn", LARGE: directory / f"{LARGE}.pbn"}
    with (
        paths[SMALL].open("w", encoding="utf-8", newline="") as small,
        paths[LARGE].open("w", encoding="utf-8", newline="") as large,
    ):
        # iter_dump yields the file header, then one string per game.
        for index, text in enumerate(iter_dump(random_boards(2024, LARGE))):
            large.write(text)
            if index <= SMALL:
                small.write(text)
    return paths


def _warm_up() -> None:
    """Build the parser and fill the caches before measuring: they are not per-file costs."""
    pbn.parse(dumps(random_boards(7, 20)), validate=True)
    gc.collect()


def validate_streaming(path: Path) -> int:
    """Validate every record of the file, keeping none of them; the number of boards."""
    boards = 0
    for record in pbn.read_file(path):
        validate_record(record)
        if record.board is not None:
            boards += 1
    return boards


def traced_peak(path: Path) -> tuple[int, int]:
    """(boards, peak bytes of Python allocations) while validating the file."""
    _warm_up()
    tracemalloc.start()
    try:
        boards = validate_streaming(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return boards, peak


def test_peak_python_memory_does_not_grow_with_the_file(generated: dict[int, Path]) -> None:
    small_boards, small_peak = traced_peak(generated[SMALL])
    large_boards, large_peak = traced_peak(generated[LARGE])
    assert (small_boards, large_boards) == (SMALL, LARGE)
    assert generated[LARGE].stat().st_size > 9 * generated[SMALL].stat().st_size
    detail = f"peak {small_peak / MiB:.1f} MiB for {SMALL} boards, {large_peak / MiB:.1f} MiB"
    assert large_peak < 1.5 * small_peak + MiB, detail


def pbntool_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m pbntool``."""
    script = Path(sys.executable).with_name("pbntool")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pbntool"]


def peak_rss(arguments: list[str]) -> tuple[int, int]:
    """(exit code, peak resident set size in bytes) of a ``pbntool`` run."""
    run = run_measured([*pbntool_command(), *arguments])
    return run.code, run.peak


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
def test_validate_process_resident_memory(generated: dict[int, Path]) -> None:
    small_code, small_rss = peak_rss(["validate", "-q", str(generated[SMALL])])
    large_code, large_rss = peak_rss(["validate", "-q", str(generated[LARGE])])
    assert small_code in (0, 1) and large_code in (0, 1)
    detail = f"peak RSS {small_rss / MiB:.0f} MiB for {SMALL} boards, {large_rss / MiB:.0f} MiB"
    assert large_rss < RSS_LIMIT, detail
    assert large_rss < small_rss + 16 * MiB, detail


# The same with worker processes: the resident memory of the whole process tree (pbntool, its
# forkserver and its workers), sampled from /proc, must stay bounded and must not grow with
# the file.  Each process's peak is sampled, so short spikes between samples may be missed; the
# benchmark (benchmarks/bench_scale.py) measures a million boards the same way.
TREE_LAUNCHER = """
import os, subprocess, sys, time
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def tree(root):
    kids = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            kids.setdefault(int(fields[1]), []).append(int(name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(kids.get(pid, []))
    return found
def rss(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
peak = most = 0
while True:
    pid, status, _ = os.wait4(child.pid, os.WNOHANG)
    if pid:
        break
    members = tree(child.pid)
    peak = max(peak, sum(rss(member) for member in members))
    most = max(most, len(members))
    time.sleep(0.02)
print(os.waitstatus_to_exitcode(status), peak, most)
"""


def tree_rss(arguments: list[str]) -> tuple[int, int, int]:
    """(exit code, peak total RSS in bytes of the process tree, most processes at once)."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", TREE_LAUNCHER, *pbntool_command(), *arguments],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    code, kilobytes, processes = done.stdout.split()
    return int(code), int(kilobytes) * 1024, int(processes)


TREE_LIMIT = 300 * MiB


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
def test_parallel_validate_memory_of_all_processes_is_bounded(generated: dict[int, Path]) -> None:
    small = tree_rss(["validate", "-q", "-j", "2", str(generated[SMALL])])
    large = tree_rss(["validate", "-q", "-j", "2", str(generated[LARGE])])
    assert small[0] in (0, 1) and large[0] in (0, 1)
    assert large[2] >= 3, "the large file should have run in worker processes"
    detail = f"total RSS {small[1] / MiB:.0f} MiB for {SMALL} boards, {large[1] / MiB:.0f} MiB"
    assert large[1] < TREE_LIMIT, detail
