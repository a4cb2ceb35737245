"""Rubber bridge and Chicago against sequences scored by hand, and the two PBN rubber tags."""

from __future__ import annotations

import pytest

from pbntool.model import (
    PASSED_OUT,
    Contract,
    Deal,
    Doubling,
    Hand,
    Seat,
    Side,
    Strain,
    Vulnerability,
)
from pbntool.scoring.rubber import (
    DealPlay,
    Line,
    RubberKind,
    RubberState,
    chicago_vulnerability,
    deal_lines,
    format_score_rubber,
    format_score_rubber_history,
    honours,
    parse_score_rubber,
    parse_score_rubber_history,
    rubber_step,
    score_sequence,
)

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NS, EW = Side.NS, Side.EW


def play(
    level: int,
    strain: Strain,
    declarer: Seat,
    tricks: int,
    doubling: Doubling = Doubling.UNDOUBLED,
    held: tuple[Side, int] | None = None,
    dealer: Seat | None = None,
) -> DealPlay:
    return DealPlay(Contract(level, strain, doubling), declarer, tricks, held, dealer)


PASSED = DealPlay(PASSED_OUT)

# A full rubber, NS winning 2-1 (Laws of Rubber Bridge; above/below per deal):
#  1. 4S by N, 11 tricks, N holds S AKQJ: NS 120 below (game), 30 + 100 honours above.
#  2. 2H by E, 8 tricks: EW 60 below.                              NS is vulnerable.
#  3. 3CX by N, 7 tricks (down 2, vulnerable doubled = 200 + 300): EW 500 above;
#     E holds all five club honours: EW 150 above.
#  4. 2S by W, 9 tricks: EW 60 below (60 + 60 = 120: game), 30 above.   Both vulnerable.
#  5. 6NT by S, 12 tricks, S holds the four aces: NS 190 below (game and rubber),
#     750 small slam + 150 honours + 500 rubber bonus (the losers won a game) above.
RUBBER = [
    play(4, Strain.SPADES, N, 11, held=(NS, 100)),
    play(2, Strain.HEARTS, E, 8),
    play(3, Strain.CLUBS, N, 7, Doubling.DOUBLED, held=(EW, 150)),
    play(2, Strain.SPADES, W, 9),
    play(6, Strain.NOTRUMP, S, 12, held=(NS, 150)),
]


def test_a_full_rubber_with_honours() -> None:
    session = score_sequence(RUBBER)
    lines = [deal.lines for deal in session.deals]
    assert lines == [
        (Line(130, 120), Line(0, 0)),
        (Line(0, 0), Line(0, 60)),
        (Line(0, 0), Line(650, 0)),
        (Line(0, 0), Line(30, 60)),
        (Line(1400, 190), Line(0, 0)),
    ]
    assert [deal.vulnerability for deal in session.deals] == [
        Vulnerability.NONE,
        Vulnerability.NS,
        Vulnerability.NS,
        Vulnerability.NS,
        Vulnerability.ALL,
    ]
    assert [deal.game_won_by for deal in session.deals] == [NS, None, None, EW, NS]
    assert [deal.rubber_won_by for deal in session.deals] == [None, None, None, None, NS]
    # NS: 120 + 190 below, 130 + 1400 above; EW: 120 below, 680 above.
    assert session.totals == (1840, 800)
    assert (session.rubbers, session.unfinished) == (1, (0, 0))


def test_rubber_history_before_each_deal() -> None:
    session = score_sequence(RUBBER)
    assert [format_score_rubber_history(deal.before) for deal in session.deals] == [
        "NS 0 0 / 0 EW 0 0 / 0",
        "NS 0 130 / 120 0 EW 0 0 / 0 0",
        "NS 0 130 / 120 0 EW 0 0 / 0 60",
        "NS 0 130 / 120 0 EW 0 650 / 0 60",
        "NS 0 130 / 120 0 0 EW 0 680 / 0 120 0",
    ]
    assert [format_score_rubber(deal.lines) for deal in session.deals] == [
        "NS 130/120",
        "EW 0/60",
        "EW 650/0",
        "EW 30/60",
        "NS 1400/190",
    ]


def test_a_new_rubber_starts_from_the_previous_totals() -> None:
    session = score_sequence([*RUBBER, play(1, Strain.CLUBS, E, 7)])
    last = session.deals[-1]
    assert last.before == RubberState((1840, 800))
    assert last.vulnerability is Vulnerability.NONE
    assert format_score_rubber_history(last.before) == "NS 1840 0 / 0 EW 800 0 / 0"
    assert last.position == 1


def test_a_two_nil_rubber_earns_700() -> None:
    session = score_sequence([play(3, Strain.NOTRUMP, N, 9), play(4, Strain.HEARTS, S, 10)])
    assert session.deals[-1].lines[0] == Line(700, 120)
    assert session.totals == (920, 0)


def test_an_unfinished_rubber_with_a_game_and_a_part_score() -> None:
    # 2H by N makes 9: NS 60 below, 30 above.  3NT by E makes 9: EW game.
    # 1C by S makes 7: NS 20 below in the second game.
    # Unfinished: EW 300 for its game, NS 100 for its part score in the unfinished game.
    deals = [
        play(2, Strain.HEARTS, N, 9),
        play(3, Strain.NOTRUMP, E, 9),
        play(1, Strain.CLUBS, S, 7),
    ]
    session = score_sequence(deals)
    assert session.rubbers == 0
    assert session.unfinished == (100, 300)
    assert session.totals == (60 + 30 + 20 + 100, 100 + 300)


def test_an_unfinished_rubber_with_a_game_each() -> None:
    session = score_sequence([play(3, Strain.NOTRUMP, N, 9), play(4, Strain.SPADES, E, 10)])
    assert session.unfinished == (300, 300)


def test_a_passed_out_deal_scores_nothing() -> None:
    session = score_sequence([PASSED, play(1, Strain.NOTRUMP, N, 7)])
    assert session.deals[0].lines == (Line(), Line())
    assert session.deals[1].lines == (Line(0, 40), Line())


def test_doubled_and_redoubled_rubber_points() -> None:
    vulnerable = Vulnerability.ALL
    # 2HX making 9, vulnerable: 120 below (a game), 200 overtrick + 50 insult above.
    assert deal_lines(play(2, Strain.HEARTS, N, 9, Doubling.DOUBLED), vulnerable)[0] == Line(
        250, 120
    )
    # 1NTXX making 8, not vulnerable: 160 below, 200 overtrick + 100 for the redouble.
    assert deal_lines(play(1, Strain.NOTRUMP, E, 8, Doubling.REDOUBLED), Vulnerability.NONE)[
        1
    ] == Line(300, 160)
    # 7C making 13, not vulnerable: 140 below, 1000 grand slam above.
    assert deal_lines(play(7, Strain.CLUBS, S, 13), Vulnerability.NONE)[0] == Line(1000, 140)


def test_an_unknown_result_scores_nothing_and_is_not_scorable() -> None:
    unknown = DealPlay(None)
    assert not unknown.scorable
    assert deal_lines(unknown, Vulnerability.NONE) == (Line(), Line())


def test_rubber_step_is_one_deal_of_the_sequence() -> None:
    state = RubberState()
    for deal, scored in zip(RUBBER, score_sequence(RUBBER).deals, strict=True):
        step = rubber_step(state, deal)
        assert (scored.before, step.lines) == (state, scored.lines)
        state = step.after


# --- Chicago -----------------------------------------------------------------------------------


def test_chicago_vulnerability_cycle() -> None:
    assert [chicago_vulnerability(n, dealer) for n, dealer in ((1, N), (2, E), (3, S), (4, W))] == [
        Vulnerability.NONE,
        Vulnerability.EW,
        Vulnerability.NS,
        Vulnerability.ALL,
    ]
    assert chicago_vulnerability(2, N) is Vulnerability.NS  # the dealer's side


def test_a_chicago_cycle_with_a_part_score_carried_to_game() -> None:
    # 1. N deals, nobody vulnerable: 4H by N makes 10: 120 below + 300 game.
    # 2. E deals, EW vulnerable: 2S by E makes 8: 60 below (a part score).
    # 3. S deals, NS vulnerable: 3NT by N down one: EW 100.
    # 4. W deals, both vulnerable: 2D by W makes 9: 40 below + 20 above; with the 60 of
    #    deal 2 that is a game: 500 (vulnerable).
    deals = [
        play(4, Strain.HEARTS, N, 10, dealer=N),
        play(2, Strain.SPADES, E, 8, dealer=E),
        play(3, Strain.NOTRUMP, N, 8, dealer=S),
        play(2, Strain.DIAMONDS, W, 9, dealer=W),
    ]
    session = score_sequence(deals, RubberKind.CHICAGO)
    assert [deal.position for deal in session.deals] == [1, 2, 3, 4]
    assert [deal.vulnerability for deal in session.deals] == [
        Vulnerability.NONE,
        Vulnerability.EW,
        Vulnerability.NS,
        Vulnerability.ALL,
    ]
    assert [deal.lines for deal in session.deals] == [
        (Line(300, 120), Line()),
        (Line(), Line(0, 60)),
        (Line(), Line(100, 0)),
        (Line(), Line(520, 40)),
    ]
    assert session.totals == (420, 720)


def test_chicago_fourth_deal_part_score_bonus() -> None:
    # Deal 4: 1D by W makes 7: 20 below; with the 60 of deal 2 that is 80, no game: +100.
    deals = [
        play(4, Strain.HEARTS, N, 10),
        play(2, Strain.SPADES, E, 8),
        play(3, Strain.NOTRUMP, N, 8),
        play(1, Strain.DIAMONDS, W, 7),
    ]
    session = score_sequence(deals, RubberKind.CHICAGO)
    assert session.deals[3].lines == (Line(), Line(100, 20))
    assert session.totals == (420, 60 + 100 + 120)


def test_chicago_part_scores_end_with_the_cycle_and_a_pass_out_is_redealt() -> None:
    # Deal 2 passed out: dealt again by E, so the next deal is still deal 2 of the cycle.
    deals = [
        play(1, Strain.CLUBS, N, 7, dealer=N),
        DealPlay(PASSED_OUT, dealer=E),
        play(2, Strain.CLUBS, N, 8, dealer=E),
        play(1, Strain.CLUBS, N, 7, dealer=S),
        play(1, Strain.CLUBS, E, 7, dealer=W),
        play(3, Strain.CLUBS, N, 9, dealer=N),  # deal 1 of the next cycle: no carried 20s
    ]
    session = score_sequence(deals, RubberKind.CHICAGO)
    assert [deal.position for deal in session.deals] == [1, 2, 2, 3, 4, 1]
    assert session.deals[2].vulnerability is Vulnerability.EW
    # 20 + 40 + 20 = 80 for NS by deal 3; deal 4 gives EW a part score of 20: +100.
    assert session.deals[4].lines == (Line(), Line(100, 20))
    assert session.deals[5].lines == (Line(0, 60), Line())  # 60 alone is not a game


# --- honours ----------------------------------------------------------------------------------


def _deal(north: Hand | None = None, east: Hand | None = None) -> Deal:
    return Deal((north, east, None, None))


def test_honours_four_and_five_trump_honours_and_four_aces() -> None:
    four = Hand.parse_suits("AKQJ2", "32", "432", "432")
    five = Hand.parse_suits("AKQJT", "32", "432", "32")
    aces = Hand.parse_suits("A32", "A32", "A32", "A32")
    assert honours(_deal(north=four), Strain.SPADES) == (NS, 100)
    assert honours(_deal(east=five), Strain.SPADES) == (EW, 150)
    assert honours(_deal(north=aces), Strain.NOTRUMP) == (NS, 150)
    assert honours(_deal(north=four), Strain.HEARTS) is None
    assert honours(_deal(north=four), Strain.NOTRUMP) is None
    three = Hand.parse_suits("AKQ32", "32", "432", "32")
    assert honours(_deal(north=three), Strain.SPADES) is None


# --- the PBN tags -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "declarer", "expected"),
    [
        ("300/40", NS, (Line(300, 40), Line())),
        ("300/40", EW, (Line(), Line(300, 40))),
        ("EW 300/40", None, (Line(), Line(300, 40))),
        ("EW 300/40 NS 50 / 70  ", None, (Line(50, 70), Line(300, 40))),
        ("NS 0/0", None, (Line(), Line())),
    ],
)
def test_score_rubber_forms(text: str, declarer: Side | None, expected: tuple[Line, Line]) -> None:
    assert parse_score_rubber(text, declarer) == expected


@pytest.mark.parametrize("text", ["a", "10.a", "10.-10", "10. 10", "300/40", "NS 1/2 NS 3/4"])
def test_score_rubber_that_cannot_be_read(text: str) -> None:
    assert parse_score_rubber(text, None) is None


def test_score_rubber_history_round_trip() -> None:
    for deal in score_sequence(RUBBER).deals:
        text = format_score_rubber_history(deal.before)
        assert parse_score_rubber_history(text) == deal.before


@pytest.mark.parametrize(
    ("text", "vulnerability"),
    [
        ("NS 0 0 / 0 EW 0 0 / 0", Vulnerability.NONE),
        ("NS 0 0 / 100 0 EW 0 0 / 0 0", Vulnerability.NS),
        ("NS 0 0 / 0 0 EW 0 0 / 100 0", Vulnerability.EW),
        ("NS 0 0 / 100 0 0 EW 0 0 / 0 100 0", Vulnerability.ALL),
    ],
)
def test_score_rubber_history_gives_the_vulnerability(
    text: str, vulnerability: Vulnerability
) -> None:
    state = parse_score_rubber_history(text)
    assert state is not None and state.vulnerability is vulnerability


@pytest.mark.parametrize(
    "text", ["NS 0 0 / 0", "NS 0 0 / 0 0 EW 0 0 / 0", "NS 0 0 / 0 NS 0 0 / 0", "EW 1 2"]
)
def test_score_rubber_history_that_cannot_be_read(text: str) -> None:
    assert parse_score_rubber_history(text) is None
