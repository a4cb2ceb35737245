"""Where does ``pbntool validate`` spend its time?  Stage timings and a cProfile listing.

Runs the real command line in this process (``pbntool validate FILE --quiet -j 1``) twice on a
generated file (or ``--file``):

1. with light wrappers around the pipeline's stages (wall clock, no profiler, so pure-Python
   and C-heavy stages keep their real proportions): reading and splitting the text into games,
   the fast path (``read_fast``: a well-formed game read and built whole), the Lark parse, the
   rest of ``parse_block``, ``decode_game``, the text checks,
   ``rules.check_board``, and placing diagnostics (``Record.locate``), plus garbage collection;
2. under cProfile, printing the top functions by own time (``tottime``).

Both run pure Python (``PBNTOOL_PURE=1``): compiled modules call each other in C, past the
wrappers.  ``--compiled`` profiles the compiled build instead (totals and cProfile only).

    python benchmarks/profile_pbn.py                   # 5,000 generated boards
    python benchmarks/profile_pbn.py --file some.pbn   # an existing file
    python benchmarks/profile_pbn.py --stats out.prof  # also save the stats (snakeviz, pstats)

Stage names follow the code of ``pbntool/formats/pbn/__init__.py`` (``iter_records``,
``_read_block``), ``pbntool/formats/pbn/reader.py``, ``pbntool/formats/pbn/decode.py`` and
``pbntool/records.py``; a stage whose function is no longer there is reported as missing
rather than failing.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from types import GeneratorType
from typing import Any

# The stage wrappers replace module-level functions, which compiled modules (mypyc, see
# pbntool/_native.py) call directly in C: the breakdown is of the pure-Python build, the same
# code (``--compiled`` profiles the compiled build, where only the totals mean anything).
COMPILED = "--compiled" in sys.argv
if not COMPILED:
    os.environ["PBNTOOL_PURE"] = "1"

from bench_pbn import DATA_DIR, DEFAULT_SEED, write_boards  # noqa: E402

import pbntool.formats.pbn  # noqa: E402
import pbntool.records  # noqa: E402
from pbntool import cli  # noqa: E402
from pbntool.records import Record  # noqa: E402
from pbntool.text.grammars import load_parser  # noqa: E402


@dataclass
class Stage:
    label: str
    seconds: float = 0.0
    calls: int = 0
    missing: bool = False


@dataclass
class Stages:
    """Wall-clock time per stage, collected by wrappers patched onto the modules."""

    stages: dict[str, Stage] = field(default_factory=dict)

    def stage(self, key: str, label: str) -> Stage:
        return self.stages.setdefault(key, Stage(label))

    def timed(self, key: str, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """Time each call; when it returns a generator, also each ``next()`` of it (lazy work,
        such as ``split_games`` reading the file or ``check_board`` yielding findings)."""
        stage = self.stage(key, label)
        clock = time.perf_counter

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                result = function(*args, **kwargs)
            finally:
                stage.seconds += clock() - start
                stage.calls += 1
            if isinstance(result, GeneratorType):
                return _timed_iteration(stage, result)
            return result

        return wrapper


def _timed_iteration(stage: Stage, iterator: Iterator[Any]) -> Iterator[Any]:
    clock = time.perf_counter
    while True:
        start = clock()
        try:
            item = next(iterator)
        except StopIteration:
            stage.seconds += clock() - start
            return
        stage.seconds += clock() - start
        yield item


@contextmanager
def patched(target: Any, name: str, replacement: Callable[..., Any]) -> Iterator[None]:
    original = getattr(target, name)
    setattr(target, name, replacement)
    try:
        yield
    finally:
        setattr(target, name, original)


@contextmanager
def gc_timer(stage: Stage) -> Iterator[None]:
    """Add the time spent in garbage collections to ``stage``."""
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            stage.seconds += time.perf_counter() - started.pop()
            stage.calls += 1

    gc.callbacks.append(callback)
    try:
        yield
    finally:
        gc.callbacks.remove(callback)


def instrument(stack: ExitStack, stages: Stages) -> None:
    """Wrap each stage where the pipeline looks it up (module globals, the cached parser)."""
    reader = pbntool.formats.pbn
    wrappers: list[tuple[Any, str, str, str]] = [
        (reader, "split_games", "split", "read bytes + decode + split_games"),
        (reader, "read_fast", "fast", "read_fast (the fast path: a whole game)"),
        (reader, "parse_block", "parse_block", "parse_block (all)"),
        (reader, "decode_game", "decode", "decode_game"),
        (reader, "_text_checks", "text_checks", "_text_checks (long lines, controls)"),
        (pbntool.records, "check_board", "rules", "rules.check_board"),
        (Record, "locate", "locate", "Record.locate (placing diagnostics)"),
    ]
    for target, name, key, label in wrappers:
        function = getattr(target, name, None)
        if function is None:
            stages.stage(key, label).missing = True
            continue
        stack.enter_context(patched(target, name, stages.timed(key, label, function)))
    parser = load_parser("pbn")
    stack.enter_context(patched(parser, "parse", stages.timed("lark", "Lark parse", parser.parse)))


def run_cli(path: Path) -> float:
    """``pbntool validate PATH --quiet`` in this process; the wall time."""
    argv = sys.argv
    sys.argv = ["pbntool", "validate", str(path), "--quiet", "-j", "1"]  # stages need one process
    findings = io.StringIO()
    start = time.perf_counter()
    try:
        with redirect_stdout(findings):
            cli.main()
    except SystemExit as done:
        if done.code not in (0, None):
            print(f"note: pbntool validate exited {done.code}", file=sys.stderr)
    finally:
        sys.argv = argv
    elapsed = time.perf_counter() - start
    if findings.getvalue():
        lines = findings.getvalue().splitlines()
        print(f"note: {len(lines)} findings, e.g. {lines[0]}", file=sys.stderr)
    return elapsed


def fixed_costs() -> list[tuple[str, float]]:
    """One-off costs paid by every process before the first game: building the parsers."""
    costs = []
    start = time.perf_counter()
    load_parser("pbn")
    costs.append(("build the Lark parser (load_parser)", time.perf_counter() - start))
    patterns = getattr(pbntool.formats.pbn.reader, "body_pattern", None)
    if patterns is not None:
        start = time.perf_counter()
        patterns()
        costs.append(("build the BODY item regex (body_pattern)", time.perf_counter() - start))
    return costs


def print_stages(stages: Stages, total: float, boards: int, repeat: int) -> None:
    table = stages.stages
    lark = table["lark"].seconds
    parse = table["parse_block"]
    rows: list[tuple[str, Stage, float]] = []
    for key in ("split", "fast", "lark", "parse_block", "decode", "text_checks", "rules", "locate"):
        stage = table[key]
        seconds = stage.seconds
        label = stage.label
        if key == "parse_block":
            seconds, label = parse.seconds - lark, "parse_block minus Lark"
        rows.append((label, stage, seconds))
    top_level = ("split", "fast", "parse_block", "decode", "text_checks", "rules", "locate")
    covered = sum(table[key].seconds for key in top_level)
    print(
        f"\nstage breakdown (wall clock, no profiler; the fastest of {repeat} runs), "
        f"{boards:,} boards, {total:.2f} s"
    )
    print(f"  {'stage':<40} {'seconds':>8} {'share':>7} {'calls':>8} {'us/board':>9}")
    for label, stage, seconds in rows:
        if stage.missing:
            print(f"  {label:<40} (function not found: stage not measured)")
            continue
        print(
            f"  {label:<40} {seconds:8.3f} {seconds / total:7.1%} {stage.calls:8,} "
            f"{1e6 * seconds / boards:9.1f}"
        )
    rest = total - covered
    print(
        f"  {'other (CLI loop, validate_record, ...)':<40} {rest:8.3f} {rest / total:7.1%} "
        f"{'':>8} {1e6 * rest / boards:9.1f}"
    )
    collect = table["gc"]
    print(
        f"  {'  of all the above: garbage collection':<40} {collect.seconds:8.3f} "
        f"{collect.seconds / total:7.1%} {collect.calls:8,}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=5_000, help="boards to generate")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--file", type=Path, default=None, help="profile this file instead")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (the best is shown)")
    parser.add_argument("--top", type=int, default=30, help="functions to list")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumtime)")
    parser.add_argument("--stats", type=Path, default=None, help="save the cProfile stats here")
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    parser.add_argument(
        "--compiled", action="store_true", help="profile the compiled build (no stage breakdown)"
    )
    args = parser.parse_args(argv)
    print(f"pbntool: {pbntool._native.STATE}")

    print(f"load average {[round(x, 2) for x in os.getloadavg()]}, python {sys.version.split()[0]}")
    for label, seconds in fixed_costs():
        print(f"fixed cost: {label}: {seconds * 1000:.0f} ms (once per process)")

    path = args.file
    if path is None:
        path = DATA_DIR / f"profile-{args.boards}-{args.seed}.pbn"
        write_boards(path, args.seed, args.boards)
    try:
        boards = args.boards if args.file is None else _count_boards(path)
        size = path.stat().st_size / 1_000_000
        print(f"input: {path} ({size:.2f} MB, {boards:,} boards)")

        run_cli(path)  # warm-up: page cache, lazy imports, interned objects
        best: tuple[float, Stages] | None = None
        plain = float("inf")
        for _ in range(args.repeat):  # wrapped and plain runs alternate: load drifts
            stages = Stages()
            with ExitStack() as stack:
                instrument(stack, stages)
                stack.enter_context(gc_timer(stages.stage("gc", "garbage collection")))
                total = run_cli(path)
            if best is None or total < best[0]:
                best = (total, stages)
            plain = min(plain, run_cli(path))
        assert best is not None
        print_stages(best[1], best[0], boards, args.repeat)
        print(
            f"  without wrappers: best of {args.repeat} {plain:.2f} s, "
            f"{boards / plain:,.0f} boards/s (in process, no start-up)"
        )

        profiler = cProfile.Profile()
        profiler.enable()
        profiled = run_cli(path)
        profiler.disable()
        print(f"\ncProfile: {profiled:.2f} s under the profiler; top {args.top} by {args.sort}")
        listing = io.StringIO()
        stats = pstats.Stats(profiler, stream=listing)
        stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
        print(_trim(listing.getvalue()))
        if args.stats is not None:
            profiler.dump_stats(args.stats)
            print(f"stats saved to {args.stats} (python -m pstats {args.stats})")
    finally:
        if args.file is None and not args.keep:
            path.unlink(missing_ok=True)
    return 0


def _count_boards(path: Path) -> int:
    with open(path, "rb") as stream:
        return sum(
            1 for record in pbntool.formats.pbn.iter_records(stream) if record.board is not None
        )


def _trim(listing: str) -> str:
    """pstats output without its blank preamble."""
    lines = listing.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
