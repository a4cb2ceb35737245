"""Large LIN files are cut into slices: every slice read exactly as the whole file reads it.

A LIN file (not handviewer links, no segment header so far) is cut at line starts before
``qx|``, ``md|`` or ``pn|``; a slice's result is written only once the next slice is back and
the cut proved clean (the pair that starts the next slice ends the last table of this one);
else the input is read in the main process from the held slice on.  In this process, with a
deferred engine, tiny slices and small decoding chunks, every record (and every encoding
note, in its place) must equal the whole-file read; through real processes ``validate``,
``convert`` and ``score`` must print the same bytes for ``-j 1``, ``-j 2`` and unsplit.
"""

from __future__ import annotations

import gc
import io
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_parallel import DeferredEngine, ReprTask, planned_output

from pbntool.dev.generate import random_boards
from pbntool.formats import lin, read_input
from pbntool.formats.lin import lexer
from pbntool.formats.lin import reader as lin_reader
from pbntool.run.engine import InlineEngine, run_ordered
from pbntool.run.units import Planned, plan_input
from pbntool.text import source, spooled
from pbntool.text.inputs import Input

MODULE = [sys.executable, "-m", "pbntool"]


def whole(data: bytes, name: str = "f.lin") -> str:
    """What reading the file from start to end gives, record by record, as one process reads
    it (``read_input``: detection, and the refusal of what is not LIN at all, included)."""
    render = ReprTask().renderer()
    records = read_input(Input(name, None, opener=lambda: io.BytesIO(data)))
    return "".join(render(record).out for record in records)


def generated(seed: int, count: int) -> str:
    return lin.dumps(list(random_boards(seed, count)))


def slices(plans: list[Planned]) -> int:
    return sum(1 for plan in plans if plan.work is not None and plan.work.kind == "lin")


def check(data: bytes, slice_chars: int, window: int = 4, name: str = "f.lin") -> list[Planned]:
    expected = whole(data, name)
    for engine in (InlineEngine(), DeferredEngine(window)):
        got, plans = planned_output(data, slice_chars, engine, name)
        assert got == expected
    return plans


@pytest.fixture(params=[1 << 20, 700], ids=["chunk-1MiB", "chunk-700B"])
def chunk_size(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The decoder's chunk size: small chunks put chunk ends inside slices and tables."""
    size = int(request.param)
    monkeypatch.setattr(source, "CHUNK_SIZE", size)
    return size


def test_a_generated_file_is_cut_into_many_slices(chunk_size: int) -> None:
    data = generated(5, 80).encode()
    plans = check(data, 2000)
    assert slices(plans) >= 15
    chain = plans[0].chain
    assert chain is not None and not chain.failed
    assert all(plan.hold for plan in plans[:-1]) and not plans[-1].hold


def test_a_small_file_is_one_unit() -> None:
    data = generated(6, 3).encode()
    plans = check(data, 1 << 20)
    assert [plan.work.kind for plan in plans if plan.work] == ["bytes"]


def test_corpus_lin_files_split_exactly(corpus_dir: Path, chunk_size: int) -> None:
    paths = sorted(path for path in corpus_dir.rglob("*.lin") if path.is_file())
    assert len(paths) >= 100
    joined, with_rooms = [], []
    for path in paths:  # nearly all one board each (one vugraph file): read, never split
        data = path.read_bytes()
        check(data, 300, name=path.name)
        if not re.search(rb"(?i)(?:^|\|)\s*(?:vg|rs|pw|mp|bn)\s*\|", data):
            # After a room (qx) only a qx ends a table: files with rooms go last, or the
            # files after them would be cut only at their rooms.
            room = re.search(rb"(?i)(?:^|\|)\s*qx\s*\|", data) is not None
            (with_rooms if room else joined).append(data if data.endswith(b"\n") else data + b"\n")
    joined += with_rooms
    # The boards of the corpus in one file: real tables, cut wherever a slice may end.
    plans = check(b"".join(joined), 300, name="corpus.lin")
    assert slices(plans) > 100


def _boards_with_breaks(seed: int, count: int) -> list[str]:
    """One board per line, each with line breaks after its tricks (lines starting ``pc|``)."""
    lines = generated(seed, count).splitlines()
    return [line.replace("|pg||pc|", "|pg||\npc|", 3) for line in lines]


def test_encoding_notes_come_where_the_whole_read_puts_them(chunk_size: int) -> None:
    boards = _boards_with_breaks(8, 12)
    texts = ["\n".join(boards) + "\n"]
    # Windows-1252 on a line in the middle of a table (after the table's first line), in the
    # middle of the file, and in the next to last table (its note waits for the last table,
    # which only the end of the file ends).
    for index in (0, 5, 10, 11):
        lines = list(boards)
        lines[index] = lines[index].replace("\npc|", "|nt|caf\x00|\npc|", 1)
        texts.append("\n".join(lines) + "\n")
    for text in texts:
        for encoding in ("utf-8", "utf-8-sig", "utf-16-le", "utf-16"):
            if "\x00" in text and encoding != "utf-8":
                continue
            data = text.encode(encoding).replace(b"caf\x00", b"caf\xe9")
            for slice_chars in (1, 150, 900):
                check(data, slice_chars)


def test_rooms_names_before_rooms_strays_and_three_hands(chunk_size: int) -> None:
    lines = generated(9, 30).splitlines()
    rooms = [f"qx|{'oc'[i % 2]}{i // 2 + 1}|{line}" for i, line in enumerate(lines)]
    client = [line.replace("|st||", f"|qx|o{i + 1},BOARD {i + 1}|st||", 1)
              for i, line in enumerate(lines)]  # fmt: skip
    mixed = [*lines[:10], *rooms[10:20], *lines[20:]]  # pn and md lines after a qx
    strays = [line.replace("|rh||", "|rh|||| junk ||", 1) if i % 3 else "x y | z"
              for i, line in enumerate(lines)]  # fmt: skip
    three = [re.sub(r"(md\|[^|]*),[^,|]*\|", r"\1,|", line) for line in lines]
    late_names = [line if i % 4 else line + "pn|A,B,C,D|" for i, line in enumerate(rooms)]
    for variant in (rooms, client, mixed, strays, three, late_names):
        data = ("\n".join(variant) + "\n").encode()
        for slice_chars in (1, 400, 2500):
            check(data, slice_chars)


def test_a_segment_header_in_the_middle_stops_the_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "CHUNK_SIZE", 2000)  # no cut in the header's own chunk
    lines = generated(10, 30).splitlines()
    header = "vg|Final,Seg 1,I,1,10,Red,0,Blue,0|rs|,,,|pn|a,b,c,d,e,f,g,h|pg||"
    rooms = [f"qx|o{i + 1}|{line}" for i, line in enumerate(lines[15:])]
    data = ("\n".join([*lines[:15], header, *rooms]) + "\n").encode()
    plans = check(data, 200)
    assert 1 < slices(plans) <= 16
    last = plans[-1].work  # the rest is read again from the input, not sent as text
    assert last is not None and last.kind == "lin_rest" and not last.texts
    assert b"vg|" in data[last.offset :]


def test_a_header_after_cuts_in_a_local_file_is_read_from_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "CHUNK_SIZE", 2000)
    monkeypatch.setenv("PBNTOOL_SLICE_CHARS", "800")
    lines = generated(14, 40).splitlines()
    header = "vg|Final,Seg 1,I,1,10,Red,0,Blue,0|rs|,,,|pn|a,b,c,d,e,f,g,h|pg||"
    rooms = [f"qx|o{i + 1}|{line}" for i, line in enumerate(lines[20:])]
    data = ("\n".join([*lines[:20], header, *rooms]) + "\n").encode()
    path = tmp_path / "f.lin"
    path.write_bytes(data)
    for engine in (InlineEngine(), DeferredEngine(5)):
        planned = plan_input(Input("f.lin", path, size=len(data)), None, True)
        results = list(run_ordered(planned, ReprTask(), engine))  # type: ignore[arg-type]
        assert "".join(chunk.out for _, result in results for chunk in result.chunks) == whole(data)
        kinds = [plan.work.kind for plan, _ in results if plan.work is not None]
        assert kinds.count("lin") > 1 and kinds[-1] == "lin_rest"
        last = results[-1][0].work
        assert last is not None and last.path == str(path) and last.data is None


def test_links_and_a_header_at_the_start_are_one_unit() -> None:
    link = "https://www.bridgebase.com/tools/handviewer.html?lin=" + "md%7C3S2%7C" * 200
    header = "vg|Final,Seg 1,I,1,10,Red,0,Blue,0|pn|a,b,c,d,e,f,g,h|pg||\n" + generated(11, 20)
    for text in (link + "\n" + link + "\n", header):
        plans = check(text.encode(), 100)
        assert slices(plans) == 0


def test_an_unclean_cut_is_read_again_from_the_held_slice() -> None:
    lines = generated(12, 20).splitlines()
    names_only = re.match(r"pn\|[^|]*\|st\|\|", lines[8])
    assert names_only is not None
    # A table whose names and deal are on two lines: the cut before "md|" is not clean.
    split_table = [*lines[:8], names_only.group(0), lines[8][names_only.end() :], *lines[9:]]
    # A comment left open at a line end: the "md|" line is inside its value.
    open_value = [*lines[:8], lines[8] + "nt|open", "md|" + lines[9], *lines[10:]]
    for variant in (split_table, open_value):
        data = ("\n".join(variant) + "\n").encode()
        for slice_chars in (1, 300):
            plans = check(data, slice_chars)
            chain = plans[0].chain
            assert chain is not None
            assert chain.failed or (variant is split_table and slice_chars > 1)


def test_a_large_input_without_a_path_is_cut_from_a_copy_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stdin or an archive member over ``HELD_BYTES`` is copied to a file that the slices,
    and the read again after an unclean cut, read: the same records as the whole read, and
    the copy is removed with the last unit that holds it."""
    monkeypatch.setattr(spooled, "HELD_BYTES", 500)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(spooled, "_directories", [])
    for data in (_unclean_file(), generated(15, 40).encode()):
        plans = check(data, 3000)
        chain = plans[0].chain
        assert chain is not None and chain.keep is not None and chain.data is None
        copy = Path(chain.keep.path)
        assert copy.read_bytes() == data
        del plans, chain
        gc.collect()
        assert not copy.exists()


def _unclean_file() -> bytes:
    """Rooms, a Windows-1252 byte, and a table over two lines whose cut is not clean."""
    lines = generated(43, 60).splitlines()
    lines[20] = lines[20].replace("|rh||", "|nt|caf\x00|rh||")
    names = lines[40].index("md|")
    note = f"nt|{'a long comment ' * 60}|"  # the slice is full before the "md|" line
    lines[40:41] = [lines[40][:names] + note, lines[40][names:]]
    rooms = [f"qx|o{index}|{line}" for index, line in enumerate(lines[45:])]
    data = "\n".join([*lines[:45], *rooms]) + "\n"
    return data.encode().replace(b"caf\x00", b"caf\xe9")


def test_a_local_file_is_read_again_from_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _unclean_file()
    path = tmp_path / "f.lin"
    path.write_bytes(data)
    monkeypatch.setenv("PBNTOOL_SLICE_CHARS", "3000")
    for engine in (InlineEngine(), DeferredEngine(5)):
        planned = plan_input(Input("f.lin", path, size=len(data)), None, True)
        results = list(run_ordered(planned, ReprTask(), engine))  # type: ignore[arg-type]
        assert "".join(chunk.out for _, result in results for chunk in result.chunks) == whole(data)
        chain = results[0][0].chain
        assert chain is not None and chain.failed and chain.path == str(path)


# --- hostile mutations -------------------------------------------------------------------------

_PARTS = ["|", "||", "\n", "\r\n", "qx|o1|", "qx|c2|", "md|", "md|3S2,,,|", "pn|a,b,c,d|", "pn|",
          "vg|x,y|", "rs|", "nt|open", "nt|a\nb|", "mb|p|", "pc|SA|", "st||", "QX|o3|", "\xe9",
          " ", "ab", "\x00"]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    lines = generated(draw(st.integers(0, 1000)), draw(st.integers(1, 12))).splitlines()
    rng = random.Random(draw(st.integers(0, 1 << 30)))
    text = "\n".join(lines) + "\n"
    for _ in range(draw(st.integers(0, 12))):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(3)
        if kind == 0:
            text = text[:at] + rng.choice(_PARTS) + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + rng.randrange(1, 40) :]
        else:
            line_start = text.rfind("\n", 0, at) + 1
            text = text[:line_start] + rng.choice(["md|", "qx|o9|", "pn|", "\n"]) + text[at:]
    if draw(st.integers(0, 3)) == 0:  # tables on one long line (read in pieces: lin_text)
        text = text.replace("\n", "", rng.randrange(1, 40))
    if draw(st.integers(0, 4)) == 0:  # a value open over many lines (the lexer carries it)
        at = rng.randrange(len(text) + 1)
        text = text[:at] + "nt|" + "x\n" * rng.randrange(50, 800) + text[at:]
    encoding = draw(st.sampled_from(["utf-8", "cp1252", "utf-16"]))
    return text.encode(encoding, errors="replace")


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=mutated(),
    slice_chars=st.integers(1, 3000),
    window=st.integers(1, 6),
    chunk=st.sampled_from([1 << 20, 300, 2000]),
    carry=st.sampled_from([1 << 22, 150, 700]),
    piece=st.sampled_from([1 << 20, 40, 300]),
)
def test_hostile_mutations_read_exactly(
    data: bytes, slice_chars: int, window: int, chunk: int, carry: int, piece: int
) -> None:
    """Small decoding chunks, long lines in small pieces, and a small limit on the text the
    lexer carries from chunk to chunk (it gives up waiting for a pipe), put every chunk rule
    inside slices."""
    previous = source.CHUNK_SIZE, lexer._MAX_CARRY, lin_reader.LINE_PIECE_BYTES
    source.CHUNK_SIZE, lexer._MAX_CARRY, lin_reader.LINE_PIECE_BYTES = chunk, carry, piece
    try:
        check(data, slice_chars, window)
    finally:
        source.CHUNK_SIZE, lexer._MAX_CARRY, lin_reader.LINE_PIECE_BYTES = previous


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=mutated(),
    chunk=st.sampled_from([7, 50, 300]),
    piece=st.integers(1, 400),
)
def test_long_lines_in_pieces_read_as_whole_lines(data: bytes, chunk: int, piece: int) -> None:
    """``lin_text`` gives a line over ``LINE_PIECE_BYTES`` in pieces, so that a file of one
    line of many megabytes is read in bounded memory: every record (boards, findings and their
    places, encoding notes) is the one whole lines give.  A board line cut at a piece's end
    comes as its pairs, a run of pipes cut there is carried whole.  One difference is allowed:
    a line not all UTF-8 is decoded a piece at a time, so the Windows-1252 note is known only
    when the piece that needs it is read, and may come after boards of the same line."""
    previous = source.CHUNK_SIZE, lin_reader.LINE_PIECE_BYTES
    try:
        source.CHUNK_SIZE, lin_reader.LINE_PIECE_BYTES = chunk, None
        expected = _notes_apart(whole(data))
        lin_reader.LINE_PIECE_BYTES = piece
        assert _notes_apart(whole(data)) == expected
    finally:
        source.CHUNK_SIZE, lin_reader.LINE_PIECE_BYTES = previous


def _notes_apart(output: str) -> tuple[list[str], list[str]]:
    """The records of a rendered read but the fallback notes, in order; and those notes."""
    records = output.splitlines()
    fallback = [line for line in records if line.startswith("(None,") and "'SRC001'" in line]
    return [line for line in records if line not in fallback], sorted(fallback)


# --- real processes ------------------------------------------------------------------------------


def _run(args: list[str], cwd: Path, slice_chars: int) -> tuple[int, bytes, str]:
    env = {**os.environ, "PBNTOOL_SLICE_CHARS": str(slice_chars)}
    done = subprocess.run(
        [*MODULE, *args], cwd=cwd, capture_output=True, timeout=600, env=env, check=False
    )
    err = re.sub(r" in \d+\.\d\d s$", "", done.stderr.decode(), flags=re.M)
    return done.returncode, done.stdout, err


@pytest.fixture(scope="module")
def lin_tree(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """Every corpus LIN file, a large generated one (read by workers), and hostile ones."""
    root = tmp_path_factory.mktemp("lin-split")
    for index, path in enumerate(sorted(corpus_dir.rglob("*.lin"))):
        (root / f"c{index:04d}.lin").write_bytes(path.read_bytes())
    big = generated(21, 3000)
    (root / "a_big.lin").write_text(big, encoding="utf-8", newline="")
    lines = big.splitlines()[:400]
    lines[200] = lines[200].replace("|rh||", "|nt|caf\x00|rh||")
    rooms = [f"qx|o{i}|{line}" for i, line in enumerate(lines[100:300])]
    header = "vg|Final,Seg 1,I,1,10,Red,0,Blue,0|pn|a,b,c,d,e,f,g,h|pg||"
    mixed = [*lines[:100], *rooms, header, *lines[300:]]
    data = ("\n".join(mixed) + "\n").encode().replace(b"caf\x00", b"caf\xe9")
    (root / "b_mixed.lin").write_bytes(data)
    (root / "b_utf16.lin").write_bytes("\n".join(lines[:150]).encode("utf-16"))
    (root / "b_unclean.lin").write_bytes(_unclean_file())
    return root


LIN_COMMANDS = [
    ["validate", "--format", "json"],
    ["convert", "--to", "pbn"],
    ["convert", "--to", "json"],
    ["score", "--format", "json"],
]


@pytest.mark.slow
@pytest.mark.parametrize("command", LIN_COMMANDS, ids=lambda args: "-".join(args[:2]))
def test_lin_output_is_identical_split_or_not(lin_tree: Path, command: list[str]) -> None:
    unsplit = _run([*command, ".", "-j", "1"], lin_tree, 1 << 40)
    assert unsplit[1], "the command printed nothing"
    for jobs in (1, 2):
        assert _run([*command, ".", "-j", str(jobs)], lin_tree, 3000) == unsplit


@pytest.mark.slow
def test_one_big_lin_file_is_split_for_the_workers(lin_tree: Path) -> None:
    args = ["validate", "a_big.lin", "--format", "json"]
    unsplit = _run([*args, "-j", "1"], lin_tree, 1 << 40)
    two = _run([*args, "-j", "2"], lin_tree, 20_000)
    assert two == unsplit
    assert "3000 boards" in two[2]
