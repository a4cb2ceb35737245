import itertools
import json
import re
from pathlib import Path

import pytest
from conftest import run_doctests
from hypothesis import given
from hypothesis import strategies as st

from pbntool import scoring
from pbntool.model import PASSED_OUT, Contract, Doubling, Seat, Strain, Vulnerability
from pbntool.scoring import board_dealer, board_vulnerability, duplicate_score, imps, score_ns

FIXTURE = Path(__file__).parent.parent / "fixtures" / "scoring" / "duplicate.json"
ROWS = json.loads(FIXTURE.read_text(encoding="utf-8"))


def parse_contract(text: str) -> Contract:
    if text == "Pass":
        return PASSED_OUT
    match = re.fullmatch(r"([1-7])(NT|[CDHS])(X{0,2})", text)
    assert match, text
    level, strain, doubling = match.groups()
    return Contract(int(level), Strain.from_text(strain), Doubling(len(doubling)))


def row_id(row: dict[str, object]) -> str:
    vul = "V" if row["vulnerable"] else "NV"
    return f"{row['contract']}-{vul}-{row['tricks']}"


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_duplicate_score_matches_the_laws_table(row: dict[str, object]) -> None:
    contract = parse_contract(str(row["contract"]))
    assert (
        duplicate_score(contract, bool(row["vulnerable"]), int(str(row["tricks"]))) == row["score"]
    )


@pytest.mark.parametrize("row", [row for row in ROWS if "declarer" in row], ids=row_id)
def test_score_ns_is_declarers_score_signed_for_north_south(row: dict[str, object]) -> None:
    contract = parse_contract(str(row["contract"]))
    declarer = Seat.from_letter(str(row["declarer"]))
    vulnerability = Vulnerability.ALL if row["vulnerable"] else Vulnerability.NONE
    expected = int(str(row["score"])) * (1 if declarer in (Seat.NORTH, Seat.SOUTH) else -1)
    assert score_ns(contract, declarer, vulnerability, int(str(row["tricks"]))) == expected


def test_fixture_covers_every_branch() -> None:
    contracts = [parse_contract(str(row["contract"])) for row in ROWS]
    assert len(ROWS) >= 60
    assert {c.doubling for c in contracts} == set(Doubling)
    assert {c.strain for c in contracts if c.strain is not None} == set(Strain)
    assert {c.level for c in contracts} >= {0, 1, 2, 3, 4, 5, 6, 7}
    down_by = {
        (contract.doubling, bool(row["vulnerable"]), contract.level + 6 - int(str(row["tricks"])))
        for contract, row in zip(contracts, ROWS, strict=True)
        if contract.level and int(str(row["tricks"])) < contract.level + 6
    }
    for doubling in Doubling:
        for vulnerable in (False, True):
            assert {1, 2, 3, 4} <= {
                down for d, v, down in down_by if (d, v) == (doubling, vulnerable)
            }


def test_score_ns_uses_the_declarers_vulnerability() -> None:
    four_spades = Contract(4, Strain.SPADES)
    assert score_ns(four_spades, Seat.NORTH, Vulnerability.EW, 10) == 420
    assert score_ns(four_spades, Seat.WEST, Vulnerability.EW, 10) == -620
    assert score_ns(four_spades, Seat.WEST, Vulnerability.NS, 9) == 50


def test_score_ns_of_a_passed_out_board_is_zero_without_declarer() -> None:
    assert score_ns(PASSED_OUT, None, Vulnerability.ALL, 0) == 0


def test_score_ns_needs_a_declarer_for_a_real_contract() -> None:
    with pytest.raises(ValueError, match="declarer"):
        score_ns(Contract(1, Strain.CLUBS), None, Vulnerability.NONE, 7)


def test_end_position_contract_cannot_be_scored() -> None:
    with pytest.raises(ValueError, match="level"):
        duplicate_score(Contract(None, Strain.HEARTS), vulnerable=False, tricks=3)


@pytest.mark.parametrize("tricks", [-1, 14])
def test_impossible_trick_counts_are_rejected(tricks: int) -> None:
    with pytest.raises(ValueError, match="tricks"):
        duplicate_score(Contract(1, Strain.CLUBS), vulnerable=False, tricks=tricks)


CYCLE = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "All"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "All"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "All"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "All"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]  # fmt: skip


@pytest.mark.parametrize(("number", "dealer", "vulnerability"), CYCLE)
def test_board_number_gives_dealer_and_vulnerability(
    number: int, dealer: str, vulnerability: str
) -> None:
    for board in (number, number + 16, number + 32):
        assert board_dealer(board).letter == dealer
        assert str(board_vulnerability(board)) == vulnerability


@pytest.mark.parametrize("number", [0, -3])
def test_board_numbers_start_at_one(number: int) -> None:
    with pytest.raises(ValueError, match="start at 1"):
        board_dealer(number)
    with pytest.raises(ValueError, match="start at 1"):
        board_vulnerability(number)


IMP_BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, 9990, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), IMP_BANDS)
def test_imps_follow_the_1962_scale_at_both_ends_of_each_band(
    low: int, high: int, expected: int
) -> None:
    assert imps(low) == imps(high) == expected
    assert imps(-low) == imps(-high) == -expected


def test_imps_between_printed_bands_take_the_lower_band() -> None:
    assert imps(15) == 0
    assert imps(425) == 9


@pytest.mark.parametrize(
    "module",
    [scoring.duplicate, scoring.matchpoints, scoring.comparison, scoring.rubber, scoring.methods],
    ids=lambda module: module.__name__,
)
def test_doctests_pass(module: object) -> None:
    results = run_doctests(module)  # type: ignore[arg-type]
    assert results.attempted > 0
    assert results.failed == 0


strains = st.sampled_from(list(Strain))
levels = st.integers(min_value=1, max_value=7)


@given(level=levels, strain=strains, vulnerable=st.booleans(), data=st.data())
def test_doubling_never_lowers_a_making_score(
    level: int, strain: Strain, vulnerable: bool, data: st.DataObject
) -> None:
    tricks = data.draw(st.integers(min_value=level + 6, max_value=13))
    scores = [
        duplicate_score(Contract(level, strain, doubling), vulnerable, tricks)
        for doubling in Doubling
    ]
    assert 0 < scores[0] < scores[1] < scores[2]


@given(level=levels, strain=strains, vulnerable=st.booleans(), data=st.data())
def test_each_further_undertrick_costs_more(
    level: int, strain: Strain, vulnerable: bool, data: st.DataObject
) -> None:
    doubling = data.draw(st.sampled_from(list(Doubling)))
    contract = Contract(level, strain, doubling)
    scores = [duplicate_score(contract, vulnerable, tricks) for tricks in range(level + 7)]
    assert all(fewer < more for fewer, more in itertools.pairwise(scores))
    assert scores[level + 5] < 0 < scores[level + 6]


@given(level=levels, strain=strains, vulnerable=st.booleans(), data=st.data())
def test_redoubled_undertricks_cost_twice_the_doubled(
    level: int, strain: Strain, vulnerable: bool, data: st.DataObject
) -> None:
    tricks = data.draw(st.integers(min_value=0, max_value=level + 5))
    doubled = duplicate_score(Contract(level, strain, Doubling.DOUBLED), vulnerable, tricks)
    redoubled = duplicate_score(Contract(level, strain, Doubling.REDOUBLED), vulnerable, tricks)
    assert redoubled == 2 * doubled


@given(level=levels, strain=strains, tricks=st.integers(0, 13))
def test_vulnerability_never_helps_a_defeated_contract_nor_hurts_a_made_one(
    level: int, strain: Strain, tricks: int
) -> None:
    contract = Contract(level, strain, Doubling.DOUBLED)
    not_vulnerable = duplicate_score(contract, False, tricks)
    vulnerable = duplicate_score(contract, True, tricks)
    if tricks >= level + 6:
        assert vulnerable >= not_vulnerable
    else:
        assert vulnerable < not_vulnerable


@given(st.integers(min_value=-20000, max_value=20000))
def test_imps_are_antisymmetric_and_bounded(difference: int) -> None:
    assert imps(-difference) == -imps(difference)
    assert 0 <= imps(abs(difference)) <= 24


def test_a_stated_north_declarer_is_kept_beside_the_auction() -> None:
    """North is seat 0: a falsy value must not give way to the auction's declarer."""
    import dataclasses

    from pbntool.dev.generate import random_boards
    from pbntool.model import Seat
    from pbntool.tools.score.listing import score_board

    for board in random_boards(12, 40):
        if board.declarer is None or board.contract is None or board.contract.is_passed_out:
            continue
        stated = dataclasses.replace(board, declarer=Seat.NORTH)
        assert score_board(stated, "x").declarer == "N"
        return
    raise AssertionError("no board with a declarer was generated")
