"""Benchmark at scale: pbntool against endplay, ``-j 1`` against ``-j 2``, and a million boards.

One run reports, side by side, boards/s and the peak resident memory of *all* processes of
each command (pbntool's workers included):

- ``pbntool validate`` and ``pbntool convert --to json`` with ``-j 1`` and ``-j 2``, and
  endplay's PBN parser, on the same generated PBN file;
- ``pbntool validate`` (``-j 1`` and ``-j 2``) and endplay's LIN parser on the same boards
  written as LIN (skipped, with a message, while ``pbntool.formats.writing.open_writer(Format.LIN,
  ...)`` does not exist);
- the speed-up of ``-j 2`` over ``-j 1``, and the ceiling this machine puts on it: two
  ``-j 1`` processes run at once (each doing the whole job) take longer than one alone, as
  two cores share caches, memory and the host's clock; ``2 x (one alone) / (two at once)``
  is the most any ``-j 2`` could reach with the work split perfectly and nothing added;
- ``-j 1`` against ``-j 2`` on a folder of many small real files (``--folder``, by default
  ``../shared/corpus``);
- the time and total peak RSS to validate a file of ``--million`` boards (default 1,000,000;
  ``--million 0`` skips it), with ``-j 2`` and with ``-j 1`` (the speed-up on one big file);
  with ``--million-convert``, converting it to JSON as well, into a file and into
  ``/dev/null``;
- ``convert`` into a real file as well as into ``/dev/null``, ``-j 1`` against ``-j 2``.

    python benchmarks/bench_scale.py                      # 20,000 boards, 3 runs, 1M boards
    python benchmarks/bench_scale.py --boards 5000 --million 0 --repeat 1   # a quick look

Every run is a fresh process started by a small launcher, which samples ``/proc`` (every 20 ms
at first, then less and less often, down to 4 times a second) and sums the resident memory
of the command's whole process tree (``peak total RSS``); it also reports the sum of each
process's own peak (``sum of peaks``, an upper bound).  The load
average is printed before and after every measurement: other processes share this machine's
cores, so figures taken under load are slower than the code is.  Inputs are generated into
``benchmarks/data/`` (git-ignored, deleted unless ``--keep``; the million-board file is kept
between runs with ``--keep``, as generating it takes minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_pbn import (
    DATA_DIR,
    DEFAULT_SEED,
    bench_boards,
    source_state,
    versions,
    write_large,
)

from pbntool.dev.bytecode import compile_package
from pbntool.formats import Format

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
"""The real files beside the project (``../shared/corpus``), when they are there."""

BOARD_BYTES = 555
"""About the size of one generated board in export format."""

CONVERTED = DATA_DIR / "converted.json"
"""Where ``convert`` writes when it is measured into a real file (deleted afterwards)."""

ENDPLAY_PBN = """\
import sys
from endplay.parsers import pbn
with open(sys.argv[1], encoding="utf-8") as f:
    boards = pbn.load(f)
print(len(boards))
"""
PAIR = """\
import subprocess, sys
processes = [subprocess.Popen(sys.argv[1:]) for _ in range(2)]
sys.exit(max(process.wait() for process in processes))
"""
"""Runs a command twice at once (the ceiling of ``-j 2``: see the module's docstring)."""

ENDPLAY_LIN = ENDPLAY_PBN.replace("import pbn", "import lin").replace("pbn.load", "lin.load")

# Samples the whole process tree of the command: a worker's memory and CPU count too (a
# process's CPU time is its last sample of its own time, so the end of a process's run may be
# missed: wait4's figure covers the workers the command reaped).  The samples come every
# 20 ms at first, then less and less often, up to 4 a second: each costs 0.4 ms of a core,
# and at 50 a second that was 2-3% of a core (0.08 s in a 3 s run), taken from a -j 2 run
# that needs both cores (-j 1 leaves one free for it).  Each process's own
# peak (VmHWM) is the kernel's, exact whatever the rate; the peak of the sum at one moment
# is sampled, so a short run is sampled densely.
LAUNCHER = r"""
import json, os, select, subprocess, sys, time
report, argv = sys.argv[1], sys.argv[2:]

def tree(root):
    # The children files of each thread (Linux 3.5+, CONFIG_PROC_CHILDREN): a dozen reads a
    # sample.  Scanning all of /proc took 2 ms of each 20 ms, a tenth of a core taken from
    # a -j 2 run whose workers need both cores.
    try:
        found, todo = [], [root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            for thread in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{thread}/children") as listed:
                    todo.extend(int(child) for child in listed.read().split())
        return found
    except FileNotFoundError:
        if not os.path.exists(f"/proc/{root}/task/{root}/children"):
            return tree_by_scan(root)
        return found  # a process ended while it was read: the next sample sees the rest

def tree_by_scan(root):
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(name))
            except OSError:
                pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found

TICK = os.sysconf("SC_CLK_TCK")

def cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0

def memory(pid):
    rss = hwm = 0
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        pass
    return rss, hwm

def ended_within(seconds):
    # Wakes the moment the command ends (a pidfd is readable then), so the wall time is
    # exact whatever the sampling rate; where there is no pidfd, sleeps the interval.
    if exited is not None:
        return bool(select.select([exited], [], [], seconds)[0])
    time.sleep(seconds)
    return False

start = time.perf_counter()
child = subprocess.Popen(argv)
end = None
try:
    exited = os.pidfd_open(child.pid)
except (AttributeError, OSError):
    exited = None
peak_total, peaks, processes, cpus = 0, {}, set(), {}
interval = 0.02
while True:
    pid, status, usage = os.wait4(child.pid, os.WNOHANG)
    if pid:
        end = end or time.perf_counter()
        break
    total = 0
    for member in tree(child.pid):
        rss, hwm = memory(member)
        total += rss
        peaks[member] = max(peaks.get(member, 0), hwm)
        cpus[member] = max(cpus.get(member, 0.0), cpu(member))
        processes.add(member)
    peak_total = max(peak_total, total)
    if ended_within(interval):
        end = time.perf_counter()
    interval = min(0.25, interval * 1.25)
wall = end - start
peaks[child.pid] = max(peaks.get(child.pid, 0), usage.ru_maxrss)
with open(report, "w") as out:
    json.dump({"code": os.waitstatus_to_exitcode(status), "wall": wall,
               "cpu": usage.ru_utime + usage.ru_stime,
               # wait4's figure includes the children the command reaped (forked workers);
               # the samples count each process's own time once (forkserver's workers are
               # not the command's children).  Whichever is larger misses the least.
               "tree_cpu": max(sum(cpus.values()), usage.ru_utime + usage.ru_stime),
               "peak_total_kib": peak_total, "sum_of_peaks_kib": sum(peaks.values()),
               "processes": len(processes)}, out)
"""


@dataclass
class Run:
    wall: float
    cpu: float
    """CPU seconds of the whole tree (the main process and, sampled, its workers)."""
    peak_total_mb: float
    sum_of_peaks_mb: float
    processes: int
    load: float


@dataclass
class Command:
    name: str
    argv: list[str]
    boards: int
    runs: list[Run] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ok_codes: tuple[int, ...] = (0,)
    """Exit codes of a good run (real files have findings: validate exits 1 on errors)."""

    @property
    def best(self) -> Run:
        return min(self.runs, key=lambda run: run.wall)

    def rate(self) -> float:
        return self.boards / self.best.wall


def measure(command: Command, expect_output: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        out_path, err_path = Path(scratch) / "out", Path(scratch) / "err"
        load = os.getloadavg()[0]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            launcher = [sys.executable, "-I", "-c", LAUNCHER, str(report), *command.argv]
            subprocess.run(launcher, stdin=subprocess.DEVNULL, stdout=out, stderr=err, check=True)
        result = json.loads(report.read_text())
        output = out_path.read_text(errors="replace").strip()
        errors = err_path.read_text(errors="replace").strip()
    if result["code"] not in command.ok_codes:
        command.failures.append(f"exit {result['code']}: {errors.splitlines()[-1:]}")
        return
    if expect_output is not None and output != expect_output:
        command.failures.append(f"printed {output[:80]!r}, expected {expect_output!r}")
        return
    run = Run(
        result["wall"],
        result["tree_cpu"],
        result["peak_total_kib"] / 1024,
        result["sum_of_peaks_kib"] / 1024,
        result["processes"],
        load,
    )
    command.runs.append(run)
    print(
        f"  {command.name:<34} {run.wall:7.2f} s  cpu {run.cpu:6.2f} s  "
        f"total RSS {run.peak_total_mb:6.1f} MB  ({run.processes} proc)  load {load:.2f}",
        flush=True,
    )


def pbntool(*args: str) -> list[str]:
    return [sys.executable, "-m", "pbntool", *args]


def pair_of(command: Command) -> Command:
    """``command`` (a ``-j 1`` run) twice at once, for the ceiling of ``-j 2``."""
    name = command.name.replace("-j 1", "two -j 1 at once")
    argv = [sys.executable, "-c", PAIR, *command.argv]
    return Command(name, argv, 2 * command.boards, ok_codes=command.ok_codes)


def print_ceiling(label: str, one: Command, two: Command, pair: Command) -> dict[str, float]:
    """The speed-up of ``two`` over ``one`` next to the ceiling ``pair`` measured."""
    if not (one.runs and two.runs and pair.runs):
        return {}
    speed_up = one.best.wall / two.best.wall
    ceiling = 2 * one.best.wall / pair.best.wall
    print(
        f"  {label} -j 2 vs -j 1 (speed-up): x{speed_up:.2f}; two -j 1 at once: "
        f"x{ceiling:.2f} (this machine's ceiling), -j 2 reaches {speed_up / ceiling:.0%} of it"
    )
    return {"speed_up": round(speed_up, 2), "ceiling": round(ceiling, 2)}


def write_inputs(boards: int, seed: int) -> tuple[Path, Path | None, str]:
    """The PBN file and, when pbntool can write LIN, the same boards as LIN."""
    from pbntool.formats.writing import open_writer

    pbn_path = DATA_DIR / f"scale-{boards}-{seed}.pbn"
    lin_path = DATA_DIR / f"scale-{boards}-{seed}.lin"
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    chosen = list(bench_boards(seed, boards))
    with open(pbn_path, "w", encoding="utf-8", newline="") as out:
        writer = open_writer(Format.PBN, out)
        for board in chosen:
            writer.write(board)
        writer.close()
    try:
        with open(lin_path, "w", encoding="utf-8", newline="") as out:
            writer = open_writer(Format.LIN, out)
            for board in chosen:
                writer.write(board)
            writer.close()
    except (ImportError, AttributeError) as error:
        lin_path.unlink(missing_ok=True)
        return pbn_path, None, f"LIN skipped: pbntool has no LIN writer yet ({error})"
    os.sync()  # written back before anything is timed
    return pbn_path, lin_path, ""


def table(title: str, commands: list[Command]) -> list[dict[str, object]]:
    print(f"\n{title}")
    header = (
        f"  {'command':<34} {'best s':>7} {'boards/s':>9} {'cpu s':>6} "
        f"{'total RSS MB':>12} {'sum of peaks':>12} {'load':>5}"
    )
    print(header)
    rows = []
    for command in commands:
        if not command.runs:
            print(f"  {command.name:<34} failed: {'; '.join(command.failures)}")
            rows.append({"name": command.name, "failures": command.failures})
            continue
        best = command.best
        print(
            f"  {command.name:<34} {best.wall:7.2f} {command.rate():9,.0f} {best.cpu:6.2f} "
            f"{max(r.peak_total_mb for r in command.runs):12.1f} "
            f"{max(r.sum_of_peaks_mb for r in command.runs):12.1f} {best.load:5.2f}"
        )
        rows.append(
            {
                "name": command.name,
                "argv": command.argv,
                "boards": command.boards,
                "best_s": round(best.wall, 3),
                "walls": [round(r.wall, 3) for r in command.runs],
                "boards_per_s": round(command.rate(), 1),
                "cpu_s": round(best.cpu, 3),
                "peak_total_rss_mb": round(max(r.peak_total_mb for r in command.runs), 1),
                "sum_of_peaks_mb": round(max(r.sum_of_peaks_mb for r in command.runs), 1),
                "load_at_best": round(best.load, 2),
                "failures": command.failures,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--million", type=int, default=1_000_000, help="0 skips it")
    parser.add_argument(
        "--million-convert",
        action="store_true",
        help="also convert the million boards to JSON, into a file and into /dev/null, with "
        "-j 2 and -j 1 (about 6 more minutes and 3.5 GB of disk while it runs)",
    )
    parser.add_argument(
        "--million-repeat",
        type=int,
        default=1,
        help="runs of each million-board command (the best is kept; each takes 1-2 minutes)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--folder",
        default=str(CORPUS) if CORPUS.is_dir() else "",
        help="a folder of many small real files for -j 1 against -j 2 ('' skips it; "
        "default ../shared/corpus)",
    )
    args = parser.parse_args(argv)
    found = versions()
    compile_package()  # pbntool's bytecode, as endplay has pip's
    print(
        f"pbntool scale benchmark  {time.strftime('%Y-%m-%d %H:%M:%S')}  cpus={os.cpu_count()}  "
        f"load {[round(x, 2) for x in os.getloadavg()]}  source {source_state()}"
    )
    print(f"  pbntool {found['pbntool']}  endplay {found['endplay'] or 'NOT INSTALLED'}")
    results: dict[str, object] = {"versions": found, "load_start": os.getloadavg()}
    created: list[Path] = []
    try:
        status = _run(args, results, found["endplay"] is not None, created)
    finally:
        if not args.keep:
            for path in created:
                path.unlink(missing_ok=True)
    results["load_end"] = os.getloadavg()
    print(f"\nload average at the end: {[round(x, 2) for x in os.getloadavg()]}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return status


def _run(
    args: argparse.Namespace, results: dict[str, object], endplay: bool, created: list[Path]
) -> int:
    print(f"\ngenerating {args.boards:,} boards ...", flush=True)
    pbn_path, lin_path, note = write_inputs(args.boards, args.seed)
    created += [pbn_path] + ([lin_path] if lin_path else [])
    print(f"  {pbn_path.name}: {pbn_path.stat().st_size / 1e6:.1f} MB")
    if note:
        print(f"  {note}")
    n = args.boards
    commands = [
        Command("pbntool validate -j 1", pbntool("validate", str(pbn_path), "-q", "-j", "1"), n),
        Command("pbntool validate -j 2", pbntool("validate", str(pbn_path), "-q", "-j", "2"), n),
        Command(
            "pbntool convert --to json -j 1",
            pbntool("convert", str(pbn_path), "--to", "json", "-o", os.devnull, "-j", "1"),
            n,
        ),
        Command(
            "pbntool convert --to json -j 2",
            pbntool("convert", str(pbn_path), "--to", "json", "-o", os.devnull, "-j", "2"),
            n,
        ),
    ]
    commands += [pair_of(commands[0]), pair_of(commands[2])]
    commands += to_file_commands("pbntool convert --to json", ("convert", str(pbn_path)), n)
    if endplay:
        commands.append(
            Command("endplay pbn.load", [sys.executable, "-c", ENDPLAY_PBN, str(pbn_path)], n)
        )
    if lin_path is not None:
        commands += [
            Command(
                "pbntool validate LIN -j 1",
                pbntool("validate", str(lin_path), "-q", "-j", "1"),
                n,
            ),
            Command(
                "pbntool validate LIN -j 2",
                pbntool("validate", str(lin_path), "-q", "-j", "2"),
                n,
            ),
        ]
        if endplay:
            commands.append(
                Command("endplay lin.load", [sys.executable, "-c", ENDPLAY_LIN, str(lin_path)], n)
            )
    print(f"\nmeasuring ({args.repeat} round(s), interleaved) ...", flush=True)
    for _ in range(args.repeat):
        for command in commands:
            measure(command, str(n) if command.name.startswith("endplay") else None)
    results["main"] = table(f"{n:,} boards", commands)
    _ratios(commands, results)
    by_name = {command.name: command for command in commands}
    results["ceilings"] = {
        verb: print_ceiling(
            verb,
            by_name[f"pbntool {verb} -j 1"],
            by_name[f"pbntool {verb} -j 2"],
            by_name[f"pbntool {verb} two -j 1 at once"],
        )
        for verb in ("validate", "convert --to json")
    }
    results["to_file"] = print_to_file("pbntool convert --to json", by_name)
    status = 0 if all(c.runs and not c.failures for c in commands) else 1
    if args.folder:
        status = max(status, _folder(args, results))
    if args.million:
        status = max(status, _million(args, results, created))
    return status


def _folder(args: argparse.Namespace, results: dict[str, object]) -> int:
    """``-j 1`` against ``-j 2`` on a folder of real files of mixed sizes and formats, where
    the cost of each file (opening, sniffing, sending a unit) weighs more than in one file."""
    folder = Path(args.folder)
    summary = subprocess.run(
        pbntool("validate", str(folder), "-q", "--summary-json"),
        capture_output=True,
        text=True,
        check=False,
    )
    counts = json.loads(summary.stderr.strip().splitlines()[-1])
    boards, inputs = counts["boards"], counts["inputs"]
    print(f"\nfolder {folder}: {inputs:,} inputs, {boards:,} boards", flush=True)
    # Exit 1 is a good run here: real files have findings at error level.
    commands = [
        Command(
            f"folder {verb} -j {jobs}",
            pbntool(*argv, "-q", "-j", str(jobs)),
            boards,
            ok_codes=(0, 1),
        )
        for verb, argv in (
            ("validate", ("validate", str(folder))),
            ("convert --to json", ("convert", str(folder), "--to", "json", "-o", os.devnull)),
        )
        for jobs in (1, 2)
    ]
    commands += [pair_of(command) for command in commands if command.name.endswith("-j 1")]
    commands += to_file_commands("folder convert --to json", ("convert", str(folder)), boards)
    for _ in range(args.repeat):
        for command in commands:
            measure(command)
    results["folder"] = table(f"folder of {inputs:,} files, {boards:,} boards", commands)
    by_name = {command.name: command for command in commands}
    results["folder_ratios"] = {
        verb: print_ceiling(
            f"folder {verb}",
            by_name[f"folder {verb} -j 1"],
            by_name[f"folder {verb} -j 2"],
            by_name[f"folder {verb} two -j 1 at once"],
        )
        for verb in ("validate", "convert --to json")
    }
    results["folder_to_file"] = print_to_file("folder convert --to json", by_name)
    return 0 if all(c.runs and not c.failures for c in commands) else 1


def to_file_commands(label: str, argv: tuple[str, ...], boards: int) -> list[Command]:
    """``convert`` into a real file (``-j 1`` and ``-j 2``) besides ``/dev/null``: there
    ``-j 1`` writes nothing, while ``-j 2`` still moves the text from its workers to the
    output; a file costs both the write (and its ``fsync``).  The file is in
    ``benchmarks/data/`` and is replaced by each run (written atomically), then deleted."""
    return [
        Command(
            f"{label} -j {jobs} to a file",
            pbntool(*argv, "--to", "json", "-o", str(CONVERTED), "-q", "-j", str(jobs)),
            boards,
            ok_codes=(0, 1),
        )
        for jobs in (1, 2)
    ]


def print_to_file(label: str, by_name: dict[str, Command]) -> dict[str, float]:
    one, two = by_name[f"{label} -j 1 to a file"], by_name[f"{label} -j 2 to a file"]
    CONVERTED.unlink(missing_ok=True)
    if not (one.runs and two.runs):
        return {}
    speed_up = one.best.wall / two.best.wall
    print(f"  {label} into a file -j 2 vs -j 1 (speed-up): x{speed_up:.2f}")
    return {"speed_up": round(speed_up, 2)}


def _ratios(commands: list[Command], results: dict[str, object]) -> None:
    by_name = {command.name: command for command in commands if command.runs}
    ratios: dict[str, float] = {}
    pairs = [
        ("validate -j 2 vs endplay pbn.load", "pbntool validate -j 2", "endplay pbn.load"),
        ("validate -j 1 vs endplay pbn.load", "pbntool validate -j 1", "endplay pbn.load"),
        # validate and convert -j 2 vs -j 1: printed with their ceiling (print_ceiling)
        ("validate LIN vs endplay lin.load", "pbntool validate LIN -j 2", "endplay lin.load"),
        (
            "validate LIN -j 2 vs -j 1 (speed-up)",
            "pbntool validate LIN -j 2",
            "pbntool validate LIN -j 1",
        ),
    ]
    print()
    for label, fast, slow in pairs:
        if fast in by_name and slow in by_name:
            ratio = by_name[slow].best.wall / by_name[fast].best.wall
            ratios[label] = round(ratio, 2)
            print(f"  {label}: x{ratio:.2f}")
    results["ratios"] = ratios


def _million(args: argparse.Namespace, results: dict[str, object], created: list[Path]) -> int:
    path = DATA_DIR / f"scale-million-{args.million}-{args.seed}.pbn"
    if not path.exists():
        print(f"\ngenerating about {args.million:,} boards (50,000 distinct, repeated) ...")
        megabytes = args.million * BOARD_BYTES / 1_000_000
        free = shutil.disk_usage(DATA_DIR).free / 1_000_000
        if megabytes * 2 > free:
            print(f"  not enough disk: {megabytes:.0f} MB needed twice over, {free:.0f} MB free")
            return 1
        boards, _ = write_large(path, args.seed, megabytes)
        # Written back now, not by the kernel on the cores the first command measured.
        os.sync()
    else:
        print(f"\nreusing {path.name}")
        boards = path.read_bytes().count(b'[Board "')
    if not args.keep:
        created.append(path)
    print(f"  {path.name}: {path.stat().st_size / 1e6:.0f} MB, {boards:,} boards", flush=True)
    # -j 1 as well: on a file this big the start-up is nothing, so -j 2 over -j 1 is the
    # speed-up of the engine itself (on 20,000 boards a fixed 0.13 s of start-up caps it).
    commands = [
        Command(
            f"pbntool validate -j {jobs} (1M)",
            pbntool("validate", str(path), "-q", "-j", str(jobs)),
            boards,
        )
        for jobs in (2, 1)
    ]
    if args.million_convert:
        commands += [
            Command(
                f"pbntool convert --to json -j {jobs} (1M) {where}",
                pbntool("convert", str(path), "--to", "json", "-o", target, "-q", "-j", str(jobs)),
                boards,
            )
            for where, target in (("to a file", str(CONVERTED)), ("to /dev/null", os.devnull))
            for jobs in (2, 1)
        ]
    try:
        for _ in range(args.million_repeat):
            for command in commands:
                measure(command)
    finally:
        CONVERTED.unlink(missing_ok=True)
    results["million"] = table(f"{boards:,} boards", commands)
    speed_ups: dict[str, float] = {}
    for two, one in zip(commands[::2], commands[1::2], strict=True):
        if one.runs and two.runs:
            ratio = one.best.wall / two.best.wall
            label = two.name.replace(" -j 2", "").replace(" (1M)", "")
            speed_ups[label] = round(ratio, 2)
            print(f"  {label} -j 2 vs -j 1 on {boards:,} boards (speed-up): x{ratio:.2f}")
    results["million_speed_up"] = speed_ups
    return 0 if all(command.runs for command in commands) else 1


if __name__ == "__main__":
    sys.exit(main())
