"""Measure JSON and XML conversion: ``pbntool convert`` to and from each, boards per second.

Generates one PBN file of legal random boards (``pbntool.dev.generate``) in ``benchmarks/data/``,
converts it to JSON Lines and to XML, and converts each back to PBN, every run in a fresh
subprocess (start-up included, as a user sees it).  Checks that both round trips give back
the canonical PBN byte for byte before reporting anything.

    python benchmarks/bench_interchange.py                 # 10,000 boards, 3 runs each
    python benchmarks/bench_interchange.py --boards 2000 --repeat 1 --keep
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def convert(source: Path, target: str, output: Path) -> float:
    """Seconds for one ``pbntool convert`` in a fresh process."""
    command = [sys.executable, "-m", "pbntool", "convert", str(source), "--to", target]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "-q", "-o", str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"convert {source.name} --to {target} failed:\n{done.stderr[-2000:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    args = parser.parse_args()

    from pbntool.dev.generate import random_boards
    from pbntool.formats.pbn.writer import iter_dump

    DATA.mkdir(exist_ok=True)
    source = DATA / f"interchange-{args.boards}.pbn"
    with source.open("w", encoding="utf-8", newline="") as stream:
        stream.writelines(iter_dump(random_boards(args.seed, args.boards)))
    files = [source]
    canonical = DATA / "interchange-canonical.pbn"
    convert(source, "pbn", canonical)
    files.append(canonical)
    print(f"{args.boards} boards, {source.stat().st_size / 1e6:.1f} MB of PBN")
    for target, suffix in (("json", ".jsonl"), ("xml", ".xml")):
        middle = DATA / f"interchange{suffix}"
        back = DATA / f"interchange-back-{target}.pbn"
        files += [middle, back]
        out = [convert(source, target, middle) for _ in range(args.repeat)]
        back_times = [convert(middle, "pbn", back) for _ in range(args.repeat)]
        if back.read_bytes() != canonical.read_bytes():
            raise SystemExit(f"PBN -> {target} -> PBN is not byte-identical")
        size = middle.stat().st_size / 1e6
        print(
            f"PBN -> {target:4}: {args.boards / statistics.median(out):8.0f} boards/s"
            f"   {target:4} -> PBN: {args.boards / statistics.median(back_times):8.0f} boards/s"
            f"   ({size:.1f} MB, round trip byte-identical)"
        )
    if not args.keep:
        for path in files:
            path.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
