"""Time the analyst's commands (``select``, ``dedupe``, ``stats``, ``dd``) on generated files.

Each figure is one fresh ``python -m pbntool`` process (start-up and imports included), the
best of ``--repeat`` runs, as boards per second.  ``dd`` is timed on a smaller file, with
``-j 1`` and ``-j N`` (N = the number of CPUs), so the gain from worker processes shows.

    python benchmarks/bench_analyst.py                  # 5,000 boards; dd on 40
    python benchmarks/bench_analyst.py --boards 20000 --dd-boards 100 --json out.json

The input is made by ``pbntool.dev.generate.random_boards`` into ``benchmarks/data/``
(git-ignored, deleted at the end unless ``--keep``).  ``dd`` needs the ``dd`` extra; without
it the ``dd`` rows are left out.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import iter_dump

DATA_DIR = Path(__file__).resolve().parent / "data"
MODULE = (sys.executable, "-m", "pbntool")


def _write(path: Path, count: int, seed: int) -> None:
    with open(path, "w", encoding="utf-8", newline="") as stream:
        for chunk in iter_dump(random_boards(seed, count)):
            stream.write(chunk)


def _best(arguments: list[str], repeat: int) -> float:
    """The shortest wall time of ``repeat`` runs (exit 0 or 1 both count as success)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([*MODULE, *arguments], capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(arguments)} failed: {done.stderr.decode()[-500:]}")
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=5000)
    parser.add_argument("--dd-boards", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    DATA_DIR.mkdir(exist_ok=True)
    big, small = DATA_DIR / "analyst.pbn", DATA_DIR / "analyst-dd.pbn"
    _write(big, options.boards, options.seed)
    _write(small, options.dd_boards, options.seed + 1)
    cpus = os.cpu_count() or 1
    cases: list[tuple[str, list[str], int]] = [
        (
            "select --where",
            ["select", str(big), "-w", "level >= 4 and made", "--to", "json", "-q"],
            options.boards,
        ),
        ("select has_error()", ["select", str(big), "-w", "has_error()", "-q"], options.boards),
        ("dedupe --rotations", ["dedupe", str(big), "--rotations", "-q"], options.boards),
        ("stats --format json", ["stats", str(big), "--format", "json", "-q"], options.boards),
    ]
    if importlib.util.find_spec("endplay") is not None:
        cases += [
            ("dd -j 1", ["dd", str(small), "-q"], options.dd_boards),
            (f"dd -j {cpus}", ["dd", str(small), "-j", str(cpus), "-q"], options.dd_boards),
        ]
    results = []
    try:
        for name, arguments, boards in cases:
            seconds = _best(arguments, options.repeat)
            results.append({"command": name, "boards": boards, "seconds": round(seconds, 3)})
            rate = boards / seconds
            print(f"{name:<22} {boards:>7} boards  {seconds:8.2f} s  {rate:10.1f} boards/s")
    finally:
        if not options.keep:
            big.unlink(missing_ok=True)
            small.unlink(missing_ok=True)
    if options.json:
        options.json.write_text(json.dumps({"cpus": cpus, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
