"""Benchmark pbntool's LIN reading against endplay's LIN parser on the same generated file.

The same method as ``bench_pbn.py`` (whose measuring code it uses): every run a fresh
subprocess, peak RSS of that process, the tools interleaved round robin.  The input is made
by ``pbntool.dev.generate.random_boards`` and written as BBO hand-record lines by
``pbntool.formats.lin.dumps`` into ``benchmarks/data/`` (git-ignored, deleted unless ``--keep``).

    python benchmarks/bench_lin.py                      # 10,000 boards, 3 repeats
    python benchmarks/bench_lin.py --json results.json

Measured: ``pbntool convert FILE --to json`` (read and build every board, then write it),
``pbntool validate`` (read plus every Laws check), and ``endplay.parsers.lin.load`` (read and
build every board).  endplay checks nothing, so ``convert`` is the like-for-like figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pbn import (
    DATA_DIR,
    DEFAULT_SEED,
    Measured,
    machine,
    measure_round_robin,
    print_table,
    ratios,
    source_state,
    versions,
)

from pbntool.dev.generate import random_boards
from pbntool.formats import lin

ENDPLAY_LIN_SCRIPT = (
    "import sys\n"
    "import endplay.parsers.lin as lin\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    boards = lin.load(f)\n"
    "print(len(boards))\n"
)


def write_lin(path: Path, seed: int, count: int) -> None:
    """``count`` legal random boards, one LIN line each."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as out:
        lin.dump(random_boards(seed, count), out)


def commands(path: Path, boards: int) -> list[Measured]:
    python = sys.executable
    convert = ["convert", str(path), "--to", "json", "-o", os.devnull, "-j", "1"]
    return [
        Measured("pbntool --version (startup)", [python, "-m", "pbntool", "--version"]),
        Measured("pbntool convert --to json", [python, "-m", "pbntool", *convert], boards),
        Measured(
            "pbntool validate",
            [python, "-m", "pbntool", "validate", str(path), "-q", "-j", "1"],
            boards,
        ),
        Measured("endplay import (startup)", [python, "-c", "import endplay.parsers.lin"]),
        Measured("endplay load", [python, "-c", ENDPLAY_LIN_SCRIPT, str(path)], boards),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    info, found, state = machine(), versions(), source_state()
    print(f"pbntool LIN benchmark  {info['date']}  cpus={info['cpu_count']}")
    print(f"  load average {info['load_average_start']}  pbntool {found['pbntool']}  "
          f"endplay {found['endplay']}  commit {state['commit']}, {state['native']}")  # fmt: skip
    if found["endplay"] is None:
        print("endplay is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    path = DATA_DIR / f"bench-{args.boards}-{args.seed}.lin"
    start = time.perf_counter()
    write_lin(path, args.seed, args.boards)
    size = path.stat().st_size / 1_000_000
    print(f"  {path.name}: {args.boards:,} boards, {size:.2f} MB in "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    try:
        measured = commands(path, args.boards)
        stdout = {m.name: os.devnull for m in measured if m.name == "pbntool validate"}
        measure_round_robin(measured, args.repeat, stdout)
    finally:
        if not args.keep:
            path.unlink(missing_ok=True)
    by_name = {m.name: m for m in measured}
    startups = {
        "pbntool convert --to json": by_name["pbntool --version (startup)"].best,
        "pbntool validate": by_name["pbntool --version (startup)"].best,
        "endplay load": by_name["endplay import (startup)"].best,
    }
    print_table(f"{args.boards:,} LIN boards, {size:.2f} MB", measured, startups)
    results: dict[str, object] = {"machine": info, "versions": found, "source": state}
    for name in ("pbntool convert --to json", "pbntool validate"):
        compared = ratios(by_name[name], by_name["endplay load"])
        results[f"{name} vs endplay"] = compared
        if compared:
            print(f"  {name} vs endplay lin.load: speed x{compared['speed_best']:.2f} (best "
                  f"wall), x{compared['speed_cpu']:.2f} (CPU); peak RSS "
                  f"{compared['memory']:.2f} of endplay's")  # fmt: skip
    info["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    print(f"load average at the end: {info['load_average_end']}")
    results["runs"] = {m.name: m.summary(startups.get(m.name)) for m in measured}
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0 if all(not m.failures for m in measured) else 1


if __name__ == "__main__":
    sys.exit(main())
