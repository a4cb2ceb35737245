"""Hand diagrams as text, what ``pbntool show`` prints: a write-only format (``--to text``).

Each board is its diagram (``pbntool.formats.text.diagram``) followed by a blank line, so a
board's text does not depend on the boards around it and ``-j`` can render boards apart.
"""

from __future__ import annotations

from typing import TextIO

from pbntool.diagnostics import Diagnostic
from pbntool.formats.text.diagram import render_board
from pbntool.model import Board

__all__ = ["TextWriter", "render_board"]


class TextWriter:
    """Hand diagrams with the auction, contract, result and play, one board after another."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        self._stream.write(render_board(board, file=file))
        self._stream.write("\n\n")
        return []

    def close(self) -> None:
        """Diagrams need no ending."""

    def begin(self) -> None:
        """Diagrams have no header."""

    def resume(self) -> None:
        """Diagrams have no header."""
