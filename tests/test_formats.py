"""Format detection by content, and the conversion matrix through the real command line:
``convert --to/--from`` for PBN and LIN, the loss fixtures of ``fixtures/commands/convert``,
handviewer links on the command line, and directories holding both formats."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbntool.formats import Format, detect_format, lin, pbn

REPO = Path(__file__).resolve().parent.parent
CONVERT_FIXTURES = REPO / "fixtures" / "commands" / "convert"
LIN_LINE = (
    "pn|Ann,Bob,Cid,Dee|st||md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|"
    "rh||ah|Board 1|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||pc|D2|pc|D6|pc|DJ|pc|DA|mc|13|\n"
)
LINK = (
    "https://www.bridgebase.com/tools/handviewer.html?lin=pn%7CAnn%2CBob%2CCid%2CDee%7Cmd%7C3"
    "SAKQHAKQDAKQCAKQJ%2CS2345H2345D2345C2%2CS6789H6789D6789C3%2C%7Cah%7CBoard%201%7Csv%7Co%7C"
)


def run(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("head", "name", "expected"),
    [
        (b'[Event "x"]\n[Board "1"]', "", Format.PBN),
        (b'\xef\xbb\xbf% PBN 2.1\n[Event ""]', "", Format.PBN),
        ('[Event "x"]'.encode("utf-16"), "", Format.PBN),
        (b'{ a comment }\n[Board "1"]', "x.pbn", Format.PBN),
        (b'{"board": 1}', "x.pbn", Format.PBN),  # a brace comment as well as JSON
        (b'{"board": 1}\n', "x.jsonl", Format.JSON),
        (b"pn|a,b,c,d|st||md|3SA", "", Format.LIN),
        (b"\nvg|Cup,Seg,I,1,2,A,0,B,0|\nrs|||", "", Format.LIN),
        (LINK.encode(), "links.txt", Format.LIN),
        (b"<?xml version='1.0'?><boards/>", "", Format.XML),
        (b"", "empty.lin", Format.LIN),
        (b"", "", Format.PBN),
        (b"Standings after round 3\n1. Smith", "standings.txt", None),
    ],
)
def test_detect_format(head: bytes, name: str, expected: Format | None) -> None:
    assert detect_format(head, name) is expected


def test_lin_to_pbn_to_lin_through_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "board.lin"
    source.write_text(LIN_LINE, encoding="utf-8")
    to_pbn = run("convert", str(source), "--to", "pbn", "-q")
    assert to_pbn.returncode == 0, to_pbn.stderr
    assert '[Contract "7NT"]' in to_pbn.stdout and '[Result "13"]' in to_pbn.stdout
    back = run("convert", "-", "--from", "pbn", "--to", "lin", "-q", stdin=to_pbn.stdout)
    assert back.returncode == 0, back.stderr
    assert lin.parse(back.stdout).boards[0].deal == lin.parse(LIN_LINE).boards[0].deal


def test_convert_reports_losses_on_stderr_and_keeps_stdout_clean(tmp_path: Path) -> None:
    fixture = CONVERT_FIXTURES / "OUT010_event_site_date_and_scoring_tags.pbn"
    result = run("convert", str(fixture), "--to", "lin")
    assert result.returncode == 0
    assert result.stdout.startswith("pn|Ann,Bob,Cid,Dee|st||md|3")
    assert "OUT010" in result.stderr and "OUT010" not in result.stdout


def _convert_fixtures() -> list[Path]:
    return sorted(p for p in CONVERT_FIXTURES.glob("*") if p.suffix in (".pbn", ".jsonl"))


@pytest.mark.parametrize("fixture", _convert_fixtures(), ids=lambda path: path.stem)
def test_convert_fixture_reports_exactly_its_expected_losses(fixture: Path) -> None:
    arguments = fixture.with_suffix(".args").read_text(encoding="utf-8").split()
    result = run("convert", str(fixture), *arguments)
    found = []
    prefix = f"{fixture}:"
    for line in result.stderr.splitlines():
        if line.startswith(prefix):
            place, _, rest = line[len(prefix) :].partition(": ")
            found.append(f"{place} {rest.split()[1]}")
    expected = fixture.with_suffix(".expected").read_text(encoding="utf-8").split("\n")
    assert found == [line for line in expected if line]


def test_handviewer_link_on_the_command_line() -> None:
    shown = run("show", LINK)
    assert shown.returncode == 0, shown.stderr
    assert "Board 1" in shown.stdout and "South: Ann" in shown.stdout
    validated = run("validate", LINK)
    assert validated.returncode == 0 and "LIN" not in validated.stdout


def test_directories_are_walked_for_pbn_and_lin(tmp_path: Path) -> None:
    (tmp_path / "a.lin").write_text(LIN_LINE, encoding="utf-8")
    (tmp_path / "b.pbn").write_text(pbn.dumps(lin.parse(LIN_LINE).boards), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not read", encoding="utf-8")
    result = run("validate", str(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "2 inputs, 2 boards" in result.stderr


def test_a_file_of_no_known_format_is_one_finding_and_the_batch_goes_on(tmp_path: Path) -> None:
    text = tmp_path / "standings.txt"
    text.write_text("1. Smith - Jones 61%\n", encoding="utf-8")
    good = tmp_path / "a.lin"
    good.write_text(LIN_LINE, encoding="utf-8")
    result = run("validate", str(text), str(good), "--format", "json")
    assert result.returncode == 1
    assert result.stdout.count('"code": "SRC007"') == 1
    assert "2 inputs, 1 board" in result.stderr


def test_to_and_from_are_case_insensitive(tmp_path: Path) -> None:
    source = tmp_path / "board.txt"
    source.write_text(LIN_LINE, encoding="utf-8")
    result = run("convert", str(source), "--from", "LIN", "--to", "PBN", "-q")
    assert result.returncode == 0 and '[Board "1"]' in result.stdout
