"""Duplicate scoring by the WBF Laws, the 16-board cycle and the IMP scale, as pure functions.

The tables are those of the Laws of Duplicate Bridge (``docs/rules.md``; PBN 2.1 §17).  Where
the older seed document disagrees (grand-slam bonus, the bonus for making a redoubled
contract) the Laws win.
"""

from __future__ import annotations

from bisect import bisect_right

from pbntool.model import Contract, Doubling, Seat, Side, Strain, Vulnerability
from pbntool.notation import TRICKS_PER_DEAL

__all__ = [
    "board_dealer",
    "board_vulnerability",
    "duplicate_score",
    "imps",
    "score_ns",
]

_SEATS = tuple(Seat)
_GAME_BONUS = (300, 500)
_PARTSCORE_BONUS = 50
_SMALL_SLAM_BONUS = (500, 750)
_GRAND_SLAM_BONUS = (1000, 1500)
_MAKING_DOUBLED_BONUS = (0, 50, 100)
"""The "insult", indexed by ``Doubling``."""
_DOUBLED_OVERTRICK = (100, 200)
"""Per overtrick when doubled, indexed by vulnerability; twice that when redoubled."""
_CYCLE_VULNERABILITY = (
    Vulnerability.NONE,
    Vulnerability.NS,
    Vulnerability.EW,
    Vulnerability.ALL,
)
# Lower bounds of each IMP step (1962 scale): a difference of at least _IMP_STEPS[i] is worth
# i + 1 IMPs.  Differences between the printed bands (e.g. 15, only possible with averaged
# scores) take the lower band.
_IMP_STEPS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """The duplicate score of a contract for declarer's side (negative when it is defeated).

    Args:
        contract: The final contract; a passed-out board scores 0.
        vulnerable: Whether declarer's side is vulnerable.
        tricks: Tricks taken by declarer, 0 to 13.

    Returns:
        Points for declarer's side: positive when the contract makes, negative when defeated.

    Raises:
        ValueError: For an end-position contract (no level) or tricks outside 0..13.

    >>> from pbntool.model import PASSED_OUT, Contract, Doubling, Strain
    >>> duplicate_score(Contract(3, Strain.NOTRUMP), vulnerable=False, tricks=10)
    430
    >>> duplicate_score(Contract(4, Strain.SPADES, Doubling.DOUBLED), vulnerable=True, tricks=11)
    990
    >>> duplicate_score(Contract(7, Strain.CLUBS, Doubling.REDOUBLED), vulnerable=False, tricks=13)
    1960
    >>> duplicate_score(Contract(4, Strain.HEARTS, Doubling.DOUBLED), vulnerable=False, tricks=6)
    -800
    >>> duplicate_score(PASSED_OUT, vulnerable=True, tricks=0)
    0
    """
    if contract.is_passed_out:
        return 0
    if contract.level is None or contract.strain is None:
        raise ValueError(f"cannot score the contract {contract} without a level")
    if not 0 <= tricks <= TRICKS_PER_DEAL:
        raise ValueError(f"declarer cannot take {tricks} tricks")
    needed = contract.level + 6
    if tricks >= needed:
        return _made_score(
            contract.level, contract.strain, contract.doubling, vulnerable, tricks - needed
        )
    return -_undertrick_penalty(needed - tricks, contract.doubling, vulnerable)


def _trick_value(strain: Strain) -> int:
    """Points per contracted trick (or undoubled overtrick) beyond the first notrump trick."""
    return 20 if strain <= Strain.DIAMONDS else 30


def _made_score(
    level: int, strain: Strain, doubling: Doubling, vulnerable: bool, overtricks: int
) -> int:
    multiplier = 1 << doubling  # 1, 2 or 4
    # Notrump: 40 for the first trick, 30 for each further one.
    first_trick_extra = 10 if strain is Strain.NOTRUMP else 0
    trick_score = (level * _trick_value(strain) + first_trick_extra) * multiplier
    score = trick_score
    score += _GAME_BONUS[vulnerable] if trick_score >= 100 else _PARTSCORE_BONUS
    if level == 6:
        score += _SMALL_SLAM_BONUS[vulnerable]
    elif level == 7:
        score += _GRAND_SLAM_BONUS[vulnerable]
    score += _MAKING_DOUBLED_BONUS[doubling]
    if doubling is Doubling.UNDOUBLED:
        score += overtricks * _trick_value(strain)
    else:
        # Doubling is 1 or 2: redoubled overtricks are worth twice the doubled ones.
        score += overtricks * _DOUBLED_OVERTRICK[vulnerable] * doubling
    return score


def _undertrick_penalty(down: int, doubling: Doubling, vulnerable: bool) -> int:
    if doubling is Doubling.UNDOUBLED:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        # Not vulnerable: 100 for the first, 200 each for the 2nd and 3rd, 300 from the 4th.
        doubled = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled * doubling  # redoubled is twice doubled


def score_ns(
    contract: Contract, declarer: Seat | None, vulnerability: Vulnerability, tricks: int
) -> int:
    """The duplicate score from North-South's point of view.

    Args:
        contract: The final contract.
        declarer: The declarer (may be None only on a passed-out board).
        vulnerability: The board's vulnerability.
        tricks: Tricks taken by declarer, 0 to 13.

    Returns:
        Points for North-South (the negation of East-West's score).

    Raises:
        ValueError: For a contract that has a level but no declarer, or an unscorable contract.

    >>> from pbntool.model import Contract, Seat, Strain, Vulnerability
    >>> score_ns(Contract(4, Strain.HEARTS), Seat.EAST, Vulnerability.EW, 10)
    -620
    """
    if contract.is_passed_out:
        return 0
    if declarer is None:
        raise ValueError(f"the contract {contract} needs a declarer to be scored")
    side = declarer.side
    score = duplicate_score(contract, vulnerability.is_vulnerable(side), tricks)
    return score if side is Side.NS else -score


def board_dealer(number: int) -> Seat:
    """The dealer of a board in the standard 16-board cycle.

    Args:
        number: The board number, 1 or more.

    Raises:
        ValueError: For a number below 1.

    >>> board_dealer(1).letter, board_dealer(4).letter, board_dealer(17).letter
    ('N', 'W', 'N')
    """
    return _SEATS[_cycle_position(number) % 4]


def board_vulnerability(number: int) -> Vulnerability:
    """The vulnerability of a board in the standard 16-board cycle.

    Args:
        number: The board number, 1 or more.

    Raises:
        ValueError: For a number below 1.

    >>> [str(board_vulnerability(n)) for n in (1, 2, 3, 4, 5, 16)]
    ['None', 'NS', 'EW', 'All', 'NS', 'EW']
    """
    position = _cycle_position(number)
    # Each group of four boards shifts the None/NS/EW/All pattern by one.
    return _CYCLE_VULNERABILITY[(position + position // 4) % 4]


def _cycle_position(number: int) -> int:
    if number < 1:
        raise ValueError(f"board numbers start at 1, not {number}")
    return (number - 1) % 16


def imps(difference: int) -> int:
    """Convert a score difference to IMPs on the 1962 scale, keeping its sign.

    Args:
        difference: The difference in points between two scores.

    Returns:
        IMPs from 0 to 24, negative when ``difference`` is.

    >>> imps(0), imps(10), imps(20), imps(420), imps(430), imps(-620), imps(5000)
    (0, 0, 1, 9, 10, -12, 24)
    """
    magnitude = bisect_right(_IMP_STEPS, abs(difference))
    return -magnitude if difference < 0 else magnitude
