"""The checklist of the ten most common real-world findings (``docs/diagnostics.md``, from
``pbntool.dev.docs_gen.COMMON_FINDINGS``): each cure it gives is run, through real
subprocesses, on the code's fixtures, and each of the ten messages says what to do next.
(``tests/test_corpus.py`` checks that the ten are still the corpus's most common codes.)
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from test_cli import pbntool_run

from pbntool.dev.docs_gen import COMMON_FINDINGS, invalid_fixtures
from pbntool.diagnostics import CATALOGUE

CODES = [common.code for common in COMMON_FINDINGS]


def _fixtures(code: str) -> list[Path]:
    found = [path for path in invalid_fixtures() if path.name.startswith(code + "_")]
    assert found, f"no fixture for {code}"
    return found


def _codes(path: Path) -> list[str]:
    run = pbntool_run("validate", "--format", "json", "-q", path)
    assert run.code in (0, 1), run.err
    return [json.loads(line)["code"] for line in run.text.splitlines()]


def _messages(path: Path, code: str) -> list[str]:
    run = pbntool_run("validate", "--format", "json", "-q", "--select", code, path)
    return [json.loads(line)["message"] for line in run.text.splitlines()]


def test_ten_distinct_codes_of_the_catalogue_most_frequent_first() -> None:
    assert len(CODES) == len(set(CODES)) == 10
    assert all(code in CATALOGUE for code in CODES)
    counts = [common.findings for common in COMMON_FINDINGS]
    assert counts == sorted(counts, reverse=True)
    assert all(0 < common.files <= common.findings for common in COMMON_FINDINGS)


@pytest.mark.parametrize("code", CODES)
def test_the_message_says_what_to_do_next(code: str) -> None:
    for fixture in _fixtures(code):
        messages = _messages(fixture, code)
        assert messages, fixture
        for message in messages:
            next_step = r"pbntool (fix|convert)|--ignore|by hand|check the|with \*|nothing to fix"
            assert re.search(next_step, message), message


CURED = [common for common in COMMON_FINDINGS if common.commands]


@pytest.mark.parametrize("common", CURED, ids=[common.code for common in CURED])
def test_the_cure_in_the_checklist_cures_the_fixture(common: object, tmp_path: Path) -> None:
    from pbntool.dev.docs_gen import CommonFinding

    assert isinstance(common, CommonFinding)
    for fixture in _fixtures(common.code):
        source = tmp_path / fixture.name
        shutil.copyfile(fixture, source)
        out = tmp_path / f"cured-{fixture.name}"
        assert common.code in _codes(source)
        for command in common.commands:
            words = [
                str(source) if word == "FILE" else str(out) if word == "OUT" else word
                for word in shlex.split(command)
            ]
            assert words[0] == "pbntool"
            run = pbntool_run(*words[1:])
            assert run.code in (0, 1), (command, run.err)
        result = out if any("OUT" in command for command in common.commands) else source
        assert common.code not in _codes(result), (fixture.name, result.read_text("latin-1"))


def test_hnd001_cure_a_wrong_hand_written_as_dash_is_filled_in_by_fix(tmp_path: Path) -> None:
    # The checklist: write the wrong hand as "-" and pbntool fix fills it in from the others.
    (fixture,) = _fixtures("HND001")
    text = fixture.read_text(encoding="utf-8")
    deal = re.search(r'\[Deal "([NESW]):([^"]*)"\]', text)
    assert deal is not None
    hands = deal.group(2).split()
    messages = _messages(fixture, "HND001")
    assert messages and "write it as - and pbntool fix fills it in" in messages[0]
    # The ace of diamonds is in North's and East's hands; East's is the wrong one here, so
    # East's hand (the second from a deal that starts with North) becomes "-".
    assert deal.group(1) == "N" and "A" in hands[1].split(".")[2]
    hands[1] = "-"
    broken = tmp_path / "hnd001.pbn"
    broken.write_text(text.replace(deal.group(2), " ".join(hands)), encoding="utf-8")
    run = pbntool_run("fix", "-i", broken)
    assert run.code == 0, run.err
    assert "FIX003" in run.text
    assert "HND001" not in _codes(broken)


def test_the_tags_brd003_says_fix_fills_in_are_tags_fix_fills_in() -> None:
    from pbntool.formats.pbn.decode import FIXED_MANDATORY_TAGS
    from pbntool.tools.fix import VALUE_TAGS

    assert set(VALUE_TAGS) >= FIXED_MANDATORY_TAGS
