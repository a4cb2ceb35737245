"""The one write path (``pbntool.text.edit``): no command loses what the user has.

Each case is a real subprocess; each lost data before the write path was shared: an output
that is an input was truncated before it was read, ``fix -o DIR/`` wrote every input to one
file or through a link out of DIR, ``fix -i`` replaced links by copies and split hard links,
concurrent ``fix -i`` runs lost one run's changes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from test_cli import MODULE, pbntool_run
from test_fix_cli import BROKEN, FIXED

from pbntool.dev.generate import random_boards
from pbntool.formats.pbn.writer import dumps


def _event(path: Path, boards: int = 6, seed: int = 3) -> bytes:
    data = dumps(list(random_boards(seed, boards))).encode("utf-8")
    path.write_bytes(data)
    return data


def _no_temporaries(*directories: Path) -> None:
    for directory in directories:
        left = [p.name for p in directory.rglob(".*.tmp")]
        assert left == [], f"temporary files left in {directory}: {left}"


@pytest.mark.parametrize(
    "args",
    [
        ("convert", "{in}", "--to", "json", "-o", "{in}"),
        ("convert", "{in}", "--to", "lin", "-o", "{in}"),
        ("select", "{in}", "--where", "level == 7", "--rejects", "{in}"),
        ("select", "{in}", "-o", "{in}"),
        ("score", "{in}", "-o", "{in}"),
        ("dedupe", "{in}", "--drop", "-o", "{in}"),
        ("convert", "{in}", "--to", "pbn", "-o", "{link}"),
    ],
    ids=lambda args: " ".join(args[:1] + args[2:]),
)
def test_an_output_that_is_an_input_is_refused(tmp_path: Path, args: tuple[str, ...]) -> None:
    source = tmp_path / "in.pbn"
    original = _event(source)
    (tmp_path / "link.pbn").symlink_to(source)
    names = {"{in}": str(source), "{link}": str(tmp_path / "link.pbn")}
    run = pbntool_run(*(names.get(arg, arg) for arg in args))
    assert run.code == 2, run.err
    assert "one of the inputs" in run.err
    assert source.read_bytes() == original
    _no_temporaries(tmp_path)


def test_convert_into_the_input_directory_never_overwrites_an_unread_input(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    pbn = _event(folder / "a.pbn", seed=1)
    converted = pbntool_run("convert", folder / "a.pbn", "--to", "json", "-o", tmp_path / "a.jsonl")
    assert converted.code == 0, converted.err
    (folder / "a.jsonl").write_bytes((tmp_path / "a.jsonl").read_bytes())
    run = pbntool_run("convert", "-j", "1", folder, "--to", "pbn", "-o", f"{folder}/")
    assert run.code == 2, run.err
    assert "ARC007" in run.err
    assert (folder / "a.pbn").read_bytes() == pbn
    _no_temporaries(folder)


def test_fix_gives_every_input_its_own_output(tmp_path: Path) -> None:
    (tmp_path / "d1").mkdir()
    (tmp_path / "d2").mkdir()
    (tmp_path / "d1" / "x.pbn").write_bytes(BROKEN)
    (tmp_path / "d2" / "x.pbn").write_bytes(BROKEN.replace(b'"w"', b'"other"'))
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as archive:
        archive.writestr("a.pbn", BROKEN)
        archive.writestr("b.pbn", BROKEN.replace(b'"w"', b'"bee"'))
    out = tmp_path / "out"
    run = pbntool_run("fix", tmp_path / "d1" / "x.pbn", tmp_path / "d2" / "x.pbn", "-o", f"{out}/")
    assert run.code == 0, run.err
    assert (out / "x.pbn").read_bytes() == FIXED
    assert (out / "x-2.pbn").read_bytes() == FIXED.replace(b'"w"', b'"other"')
    run = pbntool_run("fix", tmp_path / "two.zip", "-o", f"{tmp_path / 'zipped'}/")
    assert run.code == 0, run.err
    written = sorted(
        p.relative_to(tmp_path / "zipped").as_posix() for p in (tmp_path / "zipped").rglob("*.pbn")
    )
    assert written == ["two/a.pbn", "two/b.pbn"]
    assert (tmp_path / "zipped" / "two" / "b.pbn").read_bytes() == FIXED.replace(b'"w"', b'"bee"')


def test_fix_never_leaves_the_output_directory_through_a_link(tmp_path: Path) -> None:
    tree = tmp_path / "in"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "x.pbn").write_bytes(BROKEN)
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(outside, target_is_directory=True)
    run = pbntool_run("fix", tree, "-o", f"{out}/")
    assert run.code == 2, run.err
    assert "ARC007" in run.text + run.err and "leads out of" in run.text + run.err
    assert list(outside.iterdir()) == []


def test_in_place_is_refused_for_what_is_not_a_plain_file(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as archive:
        archive.writestr("a.pbn", BROKEN)
    before = (tmp_path / "a.zip").read_bytes()
    run = pbntool_run("fix", "-i", tmp_path / "a.zip")
    assert run.code == 2, run.err
    assert "in place" in run.text + run.err
    assert (tmp_path / "a.zip").read_bytes() == before
    link = "https://www.bridgebase.com/tools/handviewer.html?lin=md|3SAKQJHT98D765C432,,,|"
    run = pbntool_run("fix", "-i", link)
    assert run.code == 2, run.err


def test_in_place_keeps_links_mode_and_owner(tmp_path: Path) -> None:
    target = tmp_path / "real.pbn"
    target.write_bytes(BROKEN)
    os.chmod(target, 0o640)
    if os.geteuid() == 0:
        os.chown(target, 1234, 4321)
    (tmp_path / "link.pbn").symlink_to(target)
    os.link(target, tmp_path / "hard.pbn")
    run = pbntool_run("fix", "-i", tmp_path / "link.pbn")
    assert run.code == 0, run.err
    assert (tmp_path / "link.pbn").is_symlink()
    assert target.read_bytes() == FIXED
    assert (tmp_path / "hard.pbn").read_bytes() == FIXED
    assert os.stat(target).st_ino == os.stat(tmp_path / "hard.pbn").st_ino
    info = os.stat(target)
    assert info.st_mode & 0o7777 == 0o640
    if os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (1234, 4321)
    _no_temporaries(tmp_path)


def test_concurrent_in_place_fixes_lose_no_update(tmp_path: Path) -> None:
    """A second ``fix -i`` waits for the lock, then fixes what the first one wrote."""
    path = tmp_path / "a.pbn"
    path.write_bytes(BROKEN)
    holder = open(path, "rb")  # noqa: SIM115 - this test plays the first run
    fcntl.flock(holder.fileno(), fcntl.LOCK_EX)
    second = subprocess.Popen(
        [*MODULE, "fix", "-i", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    try:
        deadline = time.monotonic() + 60
        assert second.stderr is not None
        waiting = second.stderr.readline().decode()
        assert "waiting for another pbntool" in waiting, waiting
        assert time.monotonic() < deadline
        # The "first run" replaces the file (another board, already fixed) and lets go.
        replacement = tmp_path / "new.pbn"
        replacement.write_bytes(BROKEN.replace(b'"w"', b'"late"'))
        os.replace(replacement, path)
    finally:
        holder.close()
    _out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err
    assert path.read_bytes() == FIXED.replace(b'"w"', b'"late"')


def test_a_full_disk_is_a_write_error_and_leaves_no_partial_file(tmp_path: Path) -> None:
    source = tmp_path / "big.pbn"
    _event(source, boards=400)
    target = tmp_path / "out.jsonl"
    limit = "ulimit -f 64; "  # 64 blocks of 512 bytes: far less than the output
    command = " ".join([*MODULE, "convert", str(source), "--to", "json", "-o", str(target)])
    done = subprocess.run(["bash", "-c", limit + command], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert not target.exists()
    _no_temporaries(tmp_path)
    out_dir = tmp_path / "dir"
    command = " ".join([*MODULE, "convert", str(source), "--to", "json", "-o", f"{out_dir}/"])
    done = subprocess.run(["bash", "-c", limit + command], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert not (out_dir / "big.jsonl").exists()
    _no_temporaries(tmp_path)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_stdout_on_a_full_device_is_a_write_error(tmp_path: Path) -> None:
    source = tmp_path / "a.pbn"
    _event(source, boards=200)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*MODULE, "convert", str(source), "--to", "json"], stdout=full, stderr=subprocess.PIPE
        )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "cannot write stdout" in err and "Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_leaves_no_temporary_file(tmp_path: Path, signum: int) -> None:
    source = tmp_path / "big.pbn"
    _event(source, boards=3000)
    target = tmp_path / "out.jsonl"
    run = subprocess.Popen(
        [*MODULE, "convert", "-j", "1", str(source), "--to", "json", "-o", str(target)],
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not list(tmp_path.glob(".out.jsonl.*.tmp")) and run.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    run.send_signal(signum)
    _, err = run.communicate(timeout=60)
    assert b"Traceback" not in err
    if run.returncode != 0:
        assert run.returncode == 128 + signum, err
        assert not target.exists()
    _no_temporaries(tmp_path)


_SIGNAL_AT = """
import os, signal, sys, tempfile
from pbntool.text import edit

signal.signal(signal.SIGINT, signal.default_int_handler)  # ignored in a background job
edit.exit_on_signals()
where, signum, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def signalled(call):
    def wrapped(*args, **kwargs):
        result = call(*args, **kwargs)
        os.kill(os.getpid(), signum)
        return result
    return wrapped

class Forgetting(set):
    discard = signalled(set.discard)

try:
    if where == "made":  # the file exists, it is not yet in edit._pending
        edit.tempfile.mkstemp = signalled(tempfile.mkstemp)
        edit.AtomicFile(os.path.join(folder, "out.json"))
    else:  # the file is forgotten by edit._pending while it is removed
        edit._pending = Forgetting()
        edit.AtomicFile(os.path.join(folder, "out.json")).abort()
except KeyboardInterrupt:
    sys.exit(130)
sys.exit(0)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("where", ["made", "forgotten"])
def test_a_signal_at_any_step_of_a_temporary_file_removes_it(
    tmp_path: Path, where: str, signum: int
) -> None:
    """The moments test_a_signal_leaves_no_temporary_file hits only by chance (CI did once):
    a signal just after the temporary file is made, and while it is being dropped."""
    run = subprocess.run(
        [sys.executable, "-c", _SIGNAL_AT, where, str(int(signum)), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 128 + signum, run.stderr
    assert "Traceback" not in run.stderr
    _no_temporaries(tmp_path)


@pytest.mark.skipif(sys.platform != "linux", reason="read-only directories as root: Linux")
def test_in_place_in_a_read_only_directory_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "a.pbn").write_bytes(BROKEN)
    os.chmod(folder, 0o555)
    try:
        if os.geteuid() == 0 and os.access(folder, os.W_OK):
            pytest.skip("root writes into read-only directories here")
        run = pbntool_run("fix", "-i", folder / "a.pbn")
    finally:
        os.chmod(folder, 0o755)
    assert run.code == 2, run.err
    assert "Traceback" not in run.err and "cannot write" in run.err
    assert (folder / "a.pbn").read_bytes() == BROKEN


# --- outputs that are not regular files --------------------------------------------------------


def test_an_output_to_dev_null_leaves_the_device_in_place(tmp_path: Path) -> None:
    """-o /dev/null is written to, never replaced: renaming a temporary file over it would put
    a regular file in place of the device (a benchmark did exactly that once)."""
    source = tmp_path / "a.pbn"
    source.write_text(dumps(list(random_boards(3, 2))), encoding="utf-8", newline="")
    for command in (("convert", "--to", "json"), ("convert", "--to", "pbn"), ("render",)):
        run = pbntool_run(*command, "-q", "-o", "/dev/null", str(source))
        assert run.code == 0, run.err
        assert Path("/dev/null").is_char_device(), command


def test_an_output_to_a_named_pipe_is_written_through_it(tmp_path: Path) -> None:
    source = tmp_path / "a.pbn"
    source.write_text(dumps(list(random_boards(3, 2))), encoding="utf-8", newline="")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    # The read end opens at once (no writer yet); it is read until the command ends, so a
    # command that replaced the pipe instead of writing to it fails here rather than hangs.
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    process = subprocess.Popen(
        [*MODULE, "convert", "-q", "--to", "json", "-o", str(pipe), str(source)],
        stderr=subprocess.PIPE,
    )
    data = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(BlockingIOError):
            data += os.read(reader, 65536)
        if process.poll() is not None:
            break
        time.sleep(0.01)
    with contextlib.suppress(BlockingIOError):
        data += os.read(reader, 65536)
    os.close(reader)
    assert process.wait(timeout=60) == 0
    lines = data.decode("utf-8").splitlines()
    assert len(lines) == 2 and all(line.startswith("{") for line in lines)
    assert pipe.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn", "pipe"]


def test_inputs_are_walked_only_for_an_output_that_could_be_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new output file or a device cannot replace an input: the tree of inputs is not
    walked for it (a second walk of a large tree before the run).  An existing file is
    checked against every input, in a subdirectory and through a link as well."""
    from pbntool.text import edit

    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    _event(tree / "sub" / "a.pbn")
    (tmp_path / "link.pbn").symlink_to(tree / "sub" / "a.pbn")
    walks: list[str] = []
    real_walk = os.walk

    def counted(path: object, **options: object) -> object:
        walks.append(str(path))
        return real_walk(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(edit.os, "walk", counted)
    inputs = edit.InputFiles.of([str(tree), "-"])
    assert not inputs.holds(tmp_path / "new.json")
    assert not inputs.holds(os.devnull)
    assert walks == []
    assert inputs.holds(tree / "sub" / "a.pbn")
    assert inputs.holds(tmp_path / "link.pbn")
    other = tmp_path / "other.pbn"
    other.write_text("x")
    assert not inputs.holds(other)
    assert walks == [str(tree)], "the tree was walked more than once"
    with pytest.raises(edit.WriteRefused):
        edit.check_not_input(tmp_path / "link.pbn", inputs)


class _Stops:
    """A descriptor whose ``__set_name__`` is where a signal handler's exit lands."""

    def __init__(self, stop: BaseException) -> None:
        self.stop = stop

    def __set_name__(self, owner: type, name: str) -> None:
        raise self.stop


@pytest.mark.parametrize("stop", [SystemExit(143), KeyboardInterrupt()], ids=["exit", "ctrl-c"])
def test_a_signal_while_a_late_import_makes_a_class_still_ends_the_run(
    stop: BaseException,
) -> None:
    """Python 3.11 wraps what a signal handler raises inside ``__set_name__`` (a class made
    by an import the run does late) in a RuntimeError: the run ended with a traceback
    instead of 128 + the signal (test_a_signal_leaves_no_temporary_file caught it once)."""
    from pbntool.cli.common import pipe_safe

    def command() -> None:
        type("Late", (), {"field": _Stops(stop)})

    with pytest.raises(RuntimeError) as wrapped:
        command()
    assert wrapped.value.__cause__ is stop  # what Python does
    with pytest.raises(type(stop)) as ended:
        pipe_safe(command)()
    assert ended.value is stop


@pytest.mark.parametrize(
    ("encoding", "errors", "newline"),
    [("utf-8", "surrogateescape", None), ("utf-8", "strict", ""), ("utf-16", "strict", None)],
)
def test_write_whole_writes_what_write_would(
    tmp_path: Path, encoding: str, errors: str, newline: str | None
) -> None:
    import io

    from pbntool.text.edit import WHOLE_WRITE_CHARS, write_whole

    long_text = "é\n" * WHOLE_WRITE_CHARS + ("\udce9" if errors == "surrogateescape" else "")
    outputs = []
    for writes in (io.TextIOWrapper.write, write_whole):
        path = tmp_path / f"{writes.__name__}.txt"
        with open(path, "w", encoding=encoding, errors=errors, newline=newline) as stream:
            writes(stream, "head ")  # held in the stream's buffer: it must come first
            writes(stream, long_text)
            writes(stream, " tail")
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 2 * WHOLE_WRITE_CHARS
