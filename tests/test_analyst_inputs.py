"""select, dedupe and stats take the shared inputs (archives, --include, --files-from) and
stats runs in parallel with the same output for every -j."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from pbntool import pbn
from pbntool.generate import random_boards

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
