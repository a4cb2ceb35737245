"""``pbntool dedupe``: deal keys (and rotations), copies versus several tables, --drop, and
the same deal across files, formats and seat rotations."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.deals import deal_key, full_deal_problem, hand_masks, is_full_deal
from pbntool.dev.generate import random_boards
from pbntool.formats import read_input
from pbntool.formats.json import dumps_line
from pbntool.formats.pbn import iter_records, parse
from pbntool.model import ALL_CARDS, Deal, Hand, Seat
from pbntool.records import Record
from pbntool.text.inputs import iter_inputs
from pbntool.tools.dedupe import DuplicateIndex, GroupKind, occurrence_of

MODULE = (sys.executable, "-m", "pbntool")


def run(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    return subprocess.run([*MODULE, *map(str, args)], capture_output=True, env=env, timeout=300)


def game(number: int, hands: tuple[Hand, ...], result: str = "", rotation: int = 0) -> str:
    """A game whose hands are moved ``rotation`` seats clockwise (N's hand goes to E...).

    ``result`` is ``"4S S 10"``: contract, declarer (before rotating) and tricks.
    """
    seats = [Seat(i).next(rotation) for i in range(4)]
    placed = [hands[0]] * 4
    for seat, hand in zip(seats, hands, strict=True):
        placed[seat] = hand
    lines = [f'[Board "{number}"]', f'[Deal "N:{" ".join(str(h) for h in placed)}"]']
    if result:
        contract, declarer, tricks = result.split()
        seat = Seat.from_letter(declarer).next(rotation).letter
        lines += [f'[Contract "{contract}"]', f'[Declarer "{seat}"]', f'[Result "{tricks}"]']
    return "\n".join(lines) + "\n\n"


def deals(count: int, seed: int) -> list[tuple[Hand, ...]]:
    boards = random_boards(seed, count, play=False)
    return [tuple(h for h in b.deal.hands if h is not None) for b in boards if b.deal]


# --- keys ----------------------------------------------------------------------------------------


@given(st.permutations(ALL_CARDS), st.integers(0, 3))
@settings(max_examples=100, deadline=None)
def test_a_rotated_deal_has_the_same_canonical_key(cards: list[object], steps: int) -> None:
    hands = tuple(Hand(cards[i * 13 : (i + 1) * 13]) for i in range(4))  # type: ignore[misc]
    masks = tuple(hand.mask for hand in hands)
    rotated = tuple(masks[(seat - steps) % 4] for seat in range(4))
    plain, turned = deal_key(masks, rotations=True), deal_key(rotated, rotations=True)  # type: ignore[arg-type]
    assert plain.text == turned.text
    assert (turned.rotation - plain.rotation) % 4 == (-steps) % 4
    key = deal_key(masks).text  # type: ignore[arg-type]
    assert len(key) == 52 and Counter(key) == {"N": 13, "E": 13, "S": 13, "W": 13}
    if steps:
        assert deal_key(rotated).text != key  # type: ignore[arg-type]


def test_key_spells_the_owner_of_each_card_spades_ace_first() -> None:
    board = parse(
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]'
    ).boards[0]
    assert board.deal is not None
    masks = hand_masks(board.deal)
    assert masks is not None
    assert deal_key(masks).text == "N" * 13 + "E" * 13 + "S" * 13 + "W" * 13


@pytest.mark.parametrize(
    ("deal", "problem"),
    [
        ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", None),
        ("N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432", "East is not known"),
        ("N:AKQJT9876543.2.. .AKQJT9876543.2. ..AKQJT9876543.2 2...AKQJT9876543", None),
        (
            "N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543",
            "North has 12 cards",
        ),
    ],
)
def test_full_deal_problems(deal: str, problem: str | None) -> None:
    board = parse(f'[Deal "{deal}"]').boards[0]
    assert board.deal is not None
    found = full_deal_problem(board.deal)
    assert (found is None) == (problem is None) and (problem is None or problem in str(found))
    assert is_full_deal(board.deal) == (problem is None)


def test_a_card_in_two_hands_is_not_a_full_deal() -> None:
    hand = Hand(ALL_CARDS[:13])
    deal = Deal((hand, Hand(ALL_CARDS[13:26]), Hand(ALL_CARDS[26:39]), hand))
    assert full_deal_problem(deal) == "a card is in two hands"


# --- the index -----------------------------------------------------------------------------------


def _records(text: str, name: str) -> list[Record]:
    return [r for r in iter_records(io.BytesIO(text.encode()), name) if r.board is not None]


def test_copies_and_tables_are_told_apart() -> None:
    one, two, three = deals(3, seed=4)
    text = (
        game(1, one, "4S S 10") + game(2, one, "4S S 10")  # a copy
        + game(3, two, "3NT N 9") + game(4, two, "4H E 8")  # two tables
        + game(5, three)  # alone
        + '[Board "6"]\n[Deal "N:AK.. - - -"]\n'  # no full deal
    )  # fmt: skip
    index = DuplicateIndex()
    repeats = [index.add(occurrence_of(record)) for record in _records(text, "x.pbn")]
    assert repeats == [False, True, False, True, False, False]
    groups = list(index.groups())
    assert [group.kind for group in groups] == [GroupKind.COPIES, GroupKind.TABLES]
    assert [o.board for o in groups[1].occurrences] == [3, 4]
    assert groups[1].results == ["3NT N 9", "4H E 8"]
    assert index.distinct == 3 and index.records == 5 and index.without_deal == 1
    by_result = DuplicateIndex(by_result=True)
    repeats = [by_result.add(occurrence_of(record)) for record in _records(text, "x.pbn")]
    assert repeats == [False, True, False, False, False, False]


def test_rotated_copies_match_only_with_rotations() -> None:
    (hands,) = deals(1, seed=9)
    text = game(1, hands, "4S S 10") + game(2, hands, "4S S 10", rotation=1)
    records = _records(text, "x.pbn")
    plain, rotating = DuplicateIndex(), DuplicateIndex()
    for record in records:
        plain.add(occurrence_of(record))
        rotating.add(occurrence_of(record, rotations=True))
    assert list(plain.groups()) == []
    (group,) = rotating.groups()
    assert group.kind is GroupKind.COPIES  # the declarer is compared after undoing the rotation
    assert {o.rotation for o in group.occurrences} in ({0, 3}, {1, 0}, {1, 2}, {2, 3})
    assert "rotated" in group.text()


# --- the command ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """a.pbn: five deals; b.pbn: two of them rotated, one played differently; c.pbn: a third
    written another way (hands from East, spaces, lower case), and a new deal."""
    folder = tmp_path_factory.mktemp("dedupe")
    hands = deals(6, seed=21)
    (folder / "a.pbn").write_text(
        "".join(game(n + 1, h, "3NT S 9") for n, h in enumerate(hands[:5])), encoding="utf-8"
    )
    (folder / "b.pbn").write_text(
        game(11, hands[0], "3NT S 9", rotation=1)  # rotated copy
        + game(12, hands[1], "3NT S 9", rotation=2)  # rotated copy
        + game(13, hands[2], "4H W 10"),  # another table
        encoding="utf-8",
    )
    other = game(21, hands[3], "3NT S 9") + game(22, hands[5], "1S N 7")
    east_first = [
        line if not line.startswith("[Deal") else _from_east(line) for line in other.splitlines()
    ]
    (folder / "c.pbn").write_text("\n".join(east_first) + "\n", encoding="latin-1")
    return folder


def _from_east(line: str) -> str:
    """``[Deal "N:n e s w"]`` written as ``[ Deal  "e:e s w n" ]``, lower case."""
    hands = line.split('"')[1][2:].split()
    return '[ Deal  "e:' + " ".join(hands[1:] + hands[:1]).lower() + '" ]'


def _groups(folder: Path, *options: str) -> list[dict[str, object]]:
    done = run(
        "dedupe", folder / "a.pbn", folder / "b.pbn", folder / "c.pbn", "--format", "json", *options
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _places(group: dict[str, object]) -> list[tuple[str, int]]:
    records = group["records"]
    assert isinstance(records, list)
    return [(Path(r["file"]).name, r["board"]) for r in records]


def test_report_across_files_and_formats(three_files: Path) -> None:
    groups = _groups(three_files)
    assert [_places(g) for g in groups] == [
        [("a.pbn", 3), ("b.pbn", 13)],
        [("a.pbn", 4), ("c.pbn", 21)],
    ]
    assert [g["kind"] for g in groups] == ["tables", "copies"]


def test_report_with_rotations(three_files: Path) -> None:
    groups = _groups(three_files, "--rotations")
    assert [_places(g) for g in groups] == [
        [("a.pbn", 1), ("b.pbn", 11)],
        [("a.pbn", 2), ("b.pbn", 12)],
        [("a.pbn", 3), ("b.pbn", 13)],
        [("a.pbn", 4), ("c.pbn", 21)],
    ]
    assert [g["kind"] for g in groups] == ["copies", "copies", "tables", "copies"]
    lines = [r["line"] for g in groups for r in g["records"]]  # type: ignore[attr-defined]
    assert all(isinstance(line, int) and line >= 1 for line in lines)


def test_text_report_names_file_board_and_line(three_files: Path) -> None:
    done = run("dedupe", three_files / "a.pbn", three_files / "b.pbn", "--rotations")
    text = done.stdout.decode()
    assert "2 records (copies)" in text and "2 results: several tables" in text
    assert "a.pbn:1 board 1: 3NT S 9" in text and "(rotated 1 seat)" in text
    assert "3 seen more than once (2 as copies, 1 at several tables)" in done.stderr.decode()


def test_drop_keeps_the_first_of_each_deal(three_files: Path) -> None:
    files = [three_files / "a.pbn", three_files / "b.pbn", three_files / "c.pbn"]
    done = run("dedupe", *files, "--rotations", "--drop")
    numbers = [board.number for board in parse(done.stdout.decode()).boards]
    assert numbers == [1, 2, 3, 4, 5, 22]
    assert "4 boards dropped" in done.stderr.decode()
    done = run("dedupe", *files, "--rotations", "--drop", "--keep-tables", "--to", "json")
    numbers = [json.loads(line)["board"] for line in done.stdout.splitlines()]
    assert numbers == [1, 2, 3, 4, 5, 13, 22]


def test_the_same_deal_in_json_lines_is_found(tmp_path: Path) -> None:
    import pbntool.formats.json

    if not hasattr(pbntool.formats.json, "iter_records"):
        pytest.skip("this branch has no JSON reader yet (it comes with the JSON/XML work)")
    (hands,) = deals(1, seed=5)
    (tmp_path / "a.pbn").write_text(game(1, hands, "4S S 10"), encoding="utf-8")
    board = parse(game(2, hands, "4S S 10")).boards[0]
    (tmp_path / "b.json").write_text(dumps_line(board) + "\n", encoding="utf-8")
    done = run("dedupe", tmp_path / "a.pbn", tmp_path / "b.json", "--format", "json")
    (group,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert _places(group) == [("a.pbn", 1), ("b.json", 2)]


@pytest.mark.corpus
def test_dedupe_over_corpus_files_agrees_with_an_independent_count(corpus_dir: Path) -> None:
    folder = corpus_dir / "ContractBridge__pbn-files/1996-10th_World_Bridge_Team_Olympiad"
    seen: Counter[tuple[int, ...]] = Counter()
    for source in iter_inputs([str(folder)]):
        for record in read_input(source):
            deal = record.board.deal if record.board is not None else None
            if deal is not None and is_full_deal(deal):
                seen[tuple(h.mask for h in deal.hands if h is not None)] += 1
    done = run("dedupe", folder, "--format", "json")
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr
    groups = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(g["count"] for g in groups) == sorted(n for n in seen.values() if n > 1)
    assert any(g["kind"] == "tables" for g in groups)  # open and closed rooms
