"""``fix --event``: the event's scores written into the games, checked clean afterwards."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCORE_FIXTURES = REPO / "fixtures" / "commands" / "score"


def run(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_fix_event_corrects_what_score_check_finds(tmp_path: Path) -> None:
    for name in ("EVT001_scoremp_of_a_lost_board.pbn", "EVT002_scoreimp_for_the_wrong_side.pbn"):
        path = tmp_path / name
        shutil.copy(SCORE_FIXTURES / name, path)
        before = run("score", "--check", str(path), cwd=tmp_path)
        assert before.returncode == 1 and "EVT00" in before.stdout
        fixed = run("fix", "--event", "--in-place", str(path), cwd=tmp_path)
        assert fixed.returncode == 0, fixed.stderr
        assert "FIX010" in fixed.stdout
        after = run("score", "--check", str(path), cwd=tmp_path)
        assert after.returncode == 0, after.stdout
        again = run("fix", "--event", "--dry-run", str(path), cwd=tmp_path)
        assert again.returncode == 0 and "0 changes" in again.stderr


def test_without_event_the_event_tags_are_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "board.pbn"
    shutil.copy(SCORE_FIXTURES / "EVT001_scoremp_of_a_lost_board.pbn", path)
    result = run("fix", "--dry-run", str(path), cwd=tmp_path)
    assert "FIX010" not in result.stdout
