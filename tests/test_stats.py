"""``pbntool stats``: counts worked out by hand on a small file, merging partial results, the
text and JSON forms, and every file of the corpus."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbntool.formats import read_input
from pbntool.formats.pbn import iter_records
from pbntool.records import Record, validate_record
from pbntool.text.inputs import iter_inputs
from pbntool.tools.stats import Statistics, summarise_record

MODULE = (sys.executable, "-m", "pbntool")

FILE = """\
%Creator: BridgeComposer Version 5.57
[Event "Club"]
[Date "2024.03.01"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Declarer "S"]
[Contract "3NT"]
[Result "10"]
[Generator "Big Deal version 1.2"]

[Event "Club"]
[Date "2024.03.08"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Declarer "W"]
[Contract "4SX"]
[Result "8"]

[Event "Teams"]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Auction "S"]
Pass Pass Pass Pass

[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Auction "W"]
1S 1H Pass Pass
Pass
"""
# Board 1: 3NT by S made 10, NS +430.  Board 2: 4SX by W (EW not vulnerable) two down, NS +300.
# Board 3: passed out, 0.  Board 4: 1S by W, then an insufficient 1H by N (AUC001) that ends
# the auction: 1H by N, no result.


def _records(text: str) -> list[Record]:
    return list(iter_records(io.BytesIO(text.encode()), "club.pbn"))


def _statistics(records: list[Record]) -> Statistics:
    statistics = Statistics()
    for record in records:
        statistics.add(summarise_record(record, validate_record(record)))
    return statistics


def test_counts_worked_out_by_hand() -> None:
    data = _statistics(_records(FILE)).to_dict()
    assert data["boards"] == 4 and data["boards_with_full_deal"] == 1
    assert data["boards_with_auction"] == 2 and data["boards_with_play"] == 0
    contracts = data["contracts"]
    assert isinstance(contracts, dict)
    assert contracts["NT"]["3"] == 1 and contracts["S"]["4"] == 1 and contracts["H"]["1"] == 1
    assert data["contracts_total"] == 3
    assert data["doubling"] == {"undoubled": 2, "X": 1, "XX": 0}
    assert data["passed_out"] == 1
    assert data["declarers"] == {"N": 1, "E": 0, "S": 1, "W": 1}
    assert (data["results_known"], data["made"], data["down"]) == (2, 1, 1)
    assert data["make_rate"] == 0.5
    assert data["made_by_level"]["3"] == 1 and data["down_by_level"]["4"] == 1  # type: ignore[index]
    assert (data["overtricks"], data["undertricks"]) == (1, 2)
    assert data["scored_boards"] == 3  # 430, 300 and the pass-out
    assert data["average_score_ns"] == round((430 + 300 + 0) / 3, 1)
    assert data["average_declarer_score"] == round((430 - 300) / 2, 1)
    assert data["programs"] == {
        "BridgeComposer Version 5.57": {"boards": 4, "files": 1},
        "Big Deal version 1.2": {"boards": 4, "files": 1},
    }
    assert data["events"] == 2
    assert (data["first_date"], data["last_date"]) == ("2024.03.01", "2024.03.08")
    diagnostics = data["diagnostics"]
    assert isinstance(diagnostics, dict)
    assert diagnostics["error"]["AUC001"] == 1
    assert diagnostics["warning"]["BRD003"] == 4


def test_merging_partial_results_gives_the_whole() -> None:
    records = _records(FILE)
    whole = _statistics(records)
    first, second = _statistics(records[:2]), _statistics(records[2:])
    first.merge(second)
    assert first.to_dict() == whole.to_dict()


def test_text_report() -> None:
    statistics = _statistics(_records(FILE))
    statistics.inputs = 1
    text = statistics.text()
    assert "boards              4" in text
    assert "passed out 1" in text and "doubled 1" in text
    assert "made              1 (50.0%)" in text
    assert "declarers           N 1 (33.3%), E 0 (0.0%), S 1 (33.3%), W 1 (33.3%)" in text
    assert "    AUC001         1" in text
    assert "BridgeComposer Version 5.57: 4, 1" in text
    assert "  NT                   0      0      1      0      0      0      0       1" in text
    assert "average declarer    +65.0 over 2 boards" in text


def run(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    return subprocess.run([*MODULE, *map(str, args)], capture_output=True, env=env, timeout=600)


def test_command_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "club.pbn"
    path.write_text(FILE, encoding="utf-8")
    done = run("stats", path, "--format", "json")
    assert done.returncode == 1  # the insufficient bid is an error
    data = json.loads(done.stdout)
    assert data["inputs"] == 1 and data["boards"] == 4 and data["passed_out"] == 1
    done = run("stats", path, "-q")
    assert done.stdout.decode().startswith("inputs              1\n") and done.stderr == b""


@pytest.mark.corpus
@pytest.mark.slow
def test_stats_on_every_file_of_the_corpus(corpus_dir: Path) -> None:
    """Each file alone (in process), then the whole corpus through the command: the command's
    JSON is the merge of the per-file results, and nothing fails anywhere."""
    merged = Statistics()
    inputs = 0
    for source in iter_inputs([str(corpus_dir)]):
        inputs += 1
        per_file = Statistics()
        for record in read_input(source):
            diagnostics = validate_record(record)
            assert not any(d.code == "INT001" for d in diagnostics), source.name
            per_file.add(summarise_record(record, diagnostics))
        json.dumps(per_file.to_dict())
        per_file.text()
        merged.merge(per_file)
    merged.inputs = inputs
    done = run("stats", corpus_dir, "--format", "json")
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert b"Traceback" not in done.stderr
    data = json.loads(done.stdout)
    assert data == json.loads(json.dumps(merged.to_dict()))
    assert data["inputs"] > 700 and data["boards"] > 28000
    assert data["passed_out"] > 0 and data["programs"]
