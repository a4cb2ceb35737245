"""The command line through real subprocesses: ``python -m pbntool`` and the ``pbntool`` script.

Exit codes (0 clean, 1 findings, 2 unreadable input or usage), the text and JSON formats of
findings, what goes to stdout and what to stderr, stdin, directory walking, the filters, and
the ``convert``, ``score`` and ``show`` commands.  Inputs are small PBN texts written here or
generated boards, in ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import CORPUS

import pbntool
from pbntool.dev.generate import random_boards
from pbntool.formats.pbn import parse
from pbntool.formats.pbn.writer import dumps
from pbntool.model import Board, Card, SectionEnd, Suit

MODULE = (sys.executable, "-m", "pbntool")
_SCRIPT = shutil.which("pbntool", path=str(Path(sys.executable).parent))
SCRIPT = (_SCRIPT,) if _SCRIPT is not None else None
"""The console script installed beside this interpreter (None when not installed)."""

SAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "sample" / "event.pbn"
"""The README's clean eight-board event."""
DIAGNOSTIC_KEYS = ["file", "line", "column", "board", "code", "severity", "message"]
TEXT_DIAGNOSTIC = re.compile(
    r"^(?P<file>[^:\n]+)(?::(?P<line>\d+)(?::(?P<column>\d+))?)?: "
    r"(?P<severity>error|warning|info) (?P<code>[A-Z]{3}\d{3}) (?:board (?P<board>\d+): )?"
    r"(?P<message>\S.*)$"
)


def untimed(err: str) -> str:
    """The summary without the time it reports (the one part that changes between runs)."""
    return re.sub(r" in \d+\.\d\d s$", "", err, flags=re.M)


SUMMARY = re.compile(
    r"^pbntool: \d+ inputs?, \d+ boards?: \d+ errors?, \d+ warnings?, \d+ info(, \d+ unreadable)?"
    r" in \d+\.\d\d s(\n(pbntool: |  (error|warning|info) +[A-Z]{3}\d{3} ).*|\n  … and .*)*$"
)
DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


@dataclass(frozen=True)
class Run:
    code: int
    out: bytes
    err: str

    @property
    def text(self) -> str:
        return self.out.decode("utf-8")

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


def pbntool_run(
    *args: str | Path,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    command: Sequence[str] = MODULE,
) -> Run:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", "COLUMNS": "120"}
    done = subprocess.run(
        [*command, *map(str, args)],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def pbntool_runs(
    cases: Sequence[Sequence[str]], cwd: Path, command: Sequence[str] = MODULE
) -> list[Run]:
    """Several runs at once (each is mostly interpreter start-up)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda args: pbntool_run(*args, cwd=cwd, command=command), cases))


def commands() -> list[object]:
    """Both ways of running the tool; the script only where it is installed."""
    script = pytest.param(
        SCRIPT or ("pbntool",),
        id="script",
        marks=pytest.mark.skipif(SCRIPT is None, reason="pbntool script not installed"),
    )
    return [pytest.param(MODULE, id="module"), script]


def game(
    board: int,
    dealer: str,
    vulnerable: str,
    auction: str,
    *,
    declarer: str,
    contract: str,
    result: str,
    score: str | None = None,
) -> str:
    """One game with the whole mandatory tag set (LF line ends, as a person would type it)."""
    lines = [
        '[Event "CLI tests"]',
        '[Site "Here"]',
        '[Date "2024.01.02"]',
        f'[Board "{board}"]',
        '[West "W"]',
        '[North "N"]',
        '[East "E"]',
        '[South "S"]',
        f'[Dealer "{dealer}"]',
        f'[Vulnerable "{vulnerable}"]',
        f'[Deal "{DEAL}"]',
        '[Scoring "IMP"]',
        f'[Declarer "{declarer}"]',
        f'[Contract "{contract}"]',
        f'[Result "{result}"]',
    ]
    if score is not None:
        lines.append(f'[Score "{score}"]')
    lines.append(f'[Auction "{dealer}"]')
    lines.append(auction)
    return "\n".join(lines) + "\n\n"


CLEAN = game(1, "N", "None", "1S Pass Pass Pass", declarer="N", contract="1S", result="7")
INSUFFICIENT = game(
    1, "N", "None", "1S 1H Pass Pass\nPass", declarer="E", contract="1H", result="7"
)
"""AUC001 at line 17 column 4 (the ``1H``)."""
WARNING_ONLY = game(2, "N", "NS", "1S Pass Pass Pass", declarer="N", contract="1S", result="7")
"""Board 2 is dealt by East: BRD001 at line 9 column 10, a warning."""

HAND_CHECKED = "".join(
    [
        # 7CXX by North, not vulnerable, made: 1960.
        game(
            1, "N", "None", "7C X XX Pass\nPass Pass",
            declarer="N", contract="7CXX", result="13", score="1960",
        ),
        # 4SX by North, vulnerable, 11 tricks: 990.
        game(
            2, "E", "NS", "Pass Pass Pass 4S\nX Pass Pass Pass",
            declarer="N", contract="4SX", result="11", score="NS 990",
        ),
        # 2HX by West, vulnerable, two down: 500 to North-South.
        game(
            3, "S", "EW", "Pass 2H X Pass\nPass Pass",
            declarer="W", contract="2HX", result="6", score="EW -500",
        ),
        # Passed out: 0.
        game(
            4, "W", "All", "Pass Pass Pass Pass",
            declarer="", contract="Pass", result="", score="0",
        ),
        # 3NT by East, not vulnerable, made: 400 to East-West, -400 for North-South.
        game(
            5, "N", "NS", "Pass 3NT Pass Pass\nPass",
            declarer="E", contract="3NT", result="9", score="400",
        ),
    ]
)  # fmt: skip


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def generated(count: int, seed: int = 11) -> tuple[list[Board], str]:
    boards = list(random_boards(seed, count))
    return boards, dumps(boards)


# --- validate: exit codes --------------------------------------------------------------------


@pytest.mark.parametrize("command", commands())
def test_exit_codes(tmp_path: Path, command: tuple[str, ...]) -> None:
    write(tmp_path / "clean.pbn", CLEAN)
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    write(tmp_path / "warn.pbn", WARNING_ONLY)

    cases = {
        ("validate", "clean.pbn"): 0,
        ("validate", "bad.pbn"): 1,
        ("validate", "clean.pbn", "bad.pbn"): 1,
        ("validate", "warn.pbn"): 0,
        ("validate", "--fail-on", "warning", "warn.pbn"): 1,
        ("validate", "--fail-on", "warning", "clean.pbn"): 0,
        ("validate", "--fail-on", "error", "warn.pbn"): 0,
        ("validate", "missing.pbn"): 2,
        ("validate", "missing.pbn", "clean.pbn"): 2,
        ("validate", "--no-such-option", "clean.pbn"): 2,
        ("validate",): 2,
        ("no-such-command",): 2,
    }
    runs = pbntool_runs(list(cases), tmp_path, command)
    assert {args: run.code for args, run in zip(cases, runs, strict=True)} == cases


def test_generated_boards_are_clean_on_the_command_line(tmp_path: Path) -> None:
    _, text = generated(200)
    write(tmp_path / "generated.pbn", text)
    run = pbntool_run("validate", "--fail-on", "info", "generated.pbn", cwd=tmp_path)
    assert (run.code, run.text) == (0, "")
    assert untimed(run.err) == "pbntool: 1 input, 200 boards: 0 errors, 0 warnings, 0 info\n"


def test_fail_on_info(tmp_path: Path) -> None:
    write(tmp_path / "info.pbn", CLEAN.replace('[Scoring "IMP"]', '[Scoring "IMP"]\n[Foo "x"]'))
    run = pbntool_run("validate", "info.pbn", cwd=tmp_path)
    assert run.code == 0
    assert run.lines == [
        "info.pbn:13:1: info PBN007 board 1: tag Foo is not defined by PBN 2.1; kept as written"
    ]
    assert pbntool_run("validate", "--fail-on", "warning", "info.pbn", cwd=tmp_path).code == 0
    assert pbntool_run("validate", "--fail-on", "info", "info.pbn", cwd=tmp_path).code == 1


def test_missing_path_is_reported_and_the_others_are_still_checked(tmp_path: Path) -> None:
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    write(tmp_path / "clean.pbn", CLEAN)
    run = pbntool_run("validate", "missing.pbn", "bad.pbn", "clean.pbn", cwd=tmp_path)
    assert run.code == 2
    assert run.lines == [
        "missing.pbn: error SRC003 cannot read input: no such file or directory",
        "bad.pbn:17:4: error AUC001 board 1: insufficient bid 1H after 1S",
    ]
    assert untimed(run.err) == (
        "pbntool: 3 inputs, 2 boards: 2 errors, 0 warnings, 0 info, 1 unreadable\n"
        "  error   AUC001  1  A bid not higher than the previous bid (without `^I`).\n"
        "  error   SRC003  1  The file or directory could not be opened or read.\n"
    )


def test_missing_path_in_json(tmp_path: Path) -> None:
    run = pbntool_run("validate", "--format", "json", "missing.pbn", cwd=tmp_path)
    assert run.code == 2
    assert [json.loads(line) for line in run.lines] == [
        {
            "file": "missing.pbn",
            "line": None,
            "column": None,
            "board": None,
            "code": "SRC003",
            "severity": "error",
            "message": "cannot read input: no such file or directory",
        }
    ]


def test_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path / "clean.pbn", CLEAN)
    run = pbntool_run("validate", "--frobnicate", "clean.pbn", cwd=tmp_path)
    assert run.code == 2
    assert run.out == b""
    assert "--frobnicate" in run.err
    assert "Traceback" not in run.err
    bad_value = pbntool_run("validate", "--format", "xml", "clean.pbn", cwd=tmp_path)
    assert bad_value.code == 2
    assert "Traceback" not in bad_value.err


# --- validate: output formats ------------------------------------------------------------------


BRD001_MESSAGE = (
    "Dealer N but board 2 is dealt by E: check the Board and Dealer tags (pbntool fix keeps a "
    "stated Dealer; --ignore BRD001 if the event has its own cycle)"
)


def test_text_format_is_file_line_column_severity_code_message(tmp_path: Path) -> None:
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    write(tmp_path / "warn.pbn", WARNING_ONLY)
    run = pbntool_run("validate", "bad.pbn", "warn.pbn", cwd=tmp_path)
    assert run.lines == [
        "bad.pbn:17:4: error AUC001 board 1: insufficient bid 1H after 1S",
        f"warn.pbn:9:10: warning BRD001 board 2: {BRD001_MESSAGE}",
    ]
    for line in run.lines:
        assert TEXT_DIAGNOSTIC.match(line), line


def test_json_format_has_exactly_the_documented_keys(tmp_path: Path) -> None:
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    write(tmp_path / "warn.pbn", WARNING_ONLY)
    run = pbntool_run("validate", "--format", "json", "bad.pbn", "warn.pbn", cwd=tmp_path)
    assert run.code == 1
    objects = [json.loads(line) for line in run.lines]
    assert [list(o) for o in objects] == [DIAGNOSTIC_KEYS, DIAGNOSTIC_KEYS]
    assert objects == [
        {
            "file": "bad.pbn",
            "line": 17,
            "column": 4,
            "board": 1,
            "code": "AUC001",
            "severity": "error",
            "message": "insufficient bid 1H after 1S",
        },
        {
            "file": "warn.pbn",
            "line": 9,
            "column": 10,
            "board": 2,
            "code": "BRD001",
            "severity": "warning",
            "message": BRD001_MESSAGE,
        },
    ]


def test_json_lines_for_many_findings(tmp_path: Path) -> None:
    _, text = generated(60, seed=3)
    text = re.sub(r'\[Score "-?\d+"\]', '[Score "12345"]', text)
    write(tmp_path / "scores.pbn", text)
    run = pbntool_run("validate", "--format", "json", "scores.pbn", cwd=tmp_path)
    objects = [json.loads(line) for line in run.lines]
    assert len(objects) == 60
    for number, found in enumerate(objects, start=1):
        assert list(found) == DIAGNOSTIC_KEYS
        assert (found["code"], found["board"], found["severity"]) == ("SCO001", number, "error")
        assert isinstance(found["line"], int) and isinstance(found["column"], int)


def test_summary_goes_to_stderr_only(tmp_path: Path) -> None:
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    for form in ("text", "json"):
        run = pbntool_run("validate", "--format", form, "bad.pbn", cwd=tmp_path)
        assert not any(line.startswith("pbntool:") for line in run.lines)
        assert untimed(run.err).splitlines() == [
            "pbntool: 1 input, 1 board: 1 error, 0 warnings, 0 info",
            "  error   AUC001  1  A bid not higher than the previous bid (without `^I`).",
        ]
        assert SUMMARY.match(run.err.strip())
    quiet = pbntool_run("validate", "-q", "bad.pbn", cwd=tmp_path)
    assert (quiet.code, quiet.err, len(quiet.lines)) == (1, "", 1)


def test_stdin(tmp_path: Path) -> None:
    run = pbntool_run("validate", "-", stdin=INSUFFICIENT.encode())
    assert run.code == 1
    assert run.lines == ["<stdin>:17:4: error AUC001 board 1: insufficient bid 1H after 1S"]
    clean = pbntool_run("validate", "-", stdin=CLEAN.encode())
    assert (clean.code, clean.out) == (0, b"")


def test_directory_is_searched_recursively_for_pbn_files(tmp_path: Path) -> None:
    root = tmp_path / "games"
    write(root / "a.pbn", INSUFFICIENT)
    write(root / "deeper" / "still" / "B.PBN", INSUFFICIENT)
    write(root / "deeper" / "c.Pbn", INSUFFICIENT)
    write(root / "notes.txt", INSUFFICIENT)
    write(root / "a.pbn.bak", INSUFFICIENT)
    write(root / "pbn", INSUFFICIENT)
    run = pbntool_run("validate", "games", cwd=tmp_path)
    assert run.code == 1
    files = sorted(line.split(":")[0] for line in run.lines)
    expected = ["games/a.pbn", "games/deeper/c.Pbn", "games/deeper/still/B.PBN"]
    assert files == sorted(str(Path(name)) for name in expected)
    assert run.err.startswith("pbntool: 3 inputs, 3 boards: 3 errors")
    # A file named on the command line is read whatever its suffix.
    named = pbntool_run("validate", "games/notes.txt", cwd=tmp_path)
    found = "games/notes.txt:17:4: error AUC001 board 1: insufficient bid 1H after 1S"
    assert named.lines == [found]


def test_select_and_ignore(tmp_path: Path) -> None:
    both = INSUFFICIENT.replace('[Board "1"]', '[Board "2"]').replace(
        '[Vulnerable "None"]', '[Vulnerable "NS"]'
    )
    write(tmp_path / "both.pbn", both)  # AUC001 (error) and BRD001 (warning)

    cases = {
        (): (1, ["BRD001", "AUC001"]),
        ("--select", "AUC001"): (1, ["AUC001"]),
        ("--select", "BRD"): (0, ["BRD001"]),
        ("--select", "brd001"): (0, ["BRD001"]),
        ("--select", "AUC,BRD"): (1, ["BRD001", "AUC001"]),
        ("--select", "AUC", "--select", "BRD"): (1, ["BRD001", "AUC001"]),
        ("--ignore", "AUC"): (0, ["BRD001"]),
        ("--ignore", "AUC001,BRD001"): (0, []),
        ("--ignore", "BRD", "--fail-on", "warning"): (1, ["AUC001"]),
        ("--select", "AUC", "--ignore", "AUC001"): (0, []),
        ("--ignore", "AUC", "--fail-on", "warning"): (1, ["BRD001"]),
    }
    runs = pbntool_runs([("validate", *options, "both.pbn") for options in cases], tmp_path)
    found = {
        options: (run.code, [line.split(" ")[2] for line in run.lines])
        for options, run in zip(cases, runs, strict=True)
    }
    assert found == cases


# --- convert -----------------------------------------------------------------------------------


IMPORT_FORM = """\
% a comment line that is not the header
[event "Import form"]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Contract "4S"]
[Declarer "N"]
[Result "10"]
[Auction "S"]
pass pass pass 4s
ap
[Play "E"]
HA DA CA SA
"""


def test_convert_to_pbn_parses_back_and_is_idempotent(tmp_path: Path) -> None:
    _, text = generated(40, seed=5)
    write(tmp_path / "generated.pbn", text)
    write(tmp_path / "import.pbn", IMPORT_FORM)
    first = pbntool_run("convert", "--to", "pbn", "generated.pbn", "import.pbn", cwd=tmp_path)
    assert first.code == 0
    assert first.out.startswith(b"% PBN 2.1\r\n% EXPORT\r\n")
    assert b"\n" not in first.out.replace(b"\r\n", b"")
    assert b"\t" not in first.out
    reread = parse(first.out, "converted.pbn")
    assert [d for d in reread.diagnostics if d.severity >= 30] == []
    assert len(reread.boards) == 41
    assert first.out.startswith(text.encode())  # already canonical: unchanged
    write(tmp_path / "once.pbn", first.out)
    second = pbntool_run("convert", "--to", "pbn", "once.pbn", cwd=tmp_path)
    assert (second.code, second.out) == (0, first.out)


def test_convert_output_file(tmp_path: Path) -> None:
    write(tmp_path / "import.pbn", IMPORT_FORM)
    run = pbntool_run("convert", "--to", "pbn", "-o", "out.pbn", "import.pbn", cwd=tmp_path)
    assert (run.code, run.out) == (0, b"")
    written = (tmp_path / "out.pbn").read_bytes()
    assert written.count(b"\r\n") == written.count(b"\n") > 10
    longer = pbntool_run(
        "convert", "--to", "json", "--output", "out.jsonl", "import.pbn", cwd=tmp_path
    )
    assert (longer.code, longer.out) == (0, b"")
    [line] = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["contract"] == "4S"


def test_convert_sends_findings_to_stderr(tmp_path: Path) -> None:
    write(tmp_path / "bad.pbn", INSUFFICIENT)
    plain = pbntool_run("convert", "--to", "json", "bad.pbn", cwd=tmp_path)
    assert plain.code == 0  # the reader finds nothing wrong; the Laws are not checked
    [line] = plain.lines
    assert json.loads(line)["board"] == 1
    checked = pbntool_run("convert", "--to", "json", "--validate", "bad.pbn", cwd=tmp_path)
    assert checked.code == 1
    assert checked.out == plain.out
    found = "bad.pbn:17:4: error AUC001 board 1: insufficient bid 1H after 1S"
    assert found in checked.err.splitlines()


JSON_KEYS = [
    "file", "board", "dealer", "vulnerable", "deal", "auction", "declarer", "contract", "result",
    "play", "tags", "tricks", "claimed", "score", "notes", "commentary", "play_order_complete",
    "schema", "players", "event", "room", "alerts", "claim", "model",
]  # fmt: skip
"""The documented keys (README): the first eleven, the six more, and those of pbntool/1."""


def played_order(board: Board) -> list[str]:
    """The cards in the order they were played, following trick winners (computed here)."""
    assert board.play is not None and board.contract is not None
    trump = board.contract.strain.trump if board.contract.strain is not None else None
    leader = board.play.first
    cards: list[str] = []
    for row in board.play.tricks:
        trick = [(leader.next(i), row[leader.next(i)]) for i in range(4)]
        known = [(seat, card) for seat, card in trick if isinstance(card, Card)]
        cards.extend(str(card) for _, card in known)
        if len(known) < 4:
            break
        led: Suit = known[0][1].suit
        leader = max(known, key=lambda p: (p[1].suit is trump, p[1].suit is led, p[1].rank))[0]
    return cards


def test_convert_to_json(tmp_path: Path) -> None:
    boards, text = generated(60, seed=8)
    write(tmp_path / "generated.pbn", text)
    run = pbntool_run("convert", "--to", "json", "generated.pbn", cwd=tmp_path)
    assert run.code == 0
    objects = [json.loads(line) for line in run.lines]
    assert len(objects) == len(boards)
    for board, found in zip(boards, objects, strict=True):
        assert sorted(found) == sorted(JSON_KEYS)
        assert board.dealer is not None and board.deal is not None
        assert board.auction is not None and board.contract is not None
        assert found["file"] == "generated.pbn"
        assert found["board"] == board.number and isinstance(found["board"], int)
        assert found["dealer"] == board.dealer.letter
        assert found["vulnerable"] == str(board.vulnerability)
        hand = board.deal.hand(board.dealer)
        assert isinstance(found["deal"], str)
        assert found["deal"].startswith(f"{board.dealer.letter}:{hand} ")
        assert found["deal"] == board.tag("Deal")
        assert found["auction"] == [str(call) for call in board.auction.calls]
        assert all(isinstance(call, str) for call in found["auction"])
        assert found["contract"] == str(board.contract)
        if board.contract.is_passed_out:
            assert (found["declarer"], found["result"], found["play"]) == (None, None, None)
        else:
            assert board.declarer is not None and board.result is not None
            assert found["declarer"] == board.declarer.letter
            assert found["result"] == board.result.tricks
            assert found["play"] == played_order(board)
            assert found["claimed"] is (
                board.play is not None and board.play.end is SectionEnd.STOP
            )
        assert isinstance(found["tags"], dict)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in found["tags"].items())
        assert found["tags"]["Board"] == str(board.number)
        assert found["tags"]["Contract"] == str(board.contract)


def test_convert_json_from_import_form(tmp_path: Path) -> None:
    write(tmp_path / "import.pbn", IMPORT_FORM)
    run = pbntool_run("convert", "--to", "json", "import.pbn", cwd=tmp_path)
    [found] = [json.loads(line) for line in run.lines]
    # The deal is written from the dealer (South), whatever the file's first seat.
    assert found["deal"] == "S:..AKQJT98765432. ...AKQJT98765432 AKQJT98765432... .AKQJT98765432.."
    assert found["auction"] == ["Pass", "Pass", "Pass", "4S", "Pass", "Pass", "Pass"]
    assert found["play"] == ["HA", "DA", "CA", "SA"]
    assert (found["declarer"], found["contract"], found["result"]) == ("N", "4S", 10)


# --- score -------------------------------------------------------------------------------------

SCORE_KEYS = [
    "file", "board", "declarer", "contract", "result", "vulnerable", "score_ns", "stated_score_ns",
]  # fmt: skip


def test_score_json_for_hand_checked_boards(tmp_path: Path) -> None:
    write(tmp_path / "scores.pbn", HAND_CHECKED)
    run = pbntool_run("score", "--format", "json", "scores.pbn", cwd=tmp_path)
    assert run.code == 0
    objects = [json.loads(line) for line in run.lines]
    assert all(list(found) == SCORE_KEYS for found in objects)
    rows = [[found[key] for key in SCORE_KEYS[1:]] for found in objects]
    assert rows == [
        [1, "N", "7CXX", 13, "None", 1960, 1960],
        [2, "N", "4SX", 11, "NS", 990, 990],
        [3, "W", "2HX", 6, "EW", 500, 500],
        [4, None, "Pass", None, "All", 0, 0],
        [5, "E", "3NT", 9, "NS", -400, -400],
    ]
    assert {found["file"] for found in objects} == {"scores.pbn"}
    assert pbntool_run("validate", "scores.pbn", cwd=tmp_path).out == b""


def test_score_shows_a_wrong_stated_score_beside_the_computed_one(tmp_path: Path) -> None:
    wrong = HAND_CHECKED.replace('[Score "NS 990"]', '[Score "NS 790"]')
    write(tmp_path / "scores.pbn", wrong)
    run = pbntool_run("score", "--format", "json", "scores.pbn", cwd=tmp_path)
    second = json.loads(run.lines[1])
    assert (second["score_ns"], second["stated_score_ns"]) == (990, 790)


def test_score_text_table(tmp_path: Path) -> None:
    write(tmp_path / "scores.pbn", HAND_CHECKED)
    run = pbntool_run("score", "scores.pbn", cwd=tmp_path)
    assert run.code == 0
    header, *rows = run.lines
    assert header.split() == [*SCORE_KEYS[1:], "file"]
    assert rows[0].split() == ["1", "N", "7CXX", "13", "None", "1960", "1960", "scores.pbn"]
    assert rows[3].split() == ["4", "-", "Pass", "-", "All", "0", "0", "scores.pbn"]
    assert SUMMARY.match(run.err.strip())


# --- show --------------------------------------------------------------------------------------


def test_show_one_board(tmp_path: Path) -> None:
    write(tmp_path / "scores.pbn", HAND_CHECKED)
    run = pbntool_run("show", "--board", "2", "--ascii", "scores.pbn", cwd=tmp_path)
    assert run.code == 0
    boards = re.findall(r"^Board (\d+)\b", run.text, flags=re.MULTILINE)
    assert boards == ["2"]
    assert "4SX" in run.text and "North" in run.text
    assert not any(symbol in run.text for symbol in "♠♥♦♣")
    every = pbntool_run("show", "scores.pbn", cwd=tmp_path)
    assert re.findall(r"^Board (\d+)\b", every.text, flags=re.MULTILINE) == list("12345")


def test_show_and_to_text_say_the_room_and_table_and_no_claim_without_play(
    tmp_path: Path,
) -> None:
    text = SAMPLE.read_text(encoding="utf-8").split("\n\n")[0]
    text = text.replace('[Board "1"]', '[Board "1"]\n[Room "Open"]\n[Table "4"]')
    text = re.sub(r'(\[Play "E"\]\n)(?:.+\n?)+', r"\1*\n", text)
    write(tmp_path / "open.pbn", text + "\n")
    shown = pbntool_run("show", "open.pbn", cwd=tmp_path)
    converted = pbntool_run("convert", "--to", "text", "open.pbn", cwd=tmp_path)
    for run in (shown, converted):
        assert run.code == 0, run.err
        assert "   Open room   Table 4   (open.pbn)" in run.text.splitlines()[0]
        assert "claim" not in run.text and "Play (" not in run.text
        assert "2♥ by N, down 4 (+200 EW)" in run.text


def test_show_missing_board(tmp_path: Path) -> None:
    write(tmp_path / "scores.pbn", HAND_CHECKED)
    run = pbntool_run("show", "--board", "9", "scores.pbn", cwd=tmp_path)
    assert (run.code, run.out) == (1, b"")
    assert "no board 9" in run.err
    missing_file = pbntool_run("show", "nothing.pbn", cwd=tmp_path)
    assert missing_file.code == 2
    assert "Traceback" not in missing_file.err


# --- pipes, version, help ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough findings (3000 lines of them) to overflow a pipe's buffer."""
    _, text = generated(1500, seed=21)
    text = re.sub(r'\[Score "-?\d+"\]', '[Score "12345"]', text)
    text = re.sub(r'\[Vulnerable "(\w+)"\]', '[Vulnerable "All"]\n[Foo "bar"]', text)
    return write(tmp_path_factory.mktemp("big") / "big.pbn", text)


@pytest.mark.parametrize(
    "arguments",
    [
        ["validate", "--fail-on", "info"],
        ["convert", "--to", "json"],
        ["convert", "--to", "pbn"],
        ["score"],
        ["show"],
    ],
    ids=lambda arguments: "-".join(arguments[:2]),
)
def test_closed_pipe_ends_quietly(big_file: Path, arguments: list[str]) -> None:
    command = " ".join([*MODULE, *arguments, str(big_file)])
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -n 1"],
        capture_output=True,
        timeout=120,
        check=False,
    )
    stderr = done.stderr.decode()
    assert done.stdout.count(b"\n") == 1
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
    assert "BrokenPipeError" not in stderr
    assert done.returncode != 0  # the writer saw the pipe close


def convert_into_head(tmp_path: Path, boards: int, seed: int, *flags: str) -> int:
    """The exit status of ``convert --to json`` of clean boards into ``head -c 10``."""
    _, text = generated(boards, seed=seed)
    write(tmp_path / "clean.pbn", text)
    command = " ".join([*MODULE, "convert", "--to", "json", *flags, "clean.pbn"])
    done = subprocess.run(
        ["bash", "-c", f"{command} | head -c 10 >/dev/null; exit ${{PIPESTATUS[0]}}"],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    return done.returncode


def test_closed_pipe_exit_status_is_141(tmp_path: Path) -> None:
    # Several slices of work, so output is still being written when head has gone.
    assert convert_into_head(tmp_path, 4000, 2) == 141


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_closed_pipe_during_the_last_long_write_exits_141(tmp_path: Path, jobs: str) -> None:
    # -j 1, 300 clean boards: one slice, so the whole JSON (about 1 MB) is one write, the
    # last.  Python's BufferedWriter returns a short count when the reader leaves during it,
    # and TextIOWrapper ignores the count: the rest was dropped and the exit status was 0.
    # -j 2, 2,000 boards (1 MB): slices run by workers, their JSON copied from spool files.
    assert convert_into_head(tmp_path, 300 if jobs == "1" else 2000, 5, "-j", jobs) == 141


@pytest.mark.parametrize("command", commands())
def test_version(command: tuple[str, ...]) -> None:
    run = pbntool_run("--version", command=command)
    assert run.code == 0
    assert run.lines[0] == f"pbntool {pbntool.__version__} ({pbntool._native.STATE})"


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ([], ["validate", "convert", "score", "show", "--version"]),
        (["validate"], ["--format", "--fail-on", "--select", "--ignore", "--quiet"]),
        (["convert"], ["--to", "--output", "--validate", "--quiet"]),
        (["score"], ["--format", "--quiet"]),
        (["show"], ["--board", "--ascii"]),
    ],
    ids=["main", "validate", "convert", "score", "show"],
)
def test_help(arguments: list[str], words: list[str]) -> None:
    run = pbntool_run(*arguments, "--help")
    assert run.code == 0
    assert "Usage" in run.text
    for word in words:
        assert word in run.text
    assert run.err == ""


def test_generated_files_round_trip_through_stdin_and_stdout(tmp_path: Path) -> None:
    _, text = generated(30, seed=4)
    run = pbntool_run("convert", "--to", "pbn", "-", stdin=text.encode())
    assert (run.code, run.out) == (0, text.encode())
    assert untimed(run.err) == "pbntool: 1 input, 30 boards: 0 errors, 0 warnings, 0 info\n"


def test_the_readme_first_command_succeeds() -> None:
    """The README's first command (less its pip install) exits 0 on a fresh checkout."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh\n", 1)[1].splitlines()[0]
    assert first.startswith("pip install -e . && ")
    repo = Path(__file__).resolve().parent.parent
    for command in first.removeprefix("pip install -e . && ").split(" && "):
        words = command.split()
        assert words[0] == "pbntool"
        run = pbntool_run(*words[1:], cwd=repo)
        assert run.code == 0, (command, run.err)


def test_no_arguments_list_the_commands_and_exit_0() -> None:
    run = pbntool_run()
    assert run.code == 0, run.err
    assert "validate" in run.text and "convert" in run.text and "render" in run.text


def test_help_shows_no_python_types() -> None:
    for command in ("validate", "convert", "score", "show", "fix", "select", "dd", "render"):
        run = pbntool_run(command, "--help")
        assert run.code == 0, run.err
        assert "<bool>" not in run.text and "<list[" not in run.text, command


def test_version_lists_python_and_the_extras() -> None:
    run = pbntool_run("--version")
    assert run.code == 0
    lines = run.lines
    assert lines[0].startswith("pbntool ") and lines[1].startswith("Python ")
    assert [line.split()[0] for line in lines[2:]] == ["dask", "dd", "bws", "pdf"]


def test_the_summary_is_a_short_table_of_the_top_codes_and_json_has_them_all(
    tmp_path: Path,
) -> None:
    """Many kinds of findings: the summary lists the most frequent few, worst first, each row
    short and aligned, then how many codes are left out; --summary-json lists every code."""
    from pbntool.run.report import TOP_CODES

    files = sorted(CORPUS.rglob("*.pbn"))[::10] if CORPUS.is_dir() else []
    if not files:
        pytest.skip("the corpus is absent")
    listing = tmp_path / "files.txt"
    listing.write_text("\n".join(map(str, files)) + "\n")
    run = pbntool_run("validate", "-q", "-j", "1", "--files-from", str(listing))
    text = pbntool_run("validate", "-j", "1", "--files-from", str(listing)).err.splitlines()
    found = pbntool_run("validate", "-j", "1", "--summary-json", "--files-from", str(listing))
    summary = json.loads(found.err)
    all_codes = {code for codes in summary["by_code"].values() for code in codes}
    assert run.code == found.code
    assert len(all_codes) > TOP_CODES, "the sample must have more codes than the table shows"
    rows = [line for line in text if line.startswith("  ") and not line.startswith("  …")]
    assert len(rows) == TOP_CODES
    assert all(len(line) <= 100 for line in text), max(text, key=len)
    left_out = len(all_codes) - TOP_CODES
    assert text[-1].startswith(f"  … and {left_out} code{'s' * (left_out != 1)} more ("), text
    ranks = {"error": 0, "warning": 1, "info": 2}
    order = [(ranks[row.split()[0]], -int(row.split()[2])) for row in rows]
    assert order == sorted(order), rows
    for row in rows:
        label, code, count = row.split()[:3]
        assert summary["by_code"][label][code] == int(count)
