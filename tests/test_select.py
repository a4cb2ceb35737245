"""``pbntool select`` through a real subprocess and typer's CliRunner: output formats,
--boards, --limit, --rejects, bad options (exit 2 with the column), and the corpus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.dev.generate import random_boards
from pbntool.formats import read_input
from pbntool.formats.pbn import parse
from pbntool.formats.pbn.writer import dumps
from pbntool.text.inputs import iter_inputs
from pbntool.tools.select import compile_query

MODULE = (sys.executable, "-m", "pbntool")


def run(*args: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    return subprocess.run(
        [*MODULE, *map(str, args)], input=stdin, capture_output=True, env=env, timeout=300
    )


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two files of 24 generated boards each."""
    folder = tmp_path_factory.mktemp("select")
    (folder / "a.pbn").write_text(dumps(random_boards(1, 24)), encoding="utf-8")
    (folder / "b.pbn").write_text(dumps(random_boards(2, 24)), encoding="utf-8")
    return folder


def _numbers(pbn_text: str) -> list[int | None]:
    return [board.number for board in parse(pbn_text).boards]


def test_where_selects_exactly_the_boards_the_query_holds_for(events: Path) -> None:
    expression = 'level >= 3 and strain == "NT" or passed_out'
    query = compile_query(expression)
    expected = [
        (record.file, record.board.number)
        for source in iter_inputs([str(events)])
        for record in read_input(source)
        if record.board is not None and query.matches(record)
    ]
    assert expected, "the generated boards should hold some such boards"
    done = run("select", events, "--where", expression, "--to", "json")
    assert done.returncode == 0, done.stderr
    found = [(o["file"], o["board"]) for o in map(json.loads, done.stdout.splitlines())]
    assert found == expected
    assert f"{len(expected)} selected" in done.stderr.decode()


def test_boards_limit_and_rejects_partition_the_input(events: Path, tmp_path: Path) -> None:
    rejects = tmp_path / "rejects.pbn"
    done = run(
        "select", events / "a.pbn", "--boards", "1-8,12,20-", "--where", "has_deal",
        "--limit", "5", "--rejects", rejects,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _numbers(done.stdout.decode()) == [1, 2, 3, 4, 5]
    assert _numbers(rejects.read_text("utf-8")) == list(range(6, 25))
    assert "5 selected, 19 rejected" in done.stderr.decode()


def test_limit_without_rejects_stops_reading(events: Path) -> None:
    done = run("select", events, "-n", "2", "-q")
    assert _numbers(done.stdout.decode()) == [1, 2]
    assert done.stderr == b""


def test_stdin_and_output_file(events: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.pbn"
    data = (events / "b.pbn").read_bytes()
    done = run("select", "-", "-w", "board == 3 or board == 4", "-o", target, stdin=data)
    assert done.returncode == 0 and done.stdout == b""
    assert _numbers(target.read_text("utf-8")) == [3, 4]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--where", "level >= and made"], "column 10: unexpected 'and'; expected a value"),
        (["--where", "levl > 3"], "did you mean 'level'"),
        (["--boards", "8-1"], "bad --boards"),
    ],
)
def test_bad_options_exit_2_with_a_message(events: Path, args: list[str], message: str) -> None:
    done = run("select", events, *args)
    assert done.returncode == 2
    assert message in done.stderr.decode()
    assert done.stdout == b""
    assert "Traceback" not in done.stderr.decode()


def test_bad_expression_shows_a_caret_under_the_column() -> None:
    result = CliRunner().invoke(app, ["select", "-", "--where", 'dealer == "Q"'], input="")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert (
        lines[0]
        == "pbntool: bad --where expression at column 11: 'Q' is not a seat; use N, E, S or W"
    )
    assert lines[1] == '  dealer == "Q"'
    assert lines[2] == "  " + " " * 10 + "^"


def test_errors_in_the_input_go_to_stderr_and_set_the_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1S 1H Pass Pass Pass\n')
    done = run("select", bad, "--where", 'has_error("AUC001")')
    assert done.returncode == 0  # the reader found no error; the Laws check is the condition
    assert _numbers(done.stdout.decode()) == [1]
    broken = tmp_path / "broken.pbn"
    broken.write_text('[Board "1"]\n[Deal "N:AKQ"]\n')
    done = run("select", broken)
    assert done.returncode == 1 and "PBN101" in done.stderr.decode()


OLYMPIAD = "ContractBridge__pbn-files/1996-10th_World_Bridge_Team_Olympiad"
"""53 files, 1,500 boards of real play (some with errors)."""


@pytest.mark.corpus
def test_select_over_corpus_files_agrees_with_the_library(corpus_dir: Path) -> None:
    folder = corpus_dir / OLYMPIAD
    expression = 'level >= 6 and made or startswith(auction, "1NT Pass 2C") and hcp.NS >= 25'
    query = compile_query(expression)
    expected = sum(
        1
        for source in iter_inputs([str(folder)])
        for record in read_input(source)
        if query.matches(record)
    )
    done = run("select", folder, "--where", expression, "--to", "json")
    assert done.returncode in (0, 1)
    assert "Traceback" not in done.stderr.decode()
    lines = done.stdout.splitlines()
    assert len(lines) == expected > 20
    assert all(json.loads(line)["board"] is not None for line in lines)
