"""select, dedupe and stats take the shared inputs (archives, --include, --files-from) and
stats runs in parallel with the same output for every -j."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from pbntool.dev.generate import random_boards
from pbntool.formats import pbn

REPO = Path(__file__).resolve().parent.parent


def run(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def _files(tmp_path: Path) -> tuple[Path, Path]:
    boards = list(random_boards(77, 300))
    plain = tmp_path / "event.pbn"
    plain.write_text(pbn.dumps(boards), encoding="utf-8")
    archive = tmp_path / "event.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("day1/event.pbn", pbn.dumps(boards))
    return plain, archive


def test_stats_is_the_same_for_every_j_and_inside_an_archive(tmp_path: Path) -> None:
    plain, archive = _files(tmp_path)
    one = run("stats", "--format", "json", "-j", "1", "-q", str(plain), cwd=tmp_path)
    two = run("stats", "--format", "json", "-j", "2", "-q", str(plain), cwd=tmp_path)
    zipped = run("stats", "--format", "json", "-q", str(archive), cwd=tmp_path)
    assert one.returncode == 0 and one.stdout == two.stdout
    assert zipped.stdout.replace("event.zip!day1/event.pbn", "event.pbn") == one.stdout


def test_select_and_dedupe_read_archives_and_file_lists(tmp_path: Path) -> None:
    plain, archive = _files(tmp_path)
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"{plain}\n", encoding="utf-8")
    selected = run("select", "--where", "level >= 4", "--to", "json", str(archive), cwd=tmp_path)
    assert selected.returncode == 0, selected.stderr
    rows = selected.stdout.splitlines()
    assert rows and all("event.zip!day1/event.pbn" in row for row in rows)
    listed = run("select", "--where", "level >= 4", "--to", "json", "--files-from",
                 str(listing), cwd=tmp_path)  # fmt: skip
    assert len(listed.stdout.splitlines()) == len(rows)
    both = run("dedupe", "--format", "json", str(plain), str(archive), cwd=tmp_path)
    assert both.returncode in (0, 1), both.stderr
    assert "event.zip!day1/event.pbn" in both.stdout


def _run_sliced(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``run`` with small work units, so 300 boards make many of them."""
    environment = {**os.environ, "PBNTOOL_SLICE_CHARS": "20000"}
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=300,
    )


def test_select_runs_in_workers_with_the_same_output_for_every_j(tmp_path: Path) -> None:
    plain, _ = _files(tmp_path)
    where = ("--where", "level >= 4 or has_warning()")
    for form in ("pbn", "json", "xml"):
        outputs = []
        for jobs in ("1", "2"):
            rejects = tmp_path / f"rejects{jobs}.{form}"
            done = _run_sliced("select", *where, "--to", form, "-j", jobs, "--rejects",
                               str(rejects), str(plain), cwd=tmp_path)  # fmt: skip
            assert done.returncode == 0, done.stderr
            outputs.append((done.stdout, rejects.read_text(encoding="utf-8"), done.stderr[-40:]))
        assert outputs[0][:2] == outputs[1][:2]
        chosen = int(outputs[0][2].split("; ")[-1].split()[0])
        assert 0 < chosen < 300 and f"{chosen} selected, {300 - chosen} rejected" in outputs[0][2]
    one_process = run("select", *where, "--to", "lin", str(plain), cwd=tmp_path)
    assert one_process.returncode == 0 and one_process.stdout.count("\n") == chosen


def test_select_limit_cuts_inside_a_unit_and_stops(tmp_path: Path) -> None:
    plain, _ = _files(tmp_path)
    every = _run_sliced("select", "--where", "not made", "--to", "json", "-j", "2", str(plain),
                        cwd=tmp_path)  # fmt: skip
    rows = every.stdout.splitlines()
    assert len(rows) > 40
    for limit in (1, 7, 40):
        done = _run_sliced("select", "--where", "not made", "--to", "json", "-j", "2",
                           "--limit", str(limit), str(plain), cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == rows[:limit]
        assert f"; {limit} selected" in done.stderr
