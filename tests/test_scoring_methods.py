"""Matchpoints, IMP methods and board-a-match against cases worked out by hand.

Every expected number below is computed in the comment next to it from the formulas of
``docs/scoring.md``; the properties at the end hold for any field.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbntool.scoring import (
    Artificial,
    CrossAverage,
    FieldEntry,
    MatchpointScale,
    Method,
    PercentBase,
    ScoringSpec,
    board_a_match,
    butler_datum,
    cross_imps,
    field_board_a_match,
    imps,
    matchpoint_top,
    neuberg,
    score_matchpoints,
    team_imps,
)

# NS scores of one board at five tables: 450 beats four scores, the two 420s beat two and
# tie with each other, 400 beats one, -50 beats none.  Top (MP1) = 2 * (5 - 1) = 8.
FIELD = [FieldEntry(420), FieldEntry(450), FieldEntry(-50), FieldEntry(420), FieldEntry(400)]


def ns(scores: list[object], attribute: str = "ns") -> list[float | None]:
    return [getattr(score, attribute) for score in scores]


# --- matchpoints ------------------------------------------------------------------------------


def test_mp1_gives_two_per_beaten_score_and_one_per_tie() -> None:
    scores = score_matchpoints(FIELD)
    assert ns(scores) == [5.0, 8.0, 0.0, 5.0, 2.0]  # 420: 2 beaten + 1 tie = 2*2 + 1
    assert ns(scores, "ew") == [3.0, 0.0, 8.0, 3.0, 6.0]  # EW = top - NS
    assert {score.top for score in scores} == {8.0}


def test_percentages_are_matchpoints_over_the_top() -> None:
    scores = score_matchpoints(FIELD)
    assert ns(scores, "ns_percentage") == [62.5, 100.0, 0.0, 62.5, 25.0]
    assert ns(scores, "ew_percentage") == [37.5, 0.0, 100.0, 37.5, 75.0]


def test_mp2_halves_mp1() -> None:
    scores = score_matchpoints(FIELD, scale=MatchpointScale.MP2)
    assert ns(scores) == [2.5, 4.0, 0.0, 2.5, 1.0]
    assert scores[0].top == 4.0
    assert ns(scores, "ns_percentage") == [62.5, 100.0, 0.0, 62.5, 25.0]


def test_multiplicity_counts_each_table() -> None:
    # One row "420 x2" is the same field as two rows of 420.
    collapsed = [FieldEntry(420, 2), FieldEntry(450), FieldEntry(-50), FieldEntry(400)]
    assert ns(score_matchpoints(collapsed)) == [5.0, 8.0, 0.0, 2.0]


def test_all_equal_scores_share_the_average() -> None:
    scores = score_matchpoints([FieldEntry(100, 4)])
    assert (scores[0].ns, scores[0].ew, scores[0].ns_percentage) == (3.0, 3.0, 50.0)


def test_a_lone_result_gets_fifty_percent() -> None:
    scores = score_matchpoints([FieldEntry(620)])
    assert (scores[0].ns, scores[0].top, scores[0].ns_percentage) == (0.0, 0.0, 50.0)


def test_neuberg_scales_a_board_with_fewer_results() -> None:
    # Five results where six were expected: MP' = (MP + 1) * 6 / 5 - 1, top 2 * (6 - 1) = 10.
    scores = score_matchpoints(FIELD, expected=6)
    assert ns(scores) == pytest.approx([6.2, 9.8, 0.2, 6.2, 2.6])
    assert ns(scores, "ew") == pytest.approx([3.8, 0.2, 9.8, 3.8, 7.4])
    assert scores[0].top == 10.0
    assert ns(scores, "ns_percentage") == pytest.approx([62.0, 98.0, 2.0, 62.0, 26.0])


def test_neuberg_formula_in_both_scales() -> None:
    assert neuberg(8, results=5, expected=6) == pytest.approx(9.8)
    # MP2: (MP + 1/2) * N / n - 1/2 = (4 + 0.5) * 6 / 5 - 0.5 = 4.9, half of the MP1 value.
    assert neuberg(4, results=5, expected=6, scale=MatchpointScale.MP2) == pytest.approx(4.9)
    assert neuberg(5, results=5, expected=5) == 5.0


def test_averages_get_their_share_of_the_top() -> None:
    # A table with an adjusted score: A+ to NS, A- to EW; five real results, six expected.
    field = [*FIELD, FieldEntry(None, 1, Artificial.parse("A+"), Artificial.parse("A-"))]
    scores = score_matchpoints(field, expected=6)
    adjusted = scores[-1]
    assert (adjusted.ns, adjusted.ew) == pytest.approx((6.0, 4.0))  # 60 % and 40 % of 10
    assert (adjusted.ns_percentage, adjusted.ew_percentage) == (60.0, 40.0)
    assert ns(scores[:-1]) == pytest.approx([6.2, 9.8, 0.2, 6.2, 2.6])  # not compared


def test_plain_average_and_percentage_scores() -> None:
    average = Artificial.parse("A")
    assert average is not None and (average.percentage, average.imps) == (50.0, 0.0)
    minus = Artificial.parse("AVG-")
    assert minus is not None and (minus.label, minus.percentage, minus.imps) == ("A-", 40.0, -3.0)
    fifty_five = Artificial.parse("^55")
    assert fifty_five is not None and (fifty_five.percentage, fifty_five.imps) == (55.0, None)
    assert fifty_five.mirror.percentage == 45.0
    assert Artificial.parse("55") is None and Artificial.parse("^120") is None


def test_one_sided_artificial_entry_scores_only_that_side() -> None:
    field = [*FIELD, FieldEntry(None, 1, Artificial.parse("^50"), None)]
    adjusted = score_matchpoints(field)[-1]
    # The adjusted table is a sixth table: the top is 2 * (6 - 1) and ^50 is half of it.
    assert (adjusted.ns, adjusted.ew, adjusted.ew_percentage) == (5.0, None, None)


def test_inclusive_percentages_count_a_tie_with_itself() -> None:
    # (MP1 + 1) / (2 * 5) * 100: 450 -> 9/10, 420 -> 6/10, 400 -> 3/10, -50 -> 1/10.
    scores = score_matchpoints(FIELD, base=PercentBase.INCLUSIVE)
    assert ns(scores, "ns_percentage") == pytest.approx([60.0, 90.0, 10.0, 60.0, 30.0])
    assert ns(scores, "ew_percentage") == pytest.approx([40.0, 10.0, 90.0, 40.0, 70.0])


def test_matchpoint_top() -> None:
    assert (matchpoint_top(13), matchpoint_top(13, MatchpointScale.MP2), matchpoint_top(1)) == (
        24.0,
        12.0,
        0.0,
    )


# --- IMPs -------------------------------------------------------------------------------------


def test_team_imps_are_the_difference_of_the_two_rooms() -> None:
    assert team_imps(620, 170) == 10  # 450
    assert team_imps(-100, 110) == -5  # -210
    assert team_imps(420, 430) == 0  # 10 is nothing


def test_butler_datum_without_the_extreme_scores() -> None:
    # Butler-2: drop 650 and -100: (620 + 620 + 170) / 3 = 470.
    assert butler_datum([620, 620, 170, 650, -100]) == 470
    # IMPs against it: 620 -> +150 = 4, 170 -> -300 = -7, 650 -> +180 = 5, -100 -> -570 = -11.
    assert [imps(s - 470) for s in (620, 170, 650, -100)] == [4, -7, 5, -11]


def test_butler_datum_the_mean_of_all_scores() -> None:
    # Butler: (620 + 620 + 170 + 650 - 100) / 5 = 392, rounded to 390.
    assert butler_datum([620, 620, 170, 650, -100], discard=0) == 390
    assert [imps(s - 390) for s in (620, 170, 650, -100)] == [6, -6, 6, -10]


def test_butler_datum_rounds_to_the_nearest_ten_halves_away_from_zero() -> None:
    assert butler_datum([425, 425], discard=0) == 430
    assert butler_datum([-425, -425], discard=0) == -430
    assert butler_datum([424], discard=0) == 420
    assert butler_datum([100, 110], discard=0) == 110  # 105 -> 110


def test_butler_with_too_few_scores_uses_them_all() -> None:
    assert butler_datum([600, 100]) == 350  # two scores: nothing left after dropping both
    with pytest.raises(ValueError, match="at least one score"):
        butler_datum([])


def test_cross_imps_total_and_averages() -> None:
    field = [620, 170, -100]
    # 620: imps(450) + imps(720) = 10 + 12 = 22.
    assert cross_imps(620, field, CrossAverage.TOTAL) == 22.0
    assert cross_imps(620, field, CrossAverage.PER_COMPARISON) == 11.0  # 22 / 2
    assert cross_imps(620, field, CrossAverage.PER_SCORE) == pytest.approx(22 / 3)
    # 170: imps(-450) + imps(270) = -10 + 7; -100: -12 - 7.
    assert cross_imps(170, field, CrossAverage.TOTAL) == -3.0
    assert cross_imps(-100, field, CrossAverage.TOTAL) == -19.0
    assert cross_imps(500, [500]) == 0.0


def test_board_a_match_against_the_other_room() -> None:
    assert (board_a_match(420, 400), board_a_match(-50, -50), board_a_match(100, 110)) == (
        1.0,
        0.5,
        0.0,
    )


def test_board_a_match_against_a_field_averages_the_comparisons() -> None:
    # 420 against 420 (1/2), 400 (1) and 450 (0): 1.5 / 3.
    assert field_board_a_match(420, [420, 400, 450, 420]) == pytest.approx(1.5 / 3)
    assert field_board_a_match(420, [420]) == 0.5


# --- the Scoring tag --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "method", "options"),
    [
        ("MP", Method.MP, {"scale": MatchpointScale.MP1}),
        ("MatchPoints;MP1", Method.MP, {"scale": MatchpointScale.MP1}),
        ("MP;MP2", Method.MP, {"scale": MatchpointScale.MP2}),
        ("IMP", Method.IMP, {}),
        ("IMP;Butler", Method.BUTLER, {"discard": 0}),
        ("IMP;Butler-2", Method.BUTLER, {"discard": 1}),
        ("IMP;Cross", Method.CROSS_IMP, {"cross": CrossAverage.TOTAL}),
        ("IMP;Cross1", Method.CROSS_IMP, {"cross": CrossAverage.PER_SCORE}),
        ("IMP;Cross2", Method.CROSS_IMP, {"cross": CrossAverage.PER_COMPARISON}),
        ("BAM", Method.BAM, {}),
        ("Rubber", Method.RUBBER, {}),
        ("chicago", Method.CHICAGO, {}),
    ],
)
def test_scoring_tag_names_the_method(tag: str, method: Method, options: dict[str, object]) -> None:
    spec = ScoringSpec.from_tag(tag)
    assert spec is not None and spec.method is method
    for name, value in options.items():
        assert getattr(spec, name) == value


@pytest.mark.parametrize("tag", ["", ";", "Instant", "IMP_1948", "IMP;Experts", "Bridge"])
def test_scoring_tags_without_a_method_we_score(tag: str) -> None:
    assert ScoringSpec.from_tag(tag) is None


# --- properties ---------------------------------------------------------------------------------

scores = st.integers(min_value=-40, max_value=40).map(lambda n: n * 10)
fields = st.lists(st.tuples(scores, st.integers(min_value=1, max_value=3)), min_size=1, max_size=12)


@given(fields)
def test_matchpoints_of_a_field_add_up_to_half_the_tops(rows: list[tuple[int, int]]) -> None:
    field = [FieldEntry(score, count) for score, count in rows]
    tables = sum(count for _, count in rows)
    scored = score_matchpoints(field)
    total = sum(
        s.ns * count for s, (_, count) in zip(scored, rows, strict=True) if s.ns is not None
    )
    assert total == pytest.approx(tables * matchpoint_top(tables) / 2)
    for score in scored:
        assert score.ns is not None and score.ew is not None
        assert score.ns + score.ew == pytest.approx(score.top)
        assert 0.0 <= score.ns_percentage <= 100.0  # type: ignore[operator]


@given(fields, st.integers(min_value=0, max_value=5))
def test_neuberg_keeps_every_score_within_the_larger_top(
    rows: list[tuple[int, int]], more: int
) -> None:
    field = [FieldEntry(score, count) for score, count in rows]
    tables = sum(count for _, count in rows)
    for score in score_matchpoints(field, expected=tables + more):
        assert score.ns is not None and -1e-9 <= score.ns <= score.top + 1e-9


@given(fields)
def test_cross_imps_of_a_field_cancel_out(rows: list[tuple[int, int]]) -> None:
    expanded = [score for score, count in rows for _ in range(count)]
    total = sum(cross_imps(score, expanded, CrossAverage.TOTAL) for score in expanded)
    assert total == 0


@given(fields)
def test_board_a_match_points_of_a_field_average_one_half(rows: list[tuple[int, int]]) -> None:
    expanded = [score for score, count in rows for _ in range(count)]
    if len(expanded) > 1:
        total = sum(field_board_a_match(score, expanded) for score in expanded)
        assert total == pytest.approx(len(expanded) / 2)
