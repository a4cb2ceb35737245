"""One line per board for ``pbntool score``: the computed duplicate score beside the stated one."""

from __future__ import annotations

from dataclasses import dataclass

from pbntool.diagnostics import printable
from pbntool.model import Board, Contract, Seat
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.records import Record
from pbntool.rules import auction_outcome
from pbntool.rules.outcome import declarer_tricks_from_play, stated_score_ns
from pbntool.scoring import score_ns

__all__ = ["ScoreLine", "score_board", "score_record", "stated_score_ns"]

_COLUMNS = (
    ("file", 0),
    ("board", 5),
    ("declarer", 8),
    ("contract", 8),
    ("result", 6),
    ("vulnerable", 10),
    ("score_ns", 8),
    ("stated_score_ns", 15),
)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """A board's contract, result and NS-view scores (computed and as stated)."""

    file: str
    board: int | None
    declarer: str | None
    contract: str | None
    result: int | None
    vulnerable: str | None
    score_ns: int | None
    stated_score_ns: int | None

    def to_dict(self) -> dict[str, object]:
        """The JSON form (keys in column order)."""
        return {name: getattr(self, name) for name, _ in _COLUMNS}

    @staticmethod
    def header() -> str:
        """Column titles for the text table."""
        return (
            " ".join(name.rjust(width) if width else name for name, width in _COLUMNS[1:])
            + "  file"
        )

    def text(self) -> str:
        """One aligned row; ``-`` for what is unknown."""
        cells = []
        for name, width in _COLUMNS[1:]:
            value = getattr(self, name)
            cells.append(("-" if value is None else str(value)).rjust(width))
        return " ".join(cells) + "  " + printable(self.file)


def score_board(board: Board, file: str) -> ScoreLine:
    """Contract and declarer as stated (else from the auction), result as stated (else from
    a complete play), and the duplicate score they give."""
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    contract: Contract | None = board.contract
    declarer = board.declarer
    if outcome is not None and outcome.complete:
        contract = outcome.contract if contract is None else contract
        declarer = outcome.declarer if declarer is None else declarer  # North is 0: no "or"
    tricks = board.result.tricks if board.result is not None else None
    if tricks is None and contract is not None:
        tricks = declarer_tricks_from_play(board, contract, declarer)
    computed = _computed(board, contract, declarer, tricks)
    vulnerable = board.vulnerability.value if board.vulnerability is not None else None
    return ScoreLine(
        file=file,
        board=board.number,
        declarer=declarer.letter if declarer is not None else None,
        contract=str(contract) if contract is not None else None,
        result=tricks,
        vulnerable=vulnerable,
        score_ns=computed,
        stated_score_ns=stated_score_ns(board, declarer),
    )


def _computed(
    board: Board, contract: Contract | None, declarer: Seat | None, tricks: int | None
) -> int | None:
    if contract is None:
        return None
    if contract.is_passed_out:
        return 0
    if declarer is None or tricks is None or board.vulnerability is None or not contract.level:
        return None
    if not 0 <= tricks <= TRICKS_PER_DEAL:
        return None
    return score_ns(contract, declarer, board.vulnerability, tricks)


def score_record(record: Record) -> ScoreLine | None:
    """The score line of a record that holds a board."""
    if record.board is None:
        return None
    return score_board(record.board, record.file)
