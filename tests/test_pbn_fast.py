"""The PBN fast path (``formats/pbn/fast.py``) gives exactly the records of the detailed path:
the same boards and, after the Laws checks, the same findings at the same file, line, column
and board, on every PBN file of the corpus, the fixtures, the fuzz seeds and mutations of
them.  And it is taken: a fast path that always declined would pass the comparison."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from test_fuzz import mutated_file, seeds

from pbntool.dev.generate import random_boards
from pbntool.diagnostics import Diagnostic
from pbntool.formats import pbn
from pbntool.formats.pbn.fast import LazySource, source_map
from pbntool.model import Board
from pbntool.records import validate_record

Read = list[tuple[Board | None, int, tuple[Diagnostic, ...]]]


def _read(data: bytes, name: str, *, fast_path: bool) -> Read:
    records = pbn.iter_records(io.BytesIO(data), name, fast=fast_path)
    return [(record.board, record.line, validate_record(record)) for record in records]


def _assert_same(data: bytes, name: str) -> None:
    detailed = _read(data, name, fast_path=False)
    quick = _read(data, name, fast_path=True)
    assert len(quick) == len(detailed), name
    for (board, line, found), (expected_board, expected_line, expected) in zip(
        quick, detailed, strict=True
    ):
        assert board == expected_board, f"{name}:{expected_line}"
        assert (line, found) == (expected_line, expected), f"{name}:{expected_line}"


def _pbn_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() == ".pbn")


@pytest.mark.corpus
def test_every_corpus_file_reads_the_same_on_both_paths(corpus_dir: Path) -> None:
    taken = games = 0
    for path in _pbn_files(corpus_dir):
        data = path.read_bytes()
        _assert_same(data, str(path))
        counted = _count_fast(data)
        taken, games = taken + counted[0], games + counted[1]
    # Most real files inherit with "#", and many carry commentary: still, over a third of
    # the corpus's games are well formed enough (13,253 of 28,380 when this was written).
    assert taken / games > 0.4, (taken, games)


def _count_fast(data: bytes) -> tuple[int, int]:
    """(games the fast path read, games) of one file."""
    taken = games = 0
    for record in pbn.iter_records(io.BytesIO(data), "count"):
        if record.board is not None:
            games += 1
            taken += isinstance(record.locator, LazySource)
    return taken, games


def test_fixtures_and_fuzz_seeds_read_the_same_on_both_paths() -> None:
    for path in _pbn_files(FIXTURES):
        _assert_same(path.read_bytes(), str(path))
    for number, data in enumerate(seeds()):
        _assert_same(data, f"seed {number}")


def test_generated_boards_take_the_fast_path() -> None:
    data = pbn.dumps(random_boards(7, 40)).encode("utf-8")
    taken, games = _count_fast(data)
    assert games == 40
    assert taken == 40  # the first game too: its escape lines are its commentary
    _assert_same(data, "generated")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_file())
def test_mutated_files_read_the_same_on_both_paths(data: bytes) -> None:
    _assert_same(data, "mutated")


def test_a_lazy_source_places_findings_as_the_detailed_source_map() -> None:
    data = pbn.dumps(random_boards(3, 3)).encode("utf-8")
    quick = list(pbn.iter_records(io.BytesIO(data), "x"))
    detailed = list(pbn.iter_records(io.BytesIO(data), "x", fast=False))
    paths = [("deal", 0), ("call", 2), ("card", 3, 1), ("tag", "Contract"), ("offset", 40)]
    for lazy, exact in zip(quick[1:], detailed[1:], strict=True):
        assert isinstance(lazy.locator, LazySource)
        for path in paths:
            assert lazy.locator.offset(path) == exact.locator.offset(path)  # type: ignore[union-attr]
        resolved = source_map(lazy.locator)
        assert resolved is not None and resolved.raw is not None
        assert [tag.name for tag in resolved.raw.tags] == [tag.name for tag in lazy.board.tags]  # type: ignore[union-attr]


def test_inheritance_is_resolved_on_the_fast_path() -> None:
    games = pbn.dumps(random_boards(5, 3), pbn.WriteOptions(line_ending="\n")).split("\n\n")
    first_event = games[0].split('[Event "', 1)[1].split('"', 1)[0]
    games[1:] = [re.sub(r'\[Event "[^"]*"\]', '[Event "#"]', game) for game in games[1:]]
    text = "\n\n".join(games)
    records = list(pbn.iter_records(io.BytesIO(text.encode()), "x"))
    assert [r.board.tag("Event") for r in records if r.board] == [first_event] * 3
    assert all(isinstance(r.locator, LazySource) for r in records[1:])
    written = [t.written for r in records if r.board for t in r.board.tags if t.name == "Event"]
    assert written == [None, "#", "#"]
    _assert_same(text.encode(), "inherit")


def test_games_with_something_off_take_the_detailed_path() -> None:
    written = pbn.dumps(random_boards(4, 1), pbn.WriteOptions(line_ending="\n"))
    clean = "\n".join(line for line in written.splitlines() if not line.startswith("%"))
    contract = re.search(r'\[Contract "([^"]*)"\]', clean)
    assert contract is not None
    assert isinstance(next(pbn.iter_records(io.BytesIO(clean.encode()), "x")).locator, LazySource)
    auction_line = clean.index("\n", clean.index("[Auction")) + 1
    for off in (
        clean.replace(contract.group(), '[Contract "3 NT X Y"]'),  # a value with a problem
        clean.replace("[Site", "{a comment}\n[Site"),  # commentary
        clean.replace("[Dealer", "[Dealer\t"),  # a tab
        clean.replace("[Site", '[Dealer "N"]\n[Site'),  # a repeated tag
        clean.replace("[Site", '[Room "#"]\n[Site'),  # "#" with nothing to inherit
        clean.replace("[Site", "Pass\n[Site"),  # data after a tag that holds none
        clean[:auction_line] + "\x1f" + clean[auction_line:],  # a control (split() sees a blank)
        clean[:auction_line] + " " + clean[auction_line:],  # a blank opening a data line
    ):
        records = list(pbn.iter_records(io.BytesIO(off.encode()), "x"))
        assert not any(isinstance(r.locator, LazySource) for r in records), off
        _assert_same(off.encode(), "off")
