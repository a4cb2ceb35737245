"""Golden outputs for the valid fixtures, and the canonical writer's idempotence.

For each ``fixtures/pbn/valid/<name>.pbn`` there are two generated files:

* ``<name>.out.pbn``: what ``pbntool convert --to pbn`` writes (canonical export format);
* ``<name>.json``: ``{"_hash": ...}`` then one ``jsonio`` line per board.

Both are tied to the SHA-256 of the source bytes (the ``.json`` in its first line, the
``.out.pbn`` in ``hashes.json`` so that it stays pure PBN): editing a source without
regenerating fails loudly.  ``pytest --update-golden`` rewrites them; review the diff.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.diagnostics import Severity
from pbntool.formats.json import dumps_line
from pbntool.formats.pbn import parse
from pbntool.formats.pbn.writer import dumps

REPO = Path(__file__).resolve().parent.parent
VALID = REPO / "fixtures" / "pbn" / "valid"
HASHES = VALID / "hashes.json"

SOURCES = sorted(path for path in VALID.glob("*.pbn") if not path.name.endswith(".out.pbn"))
IDS = [path.stem for path in SOURCES]

ALLOWED_FINDINGS: dict[str, list[str]] = {
    # The import form may leave out mandatory tags (PBN 18.2); the writer fills in "?".
    "import_form_with_placeholders_and_suffixes": ["5:1 BRD003"],
}
"""The only non-error findings each valid fixture may produce (``line:column CODE``)."""

STALE = "{name} is stale (its source changed); run pytest --update-golden and review the diff"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _out_path(source: Path) -> Path:
    return source.with_name(source.stem + ".out.pbn")


def _json_path(source: Path) -> Path:
    return source.with_suffix(".json")


def _canonical_pbn(source: Path) -> bytes:
    """What ``pbntool convert --to pbn`` writes: export format, CRLF, UTF-8."""
    return dumps(parse(source.read_bytes(), source.name).boards).encode("utf-8")


def _json_lines(source: Path) -> str:
    boards = parse(source.read_bytes(), source.name).boards
    header = json.dumps({"_hash": _sha256(source)})
    return "".join(line + "\n" for line in [header, *(dumps_line(b, source.name) for b in boards)])


def _write_hashes() -> None:
    hashes = {source.name: _sha256(source) for source in SOURCES}
    HASHES.write_text(json.dumps(hashes, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _recorded_hashes() -> dict[str, str]:
    if not HASHES.is_file():
        return {}
    recorded: dict[str, str] = json.loads(HASHES.read_text(encoding="utf-8"))
    return recorded


def test_valid_fixtures_exist() -> None:
    assert len(SOURCES) >= 8


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_valid_fixture_has_no_errors_and_only_the_allowed_findings(source: Path) -> None:
    diagnostics = parse(source.read_bytes(), source.name, validate=True).diagnostics
    assert [str(d) for d in diagnostics if d.severity >= Severity.ERROR] == []
    found = [f"{d.line}:{d.column} {d.code}" for d in diagnostics]
    assert found == ALLOWED_FINDINGS.get(source.stem, [])


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_json_golden_matches_the_boards_read(source: Path, update_golden: bool) -> None:
    golden = _json_path(source)
    expected = _json_lines(source)
    if update_golden:
        golden.write_text(expected, encoding="utf-8", newline="\n")
    assert golden.is_file(), f"{golden.name} is missing; run pytest --update-golden"
    current = golden.read_text(encoding="utf-8")
    first = json.loads(current.split("\n", 1)[0])
    assert first == {"_hash": _sha256(source)}, STALE.format(name=golden.name)
    assert current == expected


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_pbn_golden_matches_the_canonical_output(source: Path, update_golden: bool) -> None:
    golden = _out_path(source)
    expected = _canonical_pbn(source)
    if update_golden:
        golden.write_bytes(expected)
        _write_hashes()
    assert golden.is_file(), f"{golden.name} is missing; run pytest --update-golden"
    recorded = _recorded_hashes().get(source.name)
    assert recorded == _sha256(source), STALE.format(name=golden.name)
    assert golden.read_bytes() == expected


def test_hashes_json_lists_exactly_the_valid_sources(update_golden: bool) -> None:
    if update_golden:
        _write_hashes()
    assert set(_recorded_hashes()) == {source.name for source in SOURCES}


def test_no_golden_is_left_without_its_source() -> None:
    stems = {source.stem for source in SOURCES}
    outputs = {path.name.removesuffix(".out.pbn") for path in VALID.glob("*.out.pbn")}
    jsons = {path.stem for path in VALID.glob("*.json") if path != HASHES}
    assert outputs <= stems
    assert jsons <= stems


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_converting_the_canonical_output_again_gives_identical_bytes(source: Path) -> None:
    golden = _out_path(source).read_bytes()
    again = dumps(parse(golden, _out_path(source).name).boards).encode("utf-8")
    assert again == golden


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_canonical_output_validates_without_any_finding(source: Path) -> None:
    out = _out_path(source)
    diagnostics = parse(out.read_bytes(), out.name, validate=True).diagnostics
    assert [str(d) for d in diagnostics] == []


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_cli_convert_to_pbn_writes_the_golden_bytes(source: Path) -> None:
    result = CliRunner().invoke(app, ["convert", str(source), "--to", "pbn", "--quiet"])
    assert result.exit_code == 0
    assert result.stdout_bytes == _out_path(source).read_bytes()


def test_cli_validate_accepts_the_whole_valid_directory() -> None:
    result = CliRunner().invoke(app, ["validate", str(VALID), "--format", "json", "--quiet"])
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [o for o in objects if o["severity"] == "error"] == []
    assert result.exit_code == 0
