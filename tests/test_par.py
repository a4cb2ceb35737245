"""Par from a double-dummy table, with no solver: the score and the contracts of DDS's
``DealerPar`` for every deal of DDS's own lists (their TABLE and PAR2 lines) and of endplay's
``par`` on solved random deals, and ``score --check`` comparing a stated ``OptimumScore`` and
``ParContract`` with the par of the board's own ``OptimumResultTable``/``DoubleDummyTricks``."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from test_dd import FULL_FILES, SAMPLE_FILES, DdsCase, dds_cases

from pbntool.dev.generate import random_boards
from pbntool.formats import pbn
from pbntool.formats.pbn.writer import format_deal
from pbntool.model import Seat, Side, Strain, Vulnerability
from pbntool.records import Record
from pbntool.scoring.par import outbid, par, par_score
from pbntool.tools.dd.solver import _parse_dealer_contract
from pbntool.tools.dd.tags import par_contract, read_double_dummy_tricks, read_par_contract
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


# --- par contracts ------------------------------------------------------------------------------


@pytest.mark.corpus
def test_par_contracts_of_every_dds_table_are_dealer_pars_in_its_order() -> None:
    """The contracts of DDS's ``DealerPar`` (the PAR2 lines: ``4S*-EW-1``, ``3C-NS+1``), in
    the order DDS lists them, for all 1,434 deals of DDS's own lists."""
    cases = [case for name in (*SAMPLE_FILES, *FULL_FILES) for case in dds_cases(name)]
    wrong = []
    for case in cases:
        result = par(_tricks(case), case.vulnerability, case.dealer)
        listed = [contract for text in case.par2[1:] if (contract := _parse_dealer_contract(text))]
        if result.score_ns != int(case.par2[0]) or list(result.contracts) != listed:
            wrong.append((case.file, case.index, case.par2, [str(c) for c in result.contracts]))
    assert wrong == []
    several = sum(1 for case in cases if len(case.par2) > 2)
    assert len(cases) > 1400 and several > 100


def _table(**cells: int) -> dict[tuple[Seat, Strain], int]:
    """Every seat takes ``default`` tricks in every strain, but ``N_S=10`` style cells."""
    default = cells.pop("default", 6)
    table = {(seat, strain): default for seat in Seat for strain in Strain}
    for name, tricks in cells.items():
        seats, strain = name.split("_")
        for letter in seats:
            table[Seat.from_letter(letter), Strain.from_text(strain)] = tricks
    return table


def test_a_made_par_is_written_at_the_level_the_opponents_cannot_beat() -> None:
    # NS make 9 tricks in spades, EW 7 in hearts: over 1S+2 EW's 2HX-1 costs only 100.
    table = _table(default=5, NS_S=9, EW_H=7)
    result = par(table, Vulnerability.NONE, Seat.NORTH)
    assert (result.score_ns, [str(c) for c in result.contracts]) == (140, ["2S+1 by NS"])
    assert par_contract(result) == "NS 2S+1"


def test_only_the_declarer_who_takes_the_tricks_is_named() -> None:
    table = _table(default=3, NS_H=9)
    table[Seat.SOUTH, Strain.HEARTS] = 8
    result = par(table, Vulnerability.NONE, Seat.NORTH)
    assert [str(c) for c in result.contracts] == ["1H+2 by N"]  # nobody competes: the lowest
    assert par_contract(result) == "N 1H+2"  # as BridgeComposer writes it


def test_equal_sacrifices_are_all_listed_cheapest_strain_first() -> None:
    table = _table(default=2, NS_S=10, EW_C=8, EW_D=8)
    result = par(table, Vulnerability.NS, Seat.NORTH)  # 4S vul 620; 5CX-3 / 5DX-3 not vul 500
    assert result.score_ns == 500
    assert par_contract(result) == "EW 5CX-3; EW 5DX-3"


def test_a_passed_out_par() -> None:
    result = par(_table(default=6), Vulnerability.ALL, Seat.EAST)
    assert result.passed_out and result.score_ns == 0 and par_contract(result) == "NS Pass"


def test_outbid_says_when_the_opponents_do_better_above() -> None:
    table = _table(default=5, NS_S=9, EW_H=7)
    assert outbid(table, Vulnerability.NONE, Side.NS, 1, Strain.SPADES, 140)
    assert not outbid(table, Vulnerability.NONE, Side.NS, 2, Strain.SPADES, 140)


# --- against endplay (DDS's DealerParBin) ---------------------------------------------------------

PAR_TABLES = Path(__file__).resolve().parent.parent / "fixtures" / "scoring" / "par_tables.txt"
"""2,000 double-dummy tables (DoubleDummyTricks order) of ``random_boards(15, 2000)``'s deals,
solved by endplay's ``calc_all_tables``; ``solve_tables`` below wrote them."""

_HEX_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_HEX_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


def solve_tables(seed: int, count: int) -> list[str]:
    """The tables of ``random_boards(seed, count)``'s deals, solved by endplay, as
    DoubleDummyTricks values (``python -c "from test_par import solve_tables ..."``)."""
    endplay_dds = pytest.importorskip("endplay.dds")
    from endplay.types import Deal, Denom, Player

    boards = list(random_boards(seed, count, play=False))
    players = {Seat.NORTH: Player.north, Seat.EAST: Player.east}
    players |= {Seat.SOUTH: Player.south, Seat.WEST: Player.west}
    denoms = {Strain.NOTRUMP: Denom.nt, Strain.SPADES: Denom.spades, Strain.HEARTS: Denom.hearts}
    denoms |= {Strain.DIAMONDS: Denom.diamonds, Strain.CLUBS: Denom.clubs}
    values = []
    for start in range(0, count, 40):  # DDS takes 40 tables a call
        deals = [Deal(format_deal(b.deal, Seat.NORTH)) for b in boards[start : start + 40]]
        for solved in endplay_dds.calc_all_tables(deals):
            values.append(
                "".join(
                    f"{solved[players[seat], denoms[strain]]:x}"
                    for seat in _HEX_SEATS
                    for strain in _HEX_STRAINS
                )
            )
    return values


def _endplay_par(
    cells: dict[tuple[Seat, Strain], int], vulnerability: Vulnerability, dealer: Seat
) -> tuple[int, list[tuple[int, Strain, int, str, int]]]:
    """endplay's ``par`` (DDS's ``DealerParBin``) of a table, each contract once per seat."""
    endplay_dds = pytest.importorskip("endplay.dds")
    import endplay._dds as raw
    from endplay.dds.ddtable import DDTable
    from endplay.types import Player, Vul

    data = raw.ddTableResults()
    dds_strains = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)
    for index, strain in enumerate(dds_strains):
        for seat in Seat:
            data.resTable[index][int(seat)] = cells[seat, strain]
    vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns}
    vul |= {Vulnerability.EW: Vul.ew, Vulnerability.ALL: Vul.both}
    found = endplay_dds.par(DDTable(data), vul[vulnerability], Player(int(dealer)))
    strains = {index: strain for index, strain in enumerate(dds_strains)}
    contracts = [
        (
            c.level,
            strains[int(c.denom)],
            ("", "x", "xx").index(c.penalty.abbr),
            "NESW"[int(c.declarer)],
            c.result,
        )
        for c in found
    ]
    return found.score, sorted(contracts, key=str)


def _ours(
    cells: dict[tuple[Seat, Strain], int], vulnerability: Vulnerability, dealer: Seat
) -> tuple[int, list[tuple[int, Strain, int, str, int]]]:
    result = par(cells, vulnerability, dealer)
    contracts = [
        (c.level, c.strain, int(c.doubling), seat, c.margin)
        for c in result.contracts
        for seat in c.declarers
    ]
    return result.score_ns, sorted(contracts, key=str)


def _compare_with_endplay(values: list[str]) -> int:
    compared = 0
    for value in values:
        cells = read_double_dummy_tricks(value)
        for vulnerability in Vulnerability:
            for dealer in Seat:
                ours = _ours(cells, vulnerability, dealer)
                assert ours == _endplay_par(cells, vulnerability, dealer), (value, dealer)
                compared += 1
    return compared


def test_par_is_endplays_on_five_hundred_solved_deals() -> None:
    """Score and contracts (as a set of seats: DealerParBin's order is not DealerPar's) for
    every vulnerability and dealer: 8,000 pars."""
    values = PAR_TABLES.read_text(encoding="ascii").split()
    assert len(values) == 2000
    assert _compare_with_endplay(values[:500]) == 8000


@pytest.mark.slow
def test_par_is_endplays_on_every_stored_and_freshly_solved_deal() -> None:
    """The other 1,500 stored tables, and 50 deals no stored table holds, solved now by
    endplay (about 15 s; 200 took a minute of the suite's time)."""
    values = PAR_TABLES.read_text(encoding="ascii").split()
    assert _compare_with_endplay(values[500:]) == 24000
    assert _compare_with_endplay(solve_tables(16, 50)) == 800
    assert solve_tables(15, 10) == values[:10]


# --- score --check: ParContract ----------------------------------------------------------------


def _par_game(par_contract_value: str, tricks: int = 10) -> list[Record]:
    text = _game("NS 430", tricks) + f'[ParContract "{par_contract_value}"]\n'
    return list(pbn.iter_records(io.BytesIO(text.encode()), "par.pbn"))


@pytest.mark.parametrize("stated", ["NS 3N+1", "NS 3NT", "N 3N+1", "NS 3N+1; NS 4N="])
def test_score_check_accepts_a_par_contract_of_the_table(stated: str) -> None:
    check = check_event(_par_game(stated))
    assert [d.code for d in check.diagnostics if d.code in ("EVT019", "EVT021")] == []
    assert check.summaries[0].disagreements == Counter()


@pytest.mark.parametrize(
    ("stated", "why"),
    [
        ("NS 4S=", "it scores NS 420"),
        ("NS 3N=", "the table gives +1, not ="),
        ("EW 3NX-6", "it scores NS 1400"),
        ("NS Pass", "the board is not passed out"),
    ],
)
def test_score_check_reports_a_par_contract_the_table_does_not_make_par(
    stated: str, why: str
) -> None:
    found = [d for d in check_event(_par_game(stated)).diagnostics if d.code == "EVT021"]
    assert len(found) == 1 and found[0].line == 28 and found[0].board == 1
    assert found[0].message == (
        f'ParContract "{stated.split(";")[0]}" is not par by the board\'s OptimumResultTable: '
        f"{why}; par is NS 430 (3NT+1 by NS)"
    )


def test_score_check_reports_a_par_contract_the_opponents_outbid() -> None:
    """1S+2 scores par (140) but East-West's 2HX-1 costs them only 100: par is 2S+1."""
    table = _table(default=5, NS_S=9, EW_H=7)
    value = "".join(f"{table[seat, strain]:x}" for seat in _HEX_SEATS for strain in _HEX_STRAINS)
    text = GAME.split("[OptimumScore")[0] + f'[DoubleDummyTricks "{value}"]\n'
    text += '[ParContract "NS 1S+2"]\n'
    found = check_event(list(pbn.iter_records(io.BytesIO(text.encode()), "p.pbn"))).diagnostics
    assert [d.message for d in found if d.code == "EVT021"] == [
        'ParContract "NS 1S+2" is not par by the board\'s DoubleDummyTricks: the opponents can '
        "outbid 1S profitably; par is NS 140 (2S+1 by NS)"
    ]


def test_score_check_notes_a_par_contract_it_cannot_read() -> None:
    found = check_event(_par_game("NS 4Q")).diagnostics
    assert [d.code for d in found if d.code in ("EVT019", "EVT021")] == ["EVT019"]


CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
HAND_RECORD = (
    CORPUS
    / "club/bridge-craftwork__Bridge-Parsers/tests/fixtures/input"
    / "1768880456-bJwUQdVmhY@260119HandRecord.pbn"
)
"""The corpus file that carries ParContract (BridgeComposer, 36 boards, DoubleDummyTricks)."""


@pytest.mark.corpus
def test_par_contracts_of_the_corpus_are_the_tables_pars() -> None:
    if not HAND_RECORD.exists():
        pytest.skip("corpus absent")
    records = list(pbn.iter_records(io.BytesIO(HAND_RECORD.read_bytes()), str(HAND_RECORD)))
    check = check_event(records)
    assert [d for d in check.diagnostics if d.code in ("EVT014", "EVT019", "EVT021")] == []
    assert check.summaries[0].checked == 73  # 36 OptimumScore, 37 par contracts
    same = 0
    for record in records:
        board = record.board
        assert board is not None and board.vulnerability is not None
        assert board.dealer is not None
        stated = stated_double_dummy(board)
        assert stated is not None
        ours = par_contract(par(stated[1], board.vulnerability, board.dealer))
        value = board.tag("ParContract")
        assert value is not None
        assert _items(ours) == _items(value), board.number
        same += ours == value
    assert same == 35  # board 9: BridgeComposer writes "EW 5C=; EW 5D=", DDS 5D first


def _items(value: str) -> list[tuple[str, int, str, int, int | None]]:
    return sorted(
        (c.declarers, c.level, c.strain.letter if c.strain else "", c.doubling, c.margin)
        for c in read_par_contract(value)
    )
