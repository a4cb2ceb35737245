"""``pbntool fix`` streams: its memory does not grow with the file or the number of changes.

Generated files of 2,000 and 20,000 boards lose every Dealer tag; fixing them puts every
one back (a change in every game, so twenty thousand findings listed as they are made), and
the output must be the original file byte for byte.  The peak resident memory of the
20,000-board run must stay close to the 2,000-board run's.  Memory is measured, never time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import iter_dump
from tests.resident import run_measured

pytestmark = pytest.mark.slow

SMALL, LARGE = 2_000, 20_000
MiB = 1 << 20


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, Path]]:
    """Board count → (the complete file, the same without its Dealer tags)."""
    directory = tmp_path_factory.mktemp("fix-memory")
    found = {}
    for count in (SMALL, LARGE):
        complete = directory / f"{count}.pbn"
        with complete.open("w", encoding="utf-8", newline="") as out:
            for text in iter_dump(random_boards(99, count)):
                out.write(text)
        damaged = directory / f"{count}-no-dealer.pbn"
        lines = complete.read_bytes().splitlines(keepends=True)
        damaged.write_bytes(b"".join(line for line in lines if not line.startswith(b"[Dealer ")))
        found[count] = (complete, damaged)
    return found


def _fix(damaged: Path, out: Path) -> tuple[int, int]:
    command = [sys.executable, "-m", "pbntool", "fix", "-q", str(damaged), "-o", str(out)]
    run = run_measured(command, timeout=900)
    return run.code, run.peak


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
def test_fix_memory_does_not_grow_with_the_file(
    files: dict[int, tuple[Path, Path]], tmp_path: Path
) -> None:
    peaks = {}
    for count, (complete, damaged) in files.items():
        out = tmp_path / f"{count}.fixed.pbn"
        code, peaks[count] = _fix(damaged, out)
        assert code == 0
        assert out.read_bytes() == complete.read_bytes()
    detail = f"peak RSS {peaks[SMALL] / MiB:.0f} MiB for {SMALL} boards, {peaks[LARGE] / MiB:.0f}"
    assert peaks[LARGE] < peaks[SMALL] + 16 * MiB, detail
