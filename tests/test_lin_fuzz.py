"""Fuzzing the LIN reader and writer, and the command line on LIN: never a traceback, never
a hang, memory bounded by the largest table.

Inputs: arbitrary bytes and text; text built from LIN's own alphabet (two-letter tags,
pipes, commas, calls, cards, digits, ``!``, ``%``, line ends); handviewer links around
random LIN; mutations of real LIN files (the corpus's and generated ones: byte flips,
truncation, splicing, deleting and duplicating pipes).  For every input: reading and
validating raises nothing and reports no internal failure, every diagnostic has a known code,
the file and a line; every board converts to PBN and LIN; the LIN read back gives as many
boards, and writing it again gives the same text.  Each example runs under the CPU-time
bound of ``test_fuzz.time_bound``.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
import urllib.parse
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import examples, malformed, time_bound
from test_memory import peak_rss

from pbntool.dev.generate import random_boards
from pbntool.formats import lin, pbn
from pbntool.model import Board
from pbntool.records import validate_record

REPO = Path(__file__).resolve().parent.parent
FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def read(data: bytes, name: str) -> tuple[list[Board], list[str]]:
    boards: list[Board] = []
    diagnostics = []
    for record in lin.iter_records(io.BytesIO(data), name):
        diagnostics.extend(validate_record(record))
        if record.board is not None:
            boards.append(record.board)
    return boards, malformed(diagnostics, name)


def check(data: bytes | str) -> list[Board]:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    with time_bound():
        boards, bad = read(raw, "fuzz.lin")
        pbn.dumps(boards)
        text = lin.dumps(boards)
        again, bad_again = read(text.encode("utf-8"), "again.lin")
        text_again = lin.dumps(again)
    assert bad == [] and bad_again == []
    assert len(again) == len(boards)
    assert text_again == text, "LIN output is not stable"
    return boards


_TAGS = ["pn", "st", "md", "rh", "ah", "sv", "mb", "an", "pc", "mc", "pg", "nt", "qx", "vg", "rs",
         "zz", "up", "MD", "Pc", "x", "abc", ""]  # fmt: skip
_VALUES = ["", "p", "d", "r", "1N", "2C!", "7n", "-ppp1Cp", "SA", "sA", "h10", "SASKSQS2", "13",
           "o", "n", "e", "b", "0", "Board 1", "o1", "c12", "o1,BOARD 1", "4SWx-4", "3NN=",
           "3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,", "1SA,,,", ",,,",
           "3S2QAH10kdD", "x,y,z,w", "!", "a b\nc", "Club,Seg,I,1,2,A,0,B,0"]  # fmt: skip

lin_pairs = st.lists(
    st.tuples(st.sampled_from(_TAGS), st.sampled_from(_VALUES) | st.text(max_size=8)),
    max_size=60,
).map(lambda pairs: "".join(f"{tag}|{value}|" for tag, value in pairs))
lin_alphabet = st.text(alphabet="pnmdbcsvqx|,!SHDCAKQJT98765432 \n\r0123456789", max_size=300)


@FUZZ
@given(st.binary(max_size=2000))
def test_arbitrary_bytes(data: bytes) -> None:
    check(data)


@FUZZ
@given(lin_alphabet)
def test_lin_alphabet_text(text: str) -> None:
    check(text)


@FUZZ
@given(lin_pairs)
def test_structured_pairs(text: str) -> None:
    check(text)


@FUZZ
@given(lin_pairs)
def test_handviewer_links(text: str) -> None:
    quoted = urllib.parse.quote(text, safe="")
    check(f"https://www.bridgebase.com/tools/handviewer.html?lin={quoted}\n")


@cache
def _seeds() -> tuple[bytes, ...]:
    seeds = [lin.dumps(random_boards(9, 3)).encode()]
    if CORPUS.is_dir():
        files = sorted(CORPUS.rglob("*.lin"))
        sample = random.Random(3).sample(files, min(12, len(files)))
        seeds += [path.read_bytes() for path in sample]
    return tuple(seeds)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(_seeds())))
    for _ in range(draw(st.integers(1, 6))):
        if not data:
            break
        where = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "cut", "pipe", "unpipe", "dup", "splice"]))
        if action == "flip":
            data[where] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[where:]
        elif action == "pipe":
            data[where:where] = b"|"
        elif action == "unpipe":
            found = data.find(b"|", where)
            if found >= 0:
                del data[found]
        elif action == "dup":
            data[where:where] = data[where : where + draw(st.integers(1, 200))]
        else:
            other = draw(st.sampled_from(_seeds()))
            data[where:] = other[draw(st.integers(0, max(len(other) - 1, 0))) :]
    return bytes(data)


@FUZZ
@given(mutated())
def test_mutated_real_files(data: bytes) -> None:
    check(data)


def test_seeds_read_cleanly() -> None:
    for seed in _seeds():
        assert check(seed)


@pytest.mark.parametrize(
    "text",
    [
        "|" * 100_000,
        "mb|" * 50_000,
        "md|" + "S" * 200_000 + "|",
        "nt|" + "x" * 500_000,
        "pn|" + "," * 100_000 + "|",
        "qx|o1|" * 20_000,
        "qx|o0|ah|Board 0|md|,,,|mb|p|",
        "vg|\r|st||",
        "mb|" + "p" * 100_000 + "|",
        "pc|" + "SA" * 50_000 + "|",
        "https://x/handviewer.html?lin=" + "%7C" * 50_000,
    ],
    ids=lambda text: repr(text[:12]),
)
def test_adversarial_input(text: str) -> None:
    check(text)


def test_cli_on_random_lin_through_a_subprocess(tmp_path: Path) -> None:
    rng = random.Random(5)
    for index in range(4):
        data = bytearray(_seeds()[index % len(_seeds())])
        for _ in range(20):
            data[rng.randrange(len(data))] = rng.choice(b"|,!pc\n")
        path = tmp_path / f"random{index}.lin"
        path.write_bytes(bytes(data))
        for command in (["validate", str(path)], ["convert", str(path), "--to", "pbn"]):
            result = subprocess.run(
                [sys.executable, "-m", "pbntool", *command],
                capture_output=True,
                text=True,
                cwd=REPO,
                timeout=120,
            )
            assert result.returncode in (0, 1), result.stderr
            assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
def test_memory_is_bounded_by_the_largest_table(tmp_path: Path) -> None:
    """Eight times the boards, the same peak resident memory (the text is read in 1 MB
    chunks, the tables one at a time)."""
    boards = list(random_boards(31, 500))
    small, large = tmp_path / "small.lin", tmp_path / "large.lin"
    small.write_text(lin.dumps(boards * 4), encoding="utf-8")  # about 1 MB
    large.write_text(lin.dumps(boards * 32), encoding="utf-8")  # about 8 MB
    small_code, small_rss = peak_rss(["validate", "-q", str(small)])
    large_code, large_rss = peak_rss(["validate", "-q", str(large)])
    assert small_code == 0 and large_code == 0
    detail = f"peak RSS {small_rss >> 20} MiB for 2,000 boards, {large_rss >> 20} MiB for 16,000"
    assert large_rss < small_rss + (12 << 20), detail
    assert large_rss < 120 << 20, detail
