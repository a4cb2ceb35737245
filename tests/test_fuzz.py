"""Fuzzing the reader, the writers and the command line: never a traceback, never a hang.

Inputs: arbitrary bytes and text; text built from PBN's own alphabet (brackets, quotes,
braces, ``%``, ``;``, calls, cards, ``#``, ``\\``, line ends); structured games with random
tag values and section data; mutations of real files (``fixtures/``, generated boards and a
sample of the shared corpus: byte flips, truncation, splicing two files, deleting,
duplicating and swapping lines, inserting ``{`` ``"`` and other specials, repeating a
chunk); and hand-made adversarial inputs aimed at the regular expressions and the game
splitter.  For every input (``check_reading``): reading and validating raises nothing and
reports no ``INT001`` (an internal failure the reader caught), every diagnostic has a known
code, the file and a line; every board converts to JSON; the canonical PBN reads back with
as many boards and no error the original did not have, and writes back byte for byte.  The
command line gets random and mutated input on stdin and as a file, in process (many
examples) and as a subprocess (a few): exit code 0 or 1, never a traceback.

Each example runs under a CPU-time bound (``CPU_SECONDS``), enforced by a ``SIGPROF`` timer
(``ITIMER_PROF`` counts this process's CPU time, so a busy machine does not make it flaky)
and backed by a wall-clock ``SIGALRM``.

The tests at the end of the file pin the bugs this fuzzing found (all fixed since): super-
linear inputs, huge numbers, running defaults of section and table tags, Ctrl-Z, huge table
column widths.

The default run takes about 40 s; ``PBNTOOL_FUZZ_SCALE=20`` runs 20 times more examples.
"""

from __future__ import annotations

import gc
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import FrameType

import pytest
from conftest import CORPUS, FIXTURES, exit_is_clean
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from pbntool.cli import app
from pbntool.dev.generate import random_boards
from pbntool.diagnostics import CATALOGUE, Diagnostic, Severity
from pbntool.formats import pbn
from pbntool.formats.json import dumps_line
from pbntool.formats.pbn.writer import WriteOptions, dumps
from pbntool.model import Board
from pbntool.records import validate_record

CPU_SECONDS = 5.0
WALL_SECONDS = 60.0
SCALE = max(1.0, float(os.environ.get("PBNTOOL_FUZZ_SCALE", "1")))


def examples(count: int) -> int:
    return int(count * SCALE)


# --- the time bound --------------------------------------------------------------------------


class _Overrun(BaseException):
    """Raised by the timers; a BaseException so that no ``except Exception`` swallows it."""


def _overrun(signum: int, frame: FrameType | None) -> None:
    raise _Overrun(signal.Signals(signum).name)


@contextmanager
def time_bound(cpu_seconds: float = CPU_SECONDS) -> Iterator[None]:
    """Fail when the block uses more than ``cpu_seconds`` of CPU (a hang or catastrophic
    backtracking), or more than ``WALL_SECONDS`` of wall-clock time."""
    handlers = signal.signal(signal.SIGPROF, _overrun), signal.signal(signal.SIGALRM, _overrun)
    # A full garbage collection of the test process's heap (Hypothesis keeps a lot alive in
    # long runs) can take seconds; it says nothing about the reader, so it waits until after.
    collecting = gc.isenabled()
    gc.disable()
    started = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    signal.setitimer(signal.ITIMER_REAL, WALL_SECONDS)
    try:
        yield
    except _Overrun as overrun:
        raise AssertionError(
            f"over the time bound ({overrun}): more than {cpu_seconds} s of CPU "
            f"or {WALL_SECONDS} s of wall-clock time"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, handlers[0])
        signal.signal(signal.SIGALRM, handlers[1])
        if collecting:
            gc.enable()
    used = time.process_time() - started
    assert used < cpu_seconds, f"{used:.1f} s of CPU time"


# --- what must hold for every input ----------------------------------------------------------


def malformed(diagnostics: Iterable[Diagnostic], name: str) -> list[str]:
    """Diagnostics that are internal failures or lack a code, file or line."""
    bad = []
    for diagnostic in diagnostics:
        if diagnostic.code == "INT001" or diagnostic.code not in CATALOGUE:
            bad.append(f"code: {diagnostic}")
        elif diagnostic.file != name:
            bad.append(f"file: {diagnostic}")
        elif diagnostic.line is None or diagnostic.line < 1:
            bad.append(f"line: {diagnostic}")
        elif diagnostic.column is not None and diagnostic.column < 1:
            bad.append(f"column: {diagnostic}")
    return bad


@dataclass
class Reading:
    """The boards of an input, each board's error codes, and every diagnostic."""

    boards: list[Board] = field(default_factory=list)
    board_errors: list[set[str]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def read(data: bytes, name: str) -> Reading:
    reading = Reading()
    for record in pbn.iter_records(io.BytesIO(data), name):
        found = validate_record(record)
        reading.diagnostics.extend(found)
        if record.board is not None:
            reading.boards.append(record.board)
            reading.board_errors.append({d.code for d in found if d.severity >= Severity.ERROR})
    return reading


def check_reading(data: bytes | str, cpu_seconds: float = CPU_SECONDS) -> Reading:
    """Read and validate, convert to JSON and to PBN, read the PBN back and write it again,
    within the time bound: no exception, no internal failure, well-formed diagnostics; the
    converted text gives as many boards, no new error, and writes back byte for byte."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with time_bound(cpu_seconds):
        original = read(raw, "fuzz.pbn")
        for board in original.boards:
            assert isinstance(json.loads(dumps_line(board, file="fuzz.pbn")), dict)
        text = dumps(original.boards)
        again = read(text.encode("utf-8"), "again.pbn")
        text_again = dumps(again.boards)
    assert malformed(original.diagnostics, "fuzz.pbn") == []
    assert malformed(again.diagnostics, "again.pbn") == []
    assert len(again.boards) == len(original.boards)
    new_errors = [
        (index, sorted(after - before))
        for index, (before, after) in enumerate(
            zip(original.board_errors, again.board_errors, strict=True)
        )
        if after - before
    ]
    assert new_errors == [], "the converted boards have errors the original did not"
    assert text_again == text, "canonical output is not stable"
    return original


# --- strategies ------------------------------------------------------------------------------

TAG_NAMES = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
    "Auction",
    "Play",
    "Note",
    "Score",
    "ScoreIMP",
    "ScoreMP",
    "OptimumScore",
    "Room",
    "Round",
    "Stage",
    "Time",
    "UTCTime",
    "Generator",
    "Annotator",
    "Competition",
    "Hidden",
    "Mode",
    "Section",
    "Table",
    "Termination",
    "BidSystemNS",
    "HomeTeam",
    "ScoreTable",
    "TotalScoreTable",
    "ActionTable",
    "OptimumResultTable",
    "OptimumPlayTable",
    "DoubleDummyTricks",
    "Application",
    "X_Unknown",
)

TAG_VALUES = (
    "",
    "?",
    "#",
    "N",
    "E",
    "S",
    "W",
    "None",
    "NS",
    "EW",
    "All",
    "Both",
    "Love",
    "-",
    "^S",
    "1",
    "13",
    "0",
    "7NTXX",
    "3NT",
    "4SX",
    "Pass",
    "2H",
    "5D",
    "1C",
    "9",
    "^5",
    "NS 9 EW 4",
    "NS 620",
    "EW -100",
    "+450",
    "2024.01.31",
    "1995.??.10",
    "12:00:00",
    "MP",
    "IMP",
    "Cavendish",
    "N:AKQJ.T98.765.432 - - -",
    "N:QT95.A4.A74.Q863 A3.KJ9.Q986.KT74 J86.T832.JT5.J52 K742.Q765.K32.A9",
    "W:- .63.AKQ987.A9732 - J973.J98742.3.K4",
    "E:AKQ..T98765.2 - - -",
    "1:non-forcing",
    "2:two suits",
    "Rank;Call\\4L;Percentage\\3R",
    "PairId_NS\\2R;Score_NS\\6R;MP_EW",
    "Declarer;Denomination\\2R;Result\\2R",
    'a \\" quote',
    "back\\\\slash",
    "é ß 中",
)

SECTION_WORDS = (
    "Pass",
    "pass",
    "X",
    "XX",
    "1C",
    "1D",
    "1H",
    "1S",
    "1NT",
    "1N",
    "2NT",
    "3NT",
    "4S",
    "7NT",
    "AP",
    "-",
    "*",
    "+",
    "=1=",
    "=2=",
    "=99=",
    "$1",
    "$13",
    "!",
    "?",
    "!!",
    "?!",
    "^S",
    "^I",
    "^R",
    "^L",
    "SA",
    "HK",
    "DQ",
    "CJ",
    "ST",
    "S10",
    "H2",
    "D9",
    "C3",
    "sa",
    "{comment}",
    "{",
    "}",
    ";note",
    '"string"',
    "N",
    "NT",
    "6",
    "12",
    "Z9",
)

PIECES = (
    "[",
    "]",
    '"',
    "{",
    "}",
    "%",
    ";",
    "#",
    "\\",
    "\\\\",
    '\\"',
    "\n",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    " ",
    " ",
    "\t",
    "\x1a",
    "\x00",
    "\ufeff",
    "é",
    "% PBN 2.1\n",
    "% EXPORT\n",
    "*",
    "+",
    "-",
    "^",
    "=",
    "$",
    ":",
    ".",
    *TAG_NAMES[:16],
    *SECTION_WORDS,
    '[Event "x"]',
    '[Board "1"]',
    '[Dealer "N"]',
    '[Auction "N"]',
    '[Play "E"]',
    '[Note "1:x"]',
    '[Deal "N:AKQJ.T98.765.432 - - -"]',
    '[Contract "4S"]',
    '[Declarer "S"]',
)

pbn_alphabet_text = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)


@st.composite
def tag_pair(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(TAG_NAMES))
    value = draw(
        st.one_of(
            st.sampled_from(TAG_VALUES),
            st.text(st.sampled_from('ABCDEFGHJKQTNSWXP0123456789.:;- \\"^#?'), max_size=30),
        )
    )
    if '"' in value or "\\" in value:
        value = draw(st.sampled_from((value, value.replace("\\", "\\\\").replace('"', '\\"'))))
    blank = draw(st.sampled_from(("", "", " ", "  ", "\n")))
    return f'[{name}{blank or " "}"{value}"{blank}]'


@st.composite
def section_data(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(SECTION_WORDS), max_size=60))
    separators = draw(st.lists(st.sampled_from((" ", " ", "  ", "\n", "\t")), min_size=len(words)))
    return "".join(word + separator for word, separator in zip(words, separators, strict=False))


@st.composite
def structured_games(draw: st.DrawFn) -> str:
    """Games made of tag pairs (mostly meaningful values) and section data."""
    games = []
    for _ in range(draw(st.integers(1, 4))):
        lines = []
        for _ in range(draw(st.integers(0, 14))):
            lines.append(draw(tag_pair()))
            if draw(st.integers(0, 3)) == 0:
                lines.append(draw(section_data()))
        games.append("\n".join(lines))
    separator = draw(st.sampled_from(("\n\n", "\r\n\r\n", "\n \n", "\n")))
    return separator.join(games)


# --- seeds for mutation: fixtures, generated boards, the corpus ------------------------------

MAX_SEED_BYTES = 48 * 1024
CORPUS_SEEDS = 120


@cache
def seeds() -> tuple[bytes, ...]:
    """Real files to mutate: every PBN under ``fixtures/``, generated boards, and a fixed
    sample of the corpus's smaller files (bounded so that each example stays fast)."""
    found = [
        path.read_bytes()[:MAX_SEED_BYTES]
        for path in sorted(FIXTURES.rglob("*"))
        if path.is_file() and path.suffix.lower() == ".pbn"
    ]
    found.append(dumps(random_boards(11, 3)).encode("utf-8"))
    found.append(dumps(random_boards(12, 2), WriteOptions(line_ending="\n")).encode("utf-8"))
    if CORPUS.is_dir():
        small = sorted(
            path
            for path in CORPUS.rglob("*")
            if path.is_file()
            and path.suffix.lower() == ".pbn"
            and path.stat().st_size <= MAX_SEED_BYTES
        )
        sample = random.Random(20240601).sample(small, min(CORPUS_SEEDS, len(small)))
        found.extend(path.read_bytes() for path in sample)
    return tuple(found)


INSERTS: tuple[bytes, ...] = (
    *(b"{", b'"', b"}", b"[", b"]", b"\\", b"%", b";", b"\n", b"\r\n\r\n", b"\n\n", b"#"),
    *(b"\x1a", b"\xef\xbb\xbf", b"\xff\xfe", b"\xe9", b"\x00", b"=1=", b"*", b"^"),
)


@st.composite
def mutated_file(draw: st.DrawFn) -> bytes:
    """A seed file after one to six mutations."""
    pool = seeds()
    data = bytearray(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 6))):
        operation = draw(
            st.sampled_from(
                ("flip", "truncate", "splice", "delete", "duplicate", "insert", "swap", "repeat")
            )
        )
        position = draw(st.integers(0, max(0, len(data))))
        if operation == "flip" and data:
            at = min(position, len(data) - 1)
            data[at] = draw(st.integers(0, 255))
        elif operation == "truncate":
            del data[position:]
        elif operation == "splice":
            other = draw(st.sampled_from(pool))
            data = data[:position] + other[draw(st.integers(0, len(other))) :]
        elif operation in ("delete", "duplicate", "swap"):
            lines = data.split(b"\n")
            first = draw(st.integers(0, len(lines) - 1))
            span = draw(st.integers(1, 3))
            chunk = lines[first : first + span]
            if operation == "delete":
                del lines[first : first + span]
            elif operation == "duplicate":
                lines[first:first] = chunk
            else:
                second = draw(st.integers(0, len(lines) - 1))
                lines[first], lines[second] = lines[second], lines[first]
            data = bytearray(b"\n".join(lines))
        elif operation == "insert":
            data[position:position] = draw(st.sampled_from(INSERTS))
        elif operation == "repeat":
            end = draw(st.integers(position, min(len(data), position + 200)))
            data[position:position] = data[position:end] * draw(st.integers(2, 50))
    return bytes(data)


# --- hypothesis tests ------------------------------------------------------------------------


@settings(deadline=None, max_examples=examples(300))
@given(st.binary(max_size=3000))
def test_arbitrary_bytes(data: bytes) -> None:
    check_reading(data)


@settings(deadline=None, max_examples=examples(300))
@given(pbn_alphabet_text)
def test_pbn_alphabet_text(text: str) -> None:
    check_reading(text)


@settings(deadline=None, max_examples=examples(300))
@given(st.text(max_size=500))
def test_arbitrary_text(text: str) -> None:
    check_reading(text)


@settings(deadline=None, max_examples=examples(300))
@given(structured_games())
def test_structured_games(text: str) -> None:
    check_reading(text)


@settings(
    deadline=None,
    max_examples=examples(200),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_file())
def test_mutated_real_files(data: bytes) -> None:
    check_reading(data)


def test_seeds_are_clean_before_mutation() -> None:
    """The seeds themselves read without internal failures (so mutations start from sense)."""
    for data in seeds():
        check_reading(data)


# --- adversarial inputs ----------------------------------------------------------------------

_GAME = (
    '[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n'
    '[Auction "N"]\n1C Pass Pass Pass\n'
)
_OPENING = '[Dealer "N"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n[Contract "1C"]\n[Declarer "N"]\n'

ADVERSARIAL: dict[str, Callable[[], str]] = {
    "100k [": lambda: "[" * 100_000,
    '1 MB line of "': lambda: '"' * 1_000_000,
    "{ never closed, then 1000 games": lambda: "{\n\n" + (_GAME + "\n") * 1000,
    "{ never closed inside every game": lambda: ("{ stray\n" + _GAME + "\n") * 1000,
    "{ closed only at the end": lambda: "{" + (_GAME + "\n") * 1000 + "}",
    "10k backslashes": lambda: "\\" * 10_000,
    "10k backslashes in a tag": lambda: '[Event "' + "\\" * 10_000 + '"]\n',
    "10k backslashes, tag unterminated": lambda: '[Event "' + "\\" * 10_001,
    '20k \\" in a tag': lambda: '[Event "' + '\\"' * 20_000 + '"]\n',
    "30k =1= tokens": lambda: '[Dealer "N"]\n[Auction "N"]\n' + "=1=" * 30_000 + "\n",
    "20k calls with =1=": lambda: '[Dealer "N"]\n[Auction "N"]\n' + "1C =1= " * 20_000 + "\n",
    "10k cards with =1=": lambda: _OPENING + '[Play "E"]\n' + "SA =1= " * 10_000 + "\n",
    "=1= glued 5k times": lambda: '[Dealer "N"]\n[Auction "N"]\n1C' + "=1=!?$1" * 5_000,
    "20k calls": lambda: _OPENING + '[Auction "N"]\n' + "1C " * 20_000,
    "20k cards": lambda: _OPENING + '[Play "E"]\n' + "SA " * 20_000,
    "2k notes": lambda: (
        _OPENING
        + '[Auction "N"]\n1C =1= Pass\n'
        + "".join(f'[Note "{i}:x"]\n' for i in range(2_000))
    ),
    "4000-digit note number": lambda: '[Dealer "N"]\n[Auction "N"]\n1C =' + "9" * 4000 + "=\n",
    "4000-digit NAG": lambda: '[Dealer "N"]\n[Auction "N"]\n1C $' + "9" * 4000 + " Pass\n",
    "20k table rows": lambda: '[ScoreTable "PairId_NS;Score_NS"]\n' + "1 2\n" * 20_000,
    "5k-column table": lambda: (
        '[ScoreTable "' + ";".join(f"C{i}" for i in range(5_000)) + '"]\n' + "1 " * 5_000
    ),
    "200k ;": lambda: ";" * 200_000,
    "50k % lines": lambda: "%\n" * 50_000,
    "10k # tags": lambda: '[Event "#"]\n' * 10_000,
    "2k games inheriting #": lambda: (
        '[Event "a"]\n[Board "1"]\n\n' + '[Event "#"]\n[Board "#"]\n\n' * 2_000
    ),
    "20k tags in one game": lambda: "".join(f'[T{i} "v"]\n' for i in range(20_000)),
    "20k lone }": lambda: "}" * 20_000,
    "200k CR": lambda: "\r" * 200_000,
    "200k NUL": lambda: "\x00" * 200_000,
    "200 kB Deal value": lambda: '[Deal "N:' + "A" * 200_000 + '"]',
    "20k unclosed tags": lambda: "[Event " * 20_000,
    '20k [E "': lambda: '[E "' * 20_000,
    '20k ["': lambda: '["' * 20_000,
    "1 MB data line": lambda: '[Auction "N"]\n' + "x" * 1_000_000,
    "20k blanks in Date": lambda: '[Date "' + " " * 20_000 + 'x"]\n',
    "20k blanks in Deal": lambda: '[Deal "N:' + " " * 20_000 + 'x"]\n',
    "20k blanks in an escape line": lambda: "% PBN" + " " * 20_000 + 'x\n[Event "x"]\n',
    "20k blanks in Score": lambda: '[Score "NS' + " " * 20_000 + 'x"]\n',
    "20k digits in Score": lambda: '[Score "NS ' + "1" * 4_000 + 'x"]\n',
    "20k blanks in a Note": lambda: '[Auction "N"]\n1C =1=\n[Note "' + " " * 20_000 + 'x"]\n',
    # Over the game size limit (SRC009): skipped before parsing, the game after it read.
    "1.1 MB of } before a game": lambda: "}" * 1_100_000 + '\n[Event "x"]\n',
    "game over the size limit, then a game": lambda: (
        '[Event "a"]\n' + '[T "v"]\n' * 140_000 + '\n[Event "b"]\n'
    ),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input(name: str) -> None:
    check_reading(ADVERSARIAL[name]())


# Known super-linear behaviour (bugs).  Each input is small; a linear reader handles it in
# well under a tenth of the bound given here, the current one needs many times the bound.
SUPER_LINEAR: dict[str, tuple[Callable[[], str], float, str]] = {
    "10k {": (
        lambda: "{" * 10_000,
        1.0,
        "reader.py _Splitter._game_end/_open_brace: after each unclosed '{' the scan of the "
        "game restarts from its start, and _BRACE_SCAN's \\{[^}]* runs to the end of the text "
        "for every '{' passed: cubic in the number of unclosed braces in one game "
        "(2000: 2 s, 4000: 19 s, 8000: 130 s)",
    ),
    "20k blanks in Contract": (
        lambda: '[Contract "' + " " * 20_000 + 'q"]\n',
        1.0,
        "values.py _CONTRACT: \\s*([1-7])?\\s* backtracks quadratically over blanks (13 s)",
    ),
    "20k blanks in Result": (
        lambda: '[Result "' + " " * 20_000 + 'q"]\n',
        1.0,
        "values.py _RESULT: \\s*(\\^)?\\s* backtracks quadratically over blanks (10 s)",
    ),
    "20k digits in ScoreIMP": (
        lambda: '[ScoreIMP "' + "1" * 20_000 + 'q"]\n',
        1.0,
        "decode.py _decode_side_number: \\d+\\.?\\d* backtracks quadratically over digits (5 s)",
    ),
    "20k digits in OptimumScore": (
        lambda: '[OptimumScore "NS ' + "1" * 20_000 + 'q"]\n',
        1.0,
        "decode.py _decode_side_number: \\d+\\.?\\d* backtracks quadratically over digits (15 s)",
    ),
    "40k blanks in a malformed tag": (
        lambda: '[a "' + " " * 40_000 + "x\n",
        1.0,
        'reader.py _Builder.bad_tag: (.*?)("?)\\s*(\\]?)$ rescans the blanks from every '
        "position: quadratic (20k blanks: 5 s, 40k blanks: 21 s)",
    ),
    "20k Note tags in one game": (
        lambda: (
            _OPENING
            + '[Auction "N"]\n1C =1= Pass\n'
            + "".join(f'[Note "{i}:x"]\n' for i in range(20_000))
        ),
        5.0,
        "decode.py _attach_notes: any(given.index == note.index for given in notes[target]) "
        "for every note: quadratic in the notes of a game (20k notes: 7 s to read, 9 s to "
        "read the converted text)",
    ),
}


@pytest.mark.parametrize("name", sorted(SUPER_LINEAR))
def test_super_linear_input(name: str) -> None:
    make, bound, _ = SUPER_LINEAR[name]
    check_reading(make(), cpu_seconds=bound)


# int() refuses more than 4300 digits (CVE-2020-10735 limit, sys.get_int_max_str_digits()):
# every place that converts a digit string raises ValueError, the reader catches it and the
# whole game is lost as INT001.
HUGE = "9" * 5000
HUGE_NUMBERS = {
    "Board": f'[Board "{HUGE}"]\n',
    "Result": f'[Result "{HUGE}"]\n',
    "Score": f'[Score "{HUGE}"]\n',
    "Note index": f'[Dealer "N"]\n[Auction "N"]\n1C =1=\n[Note "{HUGE}:x"]\n',
    "NAG in the auction": f'[Dealer "N"]\n[Auction "N"]\n1C ${HUGE} Pass\n',
    "note reference in the auction": f'[Dealer "N"]\n[Auction "N"]\n1C ={HUGE}= Pass\n',
    "note reference in the play": f'[Play "N"]\nSA ={HUGE}=\n',
    "table column width": f'[ScoreTable "Score\\{HUGE}R"]\n1\n',
}


@pytest.mark.parametrize("where", sorted(HUGE_NUMBERS))
def test_huge_number(where: str) -> None:
    check_reading(HUGE_NUMBERS[where])


# --- the command line ------------------------------------------------------------------------


def pbntool_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m pbntool``."""
    script = Path(sys.executable).with_name("pbntool")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pbntool"]


def run_cli(arguments: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*pbntool_command(), *arguments],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def assert_clean_exit(done: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")[-3000:]
    stderr = done.stderr.decode("utf-8", "replace")
    assert exit_is_clean(done.returncode, stderr), stderr[-3000:]


def _random_input(seed: int) -> bytes:
    """Random bytes, or a mutated seed file, chosen by the seed."""
    rng = random.Random(seed)
    if seed % 2 == 0:
        return rng.randbytes(rng.randint(0, 4000))
    data = bytearray(rng.choice(seeds()))
    for _ in range(rng.randint(1, 8)):
        position = rng.randint(0, len(data))
        data[position:position] = rng.choice(INSERTS)
        if data and rng.random() < 0.5:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


CLI_COMMANDS = (
    ("validate", "--format", "json", "--fail-on", "info"),
    ("validate", "--select", "PBN,AUC", "--ignore", "PBN131"),
    ("convert", "--to", "pbn", "--validate"),
    ("convert", "--to", "json"),
    ("score", "--format", "json"),
    ("score",),
    ("show", "--ascii"),
    ("show", "--board", "1"),
)


@settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.one_of(mutated_file(), st.binary(max_size=2000), pbn_alphabet_text.map(str.encode)))
def test_cli_in_process(data: bytes) -> None:
    """Every command, run in this process on stdin (fast, so it can run many examples)."""
    runner = CliRunner()
    for command in CLI_COMMANDS:
        invoke_cleanly(runner, command, data)


def invoke_cleanly(runner: CliRunner, command: tuple[str, ...], data: bytes) -> Result:
    """Run ``pbntool COMMAND -`` on ``data`` in this process, within the time bound, and check
    that it ended with no traceback and a documented exit code."""
    with time_bound():
        done = runner.invoke(app, [*command, "-"], input=data)
    assert done.exception is None or isinstance(done.exception, SystemExit), (
        command,
        "".join(traceback.format_exception(done.exception)),
    )
    assert exit_is_clean(done.exit_code, done.output), (command, done.output[-2000:])
    return done


@pytest.mark.parametrize("seed", range(2))
def test_cli_validate_stdin(seed: int) -> None:
    assert_clean_exit(run_cli(["validate", "-", "--format", "json"], stdin=_random_input(seed)))


@pytest.mark.parametrize(
    "command",
    [list(command) for command in CLI_COMMANDS[::2]],
    ids=lambda command: " ".join(command),
)
def test_cli_file(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "fuzz.pbn"
    path.write_bytes(_random_input(5))
    assert_clean_exit(run_cli([*command, str(path)]))


@settings(deadline=None, max_examples=examples(3))
@given(st.binary(max_size=2000))
def test_cli_random_bytes_on_stdin(data: bytes) -> None:
    assert_clean_exit(run_cli(["convert", "--to", "json", "-"], stdin=data))


def test_running_default_of_a_section_tag_does_not_leak() -> None:
    original = read(b'[Auction "##"]\n\n[Event "x"]\n', "fuzz.pbn")
    again = read(dumps(original.boards).encode("utf-8"), "again.pbn")
    assert again.board_errors[1] <= original.board_errors[1]


def test_running_default_of_a_table_tag_round_trip_is_stable() -> None:
    text = dumps(
        read(b'[ScoreTable "##Rank"]\n\n[Event "x"]\n[ActionTable "Rank"]\n1\n', "f").boards
    )
    assert dumps(read(text.encode("utf-8"), "again.pbn").boards) == text


def test_ctrl_z_call_survives_round_trip() -> None:
    # The "[" (stray text, written as a comment before the data) keeps the Ctrl-Z from being
    # the last character of the input, which the reader rightly strips.
    # Written as '...[Auction "N"]\r\n{[}\r\n\x1a\r\n\r\n'.
    text = dumps(pbn.parse('[Auction "N"]\x1a[').boards)
    assert dumps(pbn.parse(text).boards) == text


def test_cli_convert_huge_table_column_width(tmp_path: Path) -> None:
    path = tmp_path / "width.pbn"
    path.write_text('[Event "x"]\n[OptimumResultTable "Declarer\\99999999999R"]\nN\n')
    assert_clean_exit(run_cli(["convert", "--to", "pbn", str(path)]))


def test_huge_table_column_width() -> None:
    reading = check_reading('[Event "x"]\n[OptimumResultTable "Declarer\\99999999999R"]\nN\n')
    assert len(dumps(reading.boards)) < 10_000


# --- injection into the writers (issue 12) ---------------------------------------------------
#
# A tag name or value, a player's name, a call or card token, a note or a comment that holds
# another format's syntax (a PBN tag pair, a LIN pair, an RBN label line, braces, a line break)
# must be refused or escaped by every text writer, with an OUT finding: what is written reads
# back as the one board written, never as more boards, other tags or other calls.

INJECTIONS = (
    '"]\n\n[Event "Injected"]\n[Board "99"]\n[Injected "x',
    'x"]\n[Injected "y"]',
    "|pn|Injected,b,c,d|md|1SA|ah|Board 99|pg||\nqx|o99|",
    "\nB 99\nE Injected\n",
    '}\n[Event "Injected"]\n{',
    "E{Injected}B{99}",
    'Injected]\n\n[Board "99"]',
    '\r\n\r\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]',
    "a\tb\x0bc\x0cd\x1ce\x85f\u2028g",
)
SYNTAX = '[]"{}\n\r\t|;%*,:+\\=$^!?-# ab'
HOSTILE = st.one_of(st.sampled_from(INJECTIONS), st.text(st.sampled_from(SYNTAX), max_size=16))
INJECTION_FORMATS = ("pbn", "lin", "json", "xml", "usebio", "dlm", "rbn", "rbx")


@cache
def _base_boards() -> tuple[Board, ...]:
    return tuple(random_boards(1212, 4))


@st.composite
def hostile_boards(draw: st.DrawFn) -> tuple[Board, frozenset[str]]:
    """A legal generated board with hostile text in its tags, names, calls, cards, notes and
    comments; and the names of the tags added."""
    from dataclasses import replace as with_

    from pbntool.model import Comment, CommentKind, Note, Tag, Token

    board = draw(st.sampled_from(_base_boards()))
    tags = list(board.tags)
    seat = draw(st.sampled_from(("North", "East", "South", "West", "Event", "Site")))
    tags = [t._replace(value=draw(HOSTILE)) if t.name == seat else t for t in tags]
    added = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.one_of(HOSTILE, st.sampled_from(("Xtra", "Annotator", "My_Tag"))))
        if name in added or board.tag(name) is not None:
            continue
        added.append(name)
        tags.append(Tag(name, draw(HOSTILE)))
    auction, play = board.auction, board.play
    if auction is not None and draw(st.booleans()):
        calls = list(auction.calls)
        calls.insert(draw(st.integers(0, len(calls))), Token(draw(HOSTILE) or "x"))
        notes = (*auction.notes, Note(9, draw(HOSTILE)))
        auction = with_(auction, calls=tuple(calls), notes=notes)
    if play is not None and play.tricks and draw(st.booleans()):
        tricks = [list(trick) for trick in play.tricks]
        tricks[-1][draw(st.integers(0, 3))] = Token(draw(HOSTILE) or "x")
        play = with_(play, tricks=tuple((t[0], t[1], t[2], t[3]) for t in tricks))
    commentary = (*board.commentary, Comment(draw(HOSTILE), draw(st.sampled_from(CommentKind))))
    hostile = with_(board, tags=tuple(tags), auction=auction, play=play, commentary=commentary)
    return hostile, frozenset(added)


def _write_and_read(form: str, board: Board) -> tuple[list[Board], list[Diagnostic], str]:
    from pbntool.formats import REGISTRY, Format, load
    from pbntool.formats.writing import open_writer

    spec = REGISTRY[Format(form)]
    stream = io.StringIO()
    writer = open_writer(spec.format, stream)
    losses = writer.write(board, "hostile.pbn")
    writer.close()
    text = stream.getvalue()
    assert spec.reader is not None
    reader = load(spec.reader)
    assert callable(reader)
    records = list(reader(io.BytesIO(text.encode("utf-8")), f"back{spec.output_suffix}"))
    assert not [d for r in records for d in r.diagnostics if d.code == "INT001"], form
    return [r.board for r in records if r.board is not None], list(losses), text


def _out(losses: list[Diagnostic]) -> str:
    return " ".join(f"{d.code} {d.message}" for d in losses if d.code.startswith("OUT"))


@pytest.mark.parametrize("form", INJECTION_FORMATS)
@settings(deadline=None, max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow])
@given(case=hostile_boards())
def test_writers_refuse_or_escape_what_would_break_their_syntax(
    form: str, case: tuple[Board, frozenset[str]]
) -> None:
    board, added = case
    check_injection(form, board, added)


@pytest.mark.parametrize("form", INJECTION_FORMATS)
@pytest.mark.parametrize("payload", INJECTIONS)
@pytest.mark.parametrize("field", ["Event", "North", "name", "value", "call", "comment"])
def test_every_injection_in_every_field_of_every_writer(
    form: str, payload: str, field: str
) -> None:
    from dataclasses import replace as with_

    from pbntool.model import Comment, CommentKind, Tag, Token

    board = _base_boards()[1]
    tags, auction, commentary = list(board.tags), board.auction, board.commentary
    assert auction is not None
    if field in ("Event", "North"):
        tags = [t._replace(value=payload) if t.name == field else t for t in tags]
    elif field == "name":
        tags.append(Tag(payload, "v"))
    elif field == "value":
        tags.append(Tag("Xtra", payload))
    elif field == "call":
        auction = with_(auction, calls=(*auction.calls[:1], Token(payload), *auction.calls[1:]))
    else:
        commentary = tuple(Comment(payload, kind) for kind in CommentKind)
    hostile = with_(board, tags=tuple(tags), auction=auction, commentary=commentary)
    checked = {"Event": "Event", "North": "North", "name": payload, "value": "Xtra"}.get(field)
    check_injection(form, hostile, frozenset({checked} if checked else ()), baseline=board)


def check_injection(
    form: str, board: Board, added: frozenset[str], baseline: Board | None = None
) -> None:
    """Written by ``form``'s writer and read back: one board (the same deal), no board 99,
    no tag name that came from a value, and what changed was reported (with ``baseline``,
    the board before the hostile text: a finding it did not have, or one naming the tag)."""
    from pbntool.formats.pbn.tags import KNOWN_TAGS
    from pbntool.model import Token

    with time_bound():
        back, losses, text = _write_and_read(form, board)
    found = _out(losses)
    before = "" if baseline is None else _out(_write_and_read(form, baseline)[1])
    kept = [b for b in back if b.deal == board.deal]
    if form == "dlm":
        kept = [b for b in back if b.number == board.number]
    assert len(kept) == 1, (form, text[:2000], found)
    assert all(b.number != 99 for b in back), (form, text[:2000])
    [again] = kept
    new_names = {t.name for t in again.tags} - {t.name for t in board.tags} - KNOWN_TAGS
    injected = {n for n in new_names if "Injected" in n or not n.replace("_", "a").isalnum()}
    assert not injected, (form, injected, text[:2000])
    for name in added:
        value = board.tag(name) or ""
        if form == "dlm" and name == "Event":
            continue  # the headline (one line), which the DLM reader does not read back
        if (again.tag(name) or "") != value and value.strip() not in ("", "?", "-", "#"):
            if form != "pbn" and " ".join((again.tag(name) or "").split()) == " ".join(
                value.split()
            ):
                continue  # runs of spaces, tabs and line breaks made one space: no syntax
            told = found != before or name in before
            assert found and told, (form, name, value, again.tag(name), "changed silently", found)
    if again.auction is not None and board.auction is not None:
        written = [c for c in board.auction.calls if not isinstance(c, Token)]
        read_calls = [c for c in again.auction.calls if not isinstance(c, Token)]
        assert read_calls == written or found != before, (form, read_calls, written, found)
    if form == "pbn":
        # Canonical PBN: what was written is what reads back, and writes again the same.
        assert pbn.dumps([again]) == text, (text[:2000], found)


def test_a_tag_name_that_closes_the_pair_is_refused_through_the_cli(tmp_path: Path) -> None:
    """The issue's case: a JSON tag name holding '"]' and line breaks wrote three boards."""
    source = tmp_path / "hostile.jsonl"
    board = _base_boards()[0]
    from dataclasses import replace as with_

    from pbntool.model import Tag

    hostile = with_(board, tags=(*board.tags, Tag(INJECTIONS[0], "v")))
    source.write_text(dumps_line(hostile, "x.pbn") + "\n", encoding="utf-8")
    out = tmp_path / "out.pbn"
    converted = run_cli(["convert", "--to", "pbn", str(source), "-o", str(out)])
    assert converted.returncode == 0
    assert b"OUT030" in converted.stderr
    assert len(pbn.parse(out.read_text(encoding="utf-8")).boards) == 1
