"""Double-dummy tables and par through DDS (Bo Haglund's solver, as bundled by endplay).

This is the only module that touches the solver.  It talks to DDS through endplay's ctypes
bindings (``endplay._dds``) rather than endplay's ``Deal`` objects: our hands are already
card masks in the layout DDS uses (one 16-bit field per suit, bit = rank), so a deal goes
to DDS without any text.  Two DDS calls give par:

* ``DealerPar`` (the dealer matters: who can bid first), for the score and the contracts
  written to ``OptimumScore`` and ``ParContract``;
* ``Par`` (no dealer: the NS-first and EW-first views), whose text is what DDS's own test
  files hold on their ``PAR`` lines; we keep it so that it can be compared exactly.

endplay declares ``Par``'s result structure with the dimensions swapped (``parScore`` as 16
pieces of 2 bytes rather than 2 strings of 16), so ``_ParResults`` declares it as DDS does.
"""

from __future__ import annotations

import ctypes
import functools
import re
from dataclasses import dataclass
from types import ModuleType

from pbntool.model import Doubling, Seat, Side, Strain, Vulnerability

__all__ = [
    "DDAnalysis",
    "DDTable",
    "Par",
    "ParContract",
    "SolverError",
    "SolverUnavailable",
    "analyse",
    "contract_tricks",
    "load_solver",
    "use_single_thread",
]

INSTALL_HINT = "pip install 'pbntool[dd]'  (installs endplay, which bundles the DDS solver)"


class SolverUnavailable(RuntimeError):
    """endplay (with its DDS library) is not installed or cannot be loaded."""


class SolverError(RuntimeError):
    """DDS refused a deal or failed (its error message is the exception's text)."""


@functools.cache
def load_solver() -> ModuleType:
    """endplay's DDS bindings; ``SolverUnavailable`` says how to install them."""
    try:
        import endplay._dds as dds
    except ImportError as error:
        raise SolverUnavailable(
            f"double-dummy analysis needs endplay ({error.name or 'endplay'} is not "
            f"installed): {INSTALL_HINT}"
        ) from None
    except (OSError, RuntimeError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SolverUnavailable(f"the DDS library could not be loaded: {first}") from None
    return dds


def use_single_thread() -> None:
    """Let DDS use one thread (in worker processes, where the processes are the parallelism)."""
    load_solver().SetMaxThreads(1)


_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_DDS_STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)
"""DDS numbers strains 0-4 as S, H, D, C, NT (suits high to low); ours go C, D, H, S, NT."""
_DDS_STRAIN_INDEX = {strain: index for index, strain in enumerate(_DDS_STRAINS)}
_DDS_VULNERABILITY = {
    Vulnerability.NONE: 0,
    Vulnerability.ALL: 1,
    Vulnerability.NS: 2,
    Vulnerability.EW: 3,
}


@dataclass(frozen=True, slots=True)
class DDTable:
    """Tricks declarer takes double dummy: ``tricks[seat][strain]``, seats N E S W, strains
    C D H S NT (the ``Seat`` and ``Strain`` values index it)."""

    tricks: tuple[tuple[int, ...], ...]

    def __getitem__(self, key: tuple[Seat, Strain]) -> int:
        seat, strain = key
        return self.tricks[seat][strain]

    def dds_order(self) -> list[int]:
        """The 20 numbers in DDS's order (its test files' ``TABLE`` lines): strains S, H, D,
        C, NT, and for each the declarers N, E, S, W."""
        return [self.tricks[seat][strain] for strain in _DDS_STRAINS for seat in _SEATS]


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: ``declarers`` is ``N``/``E``/``S``/``W`` when only that seat makes
    it, ``NS``/``EW`` when either partner does; ``margin`` is over- (positive) or
    under-tricks (negative, for a sacrifice)."""

    level: int
    strain: Strain
    doubling: Doubling
    declarers: str
    margin: int

    @property
    def side(self) -> Side:
        return Side.NS if self.declarers[0] in "NS" else Side.EW

    @property
    def contract_text(self) -> str:
        """``4S``, ``5HX``, ``3NT``."""
        return f"{self.level}{self.strain.letter}{self.doubling.suffix}"

    def __str__(self) -> str:
        result = "=" if self.margin == 0 else f"{self.margin:+d}"
        return f"{self.contract_text}{result} by {self.declarers}"


@dataclass(frozen=True, slots=True)
class Par:
    """The par result: ``score_ns`` (North-South's view), the contracts that reach it (none
    when the par is to pass the board out); and DDS's own texts as its test files write them:
    ``dds_text`` from ``Par`` (``NS -110``, ``EW 110``, ``NS:EW 2S``, ``EW:EW 2S``: the ``PAR``
    lines) and ``dealer_text`` from ``DealerPar`` (``-110``, ``2S-EW``: the ``PAR2`` lines)."""

    score_ns: int
    contracts: tuple[ParContract, ...]
    dds_text: tuple[str, str, str, str]
    dealer_text: tuple[str, ...] = ()

    @property
    def passed_out(self) -> bool:
        return not self.contracts

    @property
    def side(self) -> Side:
        """The side that declares the par contracts (North-South for a pass-out)."""
        return self.contracts[0].side if self.contracts else Side.NS


@dataclass(frozen=True, slots=True)
class DDAnalysis:
    """What the solver says about a deal: the table, and par when the vulnerability and the
    dealer are known."""

    table: DDTable
    par: Par | None


def analyse(
    masks: tuple[int, int, int, int],
    vulnerability: Vulnerability | None,
    dealer: Seat | None,
) -> DDAnalysis:
    """The double-dummy table of a full deal (hand masks N, E, S, W), and its par.

    A pure function of its arguments, so boards can be solved in worker processes.
    """
    dds = load_solver()
    deal = dds.ddTableDeal()
    for hand, mask in enumerate(masks):
        for dds_suit in range(4):
            deal.cards[hand][dds_suit] = (mask >> ((3 - dds_suit) * 16)) & 0xFFFF
    results = dds.ddTableResults()
    _call(dds, lambda: dds.CalcDDtable(deal, results))
    table = DDTable(
        tuple(
            tuple(results.resTable[_DDS_STRAIN_INDEX[strain]][hand] for strain in Strain)
            for hand in range(4)
        )
    )
    par = None
    if vulnerability is not None and dealer is not None:
        par = _par(dds, results, vulnerability, dealer)
    return DDAnalysis(table, par)


def contract_tricks(masks: tuple[int, int, int, int], strain: Strain, declarer: Seat) -> int:
    """Tricks ``declarer`` takes double dummy in ``strain``, the opening lead from the left."""
    dds = load_solver()
    deal = dds.deal()
    deal.trump = _DDS_STRAIN_INDEX[strain]
    deal.first = int(declarer.lho)
    for hand, mask in enumerate(masks):
        for dds_suit in range(4):
            deal.remainCards[hand][dds_suit] = (mask >> ((3 - dds_suit) * 16)) & 0xFFFF
    future = dds.futureTricks()
    # target -1: the most tricks; solutions 1: one best card; mode 1: solve even one card.
    _call(dds, lambda: dds.SolveBoard(deal, -1, 1, 1, future, 0))
    return 13 - int(future.score[0])  # score[0] is the leader's side's tricks


def _call(dds: ModuleType, action: object) -> None:
    try:
        action()  # type: ignore[operator]
    except dds.DDSError as error:
        raise SolverError(str(error)) from None


class _ParResults(ctypes.Structure):
    """DDS's ``parResults``: ``char parScore[2][16]; char parContractsString[2][128]``."""

    _fields_ = [
        ("parScore", (ctypes.c_char * 16) * 2),
        ("parContractsString", (ctypes.c_char * 128) * 2),
    ]


_DEALER_CONTRACT = re.compile(r"(\d)([SHDCN])(\*?)-(NS|EW|N|E|S|W)([+-]\d+)?")


def _par(dds: ModuleType, results: object, vulnerability: Vulnerability, dealer: Seat) -> Par:
    vulnerable = _DDS_VULNERABILITY[vulnerability]
    sides = _ParResults()
    _call(dds, lambda: dds.Par(results, sides, vulnerable))
    dds_text = (
        sides.parScore[0].value.decode("ascii"),
        sides.parScore[1].value.decode("ascii"),
        sides.parContractsString[0].value.decode("ascii"),
        sides.parContractsString[1].value.decode("ascii"),
    )
    dealer_par = dds.parResultsDealer()
    _call(dds, lambda: dds.DealerPar(results, dealer_par, int(dealer), vulnerable))
    texts = [dealer_par.contracts[i].value.decode("ascii") for i in range(dealer_par.number)]
    contracts = [parsed for text in texts if (parsed := _parse_dealer_contract(text))]
    dealer_text = (str(dealer_par.score), *texts)
    return Par(int(dealer_par.score), tuple(contracts), dds_text, dealer_text)


def _parse_dealer_contract(text: str) -> ParContract | None:
    """``4S*-EW-1`` → 4SX by EW, one down; ``pass`` (and anything unexpected) → None."""
    match = _DEALER_CONTRACT.fullmatch(text.strip())
    if match is None:
        return None
    level, strain, doubled, declarers, margin = match.groups()
    return ParContract(
        int(level),
        Strain.from_text(strain),
        Doubling.DOUBLED if doubled else Doubling.UNDOUBLED,
        declarers,
        int(margin) if margin else 0,
    )
