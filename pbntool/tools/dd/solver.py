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
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pbntool.model import Doubling, Seat, Strain, Vulnerability
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.scoring.par import ParContract, ParResult

__all__ = [
    "TABLES_PER_CALL",
    "DDAnalysis",
    "DDTable",
    "Par",
    "ParContract",
    "SolverError",
    "SolverUnavailable",
    "analyse",
    "analyse_batch",
    "contract_tricks",
    "contract_tricks_batch",
    "load_solver",
    "use_single_thread",
    "use_threads",
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
    use_threads(1)


_threads: list[int] = []
"""The thread count last given to DDS (``SetMaxThreads`` reallocates its memory: once)."""


def use_threads(count: int) -> None:
    """Let DDS solve a batch on ``count`` threads of its own (``dd -j N``)."""
    if _threads != [count]:
        load_solver().SetMaxThreads(count)
        _threads[:] = [count]


TABLES_PER_CALL = 40
"""Deals per ``CalcAllTables`` call: DDS 2.9's MAXNOOFTABLES with all five strains (41
deals are refused with "Too many DD tables requested")."""

BOARDS_PER_CALL = 200
"""Boards (a deal, a trump and a leader) per ``SolveAllBoardsBin`` call: MAXNOOFBOARDS."""


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
class Par(ParResult):
    """The par result as DDS gives it (``ParResult``: ``score_ns``, the contracts), with DDS's
    own texts as its test files write them: ``dds_text`` from ``Par`` (``NS -110``,
    ``EW 110``, ``NS:EW 2S``, ``EW:EW 2S``: the ``PAR`` lines) and ``dealer_text`` from
    ``DealerPar`` (``-110``, ``2S-EW``: the ``PAR2`` lines)."""

    dds_text: tuple[str, str, str, str] = ("", "", "", "")
    dealer_text: tuple[str, ...] = ()


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
    _set_cards(deal.cards, masks)
    results = dds.ddTableResults()
    _call(dds, lambda: dds.CalcDDtable(deal, results))
    return _analysis(dds, results, vulnerability, dealer)


def analyse_batch(
    deals: Sequence[tuple[tuple[int, int, int, int], Vulnerability | None, Seat | None]],
) -> list[DDAnalysis | SolverError]:
    """``analyse`` for many deals (masks, vulnerability, dealer), ``TABLES_PER_CALL`` at a
    time through DDS's batch entry ``CalcAllTables``, which spreads them over its own threads
    (``use_threads``).  A batch DDS refuses is solved again deal by deal, so a bad deal costs
    only itself: its place in the list holds the ``SolverError``."""
    dds = load_solver()
    found: list[DDAnalysis | SolverError] = []
    for start in range(0, len(deals), TABLES_PER_CALL):
        batch = deals[start : start + TABLES_PER_CALL]
        tables = dds.ddTableDeals()
        tables.noOfTables = len(batch)
        for index, (masks, _, _) in enumerate(batch):
            _set_cards(tables.ddTableDeal[index].cards, masks)
        solved = dds.ddTablesRes()
        try:
            # mode -1: no par from DDS here (ours needs the dealer: DealerPar, per deal below)
            dds.CalcAllTables(tables, -1, [0] * 5, solved, dds.allParResults())
        except dds.DDSError:
            found.extend(_one_by_one(batch))
            continue
        for index, (_, vulnerability, dealer) in enumerate(batch):
            found.append(_analysis(dds, solved.results[index], vulnerability, dealer))
    return found


def _one_by_one(
    deals: Sequence[tuple[tuple[int, int, int, int], Vulnerability | None, Seat | None]],
) -> list[DDAnalysis | SolverError]:
    found: list[DDAnalysis | SolverError] = []
    for masks, vulnerability, dealer in deals:
        try:
            found.append(analyse(masks, vulnerability, dealer))
        except SolverError as error:
            found.append(error)
    return found


def _set_cards(cards: Any, masks: tuple[int, int, int, int]) -> None:
    """Hand masks N, E, S, W into DDS's ``cards[hand][suit]`` (suits S H D C)."""
    for hand, mask in enumerate(masks):
        row = cards[hand]
        row[0] = mask >> 48 & 0xFFFF
        row[1] = mask >> 32 & 0xFFFF
        row[2] = mask >> 16 & 0xFFFF
        row[3] = mask & 0xFFFF


def _analysis(
    dds: ModuleType, results: Any, vulnerability: Vulnerability | None, dealer: Seat | None
) -> DDAnalysis:
    rows = results.resTable
    table = DDTable(
        tuple(
            tuple(rows[_DDS_STRAIN_INDEX[strain]][hand] for strain in Strain) for hand in range(4)
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
    return TRICKS_PER_DEAL - int(future.score[0])  # score[0] is the leader's side's tricks


def contract_tricks_batch(
    boards: Sequence[tuple[tuple[int, int, int, int], Strain, Seat]],
) -> list[int | SolverError]:
    """``contract_tricks`` for many (masks, strain, declarer), ``BOARDS_PER_CALL`` at a time
    through ``SolveAllBoardsBin`` on DDS's threads; a refused batch is solved one by one."""
    dds = load_solver()
    found: list[int | SolverError] = []
    for start in range(0, len(boards), BOARDS_PER_CALL):
        batch = boards[start : start + BOARDS_PER_CALL]
        request = dds.boards()
        request.noOfBoards = len(batch)
        for index, (masks, strain, declarer) in enumerate(batch):
            deal = request.deals[index]
            deal.trump = _DDS_STRAIN_INDEX[strain]
            deal.first = int(declarer.lho)
            _set_cards(deal.remainCards, masks)
            request.target[index] = -1
            request.solutions[index] = 1
            request.mode[index] = 1
        solved = dds.solvedBoards()
        try:
            dds.SolveAllBoardsBin(request, solved)
        except dds.DDSError:
            for masks, strain, declarer in batch:
                try:
                    found.append(contract_tricks(masks, strain, declarer))
                except SolverError as error:
                    found.append(error)
            continue
        found.extend(
            TRICKS_PER_DEAL - int(solved.solvedBoard[i].score[0]) for i in range(len(batch))
        )
    return found


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
