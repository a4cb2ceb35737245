"""Every PBN file of the shared corpus through the reader, the Laws checks and the writers.

The corpus (``../shared/corpus``, or ``$PBNTOOL_CORPUS``) holds some 730 PBN files collected
from public repositories, with a ``MANIFEST.tsv`` whose ``notes`` column says ``games=N``.
For each file:

* reading and validating raises nothing and reports no ``INT001`` (an internal failure), and
  every diagnostic is well formed: file, line >= 1, a column where the finding points into
  the text, a code from ``CATALOGUE``;
* the number of boards read is the manifest's ``games=N`` (the differences are explained
  one by one in ``KNOWN_COUNT_DIFFERENCES``);
* the boards convert to canonical PBN and to JSON; the PBN read back gives as many boards,
  no error the original did not have, and writes back byte for byte.

Then the command line runs once over the whole corpus (``validate --format json`` and
``convert --to json``): exit code 0 or 1, never a traceback, well-formed output.

Runtime on the development machine: about 10 s for reading and validating, 20 s for the
conversions, 20 s for the two command-line runs.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS

from pbntool.dev.docs_gen import COMMON_FINDINGS
from pbntool.diagnostics import CATALOGUE, Diagnostic, Severity
from pbntool.formats import lin, pbn
from pbntool.formats.json import dumps_line
from pbntool.formats.pbn.writer import dumps
from pbntool.model import Board
from pbntool.records import Record, validate_record

pytestmark = pytest.mark.corpus

MANIFEST = CORPUS / "MANIFEST.tsv"


def _pbn_files() -> list[str]:
    """Corpus-relative paths of every ``.pbn``/``.PBN`` file, sorted."""
    if not CORPUS.is_dir():
        return []
    return sorted(
        path.relative_to(CORPUS).as_posix()
        for path in CORPUS.rglob("*")
        if path.is_file() and path.suffix.lower() == ".pbn"
    )


PBN_FILES = _pbn_files()


def _club_result_files() -> dict[str, int]:
    """The USEBIO and BWS samples of ``corpus/club`` (read by their own readers), with the
    boards each gives: ``validate`` and ``convert`` over the corpus read them too."""
    from pbntool.formats import Format, read_input
    from pbntool.text.inputs import Input

    manifest = CORPUS / "club" / "MANIFEST.tsv"
    if not manifest.is_file():
        return {}
    found: dict[str, int] = {}
    with manifest.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            if row["format"] not in (Format.USEBIO.value, Format.BWS.value):
                continue
            path = CORPUS / "club" / row["local_path"]
            if path.is_file():
                records = read_input(Input(str(path), path))
                found[str(path)] = sum(1 for record in records if record.board is not None)
    return found


CLUB_SUFFIXES = (".dup", ".dlm", ".bri", ".dge", ".rbn", ".rbx")
"""The club formats a directory walk picks up too (their own tests: test_club_deal.py)."""


def _club_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix.lower() in CLUB_SUFFIXES)


def _club_boards() -> int:
    from pbntool.formats import read_input
    from pbntool.text.inputs import Input

    return sum(
        1
        for path in _club_files()
        for record in read_input(Input(path.name, path))
        if record.board is not None
    )


_NO_CORPUS = pytest.mark.skip(reason=f"corpus not found at {CORPUS} (set PBNTOOL_CORPUS)")
FILE_PARAMS: list[object] = [*PBN_FILES] or [pytest.param("<no corpus>", marks=_NO_CORPUS)]


def _require_corpus() -> None:
    if not PBN_FILES or not MANIFEST.is_file():
        pytest.skip(f"corpus not found at {CORPUS} (set PBNTOOL_CORPUS)")


# --- the manifest and the documented differences ---------------------------------------------

_GAMES = re.compile(r"\bgames=(\d+)\b")
_CLUB_BOARDS = re.compile(r"\b(\d+) boards\b")
"""The club manifest says "4 boards" where the main one says ``games=4``."""
_NOT_STORED = "duplicate content, not stored again"

# The manifest's games=N counts the games that carry a [Deal] tag (727 of the 729 files agree
# with that rule), not PBN games: a game is whatever a semi-empty line ends (PBN 2.1 §3.1).
_DEAL_COUNT = (
    "the manifest counts games with a Deal tag; this file also has games without one (test "
    "games of a PBN verifier's suite: tag-only, table-only and comment games, each a game)"
)
_DEAL_COUNT_ERRORS = (
    _DEAL_COUNT + "; a few of its games are so broken that they give no board, only "
    "diagnostics (PBN002 malformed tag pair, PBN004 stray text), and '1  {' in one game opens "
    "a brace comment closed by the '}' of the next game, which makes the two one game"
)
_SECTION_ONLY = (
    "the manifest counts games with a Deal tag; the second and fourth games of this file are "
    "the other table's result for the deal before (players, contract, auction, play only)"
)
_CURLIES = (
    "a test file of a PBN reader: after the Deal tag a brace comment spans a blank line and "
    "closes, then a blank line outside any comment ends the game, so the tags after it "
    "form a second game (the file's own text says 'This should be a new game'); the manifest "
    "counted one Deal tag"
)
KNOWN_COUNT_DIFFERENCES: dict[str, tuple[int, str]] = {
    "ContractBridge__pbnj/src/test/resources/correct_10.pbn": (31, _DEAL_COUNT),
    "ContractBridge__pbnj/src/test/resources/correct_20.pbn": (46, _DEAL_COUNT),
    "ContractBridge__pbnj/src/test/resources/errors_10.pbn": (72, _DEAL_COUNT_ERRORS),
    "ContractBridge__pbnj/src/test/resources/errors_20.pbn": (21, _DEAL_COUNT_ERRORS),
    "ContractBridge__pbnj/src/test/resources/errors_21.pbn": (2, _DEAL_COUNT),
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/correct_10.pbn": (31, _DEAL_COUNT),
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/correct_20.pbn": (46, _DEAL_COUNT),
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_10.pbn": (
        72,
        _DEAL_COUNT_ERRORS,
    ),
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_20.pbn": (
        21,
        _DEAL_COUNT_ERRORS,
    ),
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_21.pbn": (2, _DEAL_COUNT),
    "forrestrice__bridge-bots/bridgebots/tests/resources/shared_deals.pbn": (4, _SECTION_ONLY),
    "timheilman__bridge-pbn/spec/resource/test_record_with_lots_of_curlies.pbn": (2, _CURLIES),
    "timheilman__bridge-pbn/spec/resource/test_record_with_single_line_curly_comment.pbn": (
        2,
        _CURLIES,
    ),
}
"""Files whose board count differs from the manifest: corpus path → (boards, why)."""


@cache
def manifest_games() -> dict[str, int]:
    """Corpus path → ``games=N`` of every stored PBN file (0 when the notes give no count).

    A row noted "duplicate content, not stored again" names a file stored under another row.
    """
    games: dict[str, int] = {}
    # The club formats' samples (corpus/club/) have a manifest of their own, paths relative to it.
    for manifest, prefix in ((MANIFEST, ""), (CORPUS / "club" / "MANIFEST.tsv", "club/")):
        if not manifest.is_file():
            continue
        with manifest.open(encoding="utf-8", newline="") as stream:
            for row in csv.DictReader(stream, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row["format"] != "pbn" or _NOT_STORED in row["notes"]:
                    continue
                match = _GAMES.search(row["notes"]) or _CLUB_BOARDS.search(row["notes"])
                games.setdefault(prefix + row["local_path"], int(match.group(1)) if match else 0)
    return games


def expected_boards(relative: str) -> int:
    """How many boards the file must give: the documented count, else the manifest's."""
    if relative in KNOWN_COUNT_DIFFERENCES:
        return KNOWN_COUNT_DIFFERENCES[relative][0]
    return manifest_games()[relative]


# --- checks shared by the tests --------------------------------------------------------------


def diagnostic_problems(diagnostic: Diagnostic, name: str) -> list[str]:
    """What is wrong with the form of a diagnostic (nothing, for a well-formed one)."""
    problems = []
    if diagnostic.file != name:
        problems.append(f"file is {diagnostic.file!r}")
    if diagnostic.line is None or diagnostic.line < 1:
        problems.append(f"line is {diagnostic.line!r}")
    if diagnostic.column is not None and diagnostic.column < 1:
        problems.append(f"column is {diagnostic.column!r}")
    if diagnostic.path is not None and diagnostic.column is None:
        problems.append(f"no column although it points at {diagnostic.path!r}")
    if diagnostic.code not in CATALOGUE:
        problems.append("code not in CATALOGUE")
    if not diagnostic.message:
        problems.append("empty message")
    return [f"{diagnostic}: {problem}" for problem in problems]


@dataclass
class FileReading:
    """What reading and validating one input gave."""

    boards: list[Board]
    board_errors: list[set[str]]
    """Per board: codes of its error-severity diagnostics (reader and Laws)."""
    other_errors: set[str]
    """Codes of error-severity diagnostics that belong to no board."""
    diagnostics: list[Diagnostic]


def read_and_validate(records: Iterable[Record]) -> FileReading:
    reading = FileReading([], [], set(), [])
    for record in records:
        found = validate_record(record)
        reading.diagnostics.extend(found)
        errors = {d.code for d in found if d.severity >= Severity.ERROR}
        if record.board is not None:
            reading.boards.append(record.board)
            reading.board_errors.append(errors)
        else:
            reading.other_errors |= errors
    return reading


# --- the manifest agrees with the files ------------------------------------------------------


def test_manifest_lists_every_pbn_file() -> None:
    _require_corpus()
    listed = set(manifest_games())
    on_disk = set(PBN_FILES)
    assert sorted(on_disk - listed) == [], "PBN files the manifest does not list"
    assert sorted(listed - on_disk) == [], "manifest rows whose file is missing"


def test_documented_differences_are_still_differences() -> None:
    """Each allow-list entry names a corpus file whose manifest count really differs."""
    _require_corpus()
    games = manifest_games()
    stale = [
        relative
        for relative, (boards, _) in KNOWN_COUNT_DIFFERENCES.items()
        if relative not in games or games[relative] == boards
    ]
    assert stale == []


# --- every file, in process ------------------------------------------------------------------


@pytest.mark.parametrize("relative", FILE_PARAMS)
def test_read_and_validate(relative: str) -> None:
    """No exception, no INT001, well-formed diagnostics, and the expected number of boards."""
    path = CORPUS / relative
    name = str(path)
    reading = read_and_validate(pbn.read_file(path, name))

    internal = [str(d) for d in reading.diagnostics if d.code == "INT001"]
    assert internal == [], "internal failures while reading"
    malformed = [p for d in reading.diagnostics for p in diagnostic_problems(d, name)]
    assert malformed == []
    expected = expected_boards(relative)
    why = KNOWN_COUNT_DIFFERENCES.get(relative, (0, "manifest games=N"))[1]
    assert len(reading.boards) == expected, why


@pytest.mark.parametrize("relative", FILE_PARAMS)
def test_convert_round_trip(relative: str) -> None:
    """PBN and JSON conversion; the PBN read back is as good as the original, and stable."""
    path = CORPUS / relative
    original = read_and_validate(pbn.read_file(path, str(path)))

    for board in original.boards:
        line = dumps_line(board, file=str(path))
        assert "\n" not in line
        decoded = json.loads(line)
        assert decoded["board"] == board.number
        assert decoded["file"] == str(path)

    text = dumps(original.boards)
    again = read_and_validate(pbn.iter_records(io.BytesIO(text.encode("utf-8")), "converted"))
    assert len(again.boards) == len(original.boards)
    new_errors = {
        index: sorted(after - before)
        for index, (before, after) in enumerate(
            zip(original.board_errors, again.board_errors, strict=True)
        )
        if after - before
    }
    assert new_errors == {}, "errors the converted boards have and the original did not"
    assert again.other_errors <= original.other_errors
    assert dumps(again.boards) == text, "canonical output is not stable"


# --- the command line over the whole corpus --------------------------------------------------

JSON_KEYS = {"file", "line", "column", "board", "code", "severity", "message"}


def pbntool_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m pbntool``."""
    script = Path(sys.executable).with_name("pbntool")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pbntool"]


def run_cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*pbntool_command(), *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        stdin=subprocess.DEVNULL,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_cli_validate_whole_corpus() -> None:
    _require_corpus()
    done = run_cli("validate", str(CORPUS), "--format", "json", "-q")
    assert "Traceback" not in done.stderr
    assert "Traceback" not in done.stdout
    assert done.returncode in (0, 1), done.stderr[-2000:]

    corpus_files = {str(CORPUS / relative) for relative in PBN_FILES} | set(_club_result_files())
    corpus_files |= {str(path) for path in _club_files()}
    # split("\n"), not splitlines(): messages may quote U+2028 or U+0085, which JSON keeps.
    lines = done.stdout.split("\n")
    assert lines.pop() == "", "output must end with a line end"
    assert lines, "the corpus has findings: expected some output"
    bad = []
    for line in lines:
        finding = json.loads(line)
        if not isinstance(finding, dict) or set(finding) != JSON_KEYS:
            bad.append(f"keys: {line}")
        elif finding["code"] not in CATALOGUE or finding["code"] == "INT001":
            bad.append(f"code: {line}")
        elif finding["file"] not in corpus_files:
            bad.append(f"file: {line}")
        elif not isinstance(finding["line"], int) or finding["line"] < 1:
            bad.append(f"line: {line}")
        elif finding["severity"] not in ("info", "warning", "error"):
            bad.append(f"severity: {line}")
    assert bad == []
    has_errors = any(json.loads(line)["severity"] == "error" for line in lines)
    assert done.returncode == (1 if has_errors else 0)
    # docs/diagnostics.md's checklist (docs_gen.COMMON_FINDINGS) is of the ten most common.
    counts = Counter(json.loads(line)["code"] for line in lines)
    top = {code for code, _ in counts.most_common(len(COMMON_FINDINGS))}
    assert top == {common.code for common in COMMON_FINDINGS}, counts.most_common(12)


@pytest.mark.slow
def test_cli_convert_whole_corpus_to_json(tmp_path: Path) -> None:
    _require_corpus()
    output = tmp_path / "corpus.jsonl"
    done = run_cli("convert", str(CORPUS), "--to", "json", "-q", "-o", str(output))
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1), done.stderr[-2000:]
    count = 0
    with output.open(encoding="utf-8") as stream:
        for line in stream:
            board = json.loads(line)
            assert isinstance(board, dict)
            count += 1
    # The directory holds LIN files too (their own tests are in test_lin_corpus.py).
    lin_boards = sum(len(lin.parse(path.read_bytes()).boards) for path in CORPUS.rglob("*.lin"))
    club = sum(_club_result_files().values()) + _club_boards()
    assert count == sum(expected_boards(relative) for relative in PBN_FILES) + lin_boards + club


@pytest.mark.slow
def test_every_pbn_file_goes_through_rbn_and_rbx_and_back() -> None:
    """Each file as RBN and as RBX reads back to as many boards, and those boards write the
    same text again (what RBN carries is carried; what it cannot is an OUT020 of the first
    write: see test_rbn.py for the board-by-board comparison)."""
    _require_corpus()
    from pbntool.formats.rbn import RbnWriter, RbxWriter, iter_rbx_records, iter_records

    problems = []
    for relative in PBN_FILES:
        path = CORPUS / relative
        with path.open("rb") as stream:
            first = [record.board for record in pbn.iter_records(stream, relative) if record.board]
        for writer, reader in ((RbnWriter, iter_records), (RbxWriter, iter_rbx_records)):
            texts = []
            boards = first
            for round_trip in range(2):
                out = io.StringIO()
                write = writer(out)
                for board in boards:
                    write.write(board)
                texts.append(out.getvalue())
                if round_trip:
                    break  # the second text must be the first: reading it again adds nothing
                records = list(reader(io.BytesIO(out.getvalue().encode("utf-8")), relative))
                boards = [record.board for record in records if record.board]
                if len(boards) != len(first):
                    problems.append(f"{relative} {writer.__name__}: {len(first)} -> {len(boards)}")
            if texts[0] != texts[1]:
                problems.append(f"{relative} {writer.__name__}: not the same text again")
    assert problems == []
