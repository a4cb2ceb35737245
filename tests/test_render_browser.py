"""The HTML sheet in a real browser (Debian's /usr/bin/chromium through Playwright): every
board and hand visible and inside the page at 1280 px and 360 px, the cards are the record's,
stepping through the play leaves the right cards, and printing gives --per-page pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbntool.formats import read_input
from pbntool.formats.html import RenderOptions, render_page
from pbntool.model import Board, Card, Seat
from pbntool.rules import is_slot_card
from pbntool.text.inputs import Input
from tests.conftest import CORPUS

CHROMIUM = Path("/usr/bin/chromium")
BRIDGECOMPOSER = CORPUS / "zdenecek__pbn" / "pbn_files" / "bridgecomposer.pbn"
PLAYED = (
    CORPUS
    / "jarekczek__pbntools"
    / "test"
    / "test_10_bbo_www_annamar_1538_php"
    / "annamar_1538_pairs_untitled.pbn"
)


def boards_of(path: Path) -> list[Board]:
    if not path.is_file():
        pytest.skip(f"corpus file absent: {path}")
    return [r.board for r in read_input(Input(str(path), path)) if r.board is not None]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield launched
        launched.close()


def open_page(browser: Any, html: str, width: int, tmp_path: Path) -> Any:
    file = tmp_path / f"sheet-{width}.html"
    file.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(file.as_uri())
    return page


MEASURE = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll('[data-board], [data-seat]')) {
    const r = el.getBoundingClientRect();
    out.push({board: el.dataset.board || null, seat: el.dataset.seat || null,
              left: r.left, right: r.right, w: r.width, h: r.height,
              overflow: el.scrollWidth > el.clientWidth + 1});
  }
  return {width, scroll: document.documentElement.scrollWidth, boxes: out};
}"""


@pytest.mark.parametrize("width", [1280, 360])
def test_boards_and_hands_fit(browser: Any, tmp_path: Path, width: int) -> None:
    boards = boards_of(BRIDGECOMPOSER)
    page = open_page(browser, render_page(boards), width, tmp_path)
    found = page.evaluate(MEASURE)
    assert found["scroll"] <= found["width"], "the page scrolls sideways"
    assert sum(1 for box in found["boxes"] if box["board"]) == len(boards)
    for box in found["boxes"]:
        assert box["w"] > 0 and box["h"] > 0, box
        assert box["left"] >= 0 and box["right"] <= found["width"] + 0.5, box
        assert not box["overflow"], box
    # the cards shown are the record's
    for board in boards[:3]:
        assert board.deal is not None
        for seat in Seat:
            hand = board.deal.hand(seat)
            assert hand is not None
            shown = page.eval_on_selector_all(
                f'[data-board="{board.number}"] [data-seat="{seat.letter}"] .card',
                "cards => cards.map(c => c.dataset.card)",
            )
            assert sorted(shown) == sorted(str(card) for card in hand.cards)
    page.close()


def test_stepping_through_the_play(browser: Any, tmp_path: Path) -> None:
    board = next(b for b in boards_of(PLAYED) if b.play is not None and len(b.play.tricks) >= 3)
    page = open_page(browser, render_page([board]), 1280, tmp_path)
    assert board.deal is not None and board.play is not None
    played: set[str] = set()
    for trick in board.play.tricks[:3]:
        page.click('[data-step="next"]')
        played |= {str(slot) for slot in trick if is_slot_card(slot) and isinstance(slot, Card)}
        for seat in Seat:
            hand = board.deal.hand(seat)
            assert hand is not None
            visible = page.eval_on_selector_all(
                f'[data-seat="{seat.letter}"] .card',
                "cards => cards.filter(c => c.offsetParent !== null).map(c => c.dataset.card)",
            )
            assert sorted(visible) == sorted(str(c) for c in hand.cards if str(c) not in played)
    page.close()


@pytest.mark.parametrize("per_page", [1, 4, 8])
def test_print_pages_match_per_page(browser: Any, tmp_path: Path, per_page: int) -> None:
    boards = boards_of(BRIDGECOMPOSER)[:8]
    html = render_page(boards, RenderOptions(per_page=per_page))
    page = open_page(browser, html, 1280, tmp_path)
    pdf = page.pdf(prefer_css_page_size=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == -(-len(boards) // per_page)
    page.close()
