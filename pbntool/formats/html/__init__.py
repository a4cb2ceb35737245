"""HTML hand records: one self-contained page (CSS and script inline), a board at a time.

``HtmlWriter`` is a write-only format's writer (the ``BoardWriter`` protocol): the header
(styles for the chosen paper and boards per page) is written by ``begin``, each board is one
``<article data-board="N">`` with nothing carried from one board to the next (so parts of a
page can be rendered in workers and joined), and ``close`` writes the script and the end.
Printed pages come from CSS alone: every board takes a slot of a fixed size, and a board too
long for its slot gets a page of its own (``long``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import TextIO

from pbntool.diagnostics import Diagnostic
from pbntool.formats.html.options import PAGE_SIZES, Paper, RenderOptions, SuitColours
from pbntool.formats.html.view import BoardView, board_view
from pbntool.model import Board

__all__ = ["HtmlWriter", "Paper", "RenderOptions", "SuitColours", "render_page"]

MARGIN_MM = 10.0
FONT_PT = {1: 11.0, 2: 9.5, 4: 7.5, 6: 6.8, 8: 6.2}
"""Print font size by boards per page."""
LINE_MM = 0.3528 * 1.36
"""Height of one line per point of font size, in millimetres."""


@cache
def _environment() -> object:
    import jinja2

    templates = files("pbntool.formats.html") / "templates"

    def load(name: str) -> str:
        return (templates / name).read_text(encoding="utf-8")

    return jinja2.Environment(
        loader=jinja2.FunctionLoader(load),
        autoescape=True,
        trim_blocks=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _template(name: str) -> object:
    return _environment().get_template(name)  # type: ignore[attr-defined]


def _render(name: str, **values: object) -> str:
    text: str = _template(name).render(**values)  # type: ignore[attr-defined]
    return text


class HtmlWriter:
    """Writes boards as one HTML page (a ``FragmentWriter``: header, boards, footer)."""

    def __init__(self, stream: TextIO, options: RenderOptions | None = None) -> None:
        self._stream = stream
        self._options = options or RenderOptions()
        self._started = False
        self._count = 0
        # Ids must be unique in the page when the boards of one page come from several
        # writers (-j workers): a random token per writer, not a process's object address.
        self._token = secrets.token_hex(4)

    def write(
        self, board: Board, file: str | None = None, findings: Sequence[Diagnostic] = ()
    ) -> list[Diagnostic]:
        """Write one board; ``findings`` (its reader's and the Laws' diagnostics) are shown as
        a note on the board when one of them is an error."""
        self._start()
        self._count += 1
        view = board_view(board, findings, travellers=self._options.travellers)
        if _too_long(view, self._options):
            view = _as_long(view)
        uid = f"{view.number or 'x'}-{self._count}-{self._token}"
        self._stream.write(_render("board.html.j2", b=view, uid=uid))
        return []

    def close(self) -> None:
        self._start()
        script = _render("play.js.j2") if self._options.script else ""
        self._stream.write(_render("foot.html.j2", script=script))

    def begin(self) -> None:
        self._start()

    def resume(self) -> None:
        self._started = True

    def _start(self) -> None:
        if not self._started:
            self._stream.write(page_head(self._options))
            self._started = True


def page_head(options: RenderOptions, title: str = "Hand records") -> str:
    """The page up to the first board: styles for the paper and boards per page."""
    width, height = PAGE_SIZES[options.paper]
    columns, rows = options.grid
    # a slot a little smaller than its share, so that rounding never pushes a row over a page
    slot_width = round((width - 2 * MARGIN_MM) / columns - 0.3, 2)
    slot_height = round((height - 2 * MARGIN_MM) / rows - 0.6, 2)
    css = _render(
        "style.css.j2",
        options=options,
        paper_css="A4" if options.paper is Paper.A4 else "letter",
        margin=MARGIN_MM,
        font_pt=FONT_PT[options.per_page],
        slot_width=slot_width,
        slot_height=slot_height,
        hide_play=options.per_page > 2,
    )
    return _render("head.html.j2", options=options, css=css, title=title)


def slot_height_mm(options: RenderOptions) -> float:
    _, height = PAGE_SIZES[options.paper]
    return (height - 2 * MARGIN_MM) / options.grid[1] - 0.6


def _too_long(view: BoardView, options: RenderOptions) -> bool:
    """Whether the board needs more lines than its printed slot holds (an estimate that errs
    towards a page of its own: a long board is never cut)."""
    columns, _ = options.grid
    font = FONT_PT[options.per_page]
    capacity = slot_height_mm(options) / (font * LINE_MM) - 3  # padding and the title
    width_chars = (PAGE_SIZES[options.paper][0] - 2 * MARGIN_MM) / columns / (font * 0.19)
    compass = 15
    side = len(view.auction) + 2 + len(view.auction_notes) * 1.5 + 4
    if view.dd is not None:
        side += 6
    lines = 2 + max(compass, side)
    if options.per_page <= 2 and view.tricks:
        lines += (len(view.tricks) + 1) // 2 + 1
    if view.travellers is not None:
        lines += len(view.travellers.rows) + 2
    lines += sum(1 + len(text) / max(width_chars, 1) for text in view.commentary)
    lines += sum(1 + len(text) / max(width_chars, 1) for text in view.problems) + 1
    return lines > capacity


def _as_long(view: BoardView) -> BoardView:
    from dataclasses import replace

    return replace(view, long=True)


def render_page(boards: Sequence[Board], options: RenderOptions | None = None) -> str:
    """A whole page of ``boards`` (for tests and library use)."""
    import io

    stream = io.StringIO()
    writer = HtmlWriter(stream, options)
    for board in boards:
        writer.write(board)
    writer.close()
    return stream.getvalue()
