"""``pbntool dd`` as a command: the DDA fixtures, ``--fill`` as minimal edits (only the
tags change, byte for byte), ``--check``, ``--contract``, ``-j``, option errors, and the
message when the extra ``pbntool[dd]`` is not installed."""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import CORPUS
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.dev.docs_gen import command_fixtures
from pbntool.dev.generate import random_boards
from pbntool.diagnostics import CATALOGUE, Severity
from pbntool.formats.pbn import parse
from pbntool.formats.pbn.writer import dumps

HAVE_SOLVER = importlib.util.find_spec("endplay") is not None
needs_solver = pytest.mark.skipif(not HAVE_SOLVER, reason="endplay (pbntool[dd]) not installed")

REPO = Path(__file__).resolve().parent.parent
MODULE = (sys.executable, "-m", "pbntool")
PLACED = re.compile(
    r"^(?:[^\n]*?):(\d+):(\d+): (?:error|warning|info) (DDA\d{3}|[A-Z]{3}\d{3}) ", re.M
)
BIGDEAL = CORPUS / "zdenecek__pbn" / "pbn_files" / "bigdeal.pbn"
"""A Big Deal hand record: 14 deals, no other tags (LF line ends)."""


def run(
    *args: str | Path, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """A real ``python -m pbntool`` process."""
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [*MODULE, *map(str, args)], input=stdin, capture_output=True, env=environment, timeout=600
    )


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: bytes
    stderr: bytes


def invoke(*args: str | Path, stdin: bytes = b"") -> Done:
    """The command in this process (typer's CliRunner): no interpreter start, DDS loaded once."""
    result = CliRunner().invoke(app, [str(arg) for arg in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Done(result.exit_code, result.stdout_bytes, result.stderr_bytes)


# --- the DDA fixtures ----------------------------------------------------------------------------


def _dd_fixtures() -> list[Path]:
    return [path for path in command_fixtures(REPO / "fixtures") if path.parent.name == "dd"]


def test_there_is_a_fixture_for_every_dda_code() -> None:
    codes = {path.name.split("_")[0] for path in _dd_fixtures()}
    assert codes == {code for code in CATALOGUE if code.startswith("DDA")}


@needs_solver
@pytest.mark.parametrize("fixture", _dd_fixtures(), ids=lambda path: path.stem)
def test_fixture_reports_what_its_expected_file_says(fixture: Path) -> None:
    args_file = fixture.with_suffix(".args")
    options = shlex.split(args_file.read_text()) if args_file.is_file() else []
    result = CliRunner().invoke(app, ["dd", *options, str(fixture)])
    found = [
        f"{line}:{column} {code}"
        for line, column, code in PLACED.findall(result.stdout + result.stderr)
    ]
    expected = fixture.with_suffix(".expected").read_text().split("\n")
    assert found == [line for line in expected if line]
    errors = any(CATALOGUE[line.split()[1]].severity is Severity.ERROR for line in expected if line)
    assert result.exit_code == (1 if errors else 0)


# --- --fill --------------------------------------------------------------------------------------


def _only_insertions(before: bytes, after: bytes) -> list[str]:
    """The inserted lines, asserting that nothing else changed.

    A file whose last line has no line end keeps it that way: the tags inserted after that
    line end without one.  Adding one line end to both sides makes that a plain insertion.
    """
    if not before.endswith((b"\n", b"\r")):
        before, after = before + b"\n", after + b"\n"
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    inserted: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        assert tag in ("equal", "insert"), (tag, old[i1:i2], new[j1:j2])
        if tag == "insert":
            inserted += [line.decode("latin-1") for line in new[j1:j2]]
    return inserted


@needs_solver
@pytest.mark.corpus
def test_fill_a_hand_record_inserts_the_four_tags_and_nothing_else(tmp_path: Path) -> None:
    if not BIGDEAL.is_file():
        pytest.skip("corpus absent")
    path = tmp_path / "bigdeal.pbn"
    shutil.copy(BIGDEAL, path)
    original = path.read_bytes()
    done = run("dd", "--fill", "-j", "2", path)
    assert done.returncode == 0, done.stderr
    inserted = _only_insertions(original, done.stdout)
    names = [line.split()[0][1:] for line in inserted if line.startswith("[")]
    assert names == ["DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable"] * 14
    assert len(inserted) == 14 * (4 + 20)
    assert "14 boards filled" in done.stderr.decode()
    path.write_bytes(done.stdout)
    check = run("dd", "--check", path)
    assert check.returncode == 0 and check.stdout == b"", check.stdout
    assert "14 boards with double-dummy tags checked" in check.stderr.decode()
    validated = run("validate", path, "--format", "json")
    codes = {json.loads(line)["code"] for line in validated.stdout.splitlines()}
    assert codes <= {"BRD003"}  # what the hand record already lacked; nothing new


@needs_solver
def test_fill_is_idempotent_and_force_rewrites_identically(tmp_path: Path) -> None:
    path = tmp_path / "games.pbn"
    path.write_text(dumps(random_boards(3, 2)), encoding="utf-8")
    first = invoke("dd", "--fill", path)
    path.write_bytes(first.stdout)
    again = invoke("dd", "--fill", path)
    assert again.stdout == first.stdout
    assert "0 boards filled, 2 already annotated (kept)" in again.stderr.decode()
    forced = invoke("dd", "--fill", "--force", path)
    assert forced.stdout == first.stdout
    assert "2 boards filled" in forced.stderr.decode()


GAME_CRLF_LATIN1 = (
    '% PBN 2.1\r\n% EXPORT\r\n[Event "Caf\xe9 ; {not a comment}"]\r\n'
    '[Site "x"]\r\n[Date "2025.01.01"]\r\n'
    '[Board "1"]\r\n[West ""]\r\n[North ""]\r\n[East ""]\r\n[South ""]\r\n[Dealer "N"]\r\n'
    '[Vulnerable "None"]\r\n'
    '[Deal "N:A.Q8542.J82.KQ85 JT76.97.KT76.743 Q542.J3.A953.AJ9 K983.AKT6.Q4.T62"]\r\n'
    '[Scoring ""]\r\n[Declarer ""]\r\n[Contract ""]\r\n[Result ""]\r\n'
    '[DoubleDummyTricks "00000000000000000000"] {stale}\r\n'
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\r\nN NT 13 {kept}\r\nN  S 13\r\n'
    '[Auction "N"]\r\nPass Pass Pass Pass\r\n'
)


@needs_solver
def test_force_rewrites_stale_values_in_place(tmp_path: Path) -> None:
    path = tmp_path / "stale.pbn"
    path.write_bytes(GAME_CRLF_LATIN1.encode("latin-1"))
    done = invoke("dd", "--fill", "--force", path)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("latin-1")
    assert '[Event "Caf\xe9 ; {not a comment}"]\r\n' in text  # Latin-1 byte kept as it was
    assert '[DoubleDummyTricks "76888768885745457454"] {stale}\r\n' in text
    inserted = '[OptimumScore "EW -100"]\r\n[ParContract "EW 2SX-1"]\r\n[OptimumResultTable'
    assert "\r\n" + inserted in text  # new tags go before the first section, on their own lines
    assert (
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\1R"]\r\nN NT 7\r\nN  S 6\r\n'
        in text
    )
    assert "W  C 4\r\n{kept}\r\n[Auction" in text  # a comment inside the old table survives
    assert "\n" not in text.replace("\r\n", "")  # every line end is still CRLF
    path.write_bytes(done.stdout)
    assert invoke("dd", "--check", path).stdout == b""
    before = {
        d["code"]
        for d in map(json.loads, invoke("validate", path, "--format", "json").stdout.splitlines())
    }
    assert "PBN009" in before  # the comment inside the table data, as in the original


@needs_solver
def test_fill_in_import_format_and_utf16(tmp_path: Path) -> None:
    deal = "N:A.Q8542.J82.KQ85 JT76.97.KT76.743 Q542.J3.A953.AJ9 K983.AKT6.Q4.T62"
    tags = f'[Board "1"] [Dealer "N"] [Vulnerable "None"] [Deal "{deal}"]'
    text = f'{tags} [Auction "N"] Pass Pass\nPass Pass\n'
    path = tmp_path / "oneline.pbn"
    path.write_text(text, encoding="utf-16")
    done = invoke("dd", "--fill", path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"\xff\xfe")
    filled = done.stdout.decode("utf-16")
    assert filled.startswith(f"{tags} [DoubleDummyTricks")
    assert filled.endswith('\n[Auction "N"] Pass Pass\nPass Pass\n')
    board = parse(filled.encode("utf-8")).boards[0]
    assert board.tag("DoubleDummyTricks") == "76888768885745457454"
    assert board.tag("ParContract") == "EW 2SX-1"


@needs_solver
def test_in_place_output_and_stdin(tmp_path: Path) -> None:
    games = dumps(random_boards(5, 1)).encode()
    a, b = tmp_path / "a.pbn", tmp_path / "b.pbn"
    a.write_bytes(games)
    b.write_bytes(games)
    done = invoke("dd", "--fill", "--in-place", a, b)
    assert done.returncode == 0 and done.stdout == b""
    assert a.read_bytes() == b.read_bytes() != games
    out = tmp_path / "out.pbn"
    assert invoke("dd", "--fill", "-", "-o", out, stdin=games).returncode == 0
    assert out.read_bytes() == a.read_bytes()
    assert invoke("dd", "--fill", "--in-place", a).returncode == 0
    assert out.read_bytes() == a.read_bytes()  # nothing to do the second time
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


@needs_solver
def test_fill_without_vulnerability_writes_the_table_and_says_why_not_par(tmp_path: Path) -> None:
    path = tmp_path / "novul.pbn"
    path.write_text(
        '[Deal "N:A.Q8542.J82.KQ85 JT76.97.KT76.743 Q542.J3.A953.AJ9 K983.AKT6.Q4.T62"]\n'
    )
    done = invoke("dd", "--fill", path)
    text = done.stdout.decode()
    assert "[DoubleDummyTricks" in text and "[OptimumResultTable" in text
    assert "OptimumScore" not in text and "ParContract" not in text
    assert (
        "DDA007 OptimumScore and ParContract not written: par needs the vulnerability and dealer"
        in done.stderr.decode()
    )


# --- the table, --contract, -j -------------------------------------------------------------------


@needs_solver
def test_table_and_par_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "games.pbn"
    path.write_text(dumps(random_boards(3, 2, play=False)), encoding="utf-8")
    text = invoke("dd", path).stdout.decode()
    assert "games.pbn:1 board 1\n        NT   S   H   D   C\n  N      7   6   8   8   8\n" in text
    assert "  par NS +100: 2SX-1 by EW\n" in text
    lines = [
        json.loads(line) for line in invoke("dd", path, "--format", "json").stdout.splitlines()
    ]
    assert [line["board"] for line in lines] == [1, 2]
    assert lines[0]["double_dummy_tricks"] == "76888768885745457454"
    assert lines[0]["tricks"]["E"] == {"NT": 5, "S": 7, "H": 4, "D": 5, "C": 4}
    assert lines[0]["par"]["optimum_score"] == "EW -100"
    assert lines[0]["par"]["contracts"] == [{"contract": "2SX", "declarer": "EW", "result": -1}]


@needs_solver
def test_workers_give_the_same_output(tmp_path: Path) -> None:
    path = tmp_path / "games.pbn"
    path.write_text(dumps(random_boards(17, 6, play=False)), encoding="utf-8")
    one = run("dd", path, "--format", "json")
    two = run("dd", path, "--format", "json", "-j", "3")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout and len(one.stdout.splitlines()) == 6


@needs_solver
def test_contract_tricks_and_score(tmp_path: Path) -> None:
    path = tmp_path / "games.pbn"
    path.write_text(dumps(random_boards(3, 1, play=False)), encoding="utf-8")
    done = invoke("dd", path, "--contract", "2SX", "--declarer", "E")
    assert done.stdout.decode() == f"{path}:1 board 1: 2SX by E takes 7 tricks (-1), NS +100\n"
    lines = invoke("dd", path, "--contract", "3nt", "--format", "json").stdout.splitlines()
    found = [
        (o["declarer"], o["tricks"], o["result"], o["score_ns"]) for o in map(json.loads, lines)
    ]
    assert found == [("N", 7, -2, -100), ("E", 5, -4, 200), ("S", 7, -2, -100), ("W", 5, -4, 200)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "--fill"], "do not go together"),
        (["--force"], "go with --fill"),
        (["--fill", "--in-place", "-o", "x"], "not both"),
        (["--declarer", "S"], "--declarer goes with --contract"),
        (["--contract", "8S"], "not a contract"),
        (["--contract", "Pass"], "needs a bid contract"),
        (["--contract", "4S", "--declarer", "Q"], "expected N, E, S or W"),
        (["--fill", "--in-place", "-"], "cannot rewrite stdin"),
    ],
)
def test_option_errors_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["dd", *args, "-"], input="")
    assert result.exit_code == 2
    assert message in result.stderr


def test_without_the_extra_a_message_says_how_to_install_it(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker" / "endplay"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text('raise ImportError("not installed", name="endplay")\n')
    games = tmp_path / "games.pbn"
    games.write_text(dumps(random_boards(1, 1)), encoding="utf-8")
    path = os.pathsep.join([str(blocker.parent), os.environ.get("PYTHONPATH", "")])
    done = run("dd", games, env={"PYTHONPATH": path})
    assert done.returncode == 2 and done.stdout == b""
    message = done.stderr.decode()
    assert "pip install 'pbntool[dd]'" in message and "Traceback" not in message
    assert run("select", games, "-w", "made", "-q", env={"PYTHONPATH": path}).returncode == 0


@needs_solver
def test_fill_goes_on_after_an_unreadable_input(tmp_path: Path) -> None:
    games = tmp_path / "games.pbn"
    games.write_text(dumps(random_boards(5, 1)), encoding="utf-8")
    done = invoke("dd", "--fill", tmp_path / "missing.pbn", games)
    assert done.returncode == 2  # an input could not be read
    assert b"SRC003 cannot read input: no such file or directory" in done.stderr
    assert b"[DoubleDummyTricks" in done.stdout and b"1 board filled" in done.stderr


# --- dd on the batch engine: archives, directories, -j, progress ---------------------------------


def _seconds_hidden(text: bytes) -> str:
    """The summary without its run time (the one part that differs between runs)."""
    return re.sub(r" in \d+\.\d\d s", " in - s", text.decode())


def _event_folder(root: Path) -> Path:
    """A folder of PBN files, one of them with a board whose deal is not full (DDA006), and a
    subfolder: 3 inputs, 6 boards, 5 solved."""
    folder = root / "event"
    (folder / "later").mkdir(parents=True)
    (folder / "a.pbn").write_text(dumps(random_boards(41, 2, play=False)), encoding="utf-8")
    (folder / "later" / "c.pbn").write_text(dumps(random_boards(43, 3, play=False)))
    partial = '[Board "9"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "N:AKQJ... - - -"]\n'
    (folder / "b.pbn").write_text(partial, encoding="utf-8")
    return folder


@needs_solver
def test_a_directory_is_walked_and_findings_are_placed_as_validate_places_them(
    tmp_path: Path,
) -> None:
    folder = _event_folder(tmp_path)
    done = run("dd", folder, "--format", "json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    names = [Path(line["file"]).relative_to(folder).as_posix() for line in lines]
    assert names == ["a.pbn", "a.pbn", "later/c.pbn", "later/c.pbn", "later/c.pbn"]
    stderr = done.stderr.decode()
    assert re.search(
        rf"^{re.escape(str(folder / 'b.pbn'))}:4:8: warning DDA006 board 9: board not "
        "analysed: East, South, West are not known$",
        stderr,
        re.M,
    ), stderr
    assert re.search(r"^pbntool: 3 inputs, 6 boards: 0 errors, \d+ warnings, .*; 5 boards solved$",
                     stderr, re.M), stderr  # fmt: skip


@needs_solver
def test_two_jobs_give_the_output_of_one(tmp_path: Path) -> None:
    folder = _event_folder(tmp_path)
    for mode in (["--format", "json"], ["--check"]):  # the text modes render the same tables
        one = run("dd", folder, "-j", "1", *mode)
        two = run("dd", folder, "-j", "2", *mode)
        assert one.returncode == two.returncode == 0, (mode, one.stderr)
        assert one.stdout == two.stdout, mode
        assert _seconds_hidden(one.stderr) == _seconds_hidden(two.stderr), mode
    filled = run("dd", "--fill", "-j", "1", folder)
    assert filled.stdout == run("dd", "--fill", "-j", "2", folder).stdout
    assert filled.stdout.count(b"[DoubleDummyTricks ") == 5


@needs_solver
def test_archive_members_are_read_and_filled(tmp_path: Path) -> None:
    import tarfile
    import zipfile

    first = dumps(random_boards(51, 2, play=False)).encode()
    second = dumps(random_boards(52, 1, play=False)).encode()
    (tmp_path / "one.pbn").write_bytes(first)
    (tmp_path / "two.pbn").write_bytes(second)
    with zipfile.ZipFile(tmp_path / "event.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("one.pbn", first)
        archive.writestr("sub/two.pbn", second)
    with tarfile.open(tmp_path / "event.tar.gz", "w:gz") as archive:
        archive.add(tmp_path / "one.pbn", "one.pbn")
    loose = run("dd", tmp_path / "one.pbn", tmp_path / "two.pbn", "--format", "json")
    zipped = run("dd", tmp_path / "event.zip", "--format", "json")
    assert zipped.returncode == 0, zipped.stderr
    read = [json.loads(line) for line in zipped.stdout.splitlines()]
    assert [line["file"] for line in read] == [f"{tmp_path / 'event.zip'}!one.pbn"] * 2 + [
        f"{tmp_path / 'event.zip'}!sub/two.pbn"
    ]
    expected = [json.loads(line) for line in loose.stdout.splitlines()]
    assert [{**line, "file": ""} for line in read] == [{**line, "file": ""} for line in expected]
    assert "pbntool: 2 inputs, 3 boards" in zipped.stderr.decode()
    tarred = run("dd", tmp_path / "event.tar.gz")
    assert tarred.returncode == 0 and tarred.stdout.count(b"  par ") == 2
    assert f"{tmp_path / 'event.tar.gz'}!one.pbn:1 board 1\n".encode() in tarred.stdout
    # --fill reads the members too: each member's filled text, one after the other
    filled = run("dd", "--fill", tmp_path / "event.zip")
    apart = b"".join(run("dd", "--fill", tmp_path / name).stdout for name in ("one.pbn", "two.pbn"))
    assert filled.returncode == 0 and filled.stdout == apart
    assert b"3 boards filled" in filled.stderr
    refused = run("dd", "--fill", "--in-place", tmp_path / "event.zip")
    assert refused.returncode == 2 and b"ARC007" in refused.stderr  # a member is no file


@needs_solver
def test_no_progress_bar_off_a_terminal_unless_asked(tmp_path: Path) -> None:
    folder = _event_folder(tmp_path)
    for mode in ([], ["--fill"]):
        quiet = run("dd", folder, *mode)
        err = quiet.stderr.decode()
        assert err.count("pbntool: 3 inputs, 6 boards") == 1  # the summary, no bar
        assert "\r" not in err and "\x1b" not in err and "━" not in err and "/s" not in err
        shown = run("dd", folder, "--progress", *mode).stderr.decode()
        assert "6 boards, " in shown and "/s" in shown, mode  # the bar, when asked
        assert "━" not in run("dd", folder, "--progress", "-q", *mode).stderr.decode()


@needs_solver
def test_summary_json_max_errors_and_files_from(tmp_path: Path) -> None:
    folder = _event_folder(tmp_path)
    listing = tmp_path / "list.txt"
    listing.write_text(f"{folder / 'b.pbn'}\n{folder / 'a.pbn'}\n")
    done = run("dd", "--files-from", listing, "--summary-json", "--fail-on", "warning")
    assert done.returncode == 1  # the DDA006 warning fails the run with --fail-on warning
    summary = json.loads(done.stderr.decode().splitlines()[-1])
    assert (summary["inputs"], summary["boards"]) == (2, 3)
    assert summary["by_code"]["warning"]["DDA006"] == 1
    assert done.stdout.count(b"  par ") == 2
    broken = tmp_path / "broken.pbn"
    games = dumps(random_boards(61, 3, play=False))
    broken.write_text(re.sub(r'\[Deal "[^"]*"\]', '[Deal "N:AKQJ.. - - -"]', games, count=1))
    stopped = run("dd", broken, folder, "--max-errors", "1")
    assert stopped.returncode == 1
    assert b"stopped after 1 errors (--max-errors)" in stopped.stderr
    assert b"later/c.pbn" not in stopped.stdout  # nothing after the board that stopped it


@needs_solver
def test_fill_refuses_what_it_cannot_do_before_reading(tmp_path: Path) -> None:
    folder = _event_folder(tmp_path)
    for options, message in (
        (["--max-errors", "3"], "--max-errors does not go with --fill"),
        (["--dialect", "pavlicek"], "--dialect does not go with --fill"),
        (["-o", tmp_path / "out.pbn"], "--output takes one input"),
    ):
        done = run("dd", "--fill", folder, *options)
        assert done.returncode == 2 and message in done.stderr.decode(), done.stderr
        assert done.stdout == b""
