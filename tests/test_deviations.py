"""The 24 real-world deviations of pbn-standard.md §20: each is read without an error.

Where the deviation breaks a rule of the import format, a warning names it.  Some entries of
§20 are legal import format that only export format forbids (aliases such as ``Both``, tabs,
a Deal starting with another seat): those are silent unless the file declares ``% EXPORT``,
where EXP001 reports them.
"""

from __future__ import annotations

import pytest

from pbntool.diagnostics import Severity
from pbntool.formats import pbn
from pbntool.model import Seat, Strain, Vulnerability

DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
HEADER = (
    '[Event "Club"]\n[Site "Here"]\n[Date "2024.01.01"]\n[Board "1"]\n[West "w"]\n'
    '[North "n"]\n[East "e"]\n[South "s"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    f'[Deal "{DEAL}"]\n[Scoring "MP"]\n'
)
RESULT = '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n'
AUCTION = '[Auction "N"]\n1NT Pass 3NT Pass\nPass Pass\n'

CASES: dict[str, tuple[str, set[str]]] = {
    "01 deal starts with another seat": (
        HEADER.replace(
            DEAL, "E:T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ"
        )
        + RESULT,
        set(),
    ),
    "02 plus sign in Score": (HEADER + RESULT + '[Score "+400"]\n', {"PBN111"}),
    "02 plus sign in side Score": (HEADER + RESULT + '[Score "NS +400"]\n', {"PBN111"}),
    "03 vulnerable aliases": (HEADER.replace('"None"', '"Love"') + RESULT, set()),
    "04 PBN 0.8 deal hash": (
        HEADER + RESULT + "\n" + HEADER.replace(DEAL, "#") + RESULT,
        {"PBN132"},
    ),
    "05 tabs between calls and a trailing tab": (
        HEADER + RESULT + '[Auction "N"]\n1NT\tPass\t3NT\tPass\t\nPass\tPass\t\n',
        set(),
    ),
    "06 1N calls and contract": (
        HEADER + '[Declarer "N"]\n[Contract "3N"]\n[Result "9"]\n[Auction "N"]\n1N Pass 3N AP\n',
        {"PBN107"},
    ),
    "07 escape lines between tags": (HEADER + "% 8f3a9c\n" + RESULT, set()),
    "08 two blank lines between games and after the header": (
        "% PBN 2.1\n\n" + HEADER + RESULT + "\n\n\n" + HEADER.replace('"1"]', '"2"]', 1) + RESULT,
        {"BRD001", "BRD002"},
    ),
    "09 play with only a star": (
        HEADER
        + '[Declarer ""]\n[Contract "Pass"]\n[Result ""]\n[Auction "N"]\nAP\n[Play "E"]\n*\n',
        {"PBN131"},
    ),
    "10 free text in the auction": (
        HEADER + RESULT + '[Auction "N"]\n1NT Pass 3NT? relay/to etc.\n',
        {"PBN115"},
    ),
    "11 utf-8 in a latin-1 file": (
        "%Content-type: text/x-pbn; charset=ISO-8859-1\n"
        + HEADER
        + RESULT
        + AUCTION
        + '[Note "1:3+ ♠"]\n',
        {"PBN122"},
    ),
    "12 board label": (HEADER.replace('[Board "1"]', '[Board "4-1"]') + RESULT, {"PBN105"}),
    "13 date with time": (HEADER.replace("2024.01.01", "2021-04-03 05:06") + RESULT, {"PBN112"}),
    "14 tags carried over without #": (
        HEADER + RESULT + "\n" + '[West "x"]\n[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n',
        {"BRD003"},
    ),
    "15 tags after the play in an export file": (
        "% PBN 2.1\n% EXPORT\n" + HEADER + RESULT + AUCTION + '[Play "E"]\nST\n*\n[Room "Open"]\n',
        {"EXP001"},
    ),
    "16 vendor double-dummy tags": (
        HEADER
        + RESULT
        + '[OptimumScore "NS +400"]\n[ParContract "NS 3NT"]\n'
        + '[DoubleDummyTricks "0d0d00d0d000d0d00d0d"]\n[BCFlags "1f"]\n',
        {"PBN111"},
    ),
    "17 note text after a space and BBO suit marks": (
        HEADER + RESULT + '[Auction "N"]\n1NT =1= Pass 3NT Pass\nPass Pass\n[Note "1: 15-17 !S"]\n',
        set(),
    ),
    "18 ruter-style score table": (
        HEADER
        + RESULT
        + '[ScoreTable "Table\\2R;Round;Lead\\3L;PairId_NS;Score_NS;Names_NS"]\n'
        + ' 1 1 SA  3 "670" "Bye"\n',
        set(),
    ),
    "19 big deal hash escape line": (HEADER + "%%!R 0d0d00d0d000d0d00d0d\n" + RESULT, set()),
    "20 statistics from the dealer program": (
        HEADER + RESULT + "\nGenerated 1 hands\nProduced 1 hands\nTime needed 0.001 sec\n",
        {"PBN004"},
    ),
    "21 unknown declarer contract result": (
        HEADER + '[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n',
        set(),
    ),
    "22 declarer on a passed-out board and notes after the play": (
        HEADER
        + '[Declarer "N"]\n[Contract "Pass"]\n[Result ""]\n[Auction "N"]\nPass =1= AP\n'
        + '[Play "E"]\n*\n[Note "1:weak"]\n',
        {"CON006", "PBN129", "PBN131"},
    ),
    "23 suit letters in hands": (
        HEADER.replace(
            DEAL, "N:SAKQJ.HAKQ.DAKQ.CAKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
        )
        + RESULT,
        {"PBN102"},
    ),
    "24 table encoded in a tag value": (
        HEADER + RESULT + '[OptimumResultTable "Declarer;Denomination;Result\\nN NT 9"]\n',
        {"PBN130"},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_real_world_deviation_is_read_without_error(name: str) -> None:
    text, expected = CASES[name]
    result = pbn.parse(text, "deviation.pbn", validate=True)
    assert result.boards, "the games must come out as boards"
    errors = [str(d) for d in result.diagnostics if d.severity >= Severity.ERROR]
    assert errors == []
    found = {d.code for d in result.diagnostics}
    assert found == expected


def test_aliases_and_rotations_still_give_the_right_values() -> None:
    rotated = CASES["01 deal starts with another seat"][0]
    board = pbn.parse(rotated).boards[0]
    assert board.deal is not None
    north = board.deal.hands[Seat.NORTH]
    assert north is not None and str(north) == "AKQJ.AKQ.AKQ.AKQ"
    love = pbn.parse(CASES["03 vulnerable aliases"][0]).boards[0]
    assert love.vulnerability is Vulnerability.NONE
    three_n = pbn.parse(CASES["06 1N calls and contract"][0]).boards[0]
    assert three_n.contract is not None and three_n.contract.strain is Strain.NOTRUMP
