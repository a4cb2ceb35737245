"""``score --check`` on the conventions of real programs (issue 16): each case failed before.

Stated precision (padded columns), team rooms paired without Room tags, Ruter's cross-IMP
totals, Neuberg after an artificial score, victory points and team standings, Pavlicek's
dialect.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbntool.formats import pbn
from pbntool.tools.score.check import check_event

REPO = Path(__file__).resolve().parent.parent
SCORE = REPO / "fixtures" / "commands" / "score"


def _check(path: Path) -> tuple[list[str], list[str]]:
    """(codes of the disagreements, messages of the notes) of ``score --check`` on a file."""
    with open(path, "rb") as stream:
        found = check_event(pbn.iter_records(stream, str(path)))
    errors = [d.code for d in found.diagnostics if d.severity.name == "ERROR"]
    notes = [d.message for d in found.diagnostics if d.severity.name != "ERROR"]
    return errors, notes


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *args], capture_output=True, text=True, check=False
    )


# --- stated precision ------------------------------------------------------------------------


def test_padded_percentages_are_checked_to_their_precision() -> None:
    errors, notes = _check(SCORE / "EVT017_percentages_padded_to_two_decimals.pbn")
    assert errors == []
    assert any("values to 0.1 padded to 2 decimals (25 of 29 end in 0)" in n for n in notes)


def test_an_honest_two_decimal_value_still_disagrees_in_a_padded_column(tmp_path: Path) -> None:
    """Only values that end in 0 are taken to 0.1: a wrong 99.03 (99.02 computed) is found."""
    text = (SCORE / "EVT017_percentages_padded_to_two_decimals.pbn").read_text()
    wrong = tmp_path / "wrong.pbn"
    wrong.write_text(text.replace("570  99.02 1", "570  99.04 1"))
    errors, _ = _check(wrong)
    assert errors == ["EVT005"]


def test_the_message_says_the_precision_it_checked_to(tmp_path: Path) -> None:
    text = (SCORE / "EVT017_percentages_padded_to_two_decimals.pbn").read_text()
    wrong = tmp_path / "wrong.pbn"
    wrong.write_text(text.replace("420  87.30 7", "420  87.20 7"))
    result = _cli("score", "--check", "--format", "json", str(wrong))
    messages = [json.loads(line)["message"] for line in result.stdout.splitlines()]
    assert any("87.20" in m and "stated to 0.1" in m for m in messages)


# --- teams without Room tags -----------------------------------------------------------------

TEAMS = REPO / "fixtures" / "scoring" / "teams_without_room_tags.pbn"


def test_rooms_without_room_tags_are_paired_by_the_unordered_team_pair() -> None:
    """RealBridge swaps HomeTeam and VisitTeam between the rooms: scored as cross-IMPs over
    the four tables of a board, every ScoreIMP disagreed."""
    errors, _ = _check(TEAMS)
    assert errors == []


def test_the_summary_says_how_the_rooms_were_paired() -> None:
    result = _cli("score", "--check", str(TEAMS))
    assert result.returncode == 0
    assert "48 values checked, 48 agree" in result.stderr
    assert "rooms paired by the unordered HomeTeam/VisitTeam pair and Round" in result.stderr


def test_a_wrong_scoreimp_is_still_found_in_a_match_without_room_tags(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.pbn"
    wrong.write_text(TEAMS.read_text().replace('[ScoreIMP "NS 10"]', '[ScoreIMP "NS 9"]', 1))
    errors, _ = _check(wrong)
    assert errors == ["EVT002"]


# --- Ruter's tables --------------------------------------------------------------------------

RUTER = SCORE / "EVT017_ruter_cross_imp_totals.pbn"


def test_ruter_files_are_checked_as_cross_imp_totals() -> None:
    errors, notes = _check(RUTER)
    assert errors == []
    assert any("cross-IMP totals (Cross), Ruter's convention" in note for note in notes)


def test_the_same_table_without_ruters_generator_is_checked_as_its_scoring_tag_says(
    tmp_path: Path,
) -> None:
    other = tmp_path / "other.pbn"
    other.write_text(RUTER.read_text().replace('[Generator "Ruter 1.9.21"]\n', ""))
    errors, _ = _check(other)
    assert sorted(errors) == ["EVT002", "EVT006", "EVT006", "EVT006"]


def test_method_on_the_command_line_overrides_ruters_convention() -> None:
    result = _cli("score", "--check", "--method", "cross-imp", "--cross", "comparison", str(RUTER))
    assert result.returncode == 1
    assert "EVT006" in result.stdout


# --- Neuberg after an artificial score -------------------------------------------------------

NEUBERG = REPO / "fixtures" / "scoring" / "neuberg_after_artificial.pbn"


def test_real_results_are_factored_to_the_tables_that_include_an_artificial_score() -> None:
    errors, _ = _check(NEUBERG)
    assert errors == []


def test_neuberg_after_an_artificial_score_in_the_arithmetic() -> None:
    from pbntool.scoring.matchpoints import Artificial, FieldEntry, score_matchpoints

    field = [FieldEntry(620, 2), FieldEntry(170), FieldEntry(-100), FieldEntry(-200)]
    adjusted = FieldEntry(None, 1, Artificial.parse("A+"), Artificial.parse("A-"))
    scores = score_matchpoints([*field, adjusted])
    assert [round(s.ns or 0, 6) for s in scores] == [8.6, 5.0, 2.6, 0.2, 6.0]
    assert scores[-1].top == 10 and scores[-1].ew == 4.0
    assert [s.ns for s in score_matchpoints(field)] == [7.0, 4.0, 2.0, 0.0]  # no adjustment


# --- Pavlicek's dialect ----------------------------------------------------------------------

PAVLICEK = REPO / "fixtures" / "scoring" / "pavlicek_dialect.pbn"


def _read(dialect: str | None) -> list[object]:
    from pbntool.formats.pbn.dialects import apply_dialect

    with open(PAVLICEK, "rb") as stream:
        return list(apply_dialect(pbn.iter_records(stream, str(PAVLICEK)), dialect))


def test_pavlicek_dialect_puts_back_the_opening_passes_and_inherits_the_deal() -> None:
    from pbntool.model import Action, Seat

    first, second = _read("pavlicek")
    assert first.board.auction.first is Seat.WEST  # type: ignore[attr-defined]
    assert first.board.auction.calls[0] is Action.PASS  # type: ignore[attr-defined]
    assert "PBN123" not in [d.code for d in first.diagnostics]  # type: ignore[attr-defined]
    assert second.board.deal == first.board.deal  # type: ignore[attr-defined]


def test_without_the_dialect_the_findings_stay_as_they_are() -> None:
    first, second = _read(None)
    assert "PBN123" in [d.code for d in first.diagnostics]  # type: ignore[attr-defined]
    assert second.board.deal is None  # type: ignore[attr-defined]


def test_score_dialect_option_writes_the_reanchored_boards() -> None:
    plain = _cli("score", "--format", "pbn", str(PAVLICEK))
    read = _cli("score", "--dialect", "pavlicek", "--format", "pbn", str(PAVLICEK))
    assert '[Auction "N"]' in plain.stdout and '[Deal "?"]' in plain.stdout
    assert '[Auction "W"]' in read.stdout and '[Deal "?"]' not in read.stdout
    assert "PBN123" in plain.stderr and "PBN123" not in read.stderr


def test_a_table_without_a_traveller_is_checked_against_its_own_matchs(tmp_path: Path) -> None:
    """Each match's traveller in one room only (tables 1 and 3): the other room's ScoreIMP is
    checked against its own match's traveller, not the first match's."""
    import re

    written = tmp_path / "imp.pbn"
    _cli("score", "--method", "imp", "--format", "pbn", "-o", str(written), str(TEAMS))
    games = written.read_text().split("\n\n")
    for index, game in enumerate(games):
        if '[Table "2"]' in game or '[Table "4"]' in game:
            games[index] = re.sub(r"\[ScoreTable[^\n]*\n(?:[^\[\n][^\n]*\n?)*", "", game)
    half = tmp_path / "half.pbn"
    half.write_text("\n\n".join(games))
    errors, _ = _check(half)
    assert errors == []
    assert half.read_text().count("[ScoreTable") == 12


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_and_convert_read_the_dialect_too(jobs: str) -> None:
    """--dialect is a reading option of every command that reads: validate finds no PBN123
    and no missing deal, convert writes the inherited deal and the passes put back, with
    workers (-j 2, the input read whole) as in one process."""
    plain = _cli("validate", "-j", jobs, str(PAVLICEK))
    read = _cli("validate", "-j", jobs, "--dialect", "pavlicek", str(PAVLICEK))
    assert "PBN123" in plain.stdout and "PBN123" not in read.stdout
    converted = _cli("convert", "-j", jobs, "--dialect", "pavlicek", "--to", "json", str(PAVLICEK))
    boards = [json.loads(line) for line in converted.stdout.splitlines()]
    assert len(boards) == 2
    assert boards[0]["deal"] == boards[1]["deal"] and boards[1]["deal"] is not None
    assert boards[0]["auction"][0] == "Pass"  # West's opening pass, put back


def test_pavlicek_keeps_a_stated_north_dealer_of_a_later_table() -> None:
    """Seat.NORTH is 0: a later table's own Dealer "N" is kept, not replaced by the first
    table's dealer (a test of ``is None``, not of truth)."""
    from pbntool.formats.pbn.dialects import pavlicek
    from pbntool.model import Seat

    games = PAVLICEK.read_text().split("\n\n")
    games[1] = games[1].replace('[Dealer "W"]', '[Dealer "N"]')
    data = "\n\n".join(games).encode()
    records = list(pavlicek(pbn.iter_records(io.BytesIO(data), "x.pbn")))
    assert [r.board.dealer for r in records if r.board] == [Seat.WEST, Seat.NORTH]
