"""``score --check``: every EVT code triggered where it should be by a fixture named after it.

Each ``fixtures/commands/score/<CODE>_<slug>.pbn`` has a ``.args`` file (the options of the
command) and a ``.expected`` file listing, in order, the ``line:column CODE`` of every
finding ``pbntool score <args> --format json`` prints for it.  The positions were checked by
hand against the text: a stated value points at its first character, a table cell at its
element, a game-level finding at the tag it is about.
"""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.diagnostics import CATALOGUE
from pbntool.formats import pbn
from pbntool.scoring import Method, ScoringSpec
from pbntool.tools.score import EventOptions, score_event
from pbntool.tools.score.check import check_event

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures" / "commands" / "score"
CASES = sorted(FIXTURES.glob("*.pbn"))


def _args(case: Path) -> list[str]:
    return shlex.split(case.with_suffix(".args").read_text(encoding="utf-8"))


def _expected(case: Path) -> list[str]:
    text = case.with_suffix(".expected").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _run(case: Path) -> tuple[int, list[dict[str, object]], str]:
    result = CliRunner().invoke(app, ["score", *_args(case), "--format", "json", str(case)])
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return result.exit_code, objects, result.stderr


def test_there_is_a_fixture_for_every_evt_code() -> None:
    codes = {code for code in CATALOGUE if code.startswith("EVT")}
    named = {case.name.split("_", 1)[0] for case in CASES}
    assert codes <= named


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.stem)
def test_fixture_gives_exactly_the_expected_findings(case: Path) -> None:
    code, objects, _ = _run(case)
    assert [f"{o['line']}:{o['column']} {o['code']}" for o in objects] == _expected(case)
    has_error = any(o["severity"] == "error" for o in objects)
    assert code == (1 if has_error else 0)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.stem)
def test_fixture_findings_are_placed_and_named_after_the_fixture(case: Path) -> None:
    _, objects, _ = _run(case)
    assert any(o["code"] == case.name.split("_", 1)[0] for o in objects)
    for found in objects:
        assert found["file"] == str(case)
        assert isinstance(found["line"], int) and found["line"] >= 1
        assert isinstance(found["column"], int) and found["column"] >= 1
        assert found["board"] == 1 or found["board"] == 2
        assert found["severity"] == CATALOGUE[str(found["code"])].severity.label
        assert str(found["message"]).strip()


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.stem)
def test_summary_counts_what_was_checked(case: Path) -> None:
    _, objects, stderr = _run(case)
    disagreements = sum(1 for o in objects if o["severity"] in ("error", "warning"))
    disagreements -= sum(1 for o in objects if o["code"] == "EVT015")  # how, not what
    summary = [line for line in stderr.splitlines() if line.startswith(str(case))]
    if disagreements:
        assert summary and f"{disagreements} disagree" in summary[0]
    elif summary:
        assert "disagree" not in summary[0]


def test_text_output_is_one_located_line_per_finding() -> None:
    case = FIXTURES / "EVT006_scoretable_cross_imps.pbn"
    result = CliRunner().invoke(app, ["score", "--check", str(case)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f'{case}:23:21: error EVT006 board 1: ScoreTable IMP_NS "-8.50" but the table\'s results '
        "give -9.500 (cross-IMPs averaged per comparison (Cross2))"
    ]
    # Score, three Score_NS, three IMP_NS, three Rank and the game's own result in the table.
    assert f"{case}: 11 values checked, 10 agree, 1 disagree (EVT006 1)" in result.stderr


def test_tolerance_accepts_a_rounding_difference() -> None:
    case = FIXTURES / "EVT007_scoretable_percentages.pbn"
    assert CliRunner().invoke(app, ["score", "--check", str(case)]).exit_code == 1
    loose = CliRunner().invoke(app, ["score", "--check", "--tolerance", "20", str(case)])
    assert (loose.exit_code, loose.stdout) == (0, "")


def test_check_through_a_subprocess() -> None:
    case = FIXTURES / "EVT002_scoreimp_for_the_wrong_side.pbn"
    done = subprocess.run(
        [sys.executable, "-m", "pbntool", "score", "--check", "--format", "json", str(case)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    found = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [(o["line"], o["column"], o["code"]) for o in found] == [(43, 12, "EVT002")]
    assert "values checked" in done.stderr.decode()
    assert b"Traceback" not in done.stderr


def test_method_option_fixes_the_variant() -> None:
    # The MP2 traveller checked as MP1 matchpoints: every MP cell but the bottom's disagrees.
    case = FIXTURES / "EVT017_matchpoints_on_the_mp2_scale.pbn"
    result = CliRunner().invoke(
        app, ["score", "--check", "--method", "mp", "--format", "json", str(case)]
    )
    codes = [json.loads(line)["code"] for line in result.stdout.splitlines()]
    assert codes == ["EVT005"] * 4
    assert result.exit_code == 1


def test_clean_files_check_clean(tmp_path: Path) -> None:
    case = FIXTURES / "EVT001_scoremp_of_a_lost_board.pbn"
    fixed = tmp_path / "fixed.pbn"
    text = case.read_text(encoding="utf-8")
    fixed.write_text(text.replace('[ScoreMP "NS 2"]', '[ScoreMP "NS 0"]', 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "--check", str(fixed)])
    assert (result.exit_code, result.stdout) == (0, "")
    assert "4 values checked, 4 agree" in result.stderr


def test_unreadable_and_binary_inputs_do_not_crash(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pbn"
    junk.write_bytes(b'[Event "x"]\n[ScoreTable "Rank;Score_NS;MP_NS"]\n\x00\xff ^A+ - ? "' * 3)
    for arguments in (["--check"], ["--method", "mp"], ["--method", "rubber"], ["--format", "pbn"]):
        result = CliRunner().invoke(app, ["score", *arguments, str(junk), str(tmp_path / "no.pbn")])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert result.exit_code == 2  # the missing file


def test_optimum_score_with_two_sides_that_do_not_cancel(tmp_path: Path) -> None:
    case = FIXTURES / "EVT014_optimum_score_no_contract_makes.pbn"
    text = case.read_text(encoding="utf-8").replace('"NS 425"', '"NS 420 EW 400"')
    both = tmp_path / "both.pbn"
    both.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "--check", str(both)])
    assert result.stdout.splitlines() == [
        f'{both}:18:16: error EVT014 board 1: OptimumScore "NS 420 EW 400" gives the two sides '
        "values that do not cancel out"
    ]
    fine = tmp_path / "fine.pbn"
    fine.write_text(text.replace('"NS 420 EW 400"', '"NS 420 EW -420"'), encoding="utf-8")
    assert CliRunner().invoke(app, ["score", "--check", str(fine)]).stdout == ""


# --- bad input never crashes ------------------------------------------------------------------

_SPECIALS = ["^", "A+", "-", "?", '"', "NS", "EW", "/", "0", "999999999999", "-0.", "\n\n", "#"]


def _mutations() -> st.SearchStrategy[bytes]:
    texts = [case.read_bytes() for case in CASES]

    @st.composite
    def mutate(draw: st.DrawFn) -> bytes:
        text = bytearray(draw(st.sampled_from(texts)))
        for _ in range(draw(st.integers(min_value=1, max_value=8))):
            where = draw(st.integers(min_value=0, max_value=len(text)))
            if draw(st.booleans()):
                text[where:where] = draw(st.sampled_from(_SPECIALS)).encode()
            else:
                del text[where : where + draw(st.integers(min_value=1, max_value=6))]
        return bytes(text)

    return mutate()


@settings(max_examples=150, deadline=None)
@given(_mutations())
def test_mutated_fixtures_never_crash_scoring_or_the_check(data: bytes) -> None:
    records = list(pbn.iter_records(io.BytesIO(data), "fuzz.pbn"))
    found = check_event(records)
    assert all(d.code in CATALOGUE and d.line for d in found.diagnostics)
    for method in (Method.MP, Method.IMP, Method.BUTLER, Method.BAM, Method.RUBBER):
        score_event(records, EventOptions(ScoringSpec(method)))


def test_total_score_table_ties_as_written_accept_either_rank(tmp_path: Path) -> None:
    case = FIXTURES / "EVT009_totalscoretable_mean.pbn"
    text = case.read_text(encoding="utf-8").replace(
        "1 1 2 30.00 15.00\n2 2 2 20.00 12.00", "1 1 2 20.00 10.00\n2 2 2 20.00 10.00"
    )
    tied = tmp_path / "tied.pbn"
    tied.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "--check", str(tied)])
    assert (result.exit_code, result.stdout) == (0, "")
    worse = tmp_path / "worse.pbn"
    worse.write_text(text.replace("2 2 2 20.00", "3 2 2 20.00"), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "--check", "--format", "json", str(worse)])
    assert [json.loads(line)["code"] for line in result.stdout.splitlines()] == ["EVT009"]
