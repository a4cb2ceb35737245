"""The XML vocabulary: streamed writing that validates against the XSD, and reading XML as
untrusted input (hostile documents get a diagnostic, never a hang, an entity expansion or a
file read).

The fixtures of ``fixtures/xml/invalid`` (one per XML code) are checked by
``test_diagnostics.py``; this file checks the reader's behaviour around them.
"""

from __future__ import annotations

import io
import random
import resource
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

from pbntool.dev.generate import random_board, random_boards
from pbntool.diagnostics import CATALOGUE
from pbntool.formats import Format
from pbntool.formats.writing import open_writer
from pbntool.formats.xml import NAMESPACE, XmlWriter, dumps, iter_records
from pbntool.formats.xml import reader as xmlread
from pbntool.model import Board, Comment, CommentKind, Tag
from pbntool.records import Record, validate_record
from pbntool.text.schemas import XML_SCHEMA, schema_bytes

XSD = etree.XMLSchema(etree.fromstring(schema_bytes(XML_SCHEMA)))
BOARDS = list(random_boards(17, 3))
HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'
ROOT = f'<boards xmlns="{NAMESPACE}" version="pbntool/1">\n'


def read(data: str | bytes) -> list[Record]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return list(iter_records(io.BytesIO(raw), "in.xml"))


def boards_of(records: list[Record]) -> list[Board]:
    return [record.board for record in records if record.board is not None]


def codes(records: list[Record]) -> list[str]:
    return [d.code for r in records for d in r.diagnostics]


# --- writing -----------------------------------------------------------------------------------


def test_the_writer_is_registered_and_streams_board_by_board() -> None:
    out = io.StringIO()
    writer = open_writer(Format.XML, out)
    assert isinstance(writer, XmlWriter)
    assert writer.write(BOARDS[0], "a.pbn") == []
    first = out.getvalue()
    assert first.startswith(HEADER + ROOT) and first.rstrip().endswith("</board>")
    writer.write(BOARDS[1])
    writer.close()
    document = etree.fromstring(out.getvalue().encode())
    assert XSD.validate(document), XSD.error_log
    assert [e.get("file") for e in document] == ["a.pbn", None]


def test_an_empty_conversion_is_a_valid_document() -> None:
    out = io.StringIO()
    XmlWriter(out).close()
    assert XSD.validate(etree.fromstring(out.getvalue().encode()))


def test_text_xml_cannot_hold_is_escaped_and_read_back() -> None:
    board = Board(
        tags=(Tag("Event", "bell\x07 back\\slash"),),
        commentary=(Comment("nul\x00 here", CommentKind.STRAY),),
    )
    text = dumps([board])
    assert 'value="bell\\u0007 back\\\\slash" escaped="value"' in text
    assert XSD.validate(etree.fromstring(text.encode()))
    assert boards_of(read(text)) == [board]


def test_a_backslash_alone_is_written_as_is() -> None:
    board = Board(tags=(Tag("ScoreTable", "Rank\\2R;Score\\5R"),))
    text = dumps([board])
    assert 'value="Rank\\2R;Score\\5R"/>' in text
    assert boards_of(read(text)) == [board]


# --- reading what others may write ---------------------------------------------------------------


def test_documents_without_namespace_a_single_board_and_foreign_attributes() -> None:
    board = random_board(random.Random(1), 4)
    text = dumps([board]).replace(f' xmlns="{NAMESPACE}"', "")
    assert boards_of(read(text)) == [board]
    single = dumps([board]).split("\n", 2)[2].rsplit("</boards>", 1)[0]
    single = single.replace("<board ", f'<board xmlns="{NAMESPACE}" ', 1)
    assert boards_of(read(single)) == [board]
    located = text.replace(
        "<boards ",
        '<boards xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="urn:x-pbntool:boards:1 boards.xsd" ',
    )
    assert codes(read(located)) == []


def test_comments_processing_instructions_and_utf16() -> None:
    text = dumps(BOARDS).replace(ROOT, ROOT + "<!-- exported -->\n<?app hint?>\n")
    assert boards_of(read(text)) == BOARDS
    utf16 = text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    assert boards_of(read(utf16)) == BOARDS


def test_a_syntax_error_keeps_the_boards_before_it() -> None:
    text = dumps(BOARDS)
    cut = text.index("<board ", text.index("<board ") + 1)
    records = read(text[:cut] + "<board number='2'><tag></board>")
    assert boards_of(records) == BOARDS[:1]
    assert codes(records) == ["XML001"]


def test_truncated_and_empty_documents() -> None:
    text = dumps(BOARDS)
    assert codes(read(text[: len(text) // 2])) == ["XML001"]
    assert codes(read("")) == ["XML001"]
    assert codes(read(HEADER)) == ["XML001"]


@pytest.mark.parametrize("one_line", [False, True], ids=["indented", "one-line"])
def test_a_document_cut_anywhere_gives_the_boards_it_holds_whole(one_line: bool) -> None:
    """Whatever libxml2 does with the elements open at a syntax error (lxml 6.2's ends them),
    a board cut off is not read as a board, and every board before the cut is."""
    text = dumps(BOARDS)
    if one_line:
        text = text.replace("\n", "")
    for cut in range(len(HEADER) + 1, len(text) - 1, 53):
        part = text[:cut]
        records = read(part)
        assert boards_of(records) == BOARDS[: part.count("</board>")], cut
        assert codes(records) == ["XML001"], cut


def test_a_malformed_start_tag_after_a_board_keeps_that_board() -> None:
    text = dumps(BOARDS[:2])
    cut = text.index("<board", text.index("</board>"))
    for broken in ('<board x="', "<board x='1' y", "& stray", "<board><tags><tag x='<'/>"):
        records = read(text[:cut] + broken)
        assert boards_of(records) == BOARDS[:1], broken
        assert codes(records) == ["XML001"], broken


def test_text_between_boards_is_reported() -> None:
    text = dumps(BOARDS[:2]).replace("</board>\n<board", "</board>\nstray words\n<board", 1)
    records = read(text)
    assert boards_of(records) == BOARDS[:2]
    assert codes(records) == ["XML012"]


def test_unknown_elements_under_the_root_are_reported_and_skipped() -> None:
    text = dumps(BOARDS[:1]).replace("</boards>", "<summary boards='1'/>\n</boards>")
    records = read(text)
    assert boards_of(records) == BOARDS[:1]
    assert codes(records) == ["XML004"]


def test_oversized_boards_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xmlread, "MAX_BOARD_ELEMENTS", 50)
    small = Board(number=9)
    records = read(dumps([BOARDS[0], small]))
    assert codes(records) == ["XML011"]
    assert boards_of(records) == [small]


def test_laws_findings_point_at_the_element_and_attribute() -> None:
    board = random_board(random.Random(5), 1, play=False)
    text = dumps([board]).replace('dealer="N"', 'dealer="W"', 1)
    [record] = read(text)
    [found] = [d for d in validate_record(record) if d.code == "BRD001"]
    line = text.split("\n")[found.line - 1]  # type: ignore[operator]
    assert line[found.column - 1 :].startswith('dealer="W"')  # type: ignore[operator]


# --- hostile documents ----------------------------------------------------------------------------


def billion_laughs(levels: int = 10) -> str:
    entities = ['<!ENTITY lol0 "lol">']
    for level in range(1, levels):
        entities.append(f'<!ENTITY lol{level} "{f"&lol{level - 1};" * 10}">')
    dtd = "<!DOCTYPE boards [\n" + "\n".join(entities) + "\n]>\n"
    return (
        HEADER
        + dtd
        + ROOT
        + f'<board><tag name="Event" value="&lol{levels - 1};"/></board></boards>'
    )


def within(seconds: float, work: Iterator[Record] | list[Record]) -> list[Record]:
    """The records, read in a thread that must finish in time (no hang)."""
    found: list[Record] = []
    thread = threading.Thread(target=lambda: found.extend(work), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "reading did not finish"
    return found


def test_billion_laughs_is_refused_quickly_and_without_expansion() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    records = within(10, iter_records(io.BytesIO(billion_laughs().encode()), "lol.xml"))
    assert time.perf_counter() - start < 5
    assert codes(records) == ["XML002"]
    assert boards_of(records) == []
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB


def test_external_entities_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    for declaration in (
        f'<!DOCTYPE boards [<!ENTITY x SYSTEM "{secret.as_uri()}">]>',
        f'<!DOCTYPE boards [<!ENTITY % p SYSTEM "{secret.as_uri()}"> %p;]>',
        f'<!DOCTYPE boards SYSTEM "{secret.as_uri()}">',
        '<!DOCTYPE boards SYSTEM "http://192.0.2.1/boards.dtd">',
    ):
        text = (
            HEADER
            + declaration
            + "\n"
            + ROOT
            + '<board><tag name="E" value="&x;"/></board></boards>'
        )
        records = within(10, read(text))
        assert codes(records) == ["XML002"], declaration
        assert all("SECRET" not in d.message for r in records for d in r.diagnostics)


def test_an_entity_reference_without_a_dtd_is_a_syntax_error() -> None:
    records = read(HEADER + ROOT + '<board><tag name="E" value="&x;"/></board></boards>')
    assert codes(records) == ["XML001"]


def test_huge_text_and_deep_nesting_hit_the_parser_limits() -> None:
    huge = HEADER + ROOT + "<board><comment>" + "x" * (11 << 20) + "</comment></board></boards>"
    assert codes(within(30, read(huge))) == ["XML001"]
    deep = HEADER + ROOT + "<board>" + "<x>" * 300 + "</x>" * 300 + "</board></boards>"
    assert codes(within(10, read(deep))) in (["XML001"], ["XML011"])


def test_many_boards_are_read_in_bounded_memory() -> None:
    boards = list(random_boards(3, 50))
    element = dumps(boards).split(ROOT, 1)[1].rsplit("</boards>", 1)[0]

    def stream() -> Iterator[bytes]:
        yield (HEADER + ROOT).encode()
        for _ in range(40):  # 2,000 boards, about 10 MB
            yield element.encode()
        yield b"</boards>\n"

    class Chunks(io.RawIOBase):
        def __init__(self) -> None:
            self.parts = stream()
            self.rest = b""

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            while not self.rest:
                self.rest = next(self.parts, b"")
                if not self.rest:
                    return 0
            count = min(len(buffer), len(self.rest))
            buffer[:count], self.rest = self.rest[:count], self.rest[count:]
            return count

    count = 0
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for record in iter_records(io.BufferedReader(Chunks()), "many.xml"):
        count += record.board is not None
        assert isinstance(record.locator, xmlread.XmlLocator)
        root = record.locator.converter.nodes[0][0].getparent()
        # Earlier boards are detached as reading goes on: the tree holds the boards of the
        # chunk being parsed (64 KiB, about 20 boards here), never the whole document.
        assert root is not None and len(root) <= 64
    assert count == 2000
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB


def test_any_bytes_give_records_and_diagnostics_never_an_exception() -> None:
    rng = random.Random(7)
    text = dumps(BOARDS[:2])
    for _ in range(200):
        data = bytearray(text.encode())
        for _ in range(rng.randint(1, 6)):
            position = rng.randrange(len(data))
            data[position : position + rng.randint(0, 5)] = bytes(
                rng.choice(b'<>/="&;!? abc\x00\xff') for _ in range(rng.randint(0, 4))
            )
        for record in read(bytes(data)):
            for diagnostic in validate_record(record):
                assert diagnostic.code in CATALOGUE
                assert diagnostic.line is not None and diagnostic.line >= 1


def test_the_example_of_docs_xml_md_is_valid_and_reads_without_findings() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "xml.md").read_text("utf-8")
    example = page.split("```xml\n", 1)[1].split("```", 1)[0]
    assert XSD.validate(etree.fromstring(example.encode())), XSD.error_log
    records = read(example)
    assert codes(records) == []
    [board] = boards_of(records)
    assert board.auction is not None and board.auction.annotation(2) is not None
    assert validate_record(records[0]) == ()  # a legal board: no Laws finding either
