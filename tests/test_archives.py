"""Inputs at scale: archives, directory trees, path lists, stdin, and their ARC diagnostics.

Archives are built at run time (never committed, except the small ARC fixtures, which
``fixtures/commands/make_archive_fixtures.py`` generates byte for byte).  Reading an archive
must give exactly what reading its files gives, with ``archive!member`` names; hostile
archives and trees must give one located diagnostic each and never stop the batch.
"""

from __future__ import annotations

import bz2
import gzip
import importlib.util
import io
import json
import lzma
import os
import re
import select
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from pbntool.dev.docs_gen import command_fixtures
from pbntool.dev.generate import random_boards
from pbntool.formats import read_input
from pbntool.formats.pbn.writer import dumps
from pbntool.records import validate_record
from pbntool.text.archives import Limits
from pbntool.text.inputs import Selection, iter_inputs

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
GENERATOR = FIXTURES / "commands" / "make_archive_fixtures.py"
MODULE = [sys.executable, "-m", "pbntool"]


def run(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [*MODULE, *args], cwd=cwd, input=stdin, capture_output=True, timeout=300, check=False
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def findings(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def games(seed: int, count: int, damage: bool = False) -> bytes:
    text = dumps(list(random_boards(seed, count)))
    if damage:  # results that the play contradicts: errors to compare
        text = re.sub(r'\[Result "\d+"\]', '[Result "0"]', text, count=3)
    return text.encode()


# --- the ARC fixtures -----------------------------------------------------------------------------


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_archive_fixtures", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_archive_fixtures_are_up_to_date(update_golden: bool) -> None:
    generator = _generator()
    if update_golden:
        generator.write()
    stale = [str(path.relative_to(REPO)) for path in generator.stale()]
    assert not stale, f"stale generated fixtures {stale}; run pytest --update-golden"


def _expected(case: Path) -> list[str]:
    return [line.strip() for line in case.with_suffix(".expected").read_text().splitlines() if line]


def _args(case: Path, out: Path) -> list[str]:
    path = case.with_suffix(".args")
    return path.read_text().replace("{out}", str(out)).split() if path.is_file() else []


def _place(finding: dict[str, object]) -> str:
    return f"{finding['line'] or '-'}:{finding['column'] or '-'} {finding['code']}"


VALIDATE_CASES = [path for path in command_fixtures(FIXTURES) if path.parent.name == "validate"]


@pytest.mark.parametrize("case", VALIDATE_CASES, ids=lambda path: path.name.split("_")[0])
def test_validate_fixture_gives_its_expected_findings(case: Path, tmp_path: Path) -> None:
    code, out, err = run("validate", str(case), "--format", "json", *_args(case, tmp_path))
    found = findings(out)
    assert [_place(f) for f in found] == _expected(case)
    expected_code = case.name.split("_")[0]
    for finding in found:
        if finding["code"] == expected_code:
            assert str(finding["file"]).startswith(str(case))
            assert finding["message"]
    assert "Traceback" not in err
    assert code == (0 if expected_code == "ARC004" else 2)


def test_convert_fixture_refuses_the_second_output(tmp_path: Path) -> None:
    case = FIXTURES / "commands" / "convert" / "ARC007_two_members_one_output.zip"
    code, out, err = run("convert", str(case), *_args(case, tmp_path))
    lines = [line for line in err.splitlines() if re.search(r": (error|warning|info) [A-Z]", line)]
    code_pattern = re.compile(r" ([A-Z]{3}\d{3}) ")
    places = [f"-:- {match.group(1)}" for line in lines if (match := code_pattern.search(line))]
    assert places == _expected(case)
    assert code == 2 and out == ""
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.jsonl"))
    assert written == ["ARC007_two_members_one_output/games/x.jsonl"]


def test_convert_fixture_shortens_names_too_long_for_a_file(tmp_path: Path) -> None:
    """Member names longer than a file name may be: each output is written under a shortened
    name (its start, ~ and a hash), with an ARC008 warning; the batch goes on (issue 12)."""
    case = FIXTURES / "commands" / "convert" / "ARC008_member_names_too_long_for_a_file.zip"
    code, out, err = run("convert", str(case), *_args(case, tmp_path))
    lines = [line for line in err.splitlines() if re.search(r": (error|warning|info) [A-Z]", line)]
    code_pattern = re.compile(r" ([A-Z]{3}\d{3}) ")
    places = [f"-:- {match.group(1)}" for line in lines if (match := code_pattern.search(line))]
    assert places == _expected(case)
    assert code == 0 and out == "" and "Traceback" not in err
    written = sorted(tmp_path.rglob("*.jsonl"))
    assert len(written) == 2
    assert all(len(path.name.encode()) <= 255 and "~" in path.name for path in written)
    assert all(path.read_text(encoding="utf-8").count("\n") == 1 for path in written)


# --- every archive kind reads like its files ------------------------------------------------------


def _members() -> dict[str, bytes]:
    return {
        "event/one.pbn": games(1, 6, damage=True),
        "event/two.PBN": games(2, 4),
        "readme.txt": b"not a bridge record\n",
    }


def _tar(members: dict[str, bytes], mode: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


ARCHIVES = {
    "a.zip": lambda m: _zip(m),
    "a.tar": lambda m: _tar(m, "w"),
    "a.tar.gz": lambda m: _tar(m, "w:gz"),
    "a.tgz": lambda m: _tar(m, "w:gz"),
    "a.tar.bz2": lambda m: _tar(m, "w:bz2"),
    "a.tar.xz": lambda m: _tar(m, "w:xz"),
    "a.zip.tar.gz": lambda m: _tar({"inner.zip": _zip(m)}, "w:gz"),
}


def _plain(tmp_path: Path, members: dict[str, bytes]) -> list[dict[str, object]]:
    """What validating the members as files (only the readable ones) reports."""
    root = tmp_path / "plain"
    for name, data in members.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    code, out, _ = run("validate", ".", "--format", "json", cwd=root)
    assert code == 1
    return findings(out)


@pytest.mark.parametrize("name", list(ARCHIVES))
def test_an_archive_reads_like_its_files(tmp_path: Path, name: str) -> None:
    members = _members()
    expected = _plain(tmp_path, members)
    (tmp_path / name).write_bytes(ARCHIVES[name](members))
    code, out, err = run("validate", name, "--format", "json", "-j", "2", cwd=tmp_path)
    got = findings(out)
    prefix = f"{name}!inner.zip!" if "zip.tar" in name else f"{name}!"
    for finding in got:
        assert str(finding["file"]).startswith(prefix)
        finding["file"] = str(finding["file"])[len(prefix) :]
    for finding in expected:
        finding["file"] = str(finding["file"]).removeprefix("./")
    assert got == expected
    assert code == 1
    assert "3 inputs" not in err and "2 inputs" in err  # readme.txt is not a data file


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_a_single_compressed_file_is_named_as_itself(tmp_path: Path, compress: object) -> None:
    data = games(3, 5, damage=True)
    (tmp_path / "x.pbn").write_bytes(data)
    suffix = {gzip.compress: ".gz", bz2.compress: ".bz2", lzma.compress: ".xz"}[compress]  # type: ignore[index]
    (tmp_path / f"x.pbn{suffix}").write_bytes(compress(data))  # type: ignore[operator]
    _, plain, _ = run("validate", "x.pbn", cwd=tmp_path)
    code, packed, _ = run("validate", f"x.pbn{suffix}", cwd=tmp_path)
    assert packed == plain.replace("x.pbn:", f"x.pbn{suffix}:")
    assert code == 1 and plain


@pytest.mark.parametrize("name", ["a.tar.gz", "a.zip"])
def test_archives_are_read_from_stdin(tmp_path: Path, name: str) -> None:
    members = _members()
    data = ARCHIVES[name](members)
    code, out, _ = run("validate", "-", "--format", "json", stdin=data)
    files = {str(f["file"]) for f in findings(out)}
    assert files == {"<stdin>!event/one.pbn"}
    assert code == 1


def test_a_ratio_bomb_stops_at_the_limit_and_keeps_what_was_read() -> None:
    member = games(4, 3) * 400  # one small file repeated: about 1,000x smaller compressed
    archive = io.BytesIO(_zip({"bomb.pbn": member}))
    limits = Limits(ratio_floor=64 << 10, max_ratio=20)
    path_name = "bomb.zip"
    selection = Selection(limits=limits)
    sources = list(_inputs_of(archive.getvalue(), path_name, selection))
    records = [record for source in sources for record in read_input(source)]
    codes = [d.code for record in records for d in validate_record(record)]
    assert codes.count("ARC002") == 1
    assert codes[-1] == "ARC002"
    assert sum(record.board is not None for record in records) >= 10
    last = records[-1].diagnostics[-1]
    assert last.file == "bomb.zip!bomb.pbn" and "the ratio limit of 20" in last.message


def _inputs_of(data: bytes, name: str, selection: Selection):  # type: ignore[no-untyped-def]
    directory = Path(os.environ.get("TMPDIR", "/tmp")) / f"pbntool-test-{os.getpid()}"
    directory.mkdir(exist_ok=True)
    path = directory / name
    path.write_bytes(data)
    for source in iter_inputs([str(path)], selection):
        yield source.__class__(
            source.name.replace(str(path), name),
            source.path,
            source.problem,
            source.opener,
            source.relative,
            source.size,
            source.status,
        )


def test_a_corrupt_zip_is_one_diagnostic_and_the_batch_goes_on(tmp_path: Path) -> None:
    data = bytearray(_zip(_members()))
    data[60:200] = b"\x00" * 140  # damage the first member's compressed data
    (tmp_path / "bad.zip").write_bytes(bytes(data))
    (tmp_path / "good.pbn").write_bytes(games(5, 2))
    code, out, err = run("validate", "bad.zip", "good.pbn", "--format", "json", cwd=tmp_path)
    codes = [f["code"] for f in findings(out)]
    assert any(code_ in ("ARC001", "ARC005") for code_ in codes), codes
    assert "Traceback" not in err
    # The damaged member is reported; the next member and good.pbn are still read.
    assert err.startswith("pbntool: 3 inputs, 6 boards")
    assert code == 2


def test_deep_directories_and_hostile_names_never_crash(tmp_path: Path) -> None:
    deep = tmp_path
    for _ in range(60):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "x.pbn").write_bytes(games(6, 1))
    (tmp_path / "odd name \u00e9 ;.pbn").write_bytes(games(7, 1))
    code, _, err = run("validate", ".", cwd=tmp_path)
    assert code == 0 and "2 inputs, 2 boards" in err


# --- directory trees ------------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    (root / "club" / "old").mkdir(parents=True)
    (root / "club" / "a.pbn").write_bytes(games(8, 2, damage=True))
    (root / "club" / "old" / "b.PBN").write_bytes(games(9, 2, damage=True))
    (root / "club" / "notes.txt").write_text("hello\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "c.pbn").write_bytes(games(10, 2, damage=True))
    os.symlink(outside / "c.pbn", root / "club" / "link_out.pbn")
    os.symlink(root / "club" / "a.pbn", root / "club" / "link_in.pbn")
    os.symlink(tmp_path / "missing.pbn", root / "club" / "dangling.pbn")
    os.symlink(outside, root / "club" / "dir_out")
    return root


def _files(out: str) -> list[str]:
    seen: list[str] = []
    for finding in findings(out):
        name = str(finding["file"])
        if name not in seen:
            seen.append(name)
    return seen


def test_tree_walk_is_sorted_and_does_not_leave_the_tree(tree: Path) -> None:
    code, out, _ = run("validate", "club", "--format", "json", cwd=tree)
    assert _files(out) == [
        "club/a.pbn",
        "club/dangling.pbn",
        "club/dir_out",
        "club/link_in.pbn",
        "club/link_out.pbn",
        "club/old/b.PBN",
    ]
    arc = [f for f in findings(out) if f["code"] == "ARC004"]
    assert [f["file"] for f in arc] == ["club/dangling.pbn", "club/dir_out", "club/link_out.pbn"]
    assert all(f["severity"] == "warning" for f in arc)
    assert code == 1  # the damaged boards, not the links


def test_follow_symlinks_reads_what_links_point_at(tree: Path) -> None:
    _, out, _ = run("validate", "club", "--format", "json", "--follow-symlinks", cwd=tree)
    files = _files(out)
    assert "club/link_out.pbn" in files and "club/dir_out/c.pbn" in files
    assert [f["code"] for f in findings(out) if f["file"] == "club/link_out.pbn"] != ["ARC004"]


def test_include_and_exclude_globs(tree: Path) -> None:
    _, out, _ = run(
        "validate", "club", "--format", "json", "--include", "*.pbn", "--exclude", "link_*",
        cwd=tree,
    )  # fmt: skip
    assert _files(out) == ["club/a.pbn", "club/dangling.pbn", "club/dir_out", "club/old/b.PBN"]
    _, out, _ = run("validate", "club", "--format", "json", "--exclude", "old", cwd=tree)
    assert "club/old/b.PBN" not in _files(out)
    _, out, _ = run("validate", "club", "--format", "json", "--include", "old/*.pbn", cwd=tree)
    assert _files(out) == ["club/dir_out", "club/old/b.PBN"]  # a directory link is still told


def test_files_from_a_file_and_from_stdin(tree: Path) -> None:
    (tree / "list.txt").write_text("club/a.pbn\n\nclub/old/b.PBN\nmissing.pbn\n")
    code, out, _ = run("validate", "--files-from", "list.txt", "--format", "json", cwd=tree)
    assert _files(out) == ["club/a.pbn", "club/old/b.PBN", "missing.pbn"]
    assert code == 2  # missing.pbn
    code, out2, _ = run(
        "validate", "--files-from", "-", "--format", "json", cwd=tree, stdin=b"club/a.pbn\n"
    )
    assert _files(out2) == ["club/a.pbn"] and code == 1


@pytest.mark.parametrize(
    "args",
    [["--files-from", "-", "-"], ["--files-from", "nope.txt"], [], ["-j", "-1", "x.pbn"]],
)
def test_usage_errors_exit_2_with_a_message(tmp_path: Path, args: list[str]) -> None:
    code, out, err = run("validate", *args, cwd=tmp_path, stdin=b"")
    assert code == 2 and out == ""
    assert err.startswith("pbntool: error:") and "Traceback" not in err


# --- convert -o DIR and --split -------------------------------------------------------------------


def test_convert_to_a_directory_writes_one_output_per_input(tree: Path, tmp_path: Path) -> None:
    (tree / "pack.tar.gz").write_bytes(_tar(_members(), "w:gz"))
    out = tmp_path / "out"
    code, stdout, err = run(
        "convert", "club", "pack.tar.gz", "--to", "json", "-o", f"{out}/", cwd=tree
    )
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == [
        "a.jsonl",
        "link_in.jsonl",
        "old/b.jsonl",
        "pack/event/one.jsonl",
        "pack/event/two.jsonl",
    ]
    assert stdout == ""
    lines = (out / "pack" / "event" / "one.jsonl").read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["file"] == "pack.tar.gz!event/one.pbn"
    assert code == 1 or "ARC004" in err


def test_split_cuts_outputs_at_n_boards(tmp_path: Path) -> None:
    (tmp_path / "x.pbn").write_bytes(games(11, 25))
    out = tmp_path / "out"
    code, _, _ = run(
        "convert", "x.pbn", "--to", "pbn", "-o", f"{out}/", "--split", "10", cwd=tmp_path
    )
    parts = sorted(out.iterdir())
    assert [p.name for p in parts] == ["x-0001.pbn", "x-0002.pbn", "x-0003.pbn"]
    counts = [p.read_text().count('[Board "') for p in parts]
    assert counts == [10, 10, 5] and code == 0
    assert all(p.read_text().startswith("% PBN") for p in parts)  # each a whole PBN file
    run("convert", "x.pbn", "--to", "json", "-o", "one.jsonl", "--split", "20", cwd=tmp_path)
    assert [
        len((tmp_path / n).read_text().splitlines()) for n in ("one-0001.jsonl", "one-0002.jsonl")
    ] == [20, 5]


def test_output_directory_is_never_left(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "sub").parent.mkdir(parents=True, exist_ok=True)
    victim = tmp_path / "victim"
    victim.mkdir()
    os.symlink(victim, out / "sub")  # a link inside DIR leading out of it
    source = tmp_path / "in" / "sub"
    source.mkdir(parents=True)
    (source / "x.pbn").write_bytes(games(12, 2))
    code, _, err = run("convert", "in", "--to", "json", "-o", f"{out}/", cwd=tmp_path)
    assert list(victim.iterdir()) == []
    assert "ARC007" in err and "leads out of" in err and code == 2


def test_an_input_is_never_overwritten(tmp_path: Path) -> None:
    data = games(13, 2)
    (tmp_path / "x.pbn").write_bytes(data)
    code, _, err = run("convert", "x.pbn", "--to", "pbn", "-o", f"{tmp_path}/", cwd=tmp_path)
    assert (tmp_path / "x.pbn").read_bytes() == data
    assert "ARC007" in err and "the input itself" in err and code == 2


# --- streaming, summary, progress -----------------------------------------------------------------


def test_first_results_appear_before_the_input_ends(tmp_path: Path) -> None:
    # Several slices: the first is planned (1 MiB read, 1 MiB of games) and written while the
    # rest of the input has not been sent yet.
    data = games(14, 400, damage=True) * 20
    process = subprocess.Popen(
        [*MODULE, "validate", "-", "-j", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(data[: len(data) * 3 // 4])
    process.stdin.flush()
    ready, _, _ = select.select([process.stdout], [], [], 120)
    assert ready, "no output while the input was still open"
    first = process.stdout.readline()
    assert first.startswith(b"<stdin>:")
    process.stdin.write(data[len(data) * 3 // 4 :])
    process.stdin.close()
    rest = process.stdout.read()
    assert process.wait(timeout=120) == 1 and rest


def test_summary_json(tmp_path: Path) -> None:
    (tmp_path / "x.pbn").write_bytes(games(15, 3, damage=True))
    code, _, err = run("validate", "x.pbn", "missing.pbn", "--summary-json", cwd=tmp_path)
    summary = json.loads(err.splitlines()[-1])
    assert summary["inputs"] == 2 and summary["boards"] == 3
    assert summary["unreadable"] == 1 and summary["exit_code"] == code == 2
    assert summary["by_code"]["error"]["SRC003"] == 1
    assert set(summary) >= {"errors", "warnings", "info", "seconds", "stopped"}


def test_max_errors_stops_after_the_board_with_the_nth_error(tmp_path: Path) -> None:
    text = dumps(list(random_boards(16, 40))).replace('[Result "', '[Result "1', 40)
    (tmp_path / "x.pbn").write_text(text)
    code, out, err = run("validate", "x.pbn", "--max-errors", "3", "--select", "CON", cwd=tmp_path)
    assert code == 1 and "stopped after" in err
    errors = [line for line in out.splitlines() if ": error " in line]
    assert 3 <= len(errors) <= 6  # the board with the third error is printed whole


@pytest.mark.parametrize(
    ("flags", "shown"),
    [(["--progress"], True), ([], False), (["--progress", "--quiet"], False)],
)
def test_progress_bar_only_when_asked_or_on_a_terminal(
    tmp_path: Path, flags: list[str], shown: bool
) -> None:
    (tmp_path / "x.pbn").write_bytes(games(17, 30))
    _, out, err = run("validate", "x.pbn", *flags, cwd=tmp_path)
    assert ("30 boards, " in err and "/s" in err) == shown
    assert out == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal: Linux")
def _read_terminal(master: int) -> bytes:
    """Everything written to a pseudo-terminal until its other side closes (then closed)."""
    seen = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not data:
            break
        seen += data
    os.close(master)
    return seen


def test_progress_bar_is_on_by_default_on_a_terminal(tmp_path: Path) -> None:
    import pty

    (tmp_path / "x.pbn").write_bytes(games(18, 30))
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [*MODULE, "validate", "x.pbn"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
    )
    os.close(slave)
    seen = _read_terminal(master)
    assert process.wait(timeout=120) == 0
    text = seen.decode(errors="replace")
    assert "30 boards, " in text and "/s" in text  # the bar
    assert "pbntool: 1 input, 30 boards" in text  # and the summary after it


def _tree(root: Path) -> int:
    """A directory of PBN, LIN and a zip, plus a file no walk reads; the bytes of those read."""
    write = {
        "a.pbn": games(31, 5),
        "deeper/b.PBN": games(32, 7),
        "deeper/c.lin": b"md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
        b"mb|p|mb|p|mb|p|mb|p|pg||\n",
        "notes.txt": b"not a bridge file\n" * 100,
    }
    for name, data in write.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    with zipfile.ZipFile(root / "deeper" / "d.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("x.pbn", games(33, 9))
        archive.writestr("y.pbn", games(34, 4))
    read = ("a.pbn", "deeper/b.PBN", "deeper/c.lin", "deeper/d.zip")
    return sum((root / name).stat().st_size for name in read)


def test_progress_total_of_a_directory_is_the_sum_of_its_file_sizes(tmp_path: Path) -> None:
    import pbntool.formats  # noqa: F401 - the registry gives the walk its suffixes
    from pbntool.run.batch import BatchOptions, input_total
    from pbntool.text.inputs import input_bytes

    expected = _tree(tmp_path)
    assert input_bytes([str(tmp_path)]) == expected
    assert input_total(BatchOptions(paths=(str(tmp_path),))) == expected
    listing = tmp_path / "list.txt"
    listing.write_text(f"{tmp_path / 'a.pbn'}\n")
    both = BatchOptions(paths=(str(tmp_path / "deeper"),), files_from=str(listing))
    assert input_total(both) == expected  # deeper/ and a.pbn, listed
    excluded = BatchOptions(paths=(str(tmp_path),), selection=Selection(exclude=("deeper",)))
    assert input_total(excluded) == (tmp_path / "a.pbn").stat().st_size
    assert input_total(BatchOptions(paths=(str(tmp_path), "-"))) is None  # stdin: unknown


def test_the_bar_moves_by_each_inputs_size_and_never_past_the_total(tmp_path: Path) -> None:
    from pbntool.run.progress import InputShare

    total = _tree(tmp_path)
    sources = list(iter_inputs([str(tmp_path)], Selection(include=("*.pbn", "*.lin", "*.zip"))))
    assert [source.size is not None for source in sources] == [True, True, True, True, False]
    share = InputShare(bounded=True)
    moved = 0
    for source in sources:
        # Two units each, weighing more than the file on disk (decompressed, say).
        for _ in range(2):
            moved += share.advance(source, 10 * (source.size or 1000))
            assert moved <= total
    assert moved + share.advance(None, 0) == total  # the rest of the last input at the end
    assert InputShare(bounded=False).advance(sources[0], 123) == 123


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    _tree(tmp_path)
    code, out, err = run("validate", ".", "-j", "1", cwd=tmp_path)
    assert code == 0 and out == ""
    assert err.startswith("pbntool: 5 inputs, 26 boards: 0 errors")  # the summary, no bar
    assert "\r" not in err and "\x1b" not in err and "━" not in err and "/s" not in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal: Linux")
def test_the_bar_on_a_terminal_shows_the_total_and_the_boards(tmp_path: Path) -> None:
    import pty

    total = _tree(tmp_path)
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [*MODULE, "validate", ".", "-j", "1"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env={**os.environ, "COLUMNS": "150"},
    )
    os.close(slave)
    seen = _read_terminal(master)
    assert process.wait(timeout=120) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode(errors="replace"))
    size = f"{total / 1000:.1f}/{total / 1000:.1f} kB"  # read of the total, full at the end
    assert size in text, text
    assert "26 boards, " in text and "ETA" in text
