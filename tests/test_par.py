"""Par from a double-dummy table, with no solver: the score of DDS's ``DealerPar`` for every
deal of DDS's own lists (their TABLE and PAR2 lines), and ``score --check`` comparing a stated
``OptimumScore`` with the par of the board's own ``OptimumResultTable``."""

from __future__ import annotations

import io

import pytest
from test_dd import FULL_FILES, SAMPLE_FILES, DdsCase, dds_cases

from pbntool.formats import pbn
from pbntool.model import Seat, Strain, Vulnerability
from pbntool.scoring.par import par_score
from pbntool.tools.score.check import check_event
from pbntool.tools.score.games import stated_double_dummy

_DDS_STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)


def _tricks(case: DdsCase) -> dict[tuple[Seat, Strain], int]:
    """A TABLE line: strains S, H, D, C, NT, and for each the declarers N, E, S, W."""
    cells = iter(case.table)
    return {(seat, strain): next(cells) for strain in _DDS_STRAINS for seat in Seat}


@pytest.mark.corpus
def test_par_of_every_dds_table_is_dealer_par() -> None:
    cases = [case for name in (*SAMPLE_FILES, *FULL_FILES) for case in dds_cases(name)]
    wrong = [
        (case.file, case.index, case.par2)
        for case in cases
        if par_score(_tricks(case), case.vulnerability, case.dealer) != int(case.par2[0])
    ]
    assert wrong == []
    assert len(cases) > 1400


def test_the_dealers_side_bids_first_when_both_sides_make_the_same_contract() -> None:
    table = {(seat, strain): 7 for seat in Seat for strain in Strain}  # anyone makes 1 of anything
    assert par_score(table, Vulnerability.NONE, Seat.NORTH) == 90  # NS 1NT first
    assert par_score(table, Vulnerability.NONE, Seat.WEST) == -90


def test_a_sacrifice_is_doubled_and_cheaper_than_the_game() -> None:
    table = {(seat, strain): 3 for seat in Seat for strain in Strain}
    for seat in (Seat.NORTH, Seat.SOUTH):
        table[seat, Strain.HEARTS] = 10  # NS make 4H: 620 vulnerable
    for seat in (Seat.EAST, Seat.WEST):
        table[seat, Strain.SPADES] = 8  # EW go two down in 4S: 300 doubled not vulnerable
    assert par_score(table, Vulnerability.NS, Seat.NORTH) == 300
    assert par_score(table, Vulnerability.ALL, Seat.NORTH) == 500  # now the save costs 500
    assert par_score(table, Vulnerability.EW, Seat.NORTH) == 420  # 4H non-vul beats -500


GAME = """[Event "Par"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.AKQ2.A2.A32 JT9.JT9.JT98.JT9 8765.8765.76.876 43.43.KQ543.KQ54"]
[OptimumScore "{score}"]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
{rows}
"""


def _game(score: str, tricks: int) -> str:
    rows = "\n".join(
        f"{seat} {strain:>2} {tricks if seat in 'NS' else 13 - tricks:>2}"
        for seat in "NSEW"
        for strain in ("NT", "S", "H", "D", "C")
    )
    return GAME.format(score=score, rows=rows)


def test_score_check_compares_optimum_score_with_the_tables_par() -> None:
    """NS take 10 tricks in everything: par is 3NT making, 430."""
    right = pbn.parse(_game("NS 430", 10)).boards[0]
    assert stated_double_dummy(right) is not None
    records = list(pbn.iter_records(io.BytesIO(_game("NS 430", 10).encode()), "right.pbn"))
    assert [d.code for d in check_event(records).diagnostics if d.code == "EVT014"] == []
    records = list(pbn.iter_records(io.BytesIO(_game("NS 420", 10).encode()), "wrong.pbn"))
    found = [d for d in check_event(records).diagnostics if d.code == "EVT014"]
    assert len(found) == 1 and found[0].line == 6
    assert "is not the par of the board's OptimumResultTable: par is NS 430" in found[0].message
