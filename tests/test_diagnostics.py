"""Every diagnostic code, triggered where it should be by a fixture named after it.

Each ``fixtures/<format>/invalid/<CODE>_<slug>.<ext>`` has a ``.expected`` file listing, one
per line and in the order the reader emits them, the ``line:column CODE`` of every diagnostic
the fixture produces with the Laws checks on.  The positions were worked out by hand from
the text, so a mismatch is a bug in the reader or in the fixture.  The fixture is read the
way the CLI reads it: its format is detected from its content.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.dev.docs_gen import (
    FAMILIES,
    command_fixtures,
    family_of,
    invalid_fixtures,
    render_diagnostics_markdown,
)
from pbntool.diagnostics import CATALOGUE, Diagnostic
from pbntool.formats import read_input
from pbntool.records import validate_record
from pbntool.text.inputs import Input

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
GENERATOR = REPO / "fixtures" / "pbn" / "make_binary_fixtures.py"
DIAGNOSTICS_DOC = REPO / "docs" / "diagnostics.md"

NO_FIXTURE = frozenset({"SRC003", "INT001", "SRC009", "BWS001", "USB005", "CLB008"})
"""Codes no fixture file can trigger (an unreadable path, a bug of ours: see the CLI tests;
a game over 1 MiB, the bws extra missing, a USEBIO document or a dealing file over 64 MiB:
see test_hostile_input.py, test_bws.py, test_usebio.py and test_club_deal.py)."""

KNOWN_BUGS: dict[str, str] = {}
"""Fixtures whose expectation the tool does not meet yet; strict, so a fix flips them."""

UNEMITTED_CODES: dict[str, str] = {}
"""Codes declared but not emitted yet (strict xfail until a fixture triggers them)."""


def _invalid_cases() -> list[Path]:
    return invalid_fixtures(FIXTURES)


def _case_params(*, with_known_bugs: bool = True) -> list[object]:
    params: list[object] = []
    for path in _invalid_cases():
        if path.stem not in KNOWN_BUGS:
            params.append(pytest.param(path, id=path.stem))
        elif with_known_bugs:
            mark = pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[path.stem])
            params.append(pytest.param(path, id=path.stem, marks=mark))
    return params


def _read_expected(case: Path) -> list[str]:
    expected = case.with_suffix(".expected")
    return [line.strip() for line in expected.read_text(encoding="utf-8").splitlines() if line]


def _diagnostics(case: Path) -> tuple[Diagnostic, ...]:
    records = read_input(Input(case.name, case))
    return tuple(d for record in records for d in validate_record(record))


def _places(diagnostics: tuple[Diagnostic, ...]) -> list[str]:
    return [f"{d.line}:{d.column} {d.code}" for d in diagnostics]


def _fixture_code(case: Path) -> str:
    return case.name.split("_", 1)[0]


# --- each fixture ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _case_params())
def test_fixture_produces_exactly_the_expected_diagnostics_in_order(case: Path) -> None:
    assert _places(_diagnostics(case)) == _read_expected(case)


@pytest.mark.parametrize("case", _case_params(with_known_bugs=False))
def test_every_diagnostic_has_a_file_line_column_and_message(case: Path) -> None:
    for diagnostic in _diagnostics(case):
        assert diagnostic.file == case.name
        assert diagnostic.line is not None and diagnostic.line >= 1, diagnostic
        assert diagnostic.column is not None and diagnostic.column >= 1, diagnostic
        assert diagnostic.message.strip(), diagnostic
        assert diagnostic.severity is CATALOGUE[diagnostic.code].severity


@pytest.mark.parametrize("case", _case_params())
def test_cli_json_output_gives_the_expected_diagnostics(case: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(case), "--format", "json", "--quiet"])
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    found = [f"{o['line']}:{o['column']} {o['code']}" for o in objects]
    assert found == _read_expected(case)
    has_error = any(o["severity"] == "error" for o in objects)
    assert result.exit_code == (1 if has_error else 0)


@pytest.mark.parametrize("case", _case_params(with_known_bugs=False))
def test_fixture_is_named_after_a_code_it_expects(case: Path) -> None:
    code = _fixture_code(case)
    assert code in CATALOGUE, f"{case.name} is not named after a catalogue code"
    assert any(line.endswith(" " + code) for line in _read_expected(case))


def test_every_fixture_has_an_expected_file_and_every_expected_file_a_fixture() -> None:
    fixtures = {path.with_suffix("") for path in _invalid_cases()}
    expectations = {path.with_suffix("") for path in FIXTURES.glob("*/invalid/*.expected")}
    assert fixtures == expectations


def test_expected_files_are_well_formed() -> None:
    for expected in sorted(FIXTURES.glob("*/invalid/*.expected")):
        for line in _read_expected(expected):
            place, code = line.split(" ")
            row, column = place.split(":")
            assert int(row) >= 1 and int(column) >= 1, f"{expected.name}: {line}"
            assert code in CATALOGUE, f"{expected.name}: {line}"


def test_known_bugs_name_existing_fixtures() -> None:
    stems = {path.stem for path in _invalid_cases()}
    assert set(KNOWN_BUGS) <= stems


# --- the catalogue is covered ------------------------------------------------------------------


def _catalogue_params() -> list[object]:
    params: list[object] = []
    for code in CATALOGUE:
        if code in UNEMITTED_CODES:
            mark = pytest.mark.xfail(strict=True, reason=UNEMITTED_CODES[code])
            params.append(pytest.param(code, id=code, marks=mark))
        elif code not in NO_FIXTURE:
            params.append(pytest.param(code, id=code))
    return params


@pytest.mark.parametrize("code", _catalogue_params())
def test_code_has_a_passing_fixture_named_after_it(code: str) -> None:
    # Command fixtures (fixtures/commands/<command>/) are checked by that command's tests.
    owners = [
        case.name
        for case in (*_invalid_cases(), *command_fixtures(FIXTURES))
        if case.name.startswith(code + "_")
        and case.stem not in KNOWN_BUGS
        and any(line.endswith(" " + code) for line in _read_expected(case))
    ]
    assert owners, f"no fixture fixtures/<format>/invalid/{code}_<slug>.* that expects {code}"


def test_codes_without_fixture_are_in_the_catalogue() -> None:
    assert set(NO_FIXTURE) | set(UNEMITTED_CODES) <= set(CATALOGUE)


# --- generated fixtures and the generated page --------------------------------------------------


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_binary_fixtures", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_binary_fixtures_are_up_to_date(update_golden: bool) -> None:
    generator = _generator()
    if update_golden:
        generator.write()
    stale = [str(path.relative_to(REPO)) for path in generator.stale()]
    assert not stale, f"stale generated fixtures {stale}; run pytest --update-golden"


def test_every_code_belongs_to_a_documented_family() -> None:
    for code in CATALOGUE:
        assert family_of(code) in FAMILIES
    assert all(family.description.endswith(".") for family in FAMILIES)


def test_diagnostics_page_lists_every_code_with_its_fixture() -> None:
    page = render_diagnostics_markdown(FIXTURES)
    for code in CATALOGUE.values():
        assert f"| `{code.id}` | {code.severity.label} |" in page
    for case in (*_invalid_cases(), *command_fixtures(FIXTURES)):
        assert f"/{case.name}`" in page


def test_docs_diagnostics_md_is_up_to_date(update_golden: bool) -> None:
    page = render_diagnostics_markdown(FIXTURES)
    if update_golden:
        DIAGNOSTICS_DOC.parent.mkdir(exist_ok=True)
        DIAGNOSTICS_DOC.write_text(page, encoding="utf-8", newline="\n")
    current = DIAGNOSTICS_DOC.read_text(encoding="utf-8") if DIAGNOSTICS_DOC.is_file() else ""
    assert current == page, "docs/diagnostics.md is stale; run pytest --update-golden"
