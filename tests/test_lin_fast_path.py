"""The LIN reader's fast path against its detailed path: the same records either way.

A board on one line in BBO's usual shape is read in one step (``decode_line``) and its
positions are found only when a finding needs one; everything else, and any such line with
something to report, is read pair by pair.  ``iter_lin_records(..., fast=False)`` reads every
board pair by pair.  On every LIN file of the corpus (``MANIFEST.tsv``), the fixtures, the
fuzz seeds of ``test_lin_fuzz`` and mutations of them, both give the same records: boards
(equal model objects), reader findings and Laws findings (code, message, file, line, column,
board), rendered the same, and every position a finding or ``score --check`` may ask for.
"""

from __future__ import annotations

import csv
import io
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS
from hypothesis import HealthCheck, given, settings
from test_fuzz import examples
from test_lin_fuzz import _TAGS, _VALUES, _seeds, lin_pairs, mutated

import pbntool.formats.lin.reader as lin_reader
from pbntool.dev.generate import random_boards
from pbntool.formats import lin
from pbntool.formats.lin.lexer import GRAMMAR_TERMINALS, IGNORED_TERMINALS, PAIR, _tokens
from pbntool.formats.lin.split import _LIN_HEADER, _header_and_room
from pbntool.model import Board, Seat
from pbntool.records import Record, validate_record
from pbntool.run.tasks import OutputFormat, format_diagnostic
from pbntool.text.grammars import ScannerLexer, build_parser, load_parser
from pbntool.text.source import DecodedText

REPO = Path(__file__).resolve().parent.parent
FIXTURES = sorted((REPO / "fixtures" / "lin").rglob("*.lin")) + sorted(
    (REPO / "fixtures" / "lin").rglob("*.txt")
)


def _read(data: bytes, name: str, fast: bool) -> list[Record]:
    return list(lin_reader.iter_lin_records(DecodedText(io.BytesIO(data)), name, fast=fast))


def _paths(board: Board | None) -> list[tuple[object, ...]]:
    """Every model path a finding can carry on this board (and a few it cannot)."""
    paths: list[tuple[object, ...]] = [("offset", 0)]
    names = {"Board", "Deal", "Dealer", "Vulnerable", "Auction", "Play", "Result", "Room"}
    names |= {"North", "East", "South", "West", "Contract", "Declarer", "Event", "Score"}
    if board is not None:
        names |= {tag.name for tag in board.tags}
    for name in sorted(names):
        paths += [("tag", name), ("tag_value", name), ("section", name)]
    paths += [("deal", seat) for seat in Seat]
    calls = len(board.auction.calls) if board is not None and board.auction is not None else 0
    paths += [("call", index) for index in range(-1, calls + 2)]
    tricks = len(board.play.tricks) if board is not None and board.play is not None else 0
    paths += [("card", trick, seat) for trick in range(tricks + 1) for seat in Seat]
    paths += [("note", "Auction", index) for index in range(4)]
    return paths


def _positions(record: Record) -> list[object]:
    locator = record.locator
    if locator is None:
        return []
    found: list[object] = []
    for path in _paths(record.board):
        offset = locator.offset(path)
        found.append((path, offset, None if offset is None else locator.position(offset)))
    return found


def _rendered(record: Record) -> list[str]:
    return [
        format_diagnostic(diagnostic, form)
        for diagnostic in validate_record(record)
        for form in OutputFormat
    ]


def assert_same_either_way(data: bytes, name: str) -> list[Record]:
    """Read ``data`` both ways and compare everything; the fast path's records."""
    fast, detailed = _read(data, name, True), _read(data, name, False)
    assert len(fast) == len(detailed), name
    for quick, slow in zip(fast, detailed, strict=True):
        assert quick == slow, name  # board, reader findings, file, first line
        assert validate_record(quick) == validate_record(slow), name
        assert _rendered(quick) == _rendered(slow), name
        assert _positions(quick) == _positions(slow), name
    return fast


@cache
def _corpus_lin_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        paths = {row["local_path"] for row in rows if row["format"] == "lin"}
    return [CORPUS / path for path in sorted(paths)]


@pytest.mark.corpus
def test_every_corpus_lin_file_reads_the_same_either_way(corpus_dir: Path) -> None:
    files = _corpus_lin_files()
    assert len(files) > 700
    for path in files:
        assert_same_either_way(path.read_bytes(), str(path))


def test_every_fixture_reads_the_same_either_way() -> None:
    assert len(FIXTURES) > 20
    for path in FIXTURES:
        assert_same_either_way(path.read_bytes(), path.name)


def test_the_fuzz_seeds_read_the_same_either_way() -> None:
    for index, seed in enumerate(_seeds()):
        assert_same_either_way(seed, f"seed{index}.lin")


def _mutations(data: bytes, rng: random.Random) -> bytes:
    """One to six edits of the kinds ``test_lin_fuzz.mutated`` makes, plus the edits that
    keep a board line in shape: a card, call, hand or number changed, a pair repeated."""
    edited = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not edited:
            break
        where = rng.randrange(len(edited))
        action = rng.choice(["flip", "cut", "pipe", "unpipe", "dup", "letter", "case", "pair"])
        if action == "flip":
            edited[where] = rng.randrange(256)
        elif action == "cut":
            del edited[where:]
        elif action == "pipe":
            edited[where:where] = b"|"
        elif action == "unpipe":
            found = edited.find(b"|", where)
            if found >= 0:
                del edited[found]
        elif action == "dup":
            edited[where:where] = edited[where : where + rng.randint(1, 200)]
        elif action == "letter":
            edited[where] = rng.choice(b"SHDCAKQJT98765432pdrxNn!1-,\n ")
        elif action == "case":
            edited[where : where + 1] = bytes(edited[where : where + 1]).swapcase()
        else:
            pairs = list(re.finditer(rb"[a-z]{2}\|[^|]*\|", bytes(edited)))
            if pairs:
                pair = rng.choice(pairs).group()
                edited[where:where] = pair
    return bytes(edited)


def test_mutated_seeds_read_the_same_either_way() -> None:
    rng = random.Random(20261202)
    seeds = [*_seeds(), lin.dumps(random_boards(41, 40)).encode()]
    for index in range(600):
        seed = seeds[index % len(seeds)]
        assert_same_either_way(_mutations(seed, rng), f"mutated{index}.lin")


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_fuzzed_files_read_the_same_either_way(data: bytes) -> None:
    assert_same_either_way(data, "fuzz.lin")


def test_any_pair_between_board_lines_reads_the_same_either_way() -> None:
    """A board read in one step is held until the next item shows whether its table is over:
    every tag (any case, with a value or none, on its own line or not) after, before and
    between board lines, and text that is not a pair at all."""
    first, second = lin.dumps(random_boards(5, 2)).splitlines()
    others = [f"{tag}|{value}|" for tag in _TAGS for value in ("", "1", "o1", "p", "SA")]
    others += [f"{tag}|{value}|" for tag, value in zip(_TAGS * 2, _VALUES, strict=False)]
    others += ["junk", "||", "mb|p", "nt|open", " ", "pn|a,b,c,d|st||"]
    for other in others:
        for text in (
            f"{first}\n{other}\n{second}\n",
            f"{first}{other}\n{second}\n",
            f"{other}\n{first}\n",
            f"{first}\n{other}",
            f"{other}{first}\n",
        ):
            assert_same_either_way(text.encode(), "between.lin")


@settings(max_examples=examples(150), deadline=None)
@given(lin_pairs, lin_pairs)
def test_random_pairs_around_board_lines_read_the_same_either_way(before: str, after: str) -> None:
    lines = lin.dumps(random_boards(13, 3)).splitlines()
    text = "\n".join([before, lines[0], after, lines[1], lines[2] + after, ""])
    assert_same_either_way(text.encode(), "around.lin")


def test_generated_boards_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison means something only if the fast path is taken: on BBO hand-record
    lines no board is read pair by pair."""
    text = lin.dumps(random_boards(7, 200)).encode()
    assert_same_either_way(text, "generated.lin")
    detailed: list[object] = []
    real = lin_reader.decode_table
    monkeypatch.setattr(lin_reader, "decode_table", lambda t: detailed.append(t) or real(t))
    records = _read(text, "generated.lin", True)
    assert sum(1 for record in records if record.board is not None) == 200
    assert detailed == []


def test_a_finding_on_a_fast_board_is_placed_as_the_detailed_read_places_it() -> None:
    """A board read in one step whose Laws checks find something (a card its player does
    not hold): the finding's line and column come from the pair-by-pair read of its line."""
    line = lin.dumps(random_boards(3, 1)).splitlines()[0]
    first_card = line.index("|pc|") + 4
    other = "SA" if line[first_card : first_card + 2] != "SA" else "SK"
    text = f"{line}\n{line[:first_card]}{other}{line[first_card + 2 :]}\n"
    records = assert_same_either_way(text.encode(), "finding.lin")
    found = [d for record in records for d in validate_record(record)]
    assert found and all(d.line == 2 and d.column is not None for d in found)


def test_the_lexer_spells_the_grammars_terminals_as_lark_does() -> None:
    """The reader scans with the terminals of grammars/lin.lark written out (it loads no Lark):
    they must be the very expressions Lark builds from the grammar."""
    lexer = ScannerLexer(load_parser("lin").lexer_conf)
    union = "|".join(f"(?P<{name}>{pattern})" for name, pattern in GRAMMAR_TERMINALS)
    assert (union, IGNORED_TERMINALS) == (lexer.pattern.pattern, lexer.ignored)
    parser = build_parser("lin", "pair_item")
    blank, tag, value = (
        parser.get_terminal(name).pattern.to_regexp() for name in ("_BLANK", "TAG", "VALUE")
    )
    assert rf"(?:{blank})?(?P<tag>{tag})(?:{blank})?\|(?P<value>{value})\|(?:{blank})?" == PAIR


def test_reading_lin_loads_no_lark() -> None:
    code = (
        "import io, sys; from pbntool.formats import lin; "
        "lin.parse(open(sys.argv[1], 'rb').read(), validate=True); "
        "print('lark' in sys.modules)"
    )
    path = REPO / "fixtures" / "lin" / "invalid" / "LIN001_text_that_is_not_a_pair.lin"
    found = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                           text=True, check=True, cwd=REPO)  # fmt: skip
    assert found.stdout.strip() == "False"


def test_the_scanner_gives_the_tokens_of_the_grammar() -> None:
    """Scanning with the terminals (a board line first) gives Lark's tokens, a board line
    being the grammar's PAIRS."""
    texts = [seed.decode("utf-8", "replace") for seed in _seeds()]
    texts += [path.read_text("utf-8", "replace") for path in FIXTURES]
    rng = random.Random(7)
    texts += [_mutations(seed, rng).decode("utf-8", "replace") for seed in _seeds() * 10]
    parser = load_parser("lin")
    for text in texts:
        expected = [
            (token.type, token.start_pos, token.start_pos + len(token))
            for token in parser.parse(text).children
        ]
        scanned = [
            ("PAIRS" if found.lastgroup == "BOARD" else found.lastgroup, *found.span())
            for found in _tokens(text)
        ]
        assert scanned == expected


def test_the_header_hint_never_misses_a_header() -> None:
    """The planner looks for a segment header in the lower-cased text first: it must find
    every chunk ``_LIN_HEADER`` finds, whatever the case of the tags."""
    rng = random.Random(11)
    pieces = ["vg", "VG", "rS", "R\u017f", "pw", "Mp", "bN", "xvg", "|", " ", "\t", "\n", "pn",
              "\u0130", "\u212a", "qx", "QX", "a", "|st||"]  # fmt: skip
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        # A chunk may go on from a piece of a long line: the end of the previous piece counts.
        before = rng.choice(["", "", "v", "xv", "q", "Q", " b", "a|"])
        joined = before + text
        header, room = _header_and_room(text, before)
        assert header == (_LIN_HEADER.search(joined) is not None), repr(joined)
        assert (room is None) == (re.search("qx", joined, re.I) is None), repr(joined)


def test_only_the_long_s_is_a_header_letter_that_lower_case_misses() -> None:
    """Why the hint replaces U+017F alone: of every character a case-blind expression takes
    for a letter of ``vg rs pw mp bn qx``, it is the only one whose lower case is not it."""
    letters = set("vgrspwmbnqx")
    odd = [
        char
        for char in map(chr, range(sys.maxunicode + 1))
        if char.lower() not in letters and re.fullmatch("[vgrspwmbnqx]", char, re.I)
    ]
    assert odd == ["\u017f"]
