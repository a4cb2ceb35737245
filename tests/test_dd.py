"""Double-dummy analysis against DDS's own solutions, the tags in real files, and ``dd``.

DDS ships its regression hands in ``dds-bridge__dds/hands/list*.txt`` (corpus): per deal a
``PBN dealer vul trump first "deal"`` line, a ``TABLE`` of 20 numbers, a ``PAR`` line (the
text of DDS's ``Par()``) and a ``PAR2`` line (``DealerPar()``).  The order of the TABLE
numbers is DDS's ``ddTableResults.resTable[strain][hand]`` in memory order: strains S, H,
D, C, NT, and for each the hands N, E, S, W.  Our solver output matches every TABLE line in
that order, and no other order matches (``test_the_table_order_is_the_only_one_that_fits``).
The second number of the PBN line is the vulnerability in DDS's code (0 none, 1 all, 2 NS,
3 EW): with it every PAR line matches exactly.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import shlex
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS

from pbntool.deals import hand_masks
from pbntool.formats import read_input
from pbntool.formats.pbn import parse
from pbntool.model import Seat, Strain, Vulnerability
from pbntool.text.inputs import Input
from pbntool.tools.dd import ContractJob, TableJob, analyse, check_record, solve_in_order
from pbntool.tools.dd.check import par_conditions
from pbntool.tools.dd.solver import DDAnalysis, DDTable
from pbntool.tools.dd.tags import read_double_dummy_tricks, read_result_row

HAVE_SOLVER = importlib.util.find_spec("endplay") is not None
needs_solver = pytest.mark.skipif(not HAVE_SOLVER, reason="endplay (pbntool[dd]) not installed")

DDS_HANDS = CORPUS / "dds-bridge__dds" / "hands"
_DDS_VULNERABILITY = (Vulnerability.NONE, Vulnerability.ALL, Vulnerability.NS, Vulnerability.EW)


@dataclass(frozen=True, eq=False)
class DdsCase:
    """One deal of a DDS test file with its expected TABLE, PAR and PAR2 lines."""

    file: str
    index: int
    dealer: Seat
    vulnerability: Vulnerability
    deal: str
    table: list[int]
    par: list[str]
    par2: list[str]

    @property
    def masks(self) -> tuple[int, int, int, int]:
        board = parse(f'[Deal "{self.deal}"]').boards[0]
        assert board.deal is not None
        masks = hand_masks(board.deal)
        assert masks is not None
        return masks


@cache
def dds_cases(name: str) -> list[DdsCase]:
    path = DDS_HANDS / name
    if not path.is_file():
        pytest.skip(f"{path} is not there (the corpus is absent)")
    cases: list[DdsCase] = []
    current: dict[str, object] = {}
    for line in path.read_text(encoding="ascii").splitlines():
        words = shlex.split(line)
        if not words:
            continue
        if words[0] == "PBN":
            if current:
                cases.append(_case(name, len(cases), current))
            current = {"pbn": words}
        elif words[0] in ("TABLE", "PAR", "PAR2"):
            current[words[0]] = words[1:]
    if current:
        cases.append(_case(name, len(cases), current))
    return cases


def _case(name: str, index: int, found: dict[str, object]) -> DdsCase:
    pbn = found["pbn"]
    assert isinstance(pbn, list)
    table, par, par2 = found["TABLE"], found["PAR"], found["PAR2"]
    assert isinstance(table, list) and isinstance(par, list) and isinstance(par2, list)
    return DdsCase(
        name,
        index,
        Seat(int(pbn[1])),
        _DDS_VULNERABILITY[int(pbn[2])],
        pbn[5],
        [int(number) for number in table],
        par,
        par2,
    )


SAMPLE_FILES = ("list1.txt", "list2.txt", "list10.txt")
"""13 deals, solved in a few seconds."""
BIG_LISTS = ("list100.txt", "list300.txt", "list1000.txt")
FULL_FILES = (*BIG_LISTS, "largest.txt")
"""1,421 deals; ``largest.txt`` holds DDS's hardest (2 to 10 s each)."""


@cache
def _solved(case: DdsCase) -> DDAnalysis:
    return analyse(case.masks, case.vulnerability, case.dealer)


def _sample() -> list[DdsCase]:
    """The deals solved in the normal run: the small lists, and every 97th of the big ones."""
    cases = [case for name in SAMPLE_FILES for case in dds_cases(name)]
    return cases + [case for name in BIG_LISTS for case in dds_cases(name)[::97]]


def _check_case(case: DdsCase) -> None:
    analysis = _solved(case)
    where = f"{case.file} deal {case.index + 1}"
    assert analysis.table.dds_order() == case.table, where
    assert analysis.par is not None
    assert list(analysis.par.dds_text) == case.par, where
    assert list(analysis.par.dealer_text) == case.par2, where


@needs_solver
@pytest.mark.corpus
def test_a_sample_matches_the_dds_solutions() -> None:
    """TABLE, PAR and PAR2 of the 13 deals of list1, list2 and list10 and of every 97th deal
    of list100, list300 and list1000 (31 deals), exactly."""
    for case in _sample():
        _check_case(case)


def _wide_sample(everything: bool) -> list[DdsCase]:
    """All 1,421 deals with ``--all-dds`` (about 3 minutes on 2 cores); otherwise all of
    list100 and every 10th deal of list300 and list1000 (230 deals, about 25 s), so the
    normal run stays within the suite's time budget."""
    if everything:
        return [case for name in FULL_FILES for case in dds_cases(name)]
    first, *others = BIG_LISTS
    return dds_cases(first) + [case for name in others for case in dds_cases(name)[::10]]


@needs_solver
@pytest.mark.corpus
@pytest.mark.slow
def test_the_big_lists_match_in_worker_processes(request: pytest.FixtureRequest) -> None:
    everything = bool(request.config.getoption("--all-dds"))
    cases = _wide_sample(everything)
    jobs = ((case, TableJob(case.masks, case.vulnerability, case.dealer)) for case in cases)
    checked = 0
    for case, analysis in solve_in_order(jobs, workers=2):
        assert not isinstance(analysis, (tuple, Exception)) and analysis is not None
        assert analysis.table.dds_order() == case.table, case
        assert analysis.par is not None
        assert list(analysis.par.dds_text) == case.par, case
        assert list(analysis.par.dealer_text) == case.par2, case
        checked += 1
    assert checked == len(cases) > (1400 if everything else 200)


@needs_solver
@pytest.mark.corpus
def test_the_table_order_is_the_only_one_that_fits() -> None:
    """Every other order of strains and hands (strain- or hand-major) fails on the sample."""
    tables = [(case, _solved(case).table) for case in _sample()]
    strains = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)
    fitting = []
    for strain_order in itertools.permutations(strains):
        for seat_order in itertools.permutations(Seat):
            for strain_major in (True, False):
                if all(
                    _ordered(table, strain_order, seat_order, strain_major) == case.table
                    for case, table in tables
                ):
                    fitting.append((strain_order, seat_order, strain_major))
    assert fitting == [(strains, tuple(Seat), True)]


def _ordered(
    table: DDTable, strains: tuple[Strain, ...], seats: tuple[Seat, ...], strain_major: bool
) -> list[int]:
    if strain_major:
        return [table[seat, strain] for strain in strains for seat in seats]
    return [table[seat, strain] for seat in seats for strain in strains]


# --- the tags of real files ----------------------------------------------------------------------

ANNOTATED = (
    "zdenecek__pbn/pbn_files/bridgecomposer.pbn",
    "timheilman__bridge-pbn/spec/resource/three_test_records.pbn",
    "timheilman__bridge-pbn/spec/resource/three_test_records_crlf.pbn",
    "timheilman__bridge-pbn/spec/resource/test_record_with_lots_of_curlies.pbn",
    "ContractBridge__pbnj/src/test/resources/correct_21.pbn",
)


def _annotated_records(corpus: Path) -> list[object]:
    found = []
    for name in ANNOTATED:
        path = corpus / name
        found += [r for r in read_input(Input(name, path)) if r.board and r.board.deal]
    return found


@pytest.mark.corpus
def test_double_dummy_tricks_order_agrees_with_the_result_tables(corpus_dir: Path) -> None:
    """Without a solver: where a file has both tags, reading DoubleDummyTricks as N, S, E, W
    x NT, S, H, D, C gives exactly the OptimumResultTable rows (whatever their order)."""
    compared = 0
    for record in _annotated_records(corpus_dir):
        board = record.board  # type: ignore[attr-defined]
        value = board.tag("DoubleDummyTricks")
        tables = [t for t in board.tables if t.name == "OptimumResultTable"]
        if value is None or not tables:
            continue
        columns = {column.name: i for i, column in enumerate(tables[0].columns)}
        rows = {}
        for row in tables[0].rows:
            seat, strain, tricks = read_result_row(row, columns)
            rows[(seat, strain)] = tricks
        assert read_double_dummy_tricks(value) == rows
        compared += 1
    assert compared >= 18


@needs_solver
@pytest.mark.corpus
def test_the_tags_of_real_files_check_clean(corpus_dir: Path) -> None:
    """BridgeComposer's DoubleDummyTricks, OptimumResultTable and OptimumScore, and the PBN
    verifier's correct_21.pbn table and score, all agree with the solver."""
    checked = 0
    for record in _annotated_records(corpus_dir):
        board = record.board  # type: ignore[attr-defined]
        vulnerability, dealer = par_conditions(board)
        masks = hand_masks(board.deal)
        assert masks is not None
        analysis = analyse(masks, vulnerability, dealer)
        assert check_record(record, analysis) == []  # type: ignore[arg-type]
        checked += 1
    assert checked >= 20


@needs_solver
@pytest.mark.corpus
def test_ability_and_minimax_of_a_deep_finesse_file(corpus_dir: Path) -> None:
    """Big Deal's ``Ability`` (tricks per seat, NT S H D C) and ``Minimax`` (par contract and
    NS score) tags, written by another solver, agree with ours."""
    path = corpus_dir / "zdenecek__pbn/pbn_files/bigdeal_with_deepfinese_analyses.pbn"
    records = [r for r in read_input(Input(path.name, path)) if r.board]
    assert len(records) >= 10
    for record in records:
        board = record.board
        assert board is not None and board.deal is not None
        masks = hand_masks(board.deal)
        assert masks is not None
        analysis = analyse(masks, *par_conditions(board))
        ability = dict(item.split(":") for item in (board.tag("Ability") or "").split())
        for seat in Seat:
            strains = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
            expected = [int(digit, 16) for digit in ability[seat.letter]]
            assert [analysis.table[seat, s] for s in strains] == expected, (board.number, seat)
        minimax = MINIMAX.fullmatch(board.tag("Minimax") or "")
        assert minimax is not None and analysis.par is not None
        assert int(minimax.group(1)) == analysis.par.score_ns, (board.number, minimax.group())


MINIMAX = re.compile(r"[1-7][SHDCN]D?[NESW](-?\d+)")
"""``4HS420``, ``3NW-430``, ``4SDE300``: contract, D when doubled, declarer, NS score."""


# --- contracts and parallel solving --------------------------------------------------------------


@needs_solver
def test_contract_tricks_agree_with_the_table() -> None:
    from pbntool.dev.generate import random_boards

    for board in random_boards(8, 3, play=False):
        assert board.deal is not None
        masks = hand_masks(board.deal)
        assert masks is not None
        table = analyse(masks, None, None).table
        for strain in (Strain.NOTRUMP, Strain.HEARTS):
            (tricks,) = [
                outcome
                for _key, outcome in solve_in_order([(0, ContractJob(masks, strain, tuple(Seat)))])
            ]
            assert tricks == tuple(table[seat, strain] for seat in Seat)


@needs_solver
def test_results_come_in_input_order_with_workers() -> None:
    from pbntool.dev.generate import random_boards

    jobs: list[tuple[int, TableJob | None]] = []
    for board in random_boards(12, 5, play=False):
        assert board.deal is not None
        masks = hand_masks(board.deal)
        assert masks is not None
        jobs.append((board.number or 0, TableJob(masks, board.vulnerability, board.dealer)))
        jobs.append((-(board.number or 0), None))
    alone = list(solve_in_order(jobs, workers=1))
    together = list(solve_in_order(jobs, workers=2))
    assert [key for key, _ in together] == [key for key, _ in jobs]
    assert together == alone


# --- the engine dd runs on: small inputs gathered into one DDS call, big ones cut ----------------


def _folder_of_games(root: Path, sizes: tuple[int, ...]) -> Path:
    from pbntool.dev.generate import random_boards
    from pbntool.formats.pbn.writer import dumps

    for index, size in enumerate(sizes):
        games = dumps(random_boards(70 + index, size, play=False))
        (root / f"f{index:02}.pbn").write_text(games, encoding="utf-8")
    return root


def _batch_chunks(paths: tuple[str, ...], task: object, unit_chars: int | None) -> list[object]:
    from pbntool.run.batch import Batch, BatchOptions

    batch = Batch(BatchOptions(paths=paths, jobs=1), task, unit_chars)  # type: ignore[arg-type]
    return [(source.name, chunk) for source, chunk in batch]


def _what_was_written(chunks: list[object]) -> list[tuple[object, ...]]:
    """Per input: its output, its stderr, its records, boards and findings (chunks merge the
    records of one unit, so their cuts differ with the unit size)."""
    per_input: dict[str, list[object]] = {}
    for name, chunk in chunks:  # type: ignore[misc]
        per_input.setdefault(name, []).append(chunk)
    return [
        (
            name,
            "".join(c.out for c in found),  # type: ignore[attr-defined]
            "".join(c.err for c in found),  # type: ignore[attr-defined]
            sum(c.records for c in found),  # type: ignore[attr-defined]
            sum(c.boards for c in found),  # type: ignore[attr-defined]
            [f for c in found for f in c.findings],  # type: ignore[attr-defined]
        )
        for name, found in per_input.items()
    ]


@needs_solver
def test_small_inputs_are_solved_together_and_big_ones_in_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbntool.tools.dd.jobs as jobs
    from pbntool.cli.dd import UNIT_CHARS
    from pbntool.run.tasks import DDTask

    calls: list[int] = []
    solve = jobs.analyse_batch

    def counted(deals: list[object]) -> object:
        calls.append(len(deals))
        return solve(deals)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs, "analyse_batch", counted)
    folder = _folder_of_games(tmp_path, (1, 1, 2, 1, 1))
    paths = (str(folder),)
    gathered = _batch_chunks(paths, DDTask(), UNIT_CHARS)
    assert calls == [6]  # five one- or two-board files, one DDS call
    calls.clear()
    assert _batch_chunks(paths, DDTask(), None) == gathered  # file by file: the same chunks
    assert calls == [1, 1, 2, 1, 1]
    calls.clear()
    _batch_chunks(paths, DDTask(), 600)  # units of about 600 characters: a game or two each
    assert len(calls) > 1 and sum(calls) == 6


def test_gathered_and_cut_units_read_as_the_whole_files(corpus_dir: Path) -> None:
    """The units of a one-process run with a small unit size (as ``dd``'s): the same chunks
    as the default run, and no slice read twice (its start state is known when it is sent).
    The files have ``#`` inheritance, which a slice started from a wrong guess would get
    wrong."""
    from pbntool.formats import split
    from pbntool.run.tasks import ValidateTask

    folder = corpus_dir / "ContractBridge__pbn-files" / "1996-10th_World_Bridge_Team_Olympiad"
    if not folder.is_dir():
        pytest.skip("corpus absent")
    paths = tuple(sorted(str(path) for path in folder.glob("*.PBN"))[:12])
    reruns: list[bool] = []
    check = split.Planned.check

    def counted(self: split.Planned, outcome: split.WorkOutcome) -> split.Work | None:
        again = check(self, outcome)
        reruns.append(again is not None)
        return again

    whole = _what_was_written(_batch_chunks(paths, ValidateTask(), None))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(split.Planned, "check", counted)
        for unit_chars in (300, 2000, 16 << 10):
            reruns.clear()
            cut = _batch_chunks(paths, ValidateTask(), unit_chars)
            assert _what_was_written(cut) == whole, unit_chars
            assert len(reruns) >= len(paths) and not any(reruns), unit_chars
