"""PDF hand records: the HTML sheet's templates printed by WeasyPrint (the ``pdf`` extra).

``PdfWriter`` gathers the page's HTML (boards are small; the PDF is made in one go by
``close``) and writes the PDF to a binary stream.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import BinaryIO

from pbntool.diagnostics import Diagnostic
from pbntool.formats.html import HtmlWriter, RenderOptions
from pbntool.model import Board

__all__ = ["INSTALL_HINT", "PdfUnavailable", "PdfWriter", "check_pdf_support"]

INSTALL_HINT = "PDF needs WeasyPrint: pip install 'pbntool[pdf]'"


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or the system libraries it loads) is not installed."""


def check_pdf_support() -> None:
    """Raise ``PdfUnavailable`` (with the install hint) when WeasyPrint cannot be loaded."""
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as error:
        raise PdfUnavailable(f"{INSTALL_HINT} ({error})") from None


class PdfWriter:
    """Writes boards as one PDF (through the HTML sheet, without its script)."""

    def __init__(self, stream: BinaryIO, options: RenderOptions | None = None) -> None:
        from dataclasses import replace

        self._stream = stream
        self._html = io.StringIO()
        self._writer = HtmlWriter(self._html, replace(options or RenderOptions(), script=False))

    def write(
        self, board: Board, file: str | None = None, findings: Sequence[Diagnostic] = ()
    ) -> list[Diagnostic]:
        return self._writer.write(board, file, findings)

    def close(self) -> None:
        check_pdf_support()
        import weasyprint

        self._writer.close()
        document = weasyprint.HTML(string=self._html.getvalue(), base_url=None)
        self._stream.write(document.write_pdf())
