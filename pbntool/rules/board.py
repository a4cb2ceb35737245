"""Stated against derived: the board's tags against what the auction and the tables give.

``check_contract`` compares Contract and Declarer with the auction and checks Result's
range, ``check_score`` compares Score with the duplicate score, and ``check_conventions``
compares Dealer and Vulnerable with the board number.  ``_final_contract`` and
``_final_declarer`` (the stated value, else the completed auction's) serve the play checks
too.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbntool.diagnostics import (
    BRD001,
    BRD002,
    CON001,
    CON002,
    CON003,
    CON006,
    CON008,
    SCO001,
    Diagnostic,
)
from pbntool.model import Board, Contract, Score, Seat
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.rules.auction import AuctionOutcome, auction_outcome
from pbntool.scoring import board_dealer, board_vulnerability, duplicate_score

__all__ = ["check_contract", "check_conventions", "check_score"]

_STRAIN_WORDS = ("clubs", "diamonds", "hearts", "spades", "notrump")


# --- Stated contract, declarer and result ------------------------------------------------------


def check_contract(board: Board) -> Iterator[Diagnostic]:
    """Compare the stated Contract and Declarer with the auction; check Result's range.

    Reports CON001 (contract differs from a completed auction's), CON002 (declarer differs;
    skipped for ``^`` on Declarer), CON006 (a passed-out board with a Declarer or Result)
    and CON003 (a Result outside 0..13).

    Args:
        board: The board to check.

    Yields:
        Diagnostics pointing at the Contract, Declarer and Result tags.
    """
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    yield from _check_contract(board, outcome)


def _check_contract(board: Board, outcome: AuctionOutcome | None) -> Iterator[Diagnostic]:
    derived = outcome.contract if outcome is not None and outcome.complete else None
    stated = board.contract
    if (
        derived is not None
        and stated is not None
        and stated.level is not None
        and _contract_key(stated) != _contract_key(derived)
    ):
        yield CON001.at(("tag", "Contract"), stated=str(stated), derived=str(derived))
    if (
        derived is not None
        and outcome is not None
        and outcome.declarer is not None
        and board.declarer is not None
        and not board.declarer_irregular
        and board.declarer is not outcome.declarer
    ):
        strain = _STRAIN_WORDS[derived.strain] if derived.strain is not None else "it"
        yield CON002.at(
            ("tag", "Declarer"),
            stated=board.declarer.letter,
            derived=outcome.declarer.name_title,
            strain=strain,
        )
    if (
        derived is not None
        and outcome is not None
        and board.declarer_irregular
        and board.declarer is not None
        and board.declarer is outcome.declarer
    ):
        yield CON008.at(("tag", "Declarer"), seat=board.declarer.letter)
    passed_out = (derived is not None and derived.is_passed_out) or (
        stated is not None and stated.is_passed_out
    )
    if passed_out:
        if board.declarer is not None:
            yield CON006.at(("tag", "Declarer"), name="Declarer", value=board.declarer.letter)
        if board.result is not None:
            yield CON006.at(("tag", "Result"), name="Result", value=str(board.result))
    if board.result is not None and not 0 <= board.result.tricks <= TRICKS_PER_DEAL:
        yield CON003.at(("tag", "Result"), value=str(board.result))


def _contract_key(contract: Contract) -> tuple[int, int, int]:
    if contract.is_passed_out:
        return (0, 0, 0)
    strain = -1 if contract.strain is None else int(contract.strain)
    return (contract.level or 0, strain, int(contract.doubling))


def _final_contract(board: Board, outcome: AuctionOutcome | None) -> Contract | None:
    """The stated contract, else the completed auction's."""
    if board.contract is not None:
        return board.contract
    if outcome is not None and outcome.complete:
        return outcome.contract
    return None


def _final_declarer(board: Board, outcome: AuctionOutcome | None) -> Seat | None:
    """The stated declarer (after ``^`` too: who actually declared), else the auction's."""
    if board.declarer is not None:
        return board.declarer
    if outcome is not None and outcome.complete:
        return outcome.declarer
    return None


# --- Score -----------------------------------------------------------------------------------


def check_score(board: Board) -> Iterator[Diagnostic]:
    """Compare the stated Score with the duplicate score of the contract, declarer and result.

    Needs the contract (stated, else the auction's), declarer, Result and vulnerability; a
    passed-out board scores 0.

    Args:
        board: The board to check.

    Yields:
        SCO001 at the Score tag when the scores differ.
    """
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    yield from _check_score(board, outcome)


def _check_score(board: Board, outcome: AuctionOutcome | None) -> Iterator[Diagnostic]:
    score = board.score
    if score is None:
        return
    contract = _final_contract(board, outcome)
    if contract is None or contract.level is None:
        return
    if contract.is_passed_out:
        if score.points != 0:
            yield SCO001.at(
                ("tag", "Score"),
                stated=_score_text(score, score.points),
                contract="Pass",
                declarer="nobody",
                tricks="no",
                vul="",
                computed=_score_text(score, 0),
            )
        return
    declarer = _final_declarer(board, outcome)
    vulnerability = board.vulnerability
    if declarer is None or vulnerability is None:
        return
    tricks = _declarer_tricks(board, contract, declarer)
    if tricks is None or not 0 <= tricks <= TRICKS_PER_DEAL:
        return
    vulnerable = vulnerability.is_vulnerable(declarer.side)
    computed = duplicate_score(contract, vulnerable, tricks)
    if score.side is not None and score.side is not declarer.side:
        computed = -computed
    if score.points != computed:
        yield SCO001.at(
            ("tag", "Score"),
            stated=_score_text(score, score.points),
            contract=str(contract),
            declarer=declarer.letter,
            tricks=tricks,
            vul=", vulnerable" if vulnerable else ", not vulnerable",
            computed=_score_text(score, computed),
        )


def _declarer_tricks(board: Board, contract: Contract, declarer: Seat) -> int | None:
    """The stated Result, else the tricks of a complete play: the one derivation that
    ``validate``, ``score`` and ``fix`` share (``rules.outcome``)."""
    if board.result is not None:
        return board.result.tricks
    from pbntool.rules.outcome import declarer_tricks_from_play  # play imports this module

    return declarer_tricks_from_play(board, contract, declarer)


def _score_text(score: Score, points: int) -> str:
    """``points`` written from the same side's view as the stated score."""
    return str(points) if score.side is None else f"{score.side.letters} {points}"


# --- Board conventions -----------------------------------------------------------------------


def check_conventions(board: Board) -> Iterator[Diagnostic]:
    """Compare Dealer and Vulnerable with the standard 16-board cycle for the board number.

    Args:
        board: The board to check; nothing is reported without an integer board number.

    Yields:
        BRD001 (dealer) and BRD002 (vulnerability) warnings.
    """
    number = board.number
    if number is None or number < 1:
        return
    dealer = board_dealer(number)
    if board.dealer is not None and board.dealer is not dealer:
        yield BRD001.at(
            ("tag", "Dealer"), stated=board.dealer.letter, board=number, expected=dealer.letter
        )
    vulnerability = board_vulnerability(number)
    if board.vulnerability is not None and board.vulnerability is not vulnerability:
        yield BRD002.at(
            ("tag", "Vulnerable"),
            stated=str(board.vulnerability),
            board=number,
            expected=str(vulnerability),
        )
