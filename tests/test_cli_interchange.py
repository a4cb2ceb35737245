"""``convert`` to and from JSON and XML, and ``validate``/``score`` of JSON and XML inputs,
through real subprocesses and typer's CliRunner.

For every valid PBN fixture: PBN -> JSON -> PBN and PBN -> XML -> PBN give back the golden
canonical PBN byte for byte; every JSON record written validates against the JSON Schema and
every XML document against the XSD.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import PBN_VALID
from lxml import etree
from test_cli import pbntool_run
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import dumps
from pbntool.text.schemas import XML_SCHEMA, json_schema, schema_bytes

SOURCES = sorted(path for path in PBN_VALID.glob("*.pbn") if not path.name.endswith(".out.pbn"))
IDS = [path.stem for path in SOURCES]
JSON_VALIDATOR = jsonschema.Draft202012Validator(json_schema())
XSD = etree.XMLSchema(etree.fromstring(schema_bytes(XML_SCHEMA)))


def golden(source: Path) -> bytes:
    return source.with_name(source.stem + ".out.pbn").read_bytes()


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_pbn_to_json_to_pbn_gives_the_golden_bytes(source: Path, tmp_path: Path) -> None:
    middle = tmp_path / "boards.jsonl"
    done = pbntool_run("convert", source, "--to", "json", "-o", middle, "-q")
    assert done.code == 0, done.err
    for line in middle.read_text(encoding="utf-8").split("\n")[:-1]:
        errors = [e.message for e in JSON_VALIDATOR.iter_errors(json.loads(line))]
        assert errors == []
    back = pbntool_run("convert", middle, "--to", "pbn")
    assert back.code == 0, back.err
    assert back.out == golden(source)
    assert "0 errors, 0 warnings" in back.err


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_pbn_to_xml_to_pbn_gives_the_golden_bytes(source: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["convert", str(source), "--to", "xml", "-q"])
    assert result.exit_code == 0
    document = etree.fromstring(result.stdout_bytes)
    assert XSD.validate(document), XSD.error_log
    middle = tmp_path / "boards.xml"
    middle.write_bytes(result.stdout_bytes)
    back = CliRunner().invoke(app, ["convert", str(middle), "--to", "pbn", "-q"])
    assert back.exit_code == 0
    assert back.stdout_bytes == golden(source)


def test_json_and_xml_come_back_through_stdin_and_each_other(tmp_path: Path) -> None:
    source = tmp_path / "boards.pbn"
    source.write_text(dumps(random_boards(9, 6)), encoding="utf-8", newline="")
    canonical = pbntool_run("convert", source, "--to", "pbn", "-q").out
    as_json = pbntool_run("convert", source, "--to", "json", "-q").out
    as_xml = pbntool_run("convert", "-", "--to", "xml", "-q", stdin=as_json).out
    again = pbntool_run("convert", "-", "--to", "json", "-q", stdin=as_xml).out

    def without_file(lines: bytes) -> list[dict[str, object]]:
        # "file" names the input each record was converted from: here stdin.
        return [{**json.loads(line), "file": None} for line in lines.split(b"\n")[:-1]]

    assert without_file(again) == without_file(as_json)
    assert pbntool_run("convert", "-", "--to", "pbn", "-q", stdin=as_xml).out == canonical


def test_validate_and_score_read_json_and_xml_like_pbn(tmp_path: Path) -> None:
    source = tmp_path / "boards.pbn"
    boards = list(random_boards(4, 5))
    boards[0] = dataclasses.replace(boards[0], number=2)  # dealt by North: board 1's dealer
    source.write_text(dumps(boards), encoding="utf-8", newline="")
    as_json = tmp_path / "boards.jsonl"
    as_xml = tmp_path / "boards.xml"
    as_json.write_bytes(pbntool_run("convert", source, "--to", "json", "-q").out)
    as_xml.write_bytes(pbntool_run("convert", source, "--to", "xml", "-q").out)
    found = {}
    for path in (source, as_json, as_xml):
        done = pbntool_run("validate", path, "--format", "json", "-q")
        found[path.suffix] = [json.loads(line)["code"] for line in done.lines]
        assert done.code == 0
    assert found[".pbn"] == found[".jsonl"] == found[".xml"] == ["BRD001", "BRD002"]
    scores = {
        path.suffix: [line.split()[:6] for line in pbntool_run("score", path).lines]
        for path in (source, as_json, as_xml)
    }
    assert scores[".pbn"] == scores[".jsonl"] == scores[".xml"]


def test_bad_json_and_xml_inputs_exit_1_with_located_findings(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"model": {"number": 1}}\n{"model": \n', encoding="utf-8")
    done = pbntool_run("convert", broken, "--to", "pbn")
    assert done.code == 1
    assert "broken.jsonl:2:" in done.err and "JSN001" in done.err
    assert "Traceback" not in done.err
    hostile = tmp_path / "hostile.xml"
    hostile.write_text('<!DOCTYPE b [<!ENTITY x SYSTEM "file:///etc/passwd">]><b>&x;</b>\n')
    done = pbntool_run("validate", hostile)
    assert done.code == 1
    assert "XML002" in done.text and "root:" not in done.text
