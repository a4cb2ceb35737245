"""pbntool render: the HTML sheet's content from real records, bad input, the CLI, and PDF."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbntool.formats import read_input
from pbntool.formats.html import RenderOptions, render_page
from pbntool.formats.html.view import board_view
from pbntool.model import Board, Deal, Hand, Seat
from pbntool.text.inputs import Input
from tests.conftest import CORPUS, REPO

BRIDGECOMPOSER = CORPUS / "zdenecek__pbn" / "pbn_files" / "bridgecomposer.pbn"


def boards_of(path: Path) -> list[Board]:
    return [r.board for r in read_input(Input(str(path), path)) if r.board is not None]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pbntool", *args], capture_output=True, text=True, cwd=REPO
    )


def needs_corpus() -> None:
    if not BRIDGECOMPOSER.is_file():
        pytest.skip(f"corpus not present at {CORPUS}")


def test_every_board_and_hand_has_its_hooks_and_cards() -> None:
    needs_corpus()
    boards = boards_of(BRIDGECOMPOSER)
    page = render_page(boards)
    assert page.count("<article") == len(boards)
    for board in boards:
        assert f'data-board="{board.number}"' in page
        assert board.deal is not None
        for seat in Seat:
            hand = board.deal.hand(seat)
            assert hand is not None
            for card in hand.cards:
                assert f'data-card="{card}"' in page
    assert page.count('data-seat="N"') == len(boards)
    assert "http" not in page.replace("http-equiv", "")  # self-contained: no network


def test_double_dummy_grid_only_from_the_record() -> None:
    needs_corpus()
    board = boards_of(BRIDGECOMPOSER)[0]
    view = board_view(board)
    assert view.dd is not None and view.par
    stripped = Board(number=1, deal=board.deal)
    assert board_view(stripped).dd is None  # never invented


def test_unknown_hand_is_blank_and_errors_are_noted() -> None:
    from pbntool.diagnostics import Diagnostic, Severity

    deal = Deal((Hand.parse_suits("AKQ", "", "", ""), None, None, None))
    error = Diagnostic("DEL001", Severity.ERROR, "the deal is short", "x.pbn", 1, 1)
    page = render_page([Board(number=3, deal=deal)])
    assert "hand not known" in page
    view = board_view(Board(number=3, deal=deal), [error])
    assert view.problems and "DEL001" in view.problems[0]
    assert render_page([Board()]).count("<article") == 1  # nothing known: still a board


def test_long_commentary_gets_a_page_of_its_own() -> None:
    from pbntool.model import Comment

    long = Board(number=1, commentary=(Comment("word " * 3000),))
    page = render_page([long], RenderOptions(per_page=8))
    assert 'class="board long' in page


def test_options_reach_the_css() -> None:
    page = render_page([Board(number=1)], RenderOptions(per_page=6, paper="letter"))  # type: ignore[arg-type]
    assert "size: letter" in page and "nth-of-type(6n+1)" in page
    with pytest.raises(ValueError):
        RenderOptions(per_page=3)


def test_cli_html_dir_and_split(tmp_path: Path) -> None:
    needs_corpus()
    result = run_cli("render", str(BRIDGECOMPOSER), "-o", f"{tmp_path}/out/", "--split", "4", "-q")
    assert result.returncode in (0, 1), result.stderr
    parts = sorted((tmp_path / "out").glob("*.html"))
    assert len(parts) == 4
    total = sum(p.read_text(encoding="utf-8").count("<article") for p in parts)
    assert total == len(boards_of(BRIDGECOMPOSER))


def test_cli_bad_per_page_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli(
        "render", str(REPO / "README.md"), "-o", str(tmp_path / "x.html"), "--per-page", "3"
    )
    assert result.returncode == 2


def test_pdf_without_weasyprint_names_the_extra(tmp_path: Path) -> None:
    blocker = tmp_path / "weasyprint.py"
    blocker.write_text("raise ImportError('blocked for the test')\n")
    env_path = f"{tmp_path}:{REPO}"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbntool",
            "render",
            str(REPO / "README.md"),
            "-o",
            str(tmp_path / "x.pdf"),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 2
    assert "pip install 'pbntool[pdf]'" in result.stderr


def _sample() -> list[Path]:
    """Up to two files of each repository of the corpus (PBN and LIN)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    chosen: dict[str, list[Path]] = {}
    with manifest.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            if row.get("format") not in ("pbn", "lin"):
                continue
            files = chosen.setdefault(row["repo"], [])
            path = CORPUS / row["local_path"]
            if len(files) < 2 and path.is_file() and int(row["bytes"] or 0) < 400_000:
                files.append(path)
    return [path for files in chosen.values() for path in files]


@pytest.mark.corpus
@pytest.mark.parametrize("path", _sample(), ids=lambda p: p.relative_to(CORPUS).as_posix()[:60])
def test_corpus_files_render_every_board(path: Path) -> None:
    boards = boards_of(path)
    page = render_page(boards)
    assert page.count("<article") == len(boards)
    assert page.rstrip().endswith("</html>")


@pytest.fixture(scope="module")
def pdf_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as error:
        pytest.skip(f"weasyprint is not installed: {error}")
    if shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdftotext, pdftoppm) is not installed")
    needs_corpus()
    from pbntool.formats.pdf import PdfWriter

    boards = boards_of(BRIDGECOMPOSER)[:8]
    out = tmp_path_factory.mktemp("pdf") / "sheet.pdf"
    with out.open("wb") as stream:
        writer = PdfWriter(stream, RenderOptions(per_page=4))
        for board in boards:
            writer.write(board)
        writer.close()
    return out


def test_pdf_pages_and_text(pdf_file: Path) -> None:
    info = subprocess.run(["pdfinfo", str(pdf_file)], capture_output=True, text=True).stdout
    assert re.search(r"Pages:\s+2\b", info), info
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf_file), "-"], capture_output=True, text=True
    ).stdout
    pages = text.split("\f")
    boards = boards_of(BRIDGECOMPOSER)[:8]
    for index, board in enumerate(boards):
        assert f"Board {board.number}" in pages[index // 4]


def test_pdf_page_ink_is_in_the_four_slots(pdf_file: Path, tmp_path: Path) -> None:
    subprocess.run(
        ["pdftoppm", "-r", "30", "-gray", "-f", "1", "-l", "1", str(pdf_file), str(tmp_path / "p")],
        check=True,
    )
    image = next(tmp_path.glob("p*.pgm"))
    data = image.read_bytes()
    header = data.split(b"\n", 3)
    width, height = map(int, header[1].split())
    pixels = header[3]
    margin_x, margin_y = int(width * 10 / 210), int(height * 10 / 297)
    ink_outside = 0
    quadrants = [0, 0, 0, 0]
    for y in range(height):
        row = pixels[y * width : (y + 1) * width]
        for x, value in enumerate(row):
            if value < 200:
                if (
                    x < margin_x - 2
                    or x > width - margin_x + 2
                    or y < margin_y - 2
                    or y > height - margin_y + 2
                ):
                    ink_outside += 1
                else:
                    quadrants[(y > height // 2) * 2 + (x > width // 2)] += 1
    assert ink_outside == 0
    assert all(count > 50 for count in quadrants), quadrants


# --- travellers grouped across tables and files ----------------------------------------------

USBF_MATCH = CORPUS / "forrestrice__bridge-bots" / "bridgebots" / "tests" / "resources"
USBF_MATCH = USBF_MATCH / "usbf_sf_14502.lin"
TABLE_GAME = """[Event "Club pairs"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T987.654.432.AKQ 6543.AKQ.AKQ.765 2.J732.JT98.JT98"]
[Scoring "{scoring}"]
[North "{north}"]
[South "{north} partner"]
[East "{east}"]
[West "{east} partner"]
[Contract "{contract}"]
[Declarer "N"]
[Result "{tricks}"]
"""


def _articles(page: str) -> list[str]:
    return page.split('<article class="board"')[1:]


def test_travellers_of_a_team_match_one_diagram_per_board_with_imps(tmp_path: Path) -> None:
    """A LIN match: each board played in two rooms is drawn once, with both rooms' results
    and the IMPs of each."""
    if not USBF_MATCH.is_file():
        pytest.skip(f"corpus not present at {CORPUS}")
    out = tmp_path / "match.html"
    result = run_cli("render", "--travellers", str(USBF_MATCH), "-o", str(out), "-q")
    assert result.returncode in (0, 1), result.stderr
    articles = _articles(out.read_text(encoding="utf-8"))
    numbers = {r.tag("Board") for r in boards_of(USBF_MATCH)}
    assert len(articles) == len(numbers) < len(boards_of(USBF_MATCH))
    for article in articles:
        assert '<th scope="col">IMP_NS</th>' in article
        traveller = article.split('<table class="travellers">', 1)[1].split("</table>", 1)[0]
        assert traveller.count("<tr><td>") == 2  # the open and the closed room


def test_travellers_from_several_files_with_matchpoints(tmp_path: Path) -> None:
    """One board, one table per file, no ScoreTable: the traveller has every table's result
    and their matchpoints; without a method (and without --method) the results alone."""
    games = [("AB", "CD", "4S", 10), ("EF", "GH", "4S", 11), ("IJ", "KL", "3NT", 9)]
    paths = []
    for index, (north, east, contract, tricks) in enumerate(games):
        path = tmp_path / f"table{index}.pbn"
        path.write_text(
            TABLE_GAME.format(
                scoring="MP", north=north, east=east, contract=contract, tricks=tricks
            )
        )
        paths.append(str(path))
    out = tmp_path / "mp.html"
    result = run_cli("render", "--travellers", *paths, "-o", str(out), "-q")
    assert result.returncode in (0, 1), result.stderr
    [article] = _articles(out.read_text(encoding="utf-8"))
    assert '<th scope="col">MP_NS</th>' in article
    assert all(f"<td>{north} &amp; {north} partner</td>" in article for north, *_ in games)
    for path in paths:  # no Scoring tag: results, no points
        Path(path).write_text(Path(path).read_text().replace('[Scoring "MP"]\n', ""))
    result = run_cli("render", "--travellers", *paths, "-o", str(out), "-q")
    [article] = _articles(out.read_text(encoding="utf-8"))
    assert "MP_NS" not in article and article.count("<tr><td>") == 3
    result = run_cli("render", "--travellers", "-m", "imp", *paths, "-o", str(out), "-q")
    [article] = _articles(out.read_text(encoding="utf-8"))
    assert '<th scope="col">IMP_NS</th>' in article


def test_method_without_travellers_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "a.pbn"
    path.write_text(TABLE_GAME.format(scoring="", north="A", east="B", contract="4S", tricks=10))
    result = run_cli("render", "-m", "mp", str(path), "-o", str(tmp_path / "x.html"))
    assert result.returncode == 2 and "--travellers" in result.stderr


def test_render_writes_through_the_one_write_path(tmp_path: Path) -> None:
    """A sheet replaces the target of a symbolic link (the link stays), leaves no temporary
    file, and a run that fails leaves an existing sheet as it was."""
    path = tmp_path / "a.pbn"
    path.write_text(TABLE_GAME.format(scoring="", north="A", east="B", contract="4S", tricks=10))
    target = tmp_path / "kept" / "sheet.html"
    target.parent.mkdir()
    target.write_text("old sheet")
    link = tmp_path / "sheet.html"
    link.symlink_to(target)
    result = run_cli("render", str(path), "-o", str(link), "-q")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and "<article" in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in target.parent.iterdir()) == ["sheet.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pbn", "kept", "sheet.html"]


def test_render_with_workers_draws_the_same_sheet(tmp_path: Path) -> None:
    """-j 2 (the batch engine, as convert --to html) and -j 1 give the same page, but for
    each writer's id token; ids are unique in the page; the render options reach the workers."""
    needs_corpus()
    pages = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.html"
        result = run_cli(
            "render", "-j", jobs, "--per-page", "4", "--colours", "four", str(BRIDGECOMPOSER),
            "-o", str(out), "-q",
        )  # fmt: skip
        assert result.returncode in (0, 1), result.stderr
        pages[jobs] = out.read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', pages["2"])
    assert len(ids) == len(set(ids))
    untokened = {j: re.sub(r'(id|aria-labelledby)="b[^"]*"', "", page) for j, page in pages.items()}
    assert untokened["1"] == untokened["2"]
    assert pages["2"].count("<article") == len(boards_of(BRIDGECOMPOSER))
