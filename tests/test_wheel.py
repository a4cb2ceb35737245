"""The wheel ships the grammars and the schemas and works on its own.

Builds the wheel (``python -m build --wheel``, or ``pip wheel --no-deps`` when ``build`` is
missing), checks what it contains, installs it in a fresh virtual environment (its
dependencies come from the package index), and there, away from the source checkout:
parses PBN text with ``pbntool.formats.pbn.parse`` while checking that the grammar was loaded from
inside the installed package through ``importlib.resources``; runs the installed
``pbntool validate`` console script on a fixture; and asks ``python -m pbntool --version``.

Needs the package index (for the build backend and the dependencies): about 30-60 s.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import PBN_VALID, REPO

from pbntool import _native
from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import dumps

pytestmark = pytest.mark.slow

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
COMPILED = _native.STATE == "compiled"
"""A checkout compiled in place gives a compiled wheel (the build hook takes its extensions);
one that is not gives a pure wheel (PBNTOOL_COMPILE=0: a test does not compile the
checkout it runs from)."""

# The version is declared once, in pbntool/__init__.py (pyproject.toml reads it from there).
VERSION = re.search(
    r'^__version__ = "([^"]+)"',
    (REPO / "pbntool" / "__init__.py").read_text(encoding="utf-8"),
    re.M,
).group(1)  # type: ignore[union-attr]


def run(
    command: list[str], cwd: Path, timeout: float = 900, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run outside the checkout, with nothing from this test process's import path."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")
    }
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environment.update(extra or {})
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )


def succeeded(done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode == 0


def output(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout."""
    out = tmp_path_factory.mktemp("dist")
    if importlib.util.find_spec("build") is not None:
        command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(REPO)]
    done = run(command, cwd=out, extra={} if COMPILED else {"PBNTOOL_COMPILE": "0"})
    assert succeeded(done), output(done)
    wheels = sorted(out.glob("pbntool-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel (and its dependencies) installed."""
    root = tmp_path_factory.mktemp("venv") / "env"
    done = run([sys.executable, "-m", "venv", str(root)], cwd=root.parent)
    assert succeeded(done), output(done)
    python = root / "bin" / "python"
    done = run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], cwd=root.parent)
    assert succeeded(done), output(done)
    return root


@pytest.fixture(scope="module")
def fixture_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A valid PBN file: the first of ``fixtures/pbn/valid``, else three generated boards."""
    shipped = sorted(path for path in PBN_VALID.glob("*.pbn") if not path.name.endswith(".out.pbn"))
    if shipped:
        return shipped[0]
    path = tmp_path_factory.mktemp("fixture") / "boards.pbn"
    path.write_text(dumps(random_boards(3, 3)), encoding="utf-8", newline="")
    return path


def test_wheel_contents(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(
            archive.read(name).decode("utf-8")
            for name in names
            if name.endswith(".dist-info/entry_points.txt")
        )
        for grammar in sorted((REPO / "grammars").glob("*.lark")):
            packaged = f"pbntool/grammars/{grammar.name}"
            assert packaged in names
            assert archive.read(packaged) == grammar.read_bytes()
        for schema in sorted((REPO / "schemas").glob("*")):
            packaged = f"pbntool/schemas/{schema.name}"
            assert packaged in names
            assert archive.read(packaged) == schema.read_bytes()
    assert "pbntool/py.typed" in names
    assert "pbntool/formats/pbn/__init__.py" in names
    assert "pbntool/formats/xml/reader.py" in names
    for template in sorted((REPO / "pbntool" / "formats" / "html" / "templates").glob("*.j2")):
        assert f"pbntool/formats/html/templates/{template.name}" in names  # render's templates
    assert not any(
        name.startswith(("tests/", "fixtures/", "grammars/", "schemas/")) for name in names
    )
    assert "pbntool = pbntool.__main__:main" in entry_points
    compiled = {f"pbntool/{_native.STAMP_NAME}", f"pbntool/model{SUFFIX}"}
    if COMPILED:
        assert compiled <= names
        assert not wheel.name.endswith("-py3-none-any.whl")
    else:
        assert not compiled & names


PROBE = """
import importlib.metadata, importlib.resources, json, pathlib, sys
import pbntool
from pbntool.text import grammars
from pbntool.formats import pbn

path = pathlib.Path(sys.argv[1])
grammar = importlib.resources.files("pbntool").joinpath("grammars/pbn.lark")
package = pathlib.Path(pbntool.__file__).resolve().parent
result = pbn.parse(path.read_bytes(), path.name, validate=True)
print(json.dumps({
    "package": str(package),
    "prefix": str(pathlib.Path(sys.prefix).resolve()),
    "version": importlib.metadata.version("pbntool"),
    "grammar_is_file": grammar.is_file(),
    "grammar_text": grammar.read_text(encoding="utf-8"),
    "loaded_text": grammars.grammar_text("pbn"),
    "checkout_fallback_exists": (package.parent / "grammars" / "pbn.lark").exists(),
    "native": pbntool._native.STATE,
    "boards": len(result.boards),
    "contracts": [str(board.contract) for board in result.boards],
    "errors": [str(d) for d in result.diagnostics if d.severity.label == "error"],
}))
"""


def test_installed_package_parses_with_its_own_grammar(
    environment: Path, fixture_file: Path, tmp_path: Path
) -> None:
    python = environment / "bin" / "python"
    # -I: isolated mode, so neither the working directory nor PYTHONPATH can supply pbntool.
    done = run([str(python), "-I", "-c", PROBE, str(fixture_file)], cwd=tmp_path)
    assert succeeded(done), output(done)
    probe = json.loads(done.stdout)

    assert Path(probe["package"]).is_relative_to(probe["prefix"])
    assert not Path(probe["package"]).is_relative_to(REPO)
    assert probe["version"] == VERSION
    assert probe["grammar_is_file"] is True
    assert probe["checkout_fallback_exists"] is False
    assert probe["grammar_text"] == (REPO / "grammars" / "pbn.lark").read_text(encoding="utf-8")
    assert probe["loaded_text"] == probe["grammar_text"]
    # A checkout compiled in place gives a compiled wheel (the build hook), which must run so.
    assert probe["native"] == ("compiled" if COMPILED else "pure Python (not compiled)")

    from pbntool.formats import pbn  # the same file read by this checkout, for comparison

    expected = pbn.parse(fixture_file.read_bytes(), fixture_file.name, validate=True)
    assert probe["boards"] == len(expected.boards) > 0
    assert probe["contracts"] == [str(board.contract) for board in expected.boards]
    assert probe["errors"] == [str(d) for d in expected.diagnostics if d.severity.label == "error"]


SCHEMA_PROBE = """
import io, json, pathlib, sys
from importlib import resources
from lxml import etree
import pbntool
from pbntool.formats import pbn
from pbntool.text import schemas
from pbntool.formats.json import dumps_line, iter_records as json_records
from pbntool.formats.xml import dumps, iter_records as xml_records

path = pathlib.Path(sys.argv[1])
package = pathlib.Path(pbntool.__file__).resolve().parent
boards = pbn.parse(path.read_bytes(), path.name).boards
xsd = etree.XMLSchema(etree.fromstring(schemas.schema_bytes(schemas.XML_SCHEMA)))
document = dumps(boards).encode("utf-8")
lines = "".join(dumps_line(board) + "\\n" for board in boards).encode("utf-8")
packaged = resources.files("pbntool").joinpath("schemas")
print(json.dumps({
    "files": sorted(p.name for p in packaged.iterdir()),
    "json_schema_id": schemas.json_schema()["$id"],
    "checkout_fallback_exists": (package.parent / "schemas").exists(),
    "xml_valid": xsd.validate(etree.fromstring(document)),
    "xml_back": [r.board for r in xml_records(io.BytesIO(document), "x")] == list(boards),
    "json_back": [r.board for r in json_records(io.BytesIO(lines), "j")] == list(boards),
}))
"""


def test_installed_package_ships_its_schemas(
    environment: Path, fixture_file: Path, tmp_path: Path
) -> None:
    python = environment / "bin" / "python"
    done = run([str(python), "-I", "-c", SCHEMA_PROBE, str(fixture_file)], cwd=tmp_path)
    assert succeeded(done), output(done)
    probe = json.loads(done.stdout)
    assert probe["files"] == sorted(path.name for path in (REPO / "schemas").glob("*"))
    assert (
        probe["json_schema_id"]
        == json.loads((REPO / "schemas" / "board.schema.json").read_text(encoding="utf-8"))["$id"]
    )
    assert probe["checkout_fallback_exists"] is False
    assert probe["xml_valid"] is True
    assert probe["xml_back"] is True
    assert probe["json_back"] is True


def test_installed_console_script_validates(
    environment: Path, fixture_file: Path, tmp_path: Path
) -> None:
    script = environment / "bin" / "pbntool"
    assert script.is_file()
    done = run([str(script), "validate", "--format", "json", str(fixture_file)], cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1), output(done)
    for line in done.stdout.splitlines():
        assert set(json.loads(line)) == {
            "file",
            "line",
            "column",
            "board",
            "code",
            "severity",
            "message",
        }
    assert "pbntool: 1 input" in done.stderr  # the summary line


def test_installed_console_script_validates_a_directory(environment: Path, tmp_path: Path) -> None:
    if not any(PBN_VALID.glob("*.pbn")):
        pytest.skip("no fixtures/pbn/valid")
    script = environment / "bin" / "pbntool"
    done = run([str(script), "validate", "--format", "json", "-q", str(PBN_VALID)], cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1), output(done)
    assert all(json.loads(line)["code"] != "INT001" for line in done.stdout.splitlines())


def test_installed_module_version(environment: Path, tmp_path: Path) -> None:
    python = environment / "bin" / "python"
    done = run([str(python), "-I", "-m", "pbntool", "--version"], cwd=tmp_path)
    assert succeeded(done), output(done)
    first, *extras = done.stdout.splitlines()
    assert (
        first == f"pbntool {VERSION} ({'compiled' if COMPILED else 'pure Python (not compiled)'})"
    )
    # The bare wheel names each extra as not installed, with the pip command that adds it.
    assert any("not installed (pip install 'pbntool[dd]')" in line for line in extras), extras


def test_installed_package_reads_lin_with_its_own_grammar(
    environment: Path, tmp_path: Path
) -> None:
    lin_file = tmp_path / "board.lin"
    lin_file.write_text(
        "pn|Ann,Bob,Cid,Dee|st||md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|"
        "rh||ah|Board 1|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pc|D2|mc|13|\n",
        encoding="utf-8",
    )
    script = environment / "bin" / "pbntool"
    done = run([str(script), "convert", str(lin_file), "--to", "pbn", "-q"], cwd=tmp_path)
    assert succeeded(done), output(done)
    assert '[Contract "7NT"]' in done.stdout and '[South "Ann"]' in done.stdout
