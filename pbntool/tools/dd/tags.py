"""The double-dummy tags in the forms real files use: writing them and reading them back.

* ``DoubleDummyTricks``: 20 hex digits, declarers N, S, E, W and for each the strains NT,
  S, H, D, C (PBN summary §14; BridgeComposer writes lower case: ``"63b3c63b3c492a0492a0"``).
* ``OptimumResultTable``: BridgeComposer's layout, rows N, S, E, W x NT, S, H, D, C::

      [OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
      N NT  6
      N  S  3

  (``Result\\1R`` when every result has one digit).  Any row order is read back.
* ``OptimumScore``: the par score from the side that declares the par contract, as
  BridgeComposer writes it (``"NS 620"``, ``"EW -300"`` for an EW sacrifice; ``"NS 0"`` when
  the par is to pass).  Both sides' forms are read back.
* ``ParContract``: ``"NS 4S="``, ``"EW 5HX-2"``, ``"N 3H="`` (only North takes the tricks,
  as BridgeComposer and DDS say it), several joined by ``"; "``,
  ``"NS Pass"``: the forms listed in the PBN summary §14 (one corpus file carries this tag,
  36 boards: ``"EW 3N+1"``, ``"S 1N="``, ``"EW 5C=; EW 5D="``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbntool.model import Doubling, Seat, Side, Strain
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.scoring.par import ParResult
from pbntool.tools.dd.solver import DDTable, Par, ParContract

__all__ = [
    "TAG_NAMES",
    "StatedContract",
    "double_dummy_tricks",
    "optimum_result_rows",
    "optimum_score",
    "par_contract",
    "read_double_dummy_tricks",
    "read_optimum_score",
    "read_par_contract",
    "read_result_row",
]

TAG_NAMES = ("DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable")
"""The tags ``dd --fill`` writes and ``dd --check`` verifies, in the order they are written."""

_HEX_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_HEX_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_PAR_STRAIN_LETTERS = {Strain.NOTRUMP: "N"}


def double_dummy_tricks(table: DDTable) -> str:
    """The ``DoubleDummyTricks`` value of a table."""
    return "".join(f"{table[seat, strain]:x}" for seat in _HEX_SEATS for strain in _HEX_STRAINS)


def read_double_dummy_tricks(value: str) -> dict[tuple[Seat, Strain], int]:
    """The 20 cells of a ``DoubleDummyTricks`` value; ``ValueError`` saying what is wrong."""
    text = value.strip()
    if len(text) != 20 or re.fullmatch(r"[0-9a-fA-F]{20}", text) is None:
        raise ValueError("expected 20 hex digits (declarers N, S, E, W x NT, S, H, D, C)")
    cells = {}
    digits = iter(text)
    for seat in _HEX_SEATS:
        for strain in _HEX_STRAINS:
            tricks = int(next(digits), 16)
            if tricks > TRICKS_PER_DEAL:
                raise ValueError(f"{seat.letter} {strain.letter} has {tricks} tricks")
            cells[(seat, strain)] = tricks
    return cells


def optimum_result_rows(table: DDTable) -> tuple[str, list[str]]:
    """The header and the rows of an ``OptimumResultTable``, in BridgeComposer's layout."""
    width = 2 if any(tricks >= 10 for row in table.tricks for tricks in row) else 1
    header = f"Declarer;Denomination\\2R;Result\\{width}R"
    rows = [
        f"{seat.letter} {strain.letter:>2} {table[seat, strain]:>{width}}"
        for seat in _HEX_SEATS
        for strain in _HEX_STRAINS
    ]
    return header, rows


def read_result_row(
    row: tuple[str, ...], columns: dict[str, int]
) -> tuple[Seat, Strain, int | None]:
    """One ``OptimumResultTable`` row: declarer, strain and tricks (None for ``?``/``-``)."""
    declarer = Seat.from_letter(row[columns["Declarer"]].strip())
    strain = Strain.from_text(row[columns["Denomination"]].strip())
    result = row[columns["Result"]].strip()
    if result in ("?", "-"):
        return declarer, strain, None
    tricks = int(result)
    if not 0 <= tricks <= TRICKS_PER_DEAL:
        raise ValueError(f"{tricks} tricks is impossible")
    return declarer, strain, tricks


def optimum_score(par: Par) -> str:
    """The ``OptimumScore`` value: the par score of the side that declares par."""
    side = par.side
    points = par.score_ns if side is Side.NS else -par.score_ns
    return f"{side.letters} {points}"


_SIDE_SCORE = re.compile(r"(NS|EW)\s*([+-]?\d+)", re.I)


def read_optimum_score(value: str) -> int:
    """An ``OptimumScore`` value as North-South's score (``"EW -300"`` → 300)."""
    text = value.strip()
    found = _SIDE_SCORE.findall(text)
    if not found or _SIDE_SCORE.sub("", text).strip():
        raise ValueError('expected "NS <score>" or "EW <score>"')
    side, points = found[0]
    return int(points) if side.upper() == "NS" else -int(points)


def par_contract(par: Par | ParResult) -> str:
    """The ``ParContract`` value: every par contract with its side and result (from the
    solver's ``Par`` or from ``pbntool.scoring.par.par`` of a stated table: the same)."""
    if par.passed_out:
        return "NS Pass"
    return "; ".join(_par_item(contract) for contract in par.contracts)


def _par_item(contract: ParContract) -> str:
    strain = _PAR_STRAIN_LETTERS.get(contract.strain, contract.strain.letter)
    result = "=" if contract.margin == 0 else f"{contract.margin:+d}"
    return f"{contract.declarers} {contract.level}{strain}{contract.doubling.suffix}{result}"


@dataclass(frozen=True, slots=True)
class StatedContract:
    """One contract of a ``ParContract`` value, as written: ``declarers`` is a side or a
    seat; ``margin`` is None when the value gives no result (``"NS 4S"``); ``level`` is 0 for
    ``Pass``."""

    text: str
    declarers: str
    level: int
    strain: Strain | None
    doubling: Doubling
    margin: int | None


_PAR_ITEM = re.compile(
    r"(?:(NS|EW|N|E|S|W)\s+)?(?:(PASS)|([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|\*\*|\*)?\s*(=|[+-]\d+)?)",
    re.I,
)


def read_par_contract(value: str) -> list[StatedContract]:
    """The contracts of a ``ParContract`` value; a contract with no side takes the side of
    the one before it (``"NS 4S, 4H"``)."""
    items = [item.strip() for item in re.split(r"[;,]", value) if item.strip()]
    if not items:
        raise ValueError("no contract given")
    stated: list[StatedContract] = []
    side = ""
    for item in items:
        match = _PAR_ITEM.fullmatch(item)
        if match is None:
            raise ValueError(f"{item!r} is not a side and a contract such as NS 4S= or EW 5HX-2")
        who, passed, level, strain, doubling, margin = match.groups()
        side = (who or side).upper()
        if not side:
            raise ValueError(f"{item!r} does not say which side declares it")
        if passed:
            stated.append(StatedContract(item, side, 0, None, Doubling.UNDOUBLED, 0))
            continue
        doubled = {"": Doubling.UNDOUBLED, "X": Doubling.DOUBLED, "*": Doubling.DOUBLED}
        stated.append(
            StatedContract(
                item,
                side,
                int(level),
                Strain.from_text(strain),
                doubled.get((doubling or "").upper(), Doubling.REDOUBLED),
                None if margin is None else 0 if margin == "=" else int(margin),
            )
        )
    return stated
