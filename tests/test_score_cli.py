"""``pbntool score`` with a method, through a real subprocess and through typer's runner:
the default from the Scoring tag, text and JSON tables, PBN output, rubber and Chicago."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.formats import pbn

D1 = "N:72.986.A87.A9432 J963.75.T432.QJ7 4.KQJT3.KJ95.K86 AKQT85.A42.Q6.T5"


def game(board: int = 1, **tags: str) -> str:
    values = {
        "Event": "Club",
        "Board": str(board),
        "West": "-",
        "North": "-",
        "East": "-",
        "South": "-",
        "Dealer": "N",
        "Vulnerable": "None",
        "Deal": D1,
        "Declarer": "N",
        "Contract": "4S",
        "Result": "10",
        **tags,
    }
    return "".join(f'[{name} "{value}"]\n' for name, value in values.items()) + "\n"


PAIRS = (
    game(Scoring="MP", PairNS="1", PairEW="11")
    + game(Scoring="MP", PairNS="2", PairEW="12", Result="11")
    + game(Scoring="MP", PairNS="3", PairEW="13", Result="9")
)
"""One board at three tables: 420, 450 and -50."""


def run(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def pairs(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.pbn"
    path.write_text(PAIRS, encoding="utf-8")
    return path


def test_scoring_tag_chooses_matchpoints(pairs: Path) -> None:
    done = run("score", pairs.name, cwd=pairs.parent)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "== Club: mp (MP1, Neuberg) =="
    rows = [line.split() for line in lines[2:5]]
    # board contract by tricks score tables ns ew ns% ew%
    assert [row[4:10] for row in rows] == [
        ["420", "1", "2", "2", "50", "50"],
        ["450", "1", "4", "0", "100", "0"],
        ["-50", "1", "0", "4", "0", "100"],
    ]
    standings = lines[lines.index("") + 2 :]
    assert [line.split()[:2] for line in standings if line] == [
        ["1", "2"],
        ["1", "13"],
        ["3", "1"],
        ["3", "11"],
        ["5", "3"],
        ["5", "12"],
    ]


def test_json_lines_of_results_and_standings(pairs: Path) -> None:
    done = run("score", "--method", "cross-imp", "--format", "json", pairs.name, cwd=pairs.parent)
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    results = [o for o in objects if o["kind"] == "result"]
    # 420: imps(-30) + imps(470) = -1 + 10, averaged over 2 comparisons.
    assert [(o["score_ns"], o["ns"]) for o in results] == [(420, 4.5), (450, 6.0), (-50, -10.5)]
    assert {o["method"] for o in results} == {"cross-imp"}
    standings = [o for o in objects if o["kind"] == "standing"]
    assert [(o["rank"], o["name"], o["total"]) for o in standings][:2] == [
        (1, "13", 10.5),  # EW of the -50
        (2, "2", 6.0),
    ]


def test_butler_heading_names_the_datum(pairs: Path) -> None:
    done = run("score", "-m", "butler", "--discard", "0", pairs.name, cwd=pairs.parent)
    assert done.stdout.splitlines()[0] == "== Club: butler (datum: the mean of all scores) =="
    assert "datum 270" in done.stdout  # (420 + 450 - 50) / 3 = 273.3 -> 270


def test_pbn_output_carries_the_scores_and_reads_back(pairs: Path) -> None:
    done = run("score", "-m", "mp", "--no-neuberg", "--format", "pbn", pairs.name, cwd=pairs.parent)
    assert done.returncode == 0, done.stderr
    boards = pbn.loads(done.stdout)
    assert [board.tag("ScoreMP") for board in boards] == ["NS 2", "NS 4", "NS 0"]
    assert [board.tag("ScorePercentage") for board in boards] == ["NS 50", "NS 100", "NS 0"]
    table = next(t for t in boards[0].tables if t.name == "ScoreTable")
    assert [column.name for column in table.columns] == [
        "Rank", "PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Score_NS",
        "MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "Multiplicity",
    ]  # fmt: skip
    assert table.rows[1] == ("1", "2", "12", "4S", "N", "11", "450", "4", "0", "100", "0", "1")
    totals = next(t for t in boards[0].tables if t.name == "TotalScoreTable")
    assert totals.rows[0] == ("1", "2", "1", "4", "100", "4")
    again = tmp_output = pairs.parent / "scored.pbn"
    tmp_output.write_text(done.stdout, encoding="utf-8")
    check = run("score", "--check", "-m", "mp", "--no-neuberg", again.name, cwd=pairs.parent)
    assert (check.returncode, check.stdout) == (0, "")
    assert "scored.pbn:" in check.stderr and "disagree" not in check.stderr


def test_output_file_option(pairs: Path) -> None:
    done = run("score", "-m", "total", "-o", "out.txt", pairs.name, cwd=pairs.parent)
    assert (done.returncode, done.stdout) == (0, "")
    assert "== Club: total ==" in (pairs.parent / "out.txt").read_text(encoding="utf-8")


def test_boards_played_once_keep_the_duplicate_listing(tmp_path: Path) -> None:
    # Scoring "IMP" on boards played at one table each: nothing to compare, so the listing.
    text = game(1, Scoring="IMP") + game(2, Scoring="IMP", Result="11")
    (tmp_path / "once.pbn").write_text(text, encoding="utf-8")
    done = run("score", "once.pbn", cwd=tmp_path)
    assert done.stdout.splitlines()[0].split()[:3] == ["board", "declarer", "contract"]
    assert len(done.stdout.splitlines()) == 3


def test_method_duplicate_is_the_streamed_listing(pairs: Path) -> None:
    listing = run("score", "--method", "duplicate", pairs.name, cwd=pairs.parent)
    assert listing.stdout.splitlines()[1].split()[:6] == ["1", "N", "4S", "10", "None", "420"]


RUBBER = (
    game(1, Scoring="Rubber", Declarer="N", Contract="4S", Result="10")
    + game(
        2, Scoring="Rubber", Dealer="E", Vulnerable="NS", Declarer="E", Contract="3NT", Result="9"
    )
    + game(
        3, Scoring="Rubber", Dealer="S", Vulnerable="All", Declarer="S", Contract="1NT", Result="8"
    )
)
"""NS game (West holds four spade honours: 100 to EW), EW game (3NT making 9), NS part
score (1NT making 8: 40 below, 30 above); Vulnerable follows the games won."""


def test_rubber_text_and_the_unfinished_rubber(tmp_path: Path) -> None:
    (tmp_path / "rubber.pbn").write_text(RUBBER, encoding="utf-8")
    done = run("score", "rubber.pbn", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("== rubber: rubber.pbn")
    assert [line.split()[7:10] for line in lines[2:5]] == [
        ["EW", "100", "0/120"],
        ["-", "0/0", "0/100"],
        ["-", "30/40", "0/0"],
    ]
    # NS 120 + 70, EW 100 + 100; unfinished: 300 each for a game, 100 to NS for its 40.
    assert lines[5] == (
        "totals: NS 590, EW 500 (0 rubbers finished; unfinished rubber: NS +400, EW +300)"
    )


def test_rubber_pbn_output_checks_clean(tmp_path: Path) -> None:
    (tmp_path / "rubber.pbn").write_text(RUBBER, encoding="utf-8")
    done = run("score", "--format", "pbn", "rubber.pbn", cwd=tmp_path)
    boards = pbn.loads(done.stdout)
    assert [b.tag("ScoreRubber") for b in boards] == ["NS 0/120 EW 100/0", "EW 0/100", "NS 30/40"]
    assert [b.tag("ScoreRubberHistory") for b in boards] == [
        "NS 0 0 / 0 EW 0 0 / 0",
        "NS 0 0 / 120 0 EW 0 100 / 0 0",
        "NS 0 0 / 120 0 0 EW 0 100 / 0 100 0",
    ]
    (tmp_path / "scored.pbn").write_text(done.stdout, encoding="utf-8")
    check = run("score", "--check", "scored.pbn", cwd=tmp_path)
    assert (check.returncode, check.stdout) == (0, "")


def test_chicago_json(tmp_path: Path) -> None:
    text = RUBBER.replace('"Rubber"', '"Chicago"')
    (tmp_path / "chicago.pbn").write_text(text, encoding="utf-8")
    done = run("score", "--format", "json", "chicago.pbn", cwd=tmp_path)
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    deals = [o for o in objects if o["kind"] == "deal"]
    assert [(o["position"], o["vulnerable"], o["score_rubber"]) for o in deals] == [
        (1, "None", "NS 300/120 EW 100/0"),
        (2, "EW", "EW 500/100"),
        (3, "NS", "NS 30/40"),
    ]
    session = objects[-1]
    assert (session["kind"], session["ns_total"], session["ew_total"]) == ("session", 490, 700)


def test_help_lists_the_options(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pbntool", "score", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "250"},
        timeout=120,
        check=False,
    )
    for word in ("--method", "--group-by", "--check", "--tolerance", "--format", "--output"):
        assert word in done.stdout
    assert "duplicate|mp|imp|butler|cross-imp|bam|total|rubber|chicago" in done.stdout
    assert "auto|event|deal|room|table" in done.stdout


@pytest.mark.parametrize("method", ["mp", "imp", "butler", "cross-imp", "bam", "total"])
@pytest.mark.parametrize("output", ["text", "json", "pbn"])
def test_every_method_in_every_format(pairs: Path, method: str, output: str) -> None:
    result = CliRunner().invoke(app, ["score", "-m", method, "--format", output, str(pairs)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout.strip()
