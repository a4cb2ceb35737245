"""Hostile and broken input (issue 12): never a silent loss, never wrong output, no injection.

Each test starts from a case that went wrong before: the input, what was lost or forged, and
what is read now.  CLI cases run the real command in a subprocess.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbntool.formats.pbn import parse
from pbntool.formats.pbn.reader import split_games
from tests.test_cli import game, pbntool_run, write

# --- 1. a "{" comment closed by "]" --------------------------------------------------------

PAR_CLOSED_BY_BRACKET = (
    game(1, "N", "None", "Pass Pass Pass Pass", declarer="", contract="Pass", result="").rstrip(
        "\n"
    )
    + "\n{par 7NT N]\n\n"
    + game(2, "E", "NS", "Pass Pass Pass Pass", declarer="", contract="Pass", result="").rstrip(
        "\n"
    )
    + "\n{par 4H S}\n"
)


def test_runaway_comment_does_not_swallow_the_next_game(tmp_path: Path) -> None:
    path = write(tmp_path / "par.pbn", PAR_CLOSED_BY_BRACKET)
    run = pbntool_run("validate", "--format", "json", path)
    findings = [json.loads(line) for line in run.lines]
    assert [(f["line"], f["code"]) for f in findings] == [(18, "PBN138")]
    assert "line 20" in findings[0]["message"]
    assert "2 boards" in run.err
    boards = [board.number for board in parse(PAR_CLOSED_BY_BRACKET).boards]
    assert boards == [1, 2]


def test_runaway_comment_keeps_its_text_and_the_next_games_tags() -> None:
    board_1, board_2 = parse(PAR_CLOSED_BY_BRACKET).boards
    assert board_1.tag("Board") == "1" and board_2.tag("Board") == "2"
    assert board_2.tag("Dealer") == "E"
    assert board_1.auction is not None and board_2.auction is not None
    (_, annotation), *_ = board_1.auction.annotations
    assert [c.text for c in annotation.comments] == ["par 7NT N]"]


def test_comment_spanning_blank_lines_is_still_one_comment() -> None:
    text = '[Event "e"]\n{first paragraph\n\nsecond paragraph}\n[Board "1"]\n'
    blocks = list(split_games([text]))
    assert len(blocks) == 1 and blocks[0].runaway_comments == ()


def test_runaway_comment_without_blank_line_before_the_game() -> None:
    text = '[Event "e"]\n[Board "1"]\n{par 7NT N]\n[Event "f"]\n[Board "2"]\n{ok}\n'
    (block,) = split_games([text])
    assert block.runaway_comments == ((24, 35, 1),)


def test_runaway_comment_across_chunks() -> None:
    chunks = ['[Event "e"]\n{par 7NT N]\n', "\n", '[Board "2"]\n{ok}\n']
    blocks = list(split_games(chunks))
    assert [block.text for block in blocks] == ['[Event "e"]\n{par 7NT N]', '[Board "2"]\n{ok}']


# --- 6. [Play ""] ------------------------------------------------------------------------

EMPTY_PLAY = (
    game(1, "N", "None", "Pass Pass Pass Pass", declarer="", contract="Pass", result="")
    + game(2, "E", "NS", "1S Pass Pass Pass", declarer="E", contract="1S", result="7")
).replace("[Auction", '[Play ""]\n[Auction', 1)


def test_empty_play_tag_is_a_warning_not_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "empty-play.pbn", EMPTY_PLAY)
    run = pbntool_run("validate", "--format", "json", path)
    codes = [json.loads(line)["code"] for line in run.lines]
    assert codes == ["PBN139"] and run.code == 0


def test_stats_counts_only_boards_with_a_card_as_played(tmp_path: Path) -> None:
    no_card = EMPTY_PLAY.replace('[Play ""]', '[Play "E"]\n*')
    path = write(tmp_path / "no-card.pbn", no_card)
    run = pbntool_run("stats", "--format", "json", path)
    assert json.loads(run.text)["boards_with_play"] == 0


# --- 9. control characters in text output ----------------------------------------------------

FORGED_NAME = "a\nx.pbn:1:1: error AUC001 forged\x1b[2J.pbn"


def _forged_file(tmp_path: Path) -> Path:
    return write(tmp_path / FORGED_NAME, PAR_CLOSED_BY_BRACKET)


def test_a_file_name_with_a_line_break_forges_no_finding_line(tmp_path: Path) -> None:
    _forged_file(tmp_path)
    run = pbntool_run("validate", tmp_path)
    assert len(run.lines) == 1 and "PBN138" in run.lines[0]
    assert "a\\nx.pbn" in run.lines[0] and "\\x1b[2J" in run.lines[0]
    assert "AUC001" not in run.err


def test_show_score_and_dd_lines_escape_control_characters(tmp_path: Path) -> None:
    _forged_file(tmp_path)
    for command in ("show", "score"):
        run = pbntool_run(command, tmp_path)
        assert "\x1b" not in run.text
        assert not any(line.startswith("x.pbn") for line in run.lines), command
        assert "a\\nx.pbn" in run.text, command


def test_show_escapes_control_characters_in_tag_values(tmp_path: Path) -> None:
    text = PAR_CLOSED_BY_BRACKET.replace('[Event "CLI tests"]', '[Event "x\\u2028y\x07"]', 1)
    run = pbntool_run("show", write(tmp_path / "bell.pbn", text))
    assert "\x07" not in run.text and "\\x07" in run.text


# --- 2. "P" and a "*" glued to a call, as bidding programs write them --------------------------

BIDDING_PROGRAM = game(
    1, "N", "None", "1S P 3S P\n4NT* P 5H P\n6S P P P", declarer="N", contract="6S", result="12"
)


def test_p_is_pass_and_a_glued_star_is_an_alert(tmp_path: Path) -> None:
    path = write(tmp_path / "bba.pbn", BIDDING_PROGRAM)
    run = pbntool_run("validate", "--format", "json", path)
    findings = [json.loads(line) for line in run.lines]
    assert {f["code"] for f in findings} == {"PBN140"} and run.code == 0
    assert sum("alert" in f["message"] for f in findings) == 1
    lin = pbntool_run("convert", "--to", "lin", path).text
    assert "mb|4N!|mb|p|mb|5H|mb|p|mb|6S|mb|p|mb|p|mb|p|" in lin


def test_p_makes_the_auction_give_the_contract() -> None:
    (board,) = parse(BIDDING_PROGRAM.replace('[Contract "6S"]', '[Contract ""]')).boards
    assert board.auction is not None and len(board.auction.calls) == 12
    assert board.auction.annotations[0][1].nags == (15,)


# --- 10. digits other than ASCII -----------------------------------------------------------------


def test_non_ascii_digits_are_refused_in_every_numeric_tag(tmp_path: Path) -> None:
    text = (
        game(1, "N", "None", "1S Pass Pass Pass", declarer="N", contract="1S", result="\uff17")
        .replace('[Board "1"]', '[Board "\u0661"]')
        .replace("[Auction", '[Score "\uff18\uff10"]\n[Auction')
    )
    run = pbntool_run("validate", "--format", "json", write(tmp_path / "digits.pbn", text))
    codes = sorted(json.loads(line)["code"] for line in run.lines)
    assert {"PBN105", "PBN109", "PBN110"} <= set(codes)


def test_validate_checks_the_score_against_a_complete_play_without_result(
    tmp_path: Path,
) -> None:
    """No Result tag but all 13 tricks played: the score follows from the play, as ``score``
    and ``fix`` already derived it; a wrong Score is SCO001 in validate too."""
    import re

    from pbntool.dev.generate import random_boards
    from pbntool.formats.pbn.writer import dumps

    for seed in range(40):
        board = next(iter(random_boards(seed, 1)))
        if board.play is not None and board.result is not None and board.score is not None:
            break
    text = dumps([board])
    text = re.sub(r'\[Result "[^"]*"\]\r?\n', "", text)
    text = re.sub(r'\[Score "([^"]*?)(-?\d+)"\]', lambda m: f'[Score "{m.group(1)}12345"]', text)
    path = write(tmp_path / "a.pbn", text)
    run = pbntool_run("validate", path)
    assert run.code == 1, run.text + run.err
    assert "SCO001" in run.text
