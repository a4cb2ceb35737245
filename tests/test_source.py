"""Bytes to text (``pbntool.text.source.DecodedText``): chunks end at line ends whatever the chunk
size, and the text (its lines, and where each one ends) is the same as decoding the input at
once.  Lines far longer than a chunk are joined once at their end: a 256 MB line validated in
6 s, linear in its length (it was quadratic)."""

from __future__ import annotations

import codecs
import io

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pbntool.text import source
from pbntool.text.source import DecodedText


def decoded(data: bytes) -> tuple[list[str], list[tuple[str, int]]]:
    text = DecodedText(io.BytesIO(data))
    chunks = list(text)
    return chunks, [(event.encoding, event.line) for event in text.events]


def expected_text(data: bytes) -> str:
    """The whole input decoded at once, line by line (UTF-8, else Windows-1252/Latin-1)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return "\n".join(source.decode_bytes_line(line)[0] for line in lines)


line_bytes = st.binary(max_size=40).map(lambda raw: raw.replace(b"\n", b"").replace(b"\r", b""))
line_ends = st.sampled_from([b"\n", b"\r\n", b"\r"])
documents = st.lists(st.tuples(line_bytes, line_ends), max_size=30).map(
    lambda lines: b"".join(text + end for text, end in lines)
)


@settings(max_examples=300, deadline=None)
@given(data=documents, size=st.integers(min_value=1, max_value=17))
def test_any_chunk_size_gives_the_same_text(data: bytes, size: int) -> None:
    # A head of NULs in the ASCII pattern is read as UTF-16 (tested below): the line-by-line
    # reference here is for byte encodings.
    assume(source.sniff_utf16(data[:4]) is None)
    whole_chunks, whole_events = decoded(data)
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        chunks, events = decoded(data)
    finally:
        source.CHUNK_SIZE = original
    assert all(chunk.endswith("\n") for chunk in chunks[:-1])
    text = "".join(chunks)
    assert text.count("\n") == "".join(whole_chunks).count("\n") == expected_text(data).count("\n")
    # Line ends are made LF before decoding, so a line ended by a bare CR is decoded alone
    # too (it was decoded with the lines after it, in groups that depended on the chunks).
    assert text == "".join(whole_chunks) == expected_text(data)
    assert [line for _, line in events] == [line for _, line in whole_events]


@settings(max_examples=300, deadline=None)
@given(data=documents, size=st.integers(min_value=1, max_value=17))
def test_lines_and_bare_lf_are_counted_whatever_the_chunks(data: bytes, size: int) -> None:
    assume(source.sniff_utf16(data[:4]) is None)
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        text = DecodedText(io.BytesIO(data))
        chunks = list(text)
    finally:
        source.CHUNK_SIZE = original
    assert text.line_count == "".join(chunks).count("\n")
    assert text.lf_only == (data.count(b"\n") != data.count(b"\r\n"))


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_lines_longer_than_a_chunk(encoding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[Event "' + "é" * 50 + '"]\n[Site "x"]\n' + "z" * 30
    data = codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE
    data += text.encode(encoding)
    monkeypatch.setattr(source, "CHUNK_SIZE", 7)
    chunks, events = decoded(data)
    assert "".join(chunks) == text
    assert all(chunk.endswith("\n") for chunk in chunks[:-1])
    assert events[0][0].startswith("UTF-16")


def first_fallback_line(data: bytes) -> int | None:
    """The line number of the first line that is not UTF-8 (what SRC002 reports)."""
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return next((n for n, line in enumerate(lines, 1) if source.decode_bytes_line(line)[1]), None)


mixed_lines = st.lists(
    st.sampled_from(
        [b"abc", b"caf\xc3\xa9", b"caf\xe9", b"\xc3", b"\x81\x8d", b"\xe2\x82\xac", b""]
    ),
    max_size=8,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(mixed_lines, max_size=25),
    window=st.integers(min_value=1, max_value=9),
    size=st.integers(min_value=1, max_value=64),
)
def test_mixed_encodings_decode_line_by_line_whatever_the_window(
    lines: list[bytes], window: int, size: int
) -> None:
    # Runs of valid lines are decoded a window at a time: a window may end inside a UTF-8
    # sequence, or hold the line end before a line that falls back.
    data = b"\n".join(lines)
    assume(source.sniff_utf16(data[:4]) is None and not data.startswith(codecs.BOM_UTF8))
    originals = source.DECODE_WINDOW, source.CHUNK_SIZE
    source.DECODE_WINDOW, source.CHUNK_SIZE = window, size
    try:
        chunks, events = decoded(data)
    finally:
        source.DECODE_WINDOW, source.CHUNK_SIZE = originals
    assert "".join(chunks) == expected_text(data)
    first = first_fallback_line(data)
    assert [line for _, line in events] == ([] if first is None else [first])


# --- a long line in pieces (the PBN reader) -------------------------------------------------

utf8_lines = st.text(alphabet=st.sampled_from("ab é€𝄞{}\t"), max_size=60)  # 1 to 4 bytes
utf8_documents = st.lists(st.tuples(utf8_lines, line_ends), max_size=12).map(
    lambda lines: b"".join(text.encode("utf-8") + end for text, end in lines)
)


@settings(max_examples=300, deadline=None)
@given(
    data=utf8_documents,
    size=st.integers(min_value=1, max_value=9),
    piece=st.integers(min_value=1, max_value=20),
)
def test_long_lines_in_pieces_give_the_same_text(data: bytes, size: int, piece: int) -> None:
    """``piece_bytes`` cuts a line longer than it into pieces, never inside a character or a
    CR LF: the text, lines and line-end facts are those of whole lines, and no piece is
    much longer than ``piece_bytes`` however long the line."""
    assume(source.sniff_utf16(data[:4]) is None)
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        whole = DecodedText(io.BytesIO(data))
        whole_text = "".join(whole)
        pieces = DecodedText(io.BytesIO(data), piece_bytes=piece)
        chunks = list(pieces)
    finally:
        source.CHUNK_SIZE = original
    assert "".join(chunks) == whole_text
    assert (pieces.line_count, pieces.lf_only) == (whole.line_count, whole.lf_only)
    assert pieces.events == whole.events == []
    # What a line end leaves unfinished waits for the next chunk: a piece and two chunks.
    assert all(len(chunk.encode("utf-8")) <= max(piece, size) + size + 4 for chunk in chunks)


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.tuples(utf8_lines, st.sampled_from(["\n", "\r\n", "\r"])), max_size=12),
    size=st.integers(min_value=2, max_value=9),
    piece=st.integers(min_value=1, max_value=20),
    encoding=st.sampled_from(["utf-16-le", "utf-16-be"]),
)
def test_long_utf16_lines_in_pieces_give_the_same_text(
    lines: list[tuple[str, str]], size: int, piece: int, encoding: str
) -> None:
    text = "".join(line + end for line, end in lines)
    bom = codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE
    data = bom + text.encode(encoding)
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        whole = DecodedText(io.BytesIO(data))
        pieces = DecodedText(io.BytesIO(data), piece_bytes=piece)
        whole_text, chunks = "".join(whole), list(pieces)
    finally:
        source.CHUNK_SIZE = original
    assert "".join(chunks) == whole_text == text.replace("\r\n", "\n").replace("\r", "\n")
    assert (pieces.line_count, pieces.lf_only) == (whole.line_count, whole.lf_only)
    assert all(len(chunk) <= max(piece, size) + size + 2 for chunk in chunks)


# --- long lines in UTF-16 ----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(
        st.tuples(
            st.text(alphabet=st.sampled_from("ab é€𝄞"), max_size=30),
            st.sampled_from(["\n", "\r\n", "\r"]),
        ),
        max_size=12,
    ),
    size=st.integers(min_value=2, max_value=9),
    encoding=st.sampled_from(["utf-16-le", "utf-16-be"]),
)
def test_utf16_chunks_end_at_any_line_end(
    lines: list[tuple[str, str]], size: int, encoding: str
) -> None:
    """A CR alone ends a line in UTF-16 as in UTF-8: a file of old Mac line ends was one
    line to the chunker (held whole, and over ``max_line`` at once)."""
    text = "".join(line + end for line, end in lines)
    bom = codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        reader = DecodedText(io.BytesIO(bom + text.encode(encoding)))
        chunks = list(reader)
    finally:
        source.CHUNK_SIZE = original
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    assert "".join(chunks) == expected
    assert all(chunk.endswith("\n") for chunk in chunks[:-1])
    assert reader.line_count == expected.count("\n")


def test_utf16_old_mac_lines_come_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "CHUNK_SIZE", 16)
    data = codecs.BOM_UTF16_LE + ("abc\r" * 100).encode("utf-16-le")
    chunks = list(DecodedText(io.BytesIO(data)))
    assert "".join(chunks) == "abc\n" * 100
    assert len(chunks) > 10 and max(map(len, chunks)) <= 16


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_a_line_over_max_line_is_dropped_in_utf16_as_in_utf8(
    encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSON line over the record limit was held whole in UTF-16 (a 120 MB line took 270 MB):
    it is read and dropped, as in UTF-8, and the lines after it are kept."""
    text = '{"a": 1}\n{"b": "' + "é" * 400 + '"}\r\n{"c": 3}\n'
    data = (codecs.BOM_UTF16_LE if encoding != "utf-8" else b"") + text.encode(encoding)
    monkeypatch.setattr(source, "CHUNK_SIZE", 16)
    reader = DecodedText(io.BytesIO(data), max_line=200)
    chunks = list(reader)
    (long_line,) = [chunk for chunk in chunks if isinstance(chunk, source.LongLine)]
    assert long_line.line == 2
    assert long_line.length >= len('{"b": "' + "é" * 400 + '"}')
    assert "".join(chunks) == '{"a": 1}\n\n{"c": 3}\n'
    assert reader.line_count == 3


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.booleans(), max_size=12),
    size=st.integers(min_value=2, max_value=40).map(lambda n: 2 * n),
    encoding=st.sampled_from(["utf-8", "utf-16-le"]),
)
def test_lines_over_max_line_are_dropped_and_the_others_kept(
    lines: list[bool], size: int, encoding: str
) -> None:
    """Long lines (True) among short ones, read in chunks of any size: each long line (over
    ``max_line`` before its end is read) is one ``LongLine``, each short one is kept,
    whatever falls in the chunk after a long one (the lines there were dropped with it,
    up to the chunk's last line end: a JSON record after one over the size limit was lost)."""
    texts = [("L" * 300 if long else f"s{index}") for index, long in enumerate(lines)]
    data = "".join(text + "\n" for text in texts)
    raw = (codecs.BOM_UTF16_LE if encoding != "utf-8" else b"") + data.encode(encoding)
    original = source.CHUNK_SIZE
    source.CHUNK_SIZE = size
    try:
        reader = DecodedText(io.BytesIO(raw), max_line=40)
        chunks = list(reader)
    finally:
        source.CHUNK_SIZE = original
    expected = "".join(
        ("\n" if long else text + "\n") for text, long in zip(texts, lines, strict=True)
    )
    assert "".join(chunks) == expected
    assert [chunk.line for chunk in chunks if isinstance(chunk, source.LongLine)] == [
        number for number, long in enumerate(lines, 1) if long
    ]
    assert reader.line_count == len(lines)
