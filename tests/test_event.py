"""Event scoring through records: grouping, team matches, standings, the keyed entry point,
artificial scores, and the PBN output read back and checked clean."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats import pbn
from pbntool.model import Board, Tag
from pbntool.records import Record
from pbntool.scoring import Method, RubberKind, ScoringSpec
from pbntool.tools.score import EventOptions, EventScores, GameKey, GroupBy, score_event
from pbntool.tools.score.annotate import annotate_boards, annotate_rubber_boards
from pbntool.tools.score.check import CheckOptions, check_event
from pbntool.tools.score.compute import read_games
from pbntool.tools.score.grouping import group_games
from pbntool.tools.score.rubber import score_rubbers

D1 = "N:72.986.A87.A9432 J963.75.T432.QJ7 4.KQJT3.KJ95.K86 AKQT85.A42.Q6.T5"
D2 = "W:6.K6432.AQ62.543 AJ873.AQJT.T9.J8 K92.75.8743.Q962 QT54.98.KJ5.AKT7"
MP = ScoringSpec(Method.MP, neuberg=False)


def game(board: int = 1, event: str = "Pairs", deal: str = D1, **tags: str) -> str:
    """One game; ``tags`` default to 4S by North making 10 (420) with nobody vulnerable."""
    values = {
        "Event": event,
        "Board": str(board),
        "Dealer": "N",
        "Vulnerable": "None",
        "Deal": deal,
        "Declarer": "N",
        "Contract": "4S",
        "Result": "10",
        **tags,
    }
    return "".join(f'[{name} "{value}"]\n' for name, value in values.items()) + "\n"


def records(*files: tuple[str, str]) -> list[Record]:
    found: list[Record] = []
    for name, text in files:
        found.extend(pbn.iter_records(io.BytesIO(text.encode()), name))
    return found


def ns_points(scores: EventScores, attribute: str = "ns") -> list[float | None]:
    return [
        getattr(result.points, attribute) for board in scores.boards for result in board.results
    ]


# --- grouping -----------------------------------------------------------------------------------


def test_same_deal_under_other_event_names_is_one_board() -> None:
    scores = score_event(
        records(
            ("open.pbn", game(event="Final, open room", Result="11")),
            ("closed.pbn", game(event="Final, closed room")),
        ),
        EventOptions(MP),
    )
    assert len(scores.boards) == 1
    assert ns_points(scores) == [2.0, 0.0]  # 450 beats 420


def test_other_board_numbers_of_one_event_stay_apart_even_with_one_deal() -> None:
    games = read_games(records(("a.pbn", game(1) + game(2, Result="11"))))
    groups, notes = group_games(games)
    assert [len(group.games) for group in groups] == [1, 1]
    assert notes == []


def test_one_board_number_with_two_deals_is_two_boards_and_one_note_per_file() -> None:
    text = game(1) + game(1, deal=D2) + game(2) + game(2, deal=D2, Result="9")
    games = read_games(records(("rounds.pbn", text)))
    groups, notes = group_games(games)
    assert [len(group.games) for group in groups] == [1, 1, 1, 1]
    assert [(note.code, note.line) for note in notes] == [("EVT016", 11)]
    assert "(1 more such boards in this file)" in notes[0].message
    assert [len(g.games) for g in group_games(games, GroupBy.EVENT)[0]] == [2, 2]


def test_other_files_reusing_board_numbers_are_not_reported() -> None:
    # One file per round, each with its own board 1: routine, no note.
    games = read_games(records(("round1.pbn", game(1)), ("round2.pbn", game(1, deal=D2))))
    groups, notes = group_games(games)
    assert ([len(group.games) for group in groups], notes) == ([1, 1], [])


def test_group_by_deal_ignores_the_tags() -> None:
    text = game(1, event="A") + game(7, event="B", Result="9")
    games = read_games(records(("x.pbn", text)))
    assert [len(group.games) for group in group_games(games, GroupBy.DEAL)[0]] == [2]
    assert [len(group.games) for group in group_games(games, GroupBy.EVENT)[0]] == [1, 1]


def test_group_by_room_keeps_matches_apart() -> None:
    match = {"Scoring": "IMP"}
    text = (
        game(Room="Open", HomeTeam="A", VisitTeam="B", **match)
        + game(Room="Closed", HomeTeam="A", VisitTeam="B", Result="9", **match)
        + game(Room="Open", HomeTeam="C", VisitTeam="D", Result="11", **match)
        + game(Room="Closed", HomeTeam="C", VisitTeam="D", **match)
    )
    games = read_games(records(("teams.pbn", text)))
    assert [len(group.games) for group in group_games(games, GroupBy.ROOM)[0]] == [2, 2]
    assert [len(group.games) for group in group_games(games)[0]] == [4]


def test_group_by_table_scores_only_travellers() -> None:
    table = '[ScoreTable "Score_NS;Multiplicity"]\n420 1\n450 2\n'
    text = game(Scoring="MP").rstrip("\n") + "\n" + table + "\n" + game(Scoring="MP")
    games = read_games(records(("t.pbn", text)))
    assert [len(group.games) for group in group_games(games, GroupBy.TABLE)[0]] == [1]


# --- team matches ---------------------------------------------------------------------------


def test_team_imps_open_against_closed_and_the_team_totals() -> None:
    text = (
        game(1, Room="Open", HomeTeam="Lions", VisitTeam="Tigers", Result="11")  # 450
        + game(1, Room="Closed", HomeTeam="Lions", VisitTeam="Tigers", Result="9")  # -50
        + game(2, deal=D2, Room="Closed", HomeTeam="Lions", VisitTeam="Tigers", Result="10")
        + game(2, deal=D2, Room="Open", HomeTeam="Lions", VisitTeam="Tigers", Result="9")
    )
    scores = score_event(records(("m.pbn", text)), EventOptions(ScoringSpec(Method.IMP)))
    # Board 1: 450 - (-50) = 500: 11 IMPs to the Lions (NS in the open room).
    # Board 2 (closed room first): open -50, closed 420: -470 for the open room's NS, so
    # -10 to the Lions; the closed room's NS are the Tigers: +10.
    assert ns_points(scores) == [11.0, -11.0, 10.0, -10.0]
    teams = {standing.name: (standing.total, standing.boards) for standing in scores.standings}
    assert teams == {"Lions": (1.0, 2), "Tigers": (-1.0, 2)}


def test_board_a_match_points_per_board() -> None:
    text = (
        game(1, Room="Open", HomeTeam="A", VisitTeam="B", Result="11")
        + game(1, Room="Closed", HomeTeam="A", VisitTeam="B", Result="11")
        + game(2, deal=D2, Room="Open", HomeTeam="A", VisitTeam="B", Result="10")
        + game(2, deal=D2, Room="Closed", HomeTeam="A", VisitTeam="B", Result="9")
    )
    scores = score_event(records(("bam.pbn", text)), EventOptions(ScoringSpec(Method.BAM)))
    assert ns_points(scores) == [0.5, 0.5, 1.0, 0.0]
    assert {s.name: s.total for s in scores.standings} == {"A": 1.5, "B": 0.5}


def test_rooms_that_do_not_tell_the_tables_apart() -> None:
    text = game(Room="Open") + game(Room="Open", Result="11") + game(Result="9")
    scores = score_event(records(("r.pbn", text)), EventOptions(ScoringSpec(Method.IMP)))
    first, second = scores.diagnostics
    assert (first.code, first.line) == ("EVT015", 19)  # the second table's Room
    assert "both tables say Room Open; the table at line 1 is taken as the open room" in (
        first.message
    )
    assert (second.code, "no other room" in second.message) == ("EVT015", True)
    assert ns_points(scores) == [-1.0, 1.0, None]  # 420 against 450; the third is unpaired


# --- the entry point: scores keyed by game ------------------------------------------------------


def test_score_event_gives_each_game_its_own_score() -> None:
    text = (
        game(PairNS="1", PairEW="11")
        + game(PairNS="2", PairEW="12", Result="11")
        + game(PairNS="3", PairEW="13", Result="9")
    )
    found = records(("event.pbn", text))
    scores = score_event(found, EventOptions(MP))
    keys = [GameKey(record.file, record.line) for record in found]
    own = [scores.game(key) for key in keys]
    assert [result.points.ns for result in own if result is not None] == [2.0, 4.0, 0.0]
    assert [result.points.ns_percentage for result in own if result is not None] == [50, 100, 0]
    assert [(s.rank, s.name, s.percentage) for s in scores.standings[:2]] == [
        (1, "2", 100.0),
        (1, "13", 100.0),
    ]
    assert scores.game(GameKey("event.pbn", 999)) is None


def test_mitchell_pair_numbers_are_per_direction() -> None:
    # Pair 1 NS and pair 1 EW are different pairs: the same number on both sides of a board.
    text = game(PairNS="1", PairEW="2") + game(PairNS="2", PairEW="1", Result="11")
    scores = score_event(records(("m.pbn", text)), EventOptions(MP))
    assert sorted(s.name for s in scores.standings) == ["EW 1", "EW 2", "NS 1", "NS 2"]


def test_pair_names_from_the_players_whatever_the_direction() -> None:
    def seated(board: int, ns: tuple[str, str], ew: tuple[str, str], result: str) -> str:
        deal = D1 if board == 1 else D2
        north, south, east, west = *ns, *ew
        return game(board, deal=deal, North=north, South=south, East=east, West=west, Result=result)

    text = (
        seated(1, ("Ann", "Bob"), ("Cy", "Di"), "10")
        + seated(1, ("Ed", "Fay"), ("Gus", "Hal"), "11")
        + seated(2, ("Di", "Cy"), ("Bob", "Ann"), "10")
        + seated(2, ("Gus", "Hal"), ("Ed", "Fay"), "9")
    )
    scores = score_event(records(("h.pbn", text)), EventOptions(MP))
    # Ann and Bob: 0 on board 1 (NS), 0 on board 2 (EW against 420 beating -50).
    totals = {s.name: (s.total, s.boards) for s in scores.standings}
    assert totals == {
        "Ed & Fay": (4.0, 2),
        "Cy & Di": (4.0, 2),
        "Ann & Bob": (0.0, 2),
        "Gus & Hal": (0.0, 2),
    }


def test_neuberg_from_the_largest_board_of_the_event() -> None:
    text = (
        game(1)
        + game(1, Result="11")
        + game(1, Result="9")
        + game(2, deal=D2, Declarer="W", Contract="4H", Result="10")
        + game(2, deal=D2, Declarer="W", Contract="4H", Result="11")
    )
    scores = score_event(records(("n.pbn", text)), EventOptions(ScoringSpec(Method.MP)))
    second = scores.boards[1]
    # Two results where three were played elsewhere: (MP + 1) * 3 / 2 - 1 on a top of 4.
    assert second.top == 4.0
    assert [r.points.ns for r in second.results] == [pytest.approx(3.5), pytest.approx(0.5)]


def test_artificial_scores_of_a_game() -> None:
    text = game() + game(Result="11") + game(Score="A+", Result="?", Contract="?")
    found = records(("a.pbn", text))
    scores = score_event(found, EventOptions(MP))
    adjusted = scores.game(GameKey("a.pbn", found[2].line))
    assert adjusted is not None and adjusted.artificial == "A+/A-"
    assert (adjusted.points.ns_percentage, adjusted.points.ew_percentage) == (60.0, 40.0)
    # The adjusted table counts: the two real results are factored to three (Neuberg).
    assert ns_points(scores)[:2] == [0.5, 3.5]


def test_traveller_rows_with_pair_ids_make_the_standings() -> None:
    table = (
        '[ScoreTable "PairId_NS;PairId_EW;Score_NS;Multiplicity"]\n'
        "1 11 420 1\n2 12 450 1\n3 13 ^A+ 1\n"
    )
    text = game(Scoring="MP").rstrip("\n") + "\n" + table
    scores = score_event(records(("trav.pbn", text)), EventOptions(MP))
    names = {s.name: s.percentage for s in scores.standings}
    # 450 beat 420 of two real results, factored to three tables: 3.5 of 4 (Neuberg).
    assert names == {"2": 87.5, "11": 87.5, "3": 60.0, "13": 40.0, "1": 12.5, "12": 12.5}


# --- PBN output, read back and checked ------------------------------------------------------------


def _event_boards(seed: int, boards: int, tables: int) -> list[Board]:
    """``tables`` random results of each board (one generated file per table, so that each
    board keeps the dealer and vulnerability of its number), with pair numbers."""
    event = []
    for table in range(1, tables + 1):
        for board in random_boards(seed * 100 + table, boards, play=False):
            number = board.number or 1
            tags = [tag for tag in board.tags if tag.name not in ("Event", "Scoring")]
            tags += [
                Tag("Event", "Generated"),
                Tag("PairNS", str(table)),
                Tag("PairEW", str(100 + (table + number) % tables)),
            ]
            event.append(dataclasses.replace(board, tags=tuple(tags)))
    return event


def _written(boards: Iterable[Board]) -> list[Record]:
    return records(("event.pbn", pbn.dumps(boards)))


@pytest.mark.parametrize(
    "spec",
    [
        ScoringSpec(Method.MP),
        ScoringSpec(Method.MP, neuberg=False),
        ScoringSpec(Method.CROSS_IMP),
        ScoringSpec(Method.BUTLER, discard=1),
        ScoringSpec(Method.BUTLER, discard=0),
    ],
    ids=lambda spec: f"{spec.method.value}-{spec.discard}-{spec.neuberg}",
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_our_pbn_output_checks_clean(spec: ScoringSpec, seed: int) -> None:
    first = _written(_event_boards(seed, boards=4, tables=5))
    options = EventOptions(spec, GroupBy.EVENT)
    scores = score_event(first, options)
    keyed = [(GameKey(r.file, r.line), r.board) for r in first if r.board is not None]
    annotated = [board for _, board in annotate_boards(keyed, scores)]
    again = _written(annotated)
    assert all("ScoreTable" in {t.name for t in r.board.tables} for r in again if r.board)
    found = check_event(again, CheckOptions(spec, GroupBy.EVENT))
    disagreements = [d for d in found.diagnostics if d.severity.label != "info"]
    assert disagreements == []
    assert all(summary.checked == summary.agreed for summary in found.summaries)
    assert sum(summary.checked for summary in found.summaries) > 100


def test_rubber_output_checks_clean() -> None:
    boards = list(random_boards(11, 12, play=False))
    boards = [dataclasses.replace(b, tags=(*b.tags, Tag("Scoring", "Rubber"))) for b in boards]
    first = _written(boards)
    games = read_games(first)
    sessions = score_rubbers(games, RubberKind.RUBBER)
    keyed = [(GameKey(r.file, r.line), r.board) for r in first if r.board is not None]
    annotated = [board for _, board in annotate_rubber_boards(keyed, sessions, RubberKind.RUBBER)]
    again = _written(annotated)
    assert all(r.board.tag("ScoreRubber") for r in again if r.board and r.board.contract)
    found = check_event(again, CheckOptions())
    assert [d for d in found.diagnostics if d.code in ("EVT010", "EVT011")] == []
    assert sum(summary.checked for summary in found.summaries) > 12


@pytest.mark.parametrize(
    "module",
    ["values", "variants", "render", "annotate", "compute"],
)
def test_event_doctests_pass(module: str) -> None:
    import doctest
    import importlib

    results = doctest.testmod(importlib.import_module(f"pbntool.tools.score.{module}"))
    assert results.attempted > 0
    assert results.failed == 0
