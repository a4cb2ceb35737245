"""Victory-point scales (pbntool.scoring.vp) against the published values of
/work/shared/docs/vp-scales.md, and ``score --vp`` on a teams event of several matches."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from pbntool.scoring.vp import (
    blitz_margin,
    read_scale_csv,
    wbf_continuous,
    wbf_discrete,
    wbf_discrete_bands,
)

REPO = Path(__file__).resolve().parent.parent
TEAMS = REPO / "fixtures" / "scoring" / "teams_without_room_tags.pbn"

# Klinger, IBPA Bulletin May 2013 (the NEC Cup's 14-board scale); BC Star (20 boards).
PUBLISHED = [
    (14, 1, 10.33), (14, 2, 10.66), (14, 3, 10.97), (14, 4, 11.28), (14, 5, 11.58),
    (14, 6, 11.87), (14, 7, 12.16), (14, 10, 12.97), (14, 20, 15.26),
    (20, 0, 10.00), (20, 1, 10.28), (20, 2, 10.55),
    (16, 20, 15.00), (16, 60, 20.00), (16, 75, 20.00),
]  # fmt: skip


@pytest.mark.parametrize(("boards", "margin", "winner"), PUBLISHED)
def test_continuous_scale_gives_the_published_values(
    boards: int, margin: int, winner: float
) -> None:
    assert wbf_continuous(margin, boards) == (winner, round(20 - winner, 2))
    assert wbf_continuous(-margin, boards) == (round(20 - winner, 2), winner)


def test_blitz_margin_grows_with_the_square_root_of_the_boards() -> None:
    assert blitz_margin(16) == 60
    assert round(blitz_margin(20), 2) == 67.08


def test_continuous_scale_rises_from_the_draw_to_the_blitz() -> None:
    values = [wbf_continuous(m, 16)[0] for m in range(61)]
    assert values[0] == 10 and values[-1] == 20
    assert all(b >= a for a, b in pairwise(values))


def test_discrete_bands_agree_with_the_published_example_and_the_construction() -> None:
    assert wbf_discrete_bands(20) == [1, 5, 9, 14, 19, 25, 31, 39, 48, 60]  # BC Star: 0-1, 2-5, 6-9
    assert wbf_discrete_bands(16) == [1, 4, 8, 12, 17, 22, 28, 35, 43, 53]
    assert wbf_discrete_bands(24) == [1, 5, 10, 15, 21, 27, 34, 43, 53, 65]
    assert [wbf_discrete(m, 20)[0] for m in (0, 1, 2, 5, 6, 9, 60, 61)] == [
        10, 10, 11, 11, 12, 12, 19, 20,
    ]  # fmt: skip
    assert wbf_discrete(-7, 20) == (8, 12)


def test_a_club_scale_from_csv(tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text("imps_from,vp_winner\n0,15\n3,17\n8,20\n14,23\n20,25\n")
    scale = read_scale_csv(path)
    assert scale.convert(2, 8) == (15, 15)
    assert scale.convert(-9, 8) == (10, 20)
    assert scale.convert(40, 8) == (25, 5)


def test_a_club_scale_must_start_at_the_draw(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("3,17\n8,20\n")
    with pytest.raises(ValueError, match="draw"):
        read_scale_csv(path)


def _score(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", "score", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_score_vp_gives_each_match_its_vps_and_the_standings() -> None:
    result = _score("--vp", "wbf", "--format", "json", str(TEAMS))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    matches = [row for row in rows if row["type"] == "match"]
    assert [(m["round"], m["home"], m["visit"]) for m in matches] == [
        ("1", "Lions", "Tigers"), ("1", "Bears", "Wolves"),
        ("2", "Lions", "Bears"), ("2", "Tigers", "Wolves"),
    ]  # fmt: skip
    first = matches[0]
    margin = first["imps"][0] - first["imps"][1]
    assert first["vp"] == list(wbf_continuous(round(margin), 3))
    assert all(sum(m["vp"]) == pytest.approx(20) for m in matches)
    total = [row for row in rows if row["type"] == "standing" and row["after"] == "total"]
    assert [row["team"] for row in total] == ["Bears", "Tigers", "Lions", "Wolves"]
    assert total[0]["vp"] == pytest.approx(
        sum(m["vp"][m["home"] != "Bears"] for m in matches if "Bears" in (m["home"], m["visit"]))
    )
    assert {row["after"] for row in rows if row["type"] == "standing"} == {"round 1", "total"}


def test_score_vp_text_names_the_scale_and_the_tie_break() -> None:
    result = _score("--vp", "wbf-discrete", str(TEAMS))
    assert "WBF discrete VP scale (2013) for 3 boards" in result.stdout
    assert "tie-break: VPs, then IMP difference" in result.stdout
    assert "final standings" in result.stdout


def test_score_vp_refuses_a_missing_scale_file() -> None:
    result = _score("--vp", "no-such-scale.csv", str(TEAMS))
    assert result.returncode == 2


def test_score_vp_pbn_output_carries_the_vp_standings_and_checks_clean(tmp_path: Path) -> None:
    """The TotalScoreTable of the first game gives the VPs (pbntool's TotalVP column); each
    game's traveller lists its own match, so the written file checks without a disagreement."""
    written = tmp_path / "vp.pbn"
    result = _score("--vp", "wbf", "--format", "pbn", "-o", str(written), str(TEAMS))
    assert result.returncode == 0, result.stderr
    text = written.read_text()
    assert text.count("[TotalScoreTable") == 1
    assert "TotalVP" in text and '"Bears"' in text and "35.08" in text
    assert "WBF continuous VP scale (2013) for 3 boards" in text
    check = _score("--check", str(written))
    assert check.returncode == 0, check.stdout
    assert "disagree" not in check.stderr
