"""``pbntool fix`` on the command line: real subprocesses and typer's CliRunner.

Where the fixed text goes (stdout, ``-o FILE``, ``-o DIR``, ``--in-place``), what is
listed where, ``--dry-run`` and ``--diff`` as checks, ``--only``/``--skip``, stdin, other
formats, unreadable paths, and that ``--in-place`` replaces a file atomically or not at all.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbntool.cli import app
from pbntool.cli.fix import TAG_LIST
from pbntool.dev.docs_gen import command_fixtures
from pbntool.formats import REGISTRY, Format
from pbntool.tools.fix import VALUE_TAGS

MODULE = (sys.executable, "-m", "pbntool")
REPO = Path(__file__).resolve().parent.parent
FIX_FIXTURES = REPO / "fixtures" / "commands" / "fix"

BROKEN = (
    b'[Board "2"]\r\n'
    b'[West "w"]\r\n'
    b'[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"]\r\n'
    b'[Vulnerable "?"]\r\n'
)
FIXED = (
    b'[Board "2"]\r\n'
    b'[West "w"]\r\n'
    b'[Dealer "E"]\r\n'
    b'[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\r\n'
    b'[Vulnerable "NS"]\r\n'
)
CORRECT = FIXED


def _run(
    *args: str, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*MODULE, "fix", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120, check=False
    )


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_one_input_is_fixed_to_stdout_with_the_changes_on_stderr(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    done = _run(str(source))
    assert done.returncode == 0
    assert done.stdout == FIXED
    err = done.stderr.decode()
    assert f'{source}:3:10: info FIX001 board 2: Dealer absent → "E"' in err
    assert "pbntool: 1 input, 1 board: 3 changes in 1 input\n" in err
    assert source.read_bytes() == BROKEN


def test_stdin_is_fixed_to_stdout() -> None:
    done = _run("-", stdin=BROKEN)
    assert (done.returncode, done.stdout) == (0, FIXED)
    assert "<stdin>:3:10: info FIX001" in done.stderr.decode()


def test_in_place_replaces_the_file_and_lists_the_changes_on_stdout(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    os.chmod(source, 0o640)
    done = _run("--in-place", str(source))
    assert done.returncode == 0
    assert source.read_bytes() == FIXED
    assert stat.S_IMODE(source.stat().st_mode) == 0o640
    assert [line.split(" ")[2] for line in done.stdout.decode().splitlines()] == [
        "FIX001",
        "FIX003",
        "FIX002",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn"]  # no temporary left


def test_in_place_leaves_a_correct_file_untouched(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", CORRECT)
    before = source.stat()
    done = _run("-i", str(source))
    assert (done.returncode, done.stdout) == (0, b"")
    after = source.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_in_place_never_leaves_a_half_written_file(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN * 50)

    def failing(open_input, name, out, *, only, event_scores, report):  # type: ignore[no-untyped-def]
        out.write(b"half a file")
        raise RuntimeError("disk on fire")

    import pbntool.tools.fix as fix_package

    fix_package.failing_fixer = failing  # type: ignore[attr-defined]
    saved = REGISTRY[Format.PBN]
    REGISTRY[Format.PBN] = dataclasses.replace(saved, fixer="pbntool.tools.fix:failing_fixer")
    try:
        result = CliRunner().invoke(app, ["fix", "-i", str(source)])
    finally:
        REGISTRY[Format.PBN] = saved
        del fix_package.failing_fixer  # type: ignore[attr-defined]
    assert result.exit_code == 2
    assert "INT001" in result.stdout and "disk on fire" in result.stdout
    assert source.read_bytes() == BROKEN * 50
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn"]


def test_output_file_and_output_directory(tmp_path: Path) -> None:
    one = _write(tmp_path / "in" / "a.pbn", BROKEN)
    _write(tmp_path / "in" / "deep" / "b.pbn", CORRECT)
    done = _run(str(one), "-o", str(tmp_path / "single.pbn"))
    assert done.returncode == 0 and (tmp_path / "single.pbn").read_bytes() == FIXED
    done = _run(str(tmp_path / "in"), "-o", str(tmp_path / "out"))
    assert done.returncode == 0
    assert (tmp_path / "out" / "a.pbn").read_bytes() == FIXED
    assert (tmp_path / "out" / "deep" / "b.pbn").read_bytes() == CORRECT
    assert one.read_bytes() == BROKEN
    done = _run("-", "-o", f"{tmp_path / 'new'}/", stdin=BROKEN)
    assert done.returncode == 0 and (tmp_path / "new" / "stdin.pbn").read_bytes() == FIXED


def test_several_inputs_need_somewhere_to_go(tmp_path: Path) -> None:
    one, two = _write(tmp_path / "a.pbn", BROKEN), _write(tmp_path / "b.pbn", BROKEN)
    done = _run(str(one), str(two))
    assert done.returncode == 2
    assert b"several inputs" in done.stderr
    assert done.stdout == b""


@pytest.mark.parametrize(
    "args",
    [["-i", "-o", "x.pbn"], ["--dry-run", "-i"], ["-i", "-"]],
    ids=["in-place-and-output", "dry-run-and-in-place", "stdin-in-place"],
)
def test_contradictory_options_are_usage_errors(tmp_path: Path, args: list[str]) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    done = _run(str(source), *args, cwd=tmp_path)
    assert done.returncode == 2
    assert source.read_bytes() == BROKEN


def test_dry_run_writes_nothing_and_exits_1_when_something_would_change(tmp_path: Path) -> None:
    broken, correct = _write(tmp_path / "a.pbn", BROKEN), _write(tmp_path / "b.pbn", CORRECT)
    done = _run("--dry-run", str(broken), str(correct))
    assert done.returncode == 1
    assert len(done.stdout.decode().splitlines()) == 3
    assert broken.read_bytes() == BROKEN
    assert _run("-n", str(correct)).returncode == 0


def test_diff_shows_the_change(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    done = _run("--diff", str(source))
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert lines[0] == f"--- {source}"
    assert '+[Dealer "E"]' in lines and '-[Vulnerable "?"]' in lines
    assert b"FIX001" in done.stderr
    done = _run("--diff", "-i", str(source))
    assert done.returncode == 0 and source.read_bytes() == FIXED
    assert '+[Vulnerable "NS"]' in done.stdout.decode().splitlines()


def test_only_and_skip_choose_the_tags(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    done = _run("-n", "--only", "dealer,Deal", str(source))
    assert [line.split(" ")[2] for line in done.stdout.decode().splitlines()] == [
        "FIX001",
        "FIX003",
    ]
    done = _run("-n", "--skip", "Deal", "--skip", "Dealer", str(source))
    assert [line.split(" ")[2] for line in done.stdout.decode().splitlines()] == ["FIX002"]
    done = _run("-n", "--only", "Event", str(source))
    assert done.returncode == 2 and b"cannot change" in done.stderr


def test_json_lists_changes_as_objects(tmp_path: Path) -> None:
    source = _write(tmp_path / "a.pbn", BROKEN)
    done = _run("-n", "--format", "json", "-q", str(source))
    objects = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [o["code"] for o in objects] == ["FIX001", "FIX003", "FIX002"]
    assert objects[0] == {
        "file": str(source),
        "line": 3,
        "column": 10,
        "board": 2,
        "code": "FIX001",
        "severity": "info",
        "message": 'Dealer absent → "E": board 2 of the 16-board cycle',
    }
    assert done.stderr == b""


def test_other_formats_and_unreadable_paths(tmp_path: Path) -> None:
    lin = _write(tmp_path / "a.lin", b"pn|a,b,c,d|st||md|3SAK|mb|p|\n")
    done = _run("-n", str(lin))
    assert done.returncode == 1
    assert b"FIX012 fix edits PBN files only; this LIN input was not changed" in done.stdout
    done = _run("-o", str(tmp_path / "out.pbn"), str(lin))
    assert not (tmp_path / "out.pbn").exists()
    done = _run("-n", str(tmp_path / "missing.pbn"))
    assert done.returncode == 2 and b"SRC003" in done.stdout


@pytest.mark.parametrize(
    "case",
    [
        path
        for path in command_fixtures()
        if path.parent == FIX_FIXTURES and "FIX010" not in path.name
    ],
    ids=lambda path: path.stem,
)
def test_fixtures_through_the_cli(case: Path) -> None:
    args = case.with_suffix(".args")
    extra = args.read_text(encoding="utf-8").split() if args.is_file() else []
    result = CliRunner().invoke(app, ["fix", "-n", "--format", "json", "-q", str(case), *extra])
    objects = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    expected = [line for line in case.with_suffix(".expected").read_text().splitlines() if line]
    assert [f"{o['line']}:{o['column']} {o['code']}" for o in objects] == expected
    changes = [o for o in objects if o["code"] not in ("FIX011", "FIX012")]
    errors = [o for o in objects if o["severity"] == "error"]
    assert result.exit_code == (1 if changes or errors else 0)


def test_the_help_names_the_tags_fix_changes() -> None:
    assert ", ".join((*VALUE_TAGS, "Note")) == TAG_LIST


def test_other_commands_do_not_import_fix_at_start_up() -> None:
    code = "import sys, pbntool.cli; print('pbntool.tools.fix' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout.strip() == b"False"
