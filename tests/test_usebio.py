"""USEBIO XML results: the reader on the real Compscore3 files (their official scores
confirmed by ``score --check``), the writer's round trip, the sniffer, hostile documents and
the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.formats import Format, detect_format
from pbntool.formats.pbn import iter_records as pbn_records
from pbntool.formats.usebio.mapping import element_of_tag, tag_of_element
from pbntool.formats.usebio.reader import iter_records
from pbntool.formats.usebio.sniff import sniff_usebio
from pbntool.formats.usebio.writer import UsebioWriter
from pbntool.model import Board
from pbntool.records import Record
from tests.conftest import CORPUS
from tests.test_cli import pbntool_run

FILES = CORPUS / "club" / "abftech__cobalt" / "results" / "tests" / "test_files"
MITCHELL = FILES / "mp_pairs_mitchell_03.xml"
BUTLER = FILES / "notsupported.xml"

needs_corpus = pytest.mark.skipif(not MITCHELL.is_file(), reason="club corpus not present")


def read(data: bytes, name: str = "x.xml") -> list[Record]:
    return list(iter_records(io.BytesIO(data), name))


def boards(records: list[Record]) -> list[Board]:
    return [record.board for record in records if record.board is not None]


def codes(records: list[Record]) -> list[str]:
    return [d.code for record in records for d in record.diagnostics]


def table_rows(board: Board, name: str) -> list[dict[str, str]]:
    table = next(table for table in board.tables if table.name == name)
    names = [column.name for column in table.columns]
    return [dict(zip(names, row, strict=True)) for row in table.rows]


SMALL = b"""<?xml version="1.0" encoding="iso-8859-1"?>
<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">
<USEBIO Version="1.2">
  <CLUB><CLUB_NAME>Example BC</CLUB_NAME><CLUB_ID_NUMBER>999</CLUB_ID_NUMBER></CLUB>
  <EVENT EVENT_TYPE="MP_PAIRS">
    <EVENT_DESCRIPTION>Tuesday Pairs</EVENT_DESCRIPTION>
    <WINNER_TYPE>1</WINNER_TYPE>
    <DATE>02/12/2025</DATE>
    <PARTICIPANTS EVENT_TYPE="MP_PAIRS">
      <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION></DIRECTION>
        <TOTAL_SCORE>2</TOTAL_SCORE><PERCENTAGE>100.00</PERCENTAGE><PLACE>1=</PLACE>
        <PLAYER><PLAYER_NAME>Ann Able</PLAYER_NAME></PLAYER>
        <PLAYER><PLAYER_NAME>Bob Baker</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>2</PAIR_NUMBER>
        <TOTAL_SCORE>0</TOTAL_SCORE><PERCENTAGE>0.00</PERCENTAGE><PLACE>3=</PLACE>
        <PLAYER><PLAYER_NAME>Cy Cole</PLAYER_NAME></PLAYER>
        <PLAYER><PLAYER_NAME>Di Dunn</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>3</PAIR_NUMBER>
        <TOTAL_SCORE>0</TOTAL_SCORE><PERCENTAGE>0.00</PERCENTAGE><PLACE>3=</PLACE>
        <PLAYER><PLAYER_NAME>Ed Ely</PLAYER_NAME></PLAYER>
        <PLAYER><PLAYER_NAME>Flo Fay</PLAYER_NAME></PLAYER></PAIR>
      <PAIR><PAIR_NUMBER>4</PAIR_NUMBER>
        <TOTAL_SCORE>2</TOTAL_SCORE><PERCENTAGE>100.00</PERCENTAGE><PLACE>1=</PLACE>
        <PLAYER><PLAYER_NAME>Gus Gee</PLAYER_NAME></PLAYER>
        <PLAYER><PLAYER_NAME>Hal Hu</PLAYER_NAME></PLAYER></PAIR>
    </PARTICIPANTS>
    <BOARD EVENT_TYPE="MP_PAIRS"><BOARD_NUMBER>1</BOARD_NUMBER>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
        <CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY><LEAD>AH</LEAD>
        <TRICKS>8</TRICKS><SCORE>110</SCORE>
        <NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>
      </TRAVELLER_LINE>
      <TRAVELLER_LINE>
        <NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
        <CONTRACT>4HX</CONTRACT><PLAYED_BY>E</PLAYED_BY><LEAD>KS</LEAD>
        <TRICKS>10</TRICKS><SCORE>-590</SCORE>
        <NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>2</EW_MATCH_POINTS>
      </TRAVELLER_LINE>
    </BOARD>
  </EVENT>
  <HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
    <HAND><DIRECTION>North</DIRECTION><SPADES>KQ986</SPADES><HEARTS>2</HEARTS>
          <DIAMONDS>T542</DIAMONDS><CLUBS>K93</CLUBS></HAND>
    <HAND><DIRECTION>East</DIRECTION><SPADES>AT3</SPADES><HEARTS>AKQ65</HEARTS>
          <DIAMONDS>QJ9</DIAMONDS><CLUBS>T2</CLUBS></HAND>
    <HAND><DIRECTION>S</DIRECTION><CLUBS>QJ87</CLUBS><SPADES>J42</SPADES><HEARTS>T4</HEARTS>
          <DIAMONDS>K763</DIAMONDS></HAND>
    <HAND><DIRECTION>West</DIRECTION><SPADES>75</SPADES><HEARTS>J9873</HEARTS>
          <DIAMONDS>A8</DIAMONDS><CLUBS>A654</CLUBS></HAND>
  </BOARD></HANDSET>
</USEBIO>
"""


# --- reading -------------------------------------------------------------------------------


def test_small_document_gives_the_board_its_traveller_standings_and_event_tags() -> None:
    records = read(SMALL)
    assert codes(records) == []
    (board,) = boards(records)
    assert board.number == 1 and board.tag("Dealer") == "N" and board.tag("Vulnerable") == "None"
    assert (
        board.tag("Deal") == "N:KQ986.2.T542.K93 AT3.AKQ65.QJ9.T2 J42.T4.K763.QJ87 75.J9873.A8.A654"
    )
    assert board.tag("Event") == "Tuesday Pairs"
    assert board.tag("Site") == "Example BC"
    assert board.tag("Date") == "2025.12.02"
    assert board.tag("Scoring") == "MP"
    assert board.tag("UsebioClubIdNumber") == "999"
    rows = table_rows(board, "ScoreTable")
    assert rows[0] == {
        "PairId_NS": "1",
        "PairId_EW": "2",
        "Contract": "2S",
        "Declarer": "N",
        "Lead": "HA",
        "Result": "8",
        "Score_NS": "110",
        "Score_EW": "-",
        "MP_NS": "2",
        "MP_EW": "0",
    }
    assert rows[1]["Contract"] == "4HX" and rows[1]["Score_EW"] == "590"
    totals = table_rows(board, "TotalScoreTable")
    assert totals[0]["Rank"] == "1" and totals[0]["Tied"] == "="
    assert totals[0]["Names"] == '"Ann Able & Bob Baker"'
    assert totals[0]["TotalMP"] == "2" and totals[0]["TotalPercentage"] == "100.00"


@needs_corpus
def test_mitchell_sample_reads_21_boards_with_hands_and_every_traveller_line() -> None:
    records = list(iter_records(MITCHELL.open("rb"), MITCHELL.name))
    assert codes(records) == []
    found = boards(records)
    assert [board.number for board in found] == list(range(1, 22))
    assert all(board.deal is not None and board.deal.is_complete for board in found)
    assert sum(len(table_rows(board, "ScoreTable")) for board in found) == 126
    assert found[0].tag("UsebioWinnerType") == "2"
    totals = table_rows(found[0], "TotalScoreTable")
    assert len(totals) == 13 and totals[0]["PairId"] == "1NS" and totals[0]["Direction"] == "NS"
    assert totals[0]["MasterPoints"] == "6" and totals[0]["MemberID1"] == "936510"
    assert all(not any(t.name == "TotalScoreTable" for t in board.tables) for board in found[1:])


@needs_corpus
def test_unknown_event_type_is_reported_and_the_boards_type_is_used() -> None:
    records = list(iter_records(BUTLER.open("rb"), BUTLER.name))
    assert codes(records) == ["USB002"]
    first = boards(records)[0]
    # Compscore's BOARD_AVERAGE leaves out the top and the bottom score: Butler-2.
    assert first.tag("Scoring") == "IMP;Butler-2"
    assert first.tag("UsebioBoardAverage") == "-30"
    assert table_rows(first, "ScoreTable")[0]["IMP_NS"] == "-3"


@needs_corpus
@pytest.mark.parametrize("path", [MITCHELL, BUTLER], ids=["mp-mitchell", "butler"])
def test_score_check_confirms_every_official_score(path: Path) -> None:
    run = pbntool_run("score", "--check", path)
    assert run.code == 0, run.text + run.err
    summary = next(line for line in run.err.splitlines() if "values checked" in line)
    checked = int(summary.split(": ")[1].split()[0])
    assert checked > 400 and summary.endswith(f"{checked} agree"), summary


@needs_corpus
def test_score_standings_are_the_official_percentages() -> None:
    run = pbntool_run("score", "--format", "json", MITCHELL)
    standings = [json.loads(line) for line in run.lines if '"standing"' in line]
    by_name = {entry["name"]: entry for entry in standings}
    assert round(by_name["3NS"]["percentage"], 2) == 62.78
    assert round(by_name["6EW"]["percentage"], 2) == 55.71


def test_arbitral_score_becomes_artificial_percentages() -> None:
    data = SMALL.replace(
        b"<CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY><LEAD>AH</LEAD>\n"
        b"        <TRICKS>8</TRICKS><SCORE>110</SCORE>",
        b"<SCORE>A6040</SCORE>",
    )
    rows = table_rows(boards(read(data))[0], "ScoreTable")
    assert rows[0]["Percentage_NS"] == "^60" and rows[0]["Percentage_EW"] == "^40"
    assert rows[0]["Contract"] == "-" and rows[0]["Score_NS"] == "-"


def test_bad_values_are_findings_at_their_element() -> None:
    data = SMALL.replace(b"<CONTRACT>2S</CONTRACT>", b"<CONTRACT>8Q</CONTRACT>")
    records = read(data)
    (finding,) = [d for record in records for d in record.diagnostics]
    assert finding.code == "USB003" and finding.board == 1
    assert finding.line == 30 and finding.column == 9
    assert table_rows(boards(records)[0], "ScoreTable")[0]["Contract"] == "-"


def test_a_handset_that_is_not_a_deal_is_reported_and_left_out() -> None:
    data = SMALL.replace(b"<SPADES>75</SPADES>", b"<SPADES>K5</SPADES>")
    records = read(data)
    assert codes(records) == ["USB004"]
    assert boards(records)[0].deal is None


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"<?xml version='1.0'?><results><EVENT/></results>", "USB001"),
        (b"<USEBIO Version='1.2'><CLUB/></USEBIO>", "USB001"),
        (b"<USEBIO Version='1.2'><EVENT><BOARD>", "XML001"),
        (
            b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "aaaa">]>'
            b"<USEBIO><EVENT>&a;</EVENT></USEBIO>",
            "XML002",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE USEBIO SYSTEM "file:///etc/passwd">'
            b'<USEBIO><EVENT EVENT_TYPE="MP_PAIRS"><TITLE>x</TITLE></EVENT></USEBIO>',
            None,
        ),
    ],
    ids=["other-root", "no-event", "truncated", "internal-subset", "external-dtd-not-read"],
)
def test_hostile_or_broken_documents_are_findings(data: bytes, code: str | None) -> None:
    records = read(data)
    found = codes(records)
    assert found == ([] if code is None else [code])
    for record in records:
        for diagnostic in record.diagnostics:
            assert diagnostic.line is not None and diagnostic.column is not None


def test_an_oversized_document_is_cut_with_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbntool.formats.usebio import reader

    monkeypatch.setattr(reader, "MAX_BYTES", 1000)
    assert "USB005" in codes(read(SMALL))


# --- writing -------------------------------------------------------------------------------


def write(records: list[Board]) -> tuple[str, list[str]]:
    out = io.StringIO()
    writer = UsebioWriter(out)
    lost = [d.message for board in records for d in writer.write(board)]
    writer.close()
    return out.getvalue(), lost


def as_pbn(board: Board) -> str:
    from pbntool.formats.pbn.writer import WriteOptions, dumps_board

    return dumps_board(board, WriteOptions())


@needs_corpus
@pytest.mark.parametrize("path", [MITCHELL, BUTLER], ids=["mp-mitchell", "butler"])
def test_usebio_to_pbn_to_usebio_to_pbn_keeps_everything(path: Path) -> None:
    first = boards(list(iter_records(path.open("rb"), path.name)))
    text, lost = write(first)
    assert lost == []
    again = boards(read(text.encode("ascii")))
    assert [as_pbn(board) for board in again] == [as_pbn(board) for board in first]


def test_pbn_to_usebio_keeps_results_and_reports_what_it_cannot_carry() -> None:
    pbn = (
        '[Event "Club night"]\n[Site "Here"]\n[Date "2025.01.02"]\n[Board "2"]\n'
        '[West "w"]\n[North "n"]\n[East "e"]\n[South "s"]\n[Dealer "E"]\n[Vulnerable "NS"]\n'
        '[Deal "N:KQ986.2.T542.K93 AT3.AKQ65.QJ9.T2 J42.T4.K763.QJ87 75.J9873.A8.A654"]\n'
        '[Scoring "MP"]\n[Declarer "E"]\n[Contract "4H"]\n[Result "10"]\n'
        '[Auction "E"]\n1H Pass 4H Pass\nPass Pass\n{a comment}\n'
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;MP_NS;MP_EW;'
        'Multiplicity"]\n1 2 4H E 10 -420 0 2 1\n3 4 "Pass" - - 0 2 0 2\n\n'
    )
    (board,) = [r.board for r in pbn_records(io.BytesIO(pbn.encode()), "x.pbn") if r.board]
    text, lost = write([board])
    assert "<CONTRACT>4H</CONTRACT>" in text and "<SCORE>-420</SCORE>" in text
    assert text.count("<TRAVELLER_LINE>") == 3  # the Multiplicity 2 row twice
    assert "<DIRECTION>North</DIRECTION>" in text
    assert any("the auction" in message for message in lost)
    assert any("the tag(s) East, North, South, West" in message for message in lost)
    back = boards(read(text.encode("ascii")))[0]
    rows = table_rows(back, "ScoreTable")
    assert [row["Score_EW"] for row in rows] == ["420", "-", "-"]
    assert back.deal == board.deal


def test_usebio_1_3_dates_are_iso() -> None:
    board = boards(read(SMALL.replace(b'Version="1.2"', b'Version="1.3"')))[0]
    text, _lost = write([board])
    assert '<USEBIO Version="1.3">' in text and "<DATE>2025-12-02</DATE>" in text
    assert boards(read(text.encode()))[0].tag("Date") == "2025.12.02"


def test_tag_names_map_back_to_element_names() -> None:
    for name in ("MASTER_POINT_SCALE", "P2P_CHARGE_RATE", "EVENT_ID", "CLUB_ID_NUMBER"):
        assert element_of_tag(tag_of_element(name)) == name
    assert element_of_tag("Event") is None


# --- detection and the command line --------------------------------------------------------


def test_sniffer_beats_generic_xml_only_for_usebio() -> None:
    assert sniff_usebio(SMALL, "x.xml") == 60
    assert detect_format(SMALL, "x.xml") is Format.USEBIO
    assert detect_format(b"<USEBIO Version='1.2'>", "") is Format.USEBIO
    assert sniff_usebio(b'<?xml version="1.0"?><boards/>', "x.xml") == 0
    assert detect_format(b'<?xml version="1.0"?><boards/>', "x.xml") is Format.XML


def test_cli_converts_and_validates_usebio(tmp_path: Path) -> None:
    source = tmp_path / "results.xml"
    source.write_bytes(SMALL)
    run = pbntool_run("convert", source, "--to", "pbn")
    assert run.code == 0 and '[ScoreTable "PairId_NS;' in run.text
    pbn = tmp_path / "results.pbn"
    pbn.write_bytes(run.out)
    back = pbntool_run("convert", pbn, "--to", "usebio")
    assert back.code == 0 and "<TRAVELLER_LINE>" in back.text
    forced = pbntool_run("validate", "--from", "usebio", source)
    assert forced.code == 0
    broken = tmp_path / "broken.xml"
    broken.write_bytes(SMALL.replace(b"<TRICKS>8</TRICKS>", b"<TRICKS>eight</TRICKS>"))
    found = pbntool_run("validate", broken)
    assert found.code == 0 and "warning USB003" in found.text


TEAMS = b"""<?xml version="1.0"?>
<USEBIO Version="1.3">
<EVENT EVENT_TYPE="TEAMS">
  <EVENT_DESCRIPTION>Club teams</EVENT_DESCRIPTION>
  <DATE>2025-07-30</DATE>
  <PARTICIPANTS>
    <TEAM TEAM_ID="1" TEAM_NAME="Aces"><PLACE>1</PLACE><TOTAL_SCORE>7</TOTAL_SCORE>
      <PLAYER><PLAYER_NAME>Ann</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Bob</PLAYER_NAME></PLAYER>
    </TEAM>
    <TEAM TEAM_ID="2" TEAM_NAME="Kings"><PLACE>2</PLACE><TOTAL_SCORE>-7</TOTAL_SCORE>
      <PLAYER><PLAYER_NAME>Ed</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>Flo</PLAYER_NAME></PLAYER>
    </TEAM>
  </PARTICIPANTS>
  <MATCH>
    <ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>2</OPPOSING_TEAM>
    <BOARD><BOARD_NUMBER>1</BOARD_NUMBER><IMPS>7</IMPS>
      <TRAVELLER_LINE><DIRECTION>NS</DIRECTION><CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY>
        <TRICKS>10</TRICKS><SCORE>420</SCORE></TRAVELLER_LINE>
      <TRAVELLER_LINE><DIRECTION>EW</DIRECTION><CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY>
        <TRICKS>9</TRICKS><SCORE>140</SCORE></TRAVELLER_LINE>
    </BOARD>
  </MATCH>
</EVENT>
</USEBIO>
"""


def test_team_match_lines_are_the_rooms_of_the_match() -> None:
    records = read(TEAMS)
    assert codes(records) == []
    open_room, closed_room = boards(records)
    for board in (open_room, closed_room):
        assert board.tag("Scoring") == "IMP" and board.tag("Date") == "2025.07.30"
        assert (board.tag("HomeTeam"), board.tag("VisitTeam")) == ("Aces", "Kings")
        assert board.tag("Round") == "1" and board.number == 1
    # TEAM (Aces) sat NS at the first line, EW at the second; IMPS is for TEAM.
    assert (open_room.tag("Room"), open_room.tag("ScoreIMP")) == ("Open", "NS 7")
    assert (closed_room.tag("Room"), closed_room.tag("ScoreIMP")) == ("Closed", "NS -7")
    assert (open_room.tag("Score"), str(open_room.contract)) == ("NS 420", "4S")
    assert (closed_room.tag("Score"), str(closed_room.contract)) == ("NS 140", "2S")
    totals = table_rows(open_room, "TotalScoreTable")
    assert [(row["PairId"], row["TeamId"], row["TotalIMP"]) for row in totals] == [
        ("Aces", "1", "7"),
        ("Kings", "2", "-7"),
    ]
    text, lost = write([open_room, closed_room])
    assert lost == []
    assert '<TEAM TEAM_ID="1" TEAM_NAME="Aces">' in text
    assert "<TEAM>1</TEAM>" in text and "<OPPOSING_TEAM>2</OPPOSING_TEAM>" in text
    assert "<IMPS>7</IMPS>" in text and text.count("<TRAVELLER_LINE>") == 2
    again = boards(read(text.encode()))
    assert [b.tag("ScoreIMP") for b in again] == ["NS 7", "NS -7"]
    assert table_rows(again[0], "TotalScoreTable") == totals
    assert write(again)[0] == text


def test_team_score_check_confirms_the_stated_imps_and_finds_a_changed_one(tmp_path: Path) -> None:
    source = tmp_path / "teams.xml"
    source.write_bytes(TEAMS)
    run = pbntool_run("score", "--check", source)
    assert run.code == 0, run.text + run.err
    assert "8 values checked, 8 agree" in run.err
    changed = tmp_path / "changed.xml"
    changed.write_bytes(
        TEAMS.replace(b"<TOTAL_SCORE>7</TOTAL_SCORE>", b"<TOTAL_SCORE>8</TOTAL_SCORE>")
    )
    run = pbntool_run("score", "--check", changed)
    assert run.code == 1 and "EVT009" in run.text and "TotalIMP" in run.text
    changed.write_bytes(TEAMS.replace(b"<IMPS>7</IMPS>", b"<IMPS>6</IMPS>"))
    run = pbntool_run("score", "--check", changed)
    assert run.code == 1 and run.text.count("EVT002") == 2


# --- a real teams match through USEBIO ---------------------------------------------------------

DUTCH = CORPUS / "ContractBridge__pbn-files" / "1997-Dutch_Teams_Final" / "SEGM1.PBN"
RELAY = (
    Path(__file__).resolve().parent.parent / "fixtures" / "scoring" / "teams_without_room_tags.pbn"
)
needs_teams = pytest.mark.skipif(not DUTCH.is_file(), reason="corpus not present")


def _team_usebio(tmp_path: Path, source: Path, scale: str = "wbf") -> Path:
    """The teams PBN scored (ScoreIMP per room, the VP standings), then written as USEBIO."""
    scored = tmp_path / f"{source.stem}-scored.pbn"
    run = pbntool_run("score", "-m", "imp", "--vp", scale, "--format", "pbn", "-o", scored, source)
    assert run.code == 0, run.err
    target = tmp_path / f"{source.stem}.xml"
    run = pbntool_run("convert", scored, "--to", "usebio", "-o", target, "-q")
    assert run.code == 0, run.err
    return target


@needs_teams
def test_a_real_teams_match_written_as_usebio_checks_clean(tmp_path: Path) -> None:
    xml = _team_usebio(tmp_path, DUTCH)
    text = xml.read_text(encoding="utf-8")
    assert '<EVENT EVENT_TYPE="TEAMS">' in text and text.count("<MATCH>") == 1
    assert text.count("<TRAVELLER_LINE>") == 32 and text.count("<IMPS>") == 16
    assert "<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>" in text
    assert '<TEAM TEAM_ID="1" TEAM_NAME="Crash">' in text and "<TOTAL_SCORE>12.29" in text
    run = pbntool_run("score", "--check", xml)
    assert run.code == 0, run.text + run.err
    summary = next(line for line in run.err.splitlines() if "values checked" in line)
    checked = int(summary.split(": ")[1].split()[0])
    assert checked >= 16 + 32 + 2 and f"{checked} agree;" in summary, summary
    # The standings the file states are pbntool's own: IMPs per board, VPs per team.
    standings = pbntool_run("score", "--vp", "wbf", xml)
    assert "Crash" in standings.text and "12.29" in standings.text and "45-37" in standings.text


@needs_teams
def test_a_changed_team_total_or_board_imps_is_found(tmp_path: Path) -> None:
    xml = _team_usebio(tmp_path, DUTCH)
    text = xml.read_text(encoding="utf-8")
    changed = tmp_path / "changed.xml"
    changed.write_text(text.replace("<TOTAL_SCORE>7.71<", "<TOTAL_SCORE>7.17<"), encoding="utf-8")
    run = pbntool_run("score", "--check", changed)
    assert run.code == 1 and "EVT020" in run.text and '"7.17"' in run.text, run.text
    first_imps = text.index("<IMPS>")
    value = text[first_imps + 6 : text.index("<", first_imps + 6)]
    edited = text[:first_imps] + f"<IMPS>{int(value) + 3}" + text[first_imps + 6 + len(value) :]
    changed.write_text(edited, encoding="utf-8")
    run = pbntool_run("score", "--check", changed)
    assert run.code == 1 and run.text.count("EVT002") == 2, run.text


@needs_teams
def test_stated_match_scores_are_checked(tmp_path: Path) -> None:
    xml = _team_usebio(tmp_path, DUTCH)
    text = xml.read_text(encoding="utf-8")
    scores = (
        "<TEAM_SCORE>45</TEAM_SCORE><OPPOSING_TEAM_SCORE>37</OPPOSING_TEAM_SCORE>"
        "<TEAM_VICTORY_POINTS>12.29</TEAM_VICTORY_POINTS>"
        "<OPPOSING_TEAM_VICTORY_POINTS>7.71</OPPOSING_TEAM_VICTORY_POINTS>"
    )
    stated = text.replace(
        "<END_BOARD_NUMBER>16</END_BOARD_NUMBER>",
        "<END_BOARD_NUMBER>16</END_BOARD_NUMBER>" + scores,
    )
    path = tmp_path / "stated.xml"
    path.write_text(stated, encoding="utf-8")
    run = pbntool_run("score", "--check", path)
    assert run.code == 0, run.text + run.err
    records = list(iter_records(path.open("rb"), path.name))
    assert boards(records)[0].tag("UsebioMatchTeamVictoryPoints") == "12.29"
    path.write_text(
        stated.replace("<OPPOSING_TEAM_SCORE>37<", "<OPPOSING_TEAM_SCORE>38<"), encoding="utf-8"
    )
    run = pbntool_run("score", "--check", path)
    assert (
        run.code == 1
        and run.text.count("EVT020") == 1
        and "UsebioMatchOpposingTeamScore" in run.text
    )
    path.write_text(
        stated.replace("<TEAM_VICTORY_POINTS>12.29<", "<TEAM_VICTORY_POINTS>13.29<"),
        encoding="utf-8",
    )
    run = pbntool_run("score", "--check", path)
    assert run.code == 1 and "EVT020" in run.text and "UsebioMatchTeamVictoryPoints" in run.text
    # USEBIO -> PBN -> USEBIO keeps them.
    written, lost = write(boards(records))
    assert lost == []
    for element in ("TEAM_SCORE>45", "OPPOSING_TEAM_SCORE>37", "TEAM_VICTORY_POINTS>12.29"):
        assert f"<{element}<" in written
    assert written.count("<OPPOSING_TEAM_VICTORY_POINTS>7.71<") == 1


@needs_teams
def test_the_vp_scale_is_found_from_the_values(tmp_path: Path) -> None:
    xml = _team_usebio(tmp_path, DUTCH, "wbf-discrete")
    run = pbntool_run("score", "--check", "--format", "json", xml)
    assert run.code == 0, run.text + run.err
    assert "EVT017" in run.text and "WBF discrete" in run.text
    run = pbntool_run("score", "--check", "--vp", "wbf", xml)
    assert run.code == 1 and "EVT020" in run.text


@needs_teams
@pytest.mark.parametrize("source", [DUTCH, RELAY], ids=["dutch-final", "relay-no-rooms"])
def test_team_usebio_to_pbn_and_back_keeps_every_result(tmp_path: Path, source: Path) -> None:
    xml = _team_usebio(tmp_path, source)
    first = boards(list(iter_records(xml.open("rb"), xml.name)))
    text, lost = write(first)
    assert lost == []
    assert text == xml.read_text(encoding="utf-8")  # USEBIO -> PBN -> USEBIO
    again = boards(read(text.encode()))
    assert [as_pbn(board) for board in again] == [as_pbn(board) for board in first]
    with source.open("rb") as stream:
        played = [r.board for r in pbn_records(stream, source.name) if r.board]

    def results(games: list[Board]) -> list[tuple[object, ...]]:
        # The matches of a file come one after the other in USEBIO: compared in any order.
        return sorted(
            (
                b.number or 0,
                str(b.deal),
                " v ".join(sorted((b.tag("HomeTeam") or "", b.tag("VisitTeam") or ""))),
                str(b.contract),
                str(b.result),
            )
            for b in games
        )

    assert results(first) == results(played)
    check = pbntool_run("score", "--check", xml)
    assert check.code == 0, check.text + check.err


def test_individual_participants_are_players() -> None:
    data = (
        b'<USEBIO Version="1.2"><EVENT EVENT_TYPE="INDIVIDUAL"><PARTICIPANTS>'
        b"<PLAYER><PLAYER_NUMBER>7</PLAYER_NUMBER><PLAYER_NAME>Ann Able</PLAYER_NAME>"
        b"<TOTAL_SCORE>10</TOTAL_SCORE><PERCENTAGE>55.5</PERCENTAGE><PLACE>1</PLACE></PLAYER>"
        b"</PARTICIPANTS><BOARD><BOARD_NUMBER>3</BOARD_NUMBER><TRAVELLER_LINE>"
        b"<NS_PAIR_NUMBER>7</NS_PAIR_NUMBER><EW_PAIR_NUMBER>8</EW_PAIR_NUMBER>"
        b"<CONTRACT>3NT</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>9</TRICKS><SCORE>600</SCORE>"
        b"</TRAVELLER_LINE></BOARD></EVENT></USEBIO>"
    )
    (board,) = boards(read(data))
    assert board.tag("Scoring") == "MP" and board.tag("Vulnerable") == "EW"
    (player,) = table_rows(board, "TotalScoreTable")
    assert player["PairId"] == "7" and player["Names"] == '"Ann Able"'
    text, _lost = write([board])
    assert (
        "<PLAYER_NUMBER>7</PLAYER_NUMBER>" in text and "<PLAYER_NAME>Ann Able</PLAYER_NAME>" in text
    )
    assert table_rows(boards(read(text.encode()))[0], "TotalScoreTable") == [player]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.integers(0, len(SMALL) - 1), st.integers(0, 255)), max_size=12),
    st.integers(0, len(SMALL)),
)
def test_mutated_documents_never_raise(changes: list[tuple[int, int]], cut: int) -> None:
    data = bytearray(SMALL)
    for offset, value in changes:
        data[offset] = value
    for record in read(bytes(data[:cut])):
        for diagnostic in record.diagnostics:
            assert diagnostic.line is not None and diagnostic.line >= 1, diagnostic
            assert diagnostic.column is not None and diagnostic.column >= 1, diagnostic


def test_team_values_that_do_not_read_are_findings() -> None:
    data = TEAMS.replace(b"<IMPS>7</IMPS>", b"<IMPS>seven</IMPS>").replace(
        b"<DIRECTION>EW</DIRECTION>", b"<DIRECTION>XX</DIRECTION>"
    )
    records = read(data)
    assert codes(records) == ["USB003", "USB003"]
    open_room, other = boards(records)
    assert open_room.tag("ScoreIMP") is None and open_room.tag("UsebioMatchBoardImps") == "seven"
    assert other.tag("Room") is None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.integers(0, len(TEAMS) - 1), st.integers(0, 255)), max_size=12),
    st.integers(0, len(TEAMS)),
)
def test_mutated_team_documents_never_raise(changes: list[tuple[int, int]], cut: int) -> None:
    data = bytearray(TEAMS)
    for offset, value in changes:
        data[offset] = value
    for record in read(bytes(data[:cut])):
        for diagnostic in record.diagnostics:
            assert diagnostic.line is not None and diagnostic.line >= 1, diagnostic
        if record.board is not None:
            text, _ = write([record.board])
            read(text.encode("utf-8"))


def test_a_pairs_event_naming_teams_stays_a_pairs_event() -> None:
    pbn = (
        '[Event "Club night"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:KQ986.2.T542.K93 AT3.AKQ65.QJ9.T2 J42.T4.K763.QJ87 75.J9873.A8.A654"]\n'
        '[Scoring "MP"]\n[HomeTeam "Aces"]\n[VisitTeam "Kings"]\n[Declarer "E"]\n'
        '[Contract "4H"]\n[Result "10"]\n'
        '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;MP_NS;MP_EW"]\n'
        "1 2 4H E 10 -420 0 2\n3 4 4H E 11 -450 2 0\n\n"
    )
    (board,) = [r.board for r in pbn_records(io.BytesIO(pbn.encode()), "x.pbn") if r.board]
    text, _ = write([board])
    assert "<MATCH>" not in text and text.count("<TRAVELLER_LINE>") == 2
