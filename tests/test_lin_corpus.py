"""LIN on the shared corpus: every LIN file read, converted to PBN and back, and every PBN
file converted to LIN and back.

* Every LIN file reads with no internal failure, as many boards as ``MANIFEST.tsv`` says
  (``boards=N``), and no error (the corpus LIN files are clean BBO output).
* LIN→PBN→LIN keeps everything LIN has (``lin_views.lin_view``), vugraph rooms and the
  match header included, and LIN→LIN writes the same boards again.
* The boards LIN→PBN agree with the PBN files the corpus's converter (jarekczek/pbntools)
  produced from the same LIN files, but for that converter's padding of unplayed tricks.
* PBN→LIN→PBN keeps deal, dealer, vulnerability, board, players, auction with alerts and
  explanations, play, claim/result, contract and declarer — or the writer reported the loss
  (an OUT warning naming it): nothing is dropped silently.
"""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS

from pbntool.diagnostics import Diagnostic
from pbntool.formats import lin, pbn
from pbntool.formats.lin import LinWriter
from pbntool.model import Board
from pbntool.records import validate_record

from lin_views import lin_view, pbn_to_lin_view

pytestmark = pytest.mark.corpus


def _files(suffix: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix.lower() == suffix)


@cache
def _manifest_boards() -> dict[str, int]:
    counts: dict[str, int] = {}
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            found = re.search(r"\bboards=(\d+)", row["notes"])
            if row["format"] == "lin" and found:
                counts[row["local_path"]] = int(found.group(1))
    return counts


def test_the_corpus_has_lin_files(corpus_dir: Path) -> None:
    assert len(_files(".lin")) > 700


def test_every_lin_file_reads_cleanly_with_every_board(corpus_dir: Path) -> None:
    boards = 0
    for path in _files(".lin"):
        records = list(lin.iter_records(path.open("rb"), path.name))
        found = [d for r in records for d in validate_record(r)]
        assert not [d for d in found if d.severity.label == "error"], (path, found[:3])
        read = [r.board for r in records if r.board is not None]
        expected = _manifest_boards().get(path.relative_to(CORPUS).as_posix())
        if expected is not None:
            assert len(read) == expected, path
        boards += len(read)
    assert boards > 800


def test_lin_to_pbn_to_lin_keeps_everything_lin_has(corpus_dir: Path) -> None:
    for path in _files(".lin"):
        first = lin.parse(path.read_bytes()).boards
        via_pbn = pbn.parse(pbn.dumps(first)).boards
        assert len(via_pbn) == len(first), path
        again = lin.parse(lin.dumps(via_pbn)).boards
        assert [lin_view(b) for b in again] == [lin_view(b) for b in first], path
        assert [lin_view(b) for b in lin.parse(lin.dumps(first)).boards] == [
            lin_view(b) for b in first
        ], path


def test_vugraph_file_keeps_its_header_and_rooms(corpus_dir: Path) -> None:
    path = CORPUS / "forrestrice__bridge-bots/bridgebots/tests/resources/usbf_sf_14502.lin"
    boards = lin.parse(path.read_bytes()).boards
    assert len(boards) == 30
    assert {b.tag("Room") for b in boards} == {"Open", "Closed"}
    written = lin.dumps(pbn.parse(pbn.dumps(boards)).boards)
    assert written.startswith("vg|2010 USBF SF A,Segment 4 of 8,I,46,60,Nickell,80,Fleisher,99|")
    original_results = re.search(r"rs\|([^|]*)\|", path.read_text())
    assert original_results is not None and f"rs|{original_results.group(1)}|" in written


def _padding_free(board: Board) -> dict[str, object]:
    view = pbn_to_lin_view(board)
    view.pop("explanations")  # that converter numbers notes its own way; compared below
    return view


def test_lin_to_pbn_agrees_with_the_corpus_converter(corpus_dir: Path) -> None:
    folder = CORPUS / "jarekczek__pbntools/test"
    pairs = [
        ("test_bbo_history_with_lins/history_expected.pbn", "test_bbo_history_with_lins"),
        (
            "test_8_bbo_wronie_20130824/wronie_9533_pairs_2720_przyjaciele_wronia.pbn",
            "test_8_bbo_wronie_20130824/Wronie_9533_Pairs_2720_PRZYJACIELE_WRONIA",
        ),
    ]
    compared = 0
    for expected_file, lin_folder in pairs:
        theirs = {
            b.tag("DealId"): b for b in pbn.parse((folder / expected_file).read_bytes()).boards
        }
        for path in sorted((folder / lin_folder).glob("*.lin")):
            other = theirs.get(path.name)
            if other is None:
                continue
            mine = lin.parse(path.read_bytes()).boards[0]
            assert _padding_free(mine) == _padding_free(other), path.name
            compared += 1
    assert compared > 700


def _check_no_false_alarm(
    board: Board, before: dict[str, object], after: dict[str, object], losses: list[Diagnostic]
) -> None:
    """A loss reported for Contract, Declarer or Result is a real one."""
    for diagnostic in losses:
        if diagnostic.code != "OUT010":
            continue
        names = diagnostic.message.split("tag(s) ", 1)[1].split("; ")[0].split(", ")
        for name in ("Contract", "Declarer", "Result"):
            if name in names and board.tag(name) not in ("", "?", None):
                field = name.lower()
                stated = board.tag(name)
                assert before[field] != after[field] or before[field] is None, (
                    board.number, name, stated, before[field])  # fmt: skip


_LOSS_FOR_FIELD = {
    "contract": ("OUT010", "Contract"),
    "declarer": ("OUT010", "Declarer"),
    "result": ("OUT010", "Result"),
    "calls": ("OUT014", ""),
    "explanations": ("OUT012", ""),
    "play": ("OUT015", ""),
    "players": ("OUT016", ""),
}


def test_pbn_to_lin_to_pbn_keeps_the_record_or_reports_the_loss(corpus_dir: Path) -> None:
    boards = 0
    for path in _files(".pbn"):
        originals = pbn.parse(path.read_bytes()).boards
        back = lin.parse(lin.dumps(originals)).boards
        assert len(back) == len(originals), path
        writer = LinWriter(io.StringIO())
        for original, read in zip(originals, back, strict=True):
            boards += 1
            before, after = pbn_to_lin_view(original), pbn_to_lin_view(read)
            losses = writer.write(original)
            _check_no_false_alarm(original, before, after, losses)
            if before == after:
                continue
            for field, value in before.items():
                if after[field] == value:
                    continue
                if value is None:
                    continue  # not stated: the reader derived it (the board number, the play)
                if field in ("calls", "explanations") and not original.auction.calls:  # type: ignore[union-attr]
                    continue  # an empty auction section is no auction
                code, name = _LOSS_FOR_FIELD[field]
                assert any(d.code == code and name in d.message for d in losses), (
                    path.name, original.number, field, value, after[field])  # fmt: skip
    assert boards > 25000


def test_several_matches_converted_into_one_lin_stay_apart(
    corpus_dir: Path, tmp_path: Path
) -> None:
    """Two segments of one match (same event, teams and board numbers; one result differs)
    through the CLI: one vugraph header each, and the LIN re-reads with no new finding
    (it was one header, and LIN113 where the results line took the other segment's)."""
    import subprocess
    import sys

    source = CORPUS / "forrestrice__bridge-bots/bridgebots/tests/resources/usbf_sf_14502.lin"
    text = pbn.dumps(lin.parse(source.read_bytes()).boards)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("%lin"))
    first, second = tmp_path / "seg4.pbn", tmp_path / "seg5.pbn"
    first.write_text(text + "\n")
    changed = text.replace("Segment 4 of 8", "Segment 5 of 8").replace(
        '[Result "10"]', '[Result "9"]', 1
    )
    second.write_text(changed + "\n")
    out = tmp_path / "both.lin"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pbntool", *args], capture_output=True,
                              text=True, check=False)  # fmt: skip

    converted = run("convert", "--to", "lin", str(first), str(second), "-o", str(out))
    assert converted.returncode == 0, converted.stderr
    written = out.read_text()
    assert [line.split(",")[1] for line in written.splitlines() if line.startswith("vg|")] == [
        "Segment 4 of 8", "Segment 5 of 8"]  # fmt: skip
    checked = run("validate", str(out))
    assert checked.returncode == 0, checked.stdout
    assert "0 errors, 0 warnings" in checked.stderr + checked.stdout
    assert len(lin.parse(written).boards) == 60
