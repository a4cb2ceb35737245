"""Minimal edits: positions as the reader reports them become byte offsets in every encoding
and line-end convention, and nothing outside an edit changes."""

from __future__ import annotations

import codecs
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.formats.pbn import iter_records
from pbntool.formats.pbn.decode import SourceMap
from pbntool.formats.pbn.edit import GameSpans
from pbntool.text.lines import Edit, EditKind, LineEditor, Refusal

GAME = '[Event "Café"]\n[Board "1"] [Dealer "N"]\n[Note "x"]\n'


def _spans(data: bytes) -> GameSpans:
    record = next(r for r in iter_records(io.BytesIO(data), "x.pbn") if r.board is not None)
    assert isinstance(record.locator, SourceMap)
    return GameSpans(record.locator)


def edit_bytes(data: bytes, groups: list[list[Edit]]) -> tuple[bytes, list[Refusal]]:
    """``data`` with each group of edits (in file order) applied, and the groups refused."""
    out = io.BytesIO()
    editor = LineEditor(io.BytesIO(data), out)
    refused = [refusal for group in groups if (refusal := editor.apply(group)) is not None]
    editor.finish()
    return out.getvalue(), refused


def apply_edits(data: bytes, edits: list[Edit]) -> bytes:
    """``data`` with one group of edits applied by the engine (which must accept them)."""
    edited, refused = edit_bytes(data, [edits])
    assert not refused, refused
    return edited


def _replace_value(data: bytes, name: str, value: str) -> bytes:
    spans = _spans(data)
    span = spans.value_span(name)
    assert span is not None
    return apply_edits(data, spans.edits(*span, value))


@pytest.mark.parametrize(
    ("encode", "line_end"),
    [
        (lambda text: text.encode("utf-8"), "\n"),
        (lambda text: text.encode("utf-8"), "\r\n"),
        (lambda text: text.encode("utf-8"), "\r"),
        (lambda text: codecs.BOM_UTF8 + text.encode("utf-8"), "\r\n"),
        (lambda text: text.encode("cp1252"), "\r\n"),
        (lambda text: text.encode("utf-16"), "\r\n"),
        (lambda text: text.encode("utf-16-be"), "\n"),
    ],
    ids=["utf8-lf", "utf8-crlf", "utf8-cr", "bom-crlf", "cp1252", "utf16-bom", "utf16be"],
)
def test_a_value_is_replaced_in_every_encoding(encode, line_end) -> None:  # type: ignore[no-untyped-def]
    text = GAME.replace("\n", line_end)
    data = encode(text)
    edited = _replace_value(data, "Dealer", "South")
    assert edited == encode(text.replace('[Dealer "N"]', '[Dealer "South"]'))


def test_a_value_after_multibyte_characters_on_its_line() -> None:
    data = '[Event "Ça été"] [Site "x"]\n'.encode()
    assert _replace_value(data, "Site", "yz") == '[Event "Ça été"] [Site "yz"]\n'.encode()
    latin = '[Event "Ça été"] [Site "x"]\r\n'.encode("latin-1")
    assert _replace_value(latin, "Site", "yz") == '[Event "Ça été"] [Site "yz"]\r\n'.encode(
        "latin-1"
    )


def test_inserted_line_ends_follow_the_line() -> None:
    data = b'[Board "1"]\r\n[Auction "N"]\r\nPass Pass Pass Pass\r\n'
    spans = _spans(data)
    where = spans.insertion()
    edited = apply_edits(data, spans.edits(where.offset, where.offset, '[A "1"]\n[B "2"]\n'))
    assert (
        edited == b'[Board "1"]\r\n[A "1"]\r\n[B "2"]\r\n[Auction "N"]\r\nPass Pass Pass Pass\r\n'
    )


def test_insertion_after_the_last_tag_keeps_its_commentary_first() -> None:
    data = b'[Board "1"]\n[Deal "-"] ; note\n{ a comment\nover lines }\n'
    spans = _spans(data)
    where = spans.insertion()
    assert not where.followed
    edited = apply_edits(data, spans.edits(where.offset, where.offset, where.before + '[A "1"]'))
    assert edited == b'[Board "1"]\n[Deal "-"] ; note\n{ a comment\nover lines }\n[A "1"]\n'


def test_section_span_reaches_the_last_element_and_keeps_inner_comments() -> None:
    data = b'[Board "1"]\n[ScoreTable "Rank;Score_NS"]\n1 {best} 420\n2 -50 ; end\n'
    spans = _spans(data)
    span = spans.section_span("ScoreTable")
    assert span is not None
    start, end, comments = span
    assert data.decode()[start:end] == '[ScoreTable "Rank;Score_NS"]\n1 {best} 420\n2 -50'
    assert comments == ["{best}"]


def test_a_section_over_several_lines_is_replaced_and_what_follows_it_kept() -> None:
    data = b'[Board "1"]\r\n[ScoreTable "Rank;Score_NS"]\r\n1 {best} 420\r\n2 -50 ; end\r\n'
    spans = _spans(data)
    span = spans.section_span("ScoreTable")
    assert span is not None
    start, end, _ = span
    edited = apply_edits(data, spans.edits(start, end, '[ScoreTable "Rank"]\n1\n2'))
    assert edited == b'[Board "1"]\r\n[ScoreTable "Rank"]\r\n1\r\n2\r\n ; end\r\n'
    whole = b'[Board "1"]\n[ScoreTable "Rank"]\n1\n2\n[Next "x"]\n'
    spans = _spans(whole)
    span = spans.section_span("ScoreTable")
    assert span is not None
    start, end, _ = span
    edited = apply_edits(whole, spans.edits(start, end, '[ScoreTable "R"]\n9'))
    assert edited == b'[Board "1"]\n[ScoreTable "R"]\n9\n[Next "x"]\n'


def test_a_deleted_line_must_hold_what_the_reader_saw() -> None:
    data = b"one\ntwo\nthree\n"
    assert apply_edits(data, [Edit(EditKind.DELETE_LINE, 2, 1, "two", "")]) == b"one\nthree\n"
    _, refused = edit_bytes(data, [[Edit(EditKind.DELETE_LINE, 2, 1, "tw", "")]])
    assert refused and "does not hold" in refused[0].reason
    _, refused = edit_bytes(
        data,
        [[Edit(EditKind.DELETE_LINE, 2, 1, "two", ""), Edit(EditKind.INSERT, 2, 1, "t", "x")]],
    )
    assert refused and "removes" in refused[0].reason


@given(
    st.text(alphabet="ab é\t\r\n", max_size=40),
    st.integers(0, 40),
    st.text(alphabet="xyz\n", max_size=5),
)
@settings(max_examples=200, deadline=None)
def test_an_edit_changes_only_its_span(before: str, cut: int, insert: str) -> None:
    """Insert at a (line, column) position: the bytes on either side are untouched."""
    text = before.replace("\r\n", "\n").replace("\r", "\n") or " "  # an empty file has no line
    cut = min(cut, len(text))
    if cut == len(text) and text.endswith("\n"):
        cut -= 1  # after a file's last line end there is no line to insert on
    line = text.count("\n", 0, cut) + 1
    column = cut - (text.rfind("\n", 0, cut) + 1) + 1
    data = text.encode("utf-8")
    edited = apply_edits(data, [Edit(EditKind.INSERT, line, column, "", insert)])
    assert edited == (text[:cut] + insert + text[cut:]).encode("utf-8")
