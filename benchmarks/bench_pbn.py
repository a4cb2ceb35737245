"""Benchmark ``pbntool validate`` against endplay's PBN parser on the same generated file.

Every measured run is a fresh subprocess, so each figure includes interpreter start-up and
imports, and peak RSS is that process's own: a small launcher starts it and reads its rusage
with ``os.wait4`` (started straight from this process, it would inherit this one's peak).
Runs of the different tools are interleaved (round robin) so that load from other processes
on the machine spreads over all of them.

    python benchmarks/bench_pbn.py                      # 10,000 boards, 3 repeats
    python benchmarks/bench_pbn.py --large-mb 1024      # also a ~1 GB file (pbntool only)
    python benchmarks/bench_pbn.py --json results.json  # machine-readable results

The input is made by ``pbntool.dev.generate.random_boards`` and written by
``pbntool.formats.pbn.writer.iter_dump`` into ``benchmarks/data/`` (git-ignored, deleted at the end
unless ``--keep``).  Boards whose play ends in the middle of a trick are left out: the
writer shortens that last line (PBN 2.1 §15.3) and endplay 0.5.12 cannot read a short line
(``IndexError`` in ``linearise_play``), so keeping them would leave nothing to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from pbntool.dev.bytecode import compile_package
from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import iter_dump
from pbntool.model import Board

DATA_DIR = Path(__file__).resolve().parent / "data"
ENDPLAY_LIMIT_MB = 200
"""endplay loads the whole file into memory: it is not run on files larger than this."""
DEFAULT_SEED = 20240601
LARGE_UNIQUE_BOARDS = 50_000
"""Distinct boards in the large file; they are repeated until the file is big enough.

Far more distinct hands (4 per board) than a reader's per-process cache should hold, so the
repetition cannot flatter a cache (pbntool's hand cache keeps 65,536)."""

ENDPLAY_SCRIPT = """\
import sys
from endplay.parsers import pbn
with open(sys.argv[1], encoding="utf-8") as f:
    boards = pbn.load(f)
print(len(boards))
"""


# --- input ------------------------------------------------------------------------------------


def endplay_readable(board: Board) -> bool:
    """False for a play that stops in the middle of a trick (endplay cannot read it)."""
    play = board.play
    return play is None or all(None not in trick for trick in play.tricks)


def bench_boards(seed: int, count: int) -> Iterator[Board]:
    """``count`` legal random boards that both readers accept, in a fixed order per seed."""
    kept = 0
    for board in random_boards(seed, 2 * count + 100):
        if kept == count:
            return
        if endplay_readable(board):
            kept += 1
            yield board
    raise RuntimeError("too few endplay-readable boards generated")  # pragma: no cover


def write_boards(path: Path, seed: int, count: int) -> None:
    """Write ``count`` boards as canonical PBN (streaming, one game at a time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as out:
        for text in iter_dump(bench_boards(seed, count)):
            out.write(text)


def write_large(path: Path, seed: int, megabytes: float) -> tuple[int, int]:
    """A file of about ``megabytes`` MB: up to ``LARGE_UNIQUE_BOARDS`` distinct games, then
    the same games again until the file is big enough.

    Generating two million distinct boards would take longer than validating them; reading
    repeated games costs the reader exactly as much as reading new ones (nothing is cached
    across games).  Returns (boards written, distinct boards).
    """
    target = int(megabytes * 1_000_000)
    chunks = iter_dump(bench_boards(seed, LARGE_UNIQUE_BOARDS))
    header = next(chunks)
    games: list[str] = []
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(header)
        size = len(header.encode())
        for game in chunks:
            if size >= target:
                return len(games), len(games)
            out.write(game)
            size += len(game.encode())
            games.append(game)
        written = len(games)
        block = "".join(games)
        block_size = len(block.encode())
        while size + block_size <= target:
            out.write(block)
            size += block_size
            written += len(games)
        for game in games:
            if size >= target:
                break
            out.write(game)
            size += len(game.encode())
            written += 1
    return written, len(games)


# --- measuring --------------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float
    """User + system CPU seconds of the child: steadier than wall time on a busy machine."""
    max_rss_mb: float
    returncode: int


# Linux keeps a process's peak RSS across fork and exec: a child started from this process
# (which holds the generated boards) would report this process's peak.  So a small launcher
# starts each measured command, times it and reports the child's own rusage in a file.
LAUNCHER = """
import json, os, subprocess, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
child = subprocess.Popen(argv)
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
with open(report, "w") as out:
    json.dump({"code": os.waitstatus_to_exitcode(status), "wall": wall,
               "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss}, out)
"""


def run_child(argv: list[str], stdout_path: str | None = None) -> tuple[Run, str, str]:
    """Run ``argv`` in a fresh process; wall time, its own peak RSS, exit code and output.

    stdout goes to ``stdout_path`` (``os.devnull`` for the timed pbntool runs) or to a
    temporary file that is read back; stderr always to a temporary file.
    """
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        out_path = stdout_path or str(Path(scratch) / "stdout")
        err_path = Path(scratch) / "stderr"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            launcher = [sys.executable, "-I", "-c", LAUNCHER, str(report), *argv]
            subprocess.run(launcher, stdin=subprocess.DEVNULL, stdout=out, stderr=err, check=True)
        result = json.loads(report.read_text())
        output = "" if stdout_path else Path(out_path).read_text(errors="replace")
        errors = err_path.read_text(errors="replace")
    # Linux reports ru_maxrss in KiB (macOS in bytes).
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)
    run = Run(result["wall"], result["cpu"], result["maxrss"] * scale, result["code"])
    return run, output, errors


@dataclass
class Measured:
    """Repeated runs of one command."""

    name: str
    argv: list[str]
    boards: int | None = None
    runs: list[Run] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def best(self) -> float:
        return min(run.wall for run in self.runs)

    @property
    def median(self) -> float:
        return statistics.median(run.wall for run in self.runs)

    @property
    def best_cpu(self) -> float:
        return min(run.cpu for run in self.runs)

    @property
    def rss(self) -> float:
        return max(run.max_rss_mb for run in self.runs)

    def rate(self, wall: float, startup: float = 0.0) -> float | None:
        if not self.boards or wall - startup <= 0:
            return None
        return self.boards / (wall - startup)

    def summary(self, startup: float | None = None) -> dict[str, object]:
        if not self.runs:
            return {"name": self.name, "argv": self.argv, "failures": self.failures}
        return {
            "name": self.name,
            "argv": self.argv,
            "boards": self.boards,
            "wall_s": [round(run.wall, 4) for run in self.runs],
            "best_s": round(self.best, 4),
            "median_s": round(self.median, 4),
            "boards_per_s_best": _round(self.rate(self.best)),
            "boards_per_s_median": _round(self.rate(self.median)),
            "cpu_s": [round(run.cpu, 4) for run in self.runs],
            "best_cpu_s": round(self.best_cpu, 4),
            "boards_per_cpu_s_best": _round(self.rate(self.best_cpu)),
            "boards_per_s_best_excluding_startup": (
                _round(self.rate(self.best, startup)) if startup is not None else None
            ),
            "peak_rss_mb": round(self.rss, 1),
            "peak_rss_mb_runs": [round(run.max_rss_mb, 1) for run in self.runs],
            "failures": self.failures,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def measure_round_robin(commands: list[Measured], repeat: int, stdout: dict[str, str]) -> None:
    """Run every command ``repeat`` times, interleaved; a failing run is kept as a note."""
    for index in range(repeat):
        for command in commands:
            run, output, errors = run_child(command.argv, stdout.get(command.name))
            if run.returncode != 0:
                detail = (errors.strip().splitlines() or ["(no message)"])[-1]
                command.failures.append(f"run {index + 1}: exit {run.returncode}: {detail}")
                continue
            if command.name == "endplay load" and output.strip() != str(command.boards):
                command.failures.append(f"run {index + 1}: read {output.strip()!r} boards")
            command.runs.append(run)
            print(
                f"  {command.name:<28} run {index + 1}/{repeat}: "
                f"{run.wall:7.2f} s  cpu {run.cpu:7.2f} s  {run.max_rss_mb:7.1f} MB",
                flush=True,
            )


# --- checks and environment -------------------------------------------------------------------


def precheck(path: Path, boards: int) -> dict[str, object]:
    """Validate the generated file (untimed); every finding is reported, errors stop the run."""
    argv = [sys.executable, "-m", "pbntool", "validate", str(path), "--format", "json"]
    run, output, errors = run_child(argv)
    findings = [json.loads(line) for line in output.splitlines() if line.strip()]
    by_severity: dict[str, int] = {}
    for finding in findings:
        severity = str(finding.get("severity", "?"))
        by_severity[severity] = by_severity.get(severity, 0) + 1
    summary = errors.strip().splitlines()[-1] if errors.strip() else ""
    result = {
        "exit": run.returncode,
        "findings": by_severity,
        "summary": summary,
        "first": findings[:5],
    }
    if not re.search(rf"(?<!\d){boards} boards?\b", summary):
        result["problem"] = f"expected {boards} boards, pbntool said: {summary!r}"
    return result


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for package in ("pbntool", "endplay", "lark"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def source_state() -> dict[str, object]:
    """The commit measured, and whether the package had uncommitted changes (a benchmark of a
    work tree in flux should say so)."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.rstrip("\n") if done.returncode == 0 else None

    changed = git("status", "--porcelain", "--", "pbntool", "grammars")
    from pbntool import _native  # compiled or pure Python: a factor of 1.5 either way

    return {
        "commit": git("rev-parse", "--short", "HEAD"),
        "uncommitted": sorted(line[3:] for line in changed.splitlines()) if changed else [],
        "native": _native.STATE,
    }


def machine() -> dict[str, object]:
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
    }


# --- reporting --------------------------------------------------------------------------------


def print_table(title: str, rows: list[Measured], startups: dict[str, float]) -> None:
    print(f"\n{title}")
    print(
        f"  {'tool':<28} {'best s':>7} {'median s':>8} {'boards/s':>8} {'(median)':>8} "
        f"{'net b/s':>8} {'cpu s':>6} {'b/cpu-s':>8} {'peak RSS MB':>11}"
    )
    for row in rows:
        if not row.runs:
            print(f"  {row.name:<28} no successful run: {'; '.join(row.failures)}")
            continue
        startup = startups.get(row.name)
        net = row.rate(row.best, startup) if startup is not None else None
        print(
            f"  {row.name:<28} {row.best:7.2f} {row.median:8.2f} "
            f"{_fmt(row.rate(row.best)):>8} {_fmt(row.rate(row.median)):>8} "
            f"{_fmt(net):>8} {row.best_cpu:6.2f} {_fmt(row.rate(row.best_cpu)):>8} {row.rss:11.1f}"
        )
        for failure in row.failures:
            print(f"  {'':<28} note: {failure}")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def ratios(pbntool: Measured, endplay: Measured) -> dict[str, float] | None:
    if not pbntool.runs or not endplay.runs:
        return None
    return {
        "speed_best": round(endplay.best / pbntool.best, 3),
        "speed_median": round(endplay.median / pbntool.median, 3),
        "speed_cpu": round(endplay.best_cpu / pbntool.best_cpu, 3),
        "memory": round(pbntool.rss / endplay.rss, 3),
    }


# --- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10_000, help="boards in the main file")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tool")
    parser.add_argument(
        "--large-mb",
        type=float,
        default=None,
        help="also measure pbntool validate on a file of about this many MB",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument("--keep", action="store_true", help="keep benchmarks/data/*.pbn")
    args = parser.parse_args(argv)
    if args.boards < 1 or args.repeat < 1:
        parser.error("--boards and --repeat must be at least 1")

    info = machine()
    found = versions()
    compile_package()  # pbntool's bytecode, as endplay has pip's
    print("pbntool benchmark")
    print(
        f"  {info['date']}  {info['platform']}  cpus={info['cpu_count']}  "
        f"python {info['python']}  load average {info['load_average_start']}"
    )
    print(
        f"  pbntool {found['pbntool']}  lark {found['lark']}  "
        f"endplay {found['endplay'] or 'NOT INSTALLED (pip install -e .[bench])'}"
    )
    state = source_state()
    dirty = state["uncommitted"]
    print(
        f"  source: commit {state['commit']}, {state['native']}"
        + (f", uncommitted: {dirty}" if dirty else "")
    )
    results: dict[str, object] = {"machine": info, "versions": found, "source": state}
    created: list[Path] = []
    try:
        status = _benchmark(args, results, found["endplay"] is not None, created)
    finally:
        if not args.keep:
            for path in created:
                path.unlink(missing_ok=True)
    info["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    print(f"\nload average at the end: {info['load_average_end']}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"results written to {args.json}")
    return status


def _commands(path: Path, boards: int, has_endplay: bool) -> dict[str, Measured]:
    python = sys.executable
    commands = {
        "startup": Measured("pbntool --version (startup)", [python, "-m", "pbntool", "--version"]),
        # -j 1: the whole pipeline in one process, like endplay, so the peak RSS that
        # wait4 reports is all of it (bench_scale.py measures -j 2 and whole process trees).
        "validate": Measured(
            "pbntool validate -j 1",
            [python, "-m", "pbntool", "validate", str(path), "--quiet", "-j", "1"],
            boards,
        ),
        "convert": Measured(
            "pbntool convert --to json -j 1",
            [
                python,
                "-m",
                "pbntool",
                "convert",
                str(path),
                "--to",
                "json",
                "-o",
                os.devnull,
                "-j",
                "1",
            ],
            boards,
        ),
    }
    if has_endplay:
        commands["endplay_startup"] = Measured(
            "endplay import (startup)", [python, "-c", "import endplay.parsers.pbn"]
        )
        commands["endplay"] = Measured(
            "endplay load", [python, "-c", ENDPLAY_SCRIPT, str(path)], boards
        )
    return commands


def _compare(
    title: str, commands: dict[str, Measured], repeat: int, has_endplay: bool
) -> dict[str, object]:
    """Measure, print the table and the ratios; the results as a dict."""
    stdout = {commands["validate"].name: os.devnull}
    print(f"\nmeasuring ({repeat} run(s) each, interleaved) ...", flush=True)
    measure_round_robin(list(commands.values()), repeat, stdout)
    startups: dict[str, float] = {}
    if commands["startup"].runs:
        startups[commands["validate"].name] = commands["startup"].best
        startups[commands["convert"].name] = commands["startup"].best
    if has_endplay and commands["endplay_startup"].runs:
        startups[commands["endplay"].name] = commands["endplay_startup"].best
    print_table(title, list(commands.values()), startups)
    print(
        "  boards/s: boards / wall time (best, median); net b/s: boards / (best wall - best"
        " start-up);\n  cpu s: least user+system CPU time of a run; b/cpu-s: boards per CPU second"
    )
    out: dict[str, object] = {
        command.name: command.summary(startups.get(command.name)) for command in commands.values()
    }
    if not has_endplay:
        print("  endplay is not installed: only pbntool was measured (pip install -e '.[bench]')")
        return out
    compared = ratios(commands["validate"], commands["endplay"])
    out["ratios"] = compared
    if compared:
        print(
            f"  pbntool validate vs endplay load: speed x{compared['speed_best']:.2f} (best wall),"
            f" x{compared['speed_median']:.2f} (median wall), x{compared['speed_cpu']:.2f} (CPU);"
            f" peak RSS {compared['memory']:.2f} of endplay's"
        )
    return out


def _benchmark(
    args: argparse.Namespace, results: dict[str, object], has_endplay: bool, created: list[Path]
) -> int:
    path = DATA_DIR / f"bench-{args.boards}-{args.seed}.pbn"
    print(f"\ngenerating {args.boards:,} boards (seed {args.seed}) ...", flush=True)
    start = time.perf_counter()
    created.append(path)
    write_boards(path, args.seed, args.boards)
    size_mb = path.stat().st_size / 1_000_000
    print(f"  {path.name}: {size_mb:.2f} MB in {time.perf_counter() - start:.1f} s")
    check = precheck(path, args.boards)
    results["input"] = {
        "boards": args.boards,
        "size_mb": round(size_mb, 2),
        "seed": args.seed,
        "precheck": check,
    }
    print(f"  pre-check (untimed validate): {check['summary']}")
    if check["exit"] != 0 or check.get("problem") or check["findings"]:
        print("the generated file does not validate cleanly: stopping.", file=sys.stderr)
        print(json.dumps(check, indent=2), file=sys.stderr)
        return 1

    commands = _commands(path, args.boards, has_endplay)
    results["main"] = _compare(
        f"{args.boards:,} boards, {size_mb:.2f} MB", commands, args.repeat, has_endplay
    )
    status = 0 if all(not command.failures for command in commands.values()) else 1
    if args.large_mb:
        status = max(status, _large(args, results, has_endplay, created))
    return status


def _large(
    args: argparse.Namespace, results: dict[str, object], has_endplay: bool, created: list[Path]
) -> int:
    path = DATA_DIR / f"bench-large-{args.large_mb:g}mb-{args.seed}.pbn"
    print(f"\ngenerating a ~{args.large_mb:g} MB file ...", flush=True)
    start = time.perf_counter()
    created.append(path)
    boards, distinct = write_large(path, args.seed, args.large_mb)
    size_mb = path.stat().st_size / 1_000_000
    repeated = f" ({distinct:,} distinct, repeated)" if boards > distinct else ""
    print(
        f"  {path.name}: {size_mb:.1f} MB, {boards:,} boards{repeated} "
        f"in {time.perf_counter() - start:.1f} s"
    )
    title = f"large file: {boards:,} boards, {size_mb:.1f} MB"
    large: dict[str, object] = {
        "boards": boards,
        "distinct_boards": distinct,
        "size_mb": round(size_mb, 2),
    }
    results["large"] = large
    if size_mb <= ENDPLAY_LIMIT_MB:
        commands = _commands(path, boards, has_endplay)
        large.update(_compare(title, commands, 1, has_endplay))
        return 0 if all(not command.failures for command in commands.values()) else 1
    validate = Measured(
        "pbntool validate -j 1",
        [sys.executable, "-m", "pbntool", "validate", str(path), "--quiet", "-j", "1"],
        boards,
    )
    print("\nmeasuring pbntool validate once ...", flush=True)
    # Findings go to a file that must stay empty: as cheap as /dev/null when there are none,
    # and it checks the repeated games without a second pass over the file.
    findings = path.with_suffix(".findings.txt")
    created.append(findings)
    measure_round_robin([validate], 1, {validate.name: str(findings)})
    print_table(title, [validate], {})
    lines = findings.read_text(encoding="utf-8", errors="replace").splitlines()
    large["findings"] = len(lines)
    if lines:
        validate.failures.append(f"{len(lines)} findings, e.g. {lines[0]}")
        print(f"  the large file has {len(lines)} findings, e.g. {lines[0]}")
    else:
        print("  no findings on the large file (its validate output was empty)")
    large[validate.name] = validate.summary()
    if has_endplay:
        note = (
            f"endplay not run: the file is over {ENDPLAY_LIMIT_MB} MB and endplay's "
            "pbn.load reads all the file's lines (readlines) and keeps every board in memory"
        )
        large["note"] = note
        print(f"  {note}")
    return 0 if validate.runs and not validate.failures else 1


if __name__ == "__main__":
    sys.exit(main())
