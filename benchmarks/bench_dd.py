"""``pbntool dd --fill -j N`` and ``pbntool dd -j N`` (the table and par as JSON lines, on the
batch engine) against endplay's batch ``calc_all_tables`` on the same deals.

Each runs in a fresh process, DDS on N threads (``SetMaxThreads(N)`` for endplay; ``-j N`` for
pbntool, whose DDS spreads each batch call over N threads in one process), best of
``--repeat`` wall times and CPU times (user+system, which the shared machine disturbs less).
pbntool's figures include reading the file and par (DDS ``Par`` and ``DealerPar``), and for
``--fill`` writing the four tags; endplay's is the tables alone.

    python benchmarks/bench_dd.py --deals 100 --threads 2 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENDPLAY = """
import sys, endplay._dds as dds
dds.SetMaxThreads(int(sys.argv[2]))
from endplay.parsers import pbn
from endplay.dds import calc_all_tables
with open(sys.argv[1]) as f:
    deals = [board.deal for board in pbn.load(f)]
tables = []
for start in range(0, len(deals), 40):
    tables.extend(calc_all_tables(deals[start:start + 40]))
print(len(tables))
"""


def _run(command: list[str]) -> tuple[float, float]:
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    assert status == 0, command
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    from pbntool.dev.generate import random_boards
    from pbntool.formats.pbn.writer import iter_dump

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deals.pbn"
        path.write_text("".join(iter_dump(random_boards(7, options.deals, play=False))))
        threads = str(options.threads)
        commands = {
            "pbntool dd --fill": [
                sys.executable,
                "-m",
                "pbntool",
                "dd",
                "--fill",
                "-j",
                threads,
                "--quiet",
                "-o",
                os.devnull,
                str(path),
            ],
            "pbntool dd (JSON lines)": [
                *(sys.executable, "-m", "pbntool", "dd", "--format", "json", "-j", threads),
                *("--quiet", str(path)),
            ],
            "endplay calc_all_tables": [sys.executable, "-c", ENDPLAY, str(path), threads],
        }
        best: dict[str, tuple[float, float]] = {}
        for _ in range(options.repeat):
            for name, command in commands.items():
                wall, cpu = _run(command)
                old = best.get(name, (wall, cpu))
                best[name] = (min(old[0], wall), min(old[1], cpu))
    print(
        f"{options.deals} deals, {options.threads} DDS threads, best of {options.repeat}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for name, (wall, cpu) in best.items():
        print(
            f"  {name:26} wall {wall:7.2f} s ({wall / options.deals:.3f} s/deal)  cpu {cpu:7.2f} s"
        )
    theirs = best["endplay calc_all_tables"]
    for name in ("pbntool dd --fill", "pbntool dd (JSON lines)"):
        ours = best[name]
        ratio_wall, ratio_cpu = theirs[0] / ours[0], theirs[1] / ours[1]
        print(f"  {name}/endplay throughput: wall {ratio_wall:.2f}x, cpu {ratio_cpu:.2f}x")


if __name__ == "__main__":
    main()
