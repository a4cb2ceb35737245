"""``score --check``: what the files state against what their results give.

Checked: ``Score`` (SCO001, the Laws' duplicate score), ``ScoreMP``, ``ScoreIMP``,
``ScorePercentage`` (EVT001-003), every ScoreTable row (EVT004-008, EVT018),
TotalScoreTable rows (EVT009), the victory points and match scores of team matches
(EVT020: TotalVP, a USEBIO file's match scores), ``ScoreRubber`` and ``ScoreRubberHistory`` with the
vulnerability of rubber and Chicago deals (EVT010-013), and ``OptimumScore`` as far as no
double-dummy solver is needed (EVT014: a score no contract makes at the vulnerability, or
not the par of the board's own double-dummy table), and ``ParContract`` against the par of
that table (EVT021).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pbntool.diagnostics import EVT014, EVT017, EVT019, EVT021, Diagnostic
from pbntool.model import Contract, Seat, Side, Strain, Vulnerability
from pbntool.records import Record
from pbntool.rules import check_score
from pbntool.scoring import score_ns
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.par import ParResult, achievable_scores, outbid, par, par_score
from pbntool.scoring.vp import VpScale
from pbntool.tools.dd.tags import StatedContract, read_par_contract
from pbntool.tools.score.check_boards import VARIANTS, BoardCheck, CheckContext, check_board_group
from pbntool.tools.score.check_matches import match_items
from pbntool.tools.score.check_rubber import (
    check_history_vulnerability,
    check_rubber_sequence,
    rubber_kind,
    sequences,
)
from pbntool.tools.score.check_totals import check_total_tables
from pbntool.tools.score.compute import (
    EventOptions,
    event_methods,
    expected_results,
    group_spec,
    score_games,
)
from pbntool.tools.score.games import GameEntry, game_entry
from pbntool.tools.score.grouping import (
    BoardGroup,
    GroupBy,
    games_by_file,
    group_games,
    placed,
    rooms_pairing,
)
from pbntool.tools.score.precision import infer_precisions
from pbntool.tools.score.values import parse_side_number
from pbntool.tools.score.variants import (
    IMP_VARIANTS,
    MP_VARIANTS,
    Item,
    agrees,
    choose_variants,
    format_value,
)

__all__ = ["CheckOptions", "EventCheck", "FileSummary", "check_event"]

NOTE_CODES = frozenset({"EVT015", "EVT016", "EVT017", "EVT019"})
"""Codes that say how the check was done rather than that a value disagrees."""


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """How to check: a method that fixes the variant (None: the Scoring tag, else detected
    from the values), the grouping, and an absolute tolerance (None: the stated precision)."""

    spec: ScoringSpec | None = None
    group_by: GroupBy = GroupBy.AUTO
    tolerance: float | None = None
    vp: VpScale | None = None
    """The VP scale of the team matches (None: the WBF scale that explains the file)."""


@dataclass(slots=True)
class FileSummary:
    """How many stated values of a file were checked, and how many agree."""

    file: str
    checked: int = 0
    agreed: int = 0
    disagreements: Counter[str] = field(default_factory=Counter)
    conventions: list[str] = field(default_factory=list)
    """How the file was read where it could be read more than one way (the rooms' pairing)."""

    def text(self) -> str:
        """``file: 120 values checked, 118 agree, 2 disagree (EVT006 2)``."""
        disagree = self.checked - self.agreed
        detail = ", ".join(f"{code} {count}" for code, count in sorted(self.disagreements.items()))
        tail = f", {disagree} disagree ({detail})" if disagree else ""
        noun = "value" if self.checked == 1 else "values"
        how = "".join(f"; {convention}" for convention in self.conventions)
        return f"{self.file}: {self.checked} {noun} checked, {self.agreed} agree{tail}{how}"


@dataclass(frozen=True, slots=True)
class EventCheck:
    """Every finding, in file order, and a summary per file."""

    diagnostics: tuple[Diagnostic, ...]
    summaries: tuple[FileSummary, ...]


@dataclass(slots=True)
class _Tally:
    files: dict[str, FileSummary] = field(default_factory=dict)

    def count(self, file: str, agreed: bool, code: str | None = None) -> None:
        summary = self.files.setdefault(file, FileSummary(file))
        summary.checked += 1
        if agreed:
            summary.agreed += 1
        elif code is not None:
            summary.disagreements[code] += 1

    def add_file(self, file: str) -> None:
        self.files.setdefault(file, FileSummary(file))


def check_event(records: Iterable[Record], options: CheckOptions | None = None) -> EventCheck:
    """Check the stated scores of an event's records against the recomputed ones.

    Args:
        records: The records of every file of the event, in reading order.
        options: Method, grouping and tolerance.

    Returns:
        The findings (placed at the stated value) and a summary per file.
    """
    options = options or CheckOptions()
    tally = _Tally()
    diagnostics: list[Diagnostic] = []
    games: list[GameEntry] = []
    for record in records:
        tally.add_file(record.file)
        entry = game_entry(record)
        if entry is None or record.board is None:
            continue
        games.append(entry)
        diagnostics.extend(_check_score_tag(record, entry, tally))
        diagnostics.extend(_check_optimum(entry, tally))
        diagnostics.extend(_check_par_contract(entry, tally))
        finding, history_checked = check_history_vulnerability(entry)
        if history_checked:
            tally.count(entry.key.file, finding is None, "EVT012")
        if finding is not None:
            diagnostics.append(finding)
    diagnostics.extend(_check_boards(games, options, tally))
    diagnostics.extend(_check_rubbers(games, options, tally))
    scores = score_games(games, EventOptions(options.spec, options.group_by))
    totals, checked = check_total_tables(games, scores, options.tolerance)
    for file, agreed, code in checked:
        tally.count(file, agreed, code)
    diagnostics.extend(totals)
    diagnostics.extend(_check_matches(games, options, tally))
    _state_pairings(games, tally)
    diagnostics.sort(key=lambda d: (d.file or "", d.line or 0, d.column or 0))
    return EventCheck(tuple(diagnostics), tuple(tally.files.values()))


def _check_matches(
    games: Sequence[GameEntry], options: CheckOptions, tally: _Tally
) -> list[Diagnostic]:
    """EVT020: stated victory points and match IMPs against the matches (check_matches)."""
    items, variants = match_items(games, options.vp, options.group_by)
    if not items:
        return []
    chosen, notes = choose_variants(items, variants, options.tolerance)
    return [*notes, *_compare_items(items, chosen, options.tolerance, tally)]


def _state_pairings(games: Sequence[GameEntry], tally: _Tally) -> None:
    """Say how the rooms of each file's team matches were paired (when it states ScoreIMP)."""
    for file, members in games_by_file(games).items():
        if not any("ScoreIMP" in game.stated for game in members):
            continue
        pairing = rooms_pairing(members)
        if pairing is not None:
            tally.files.setdefault(file, FileSummary(file)).conventions.append(pairing)


def _check_score_tag(record: Record, game: GameEntry, tally: _Tally) -> list[Diagnostic]:
    """SCO001: the Score tag against the duplicate score (the Laws' check, counted here)."""
    board = record.board
    if board is None or board.score is None or game.score_ns is None:
        return []
    found = [record.locate(d) for d in check_score(board)]
    computable = game.contract is not None and (
        game.contract.is_passed_out or game.tricks is not None
    )
    if computable or found:
        tally.count(game.key.file, not found, "SCO001")
    return found


def _check_optimum(game: GameEntry, tally: _Tally) -> list[Diagnostic]:
    """EVT014: a par score that no contract scores at the board's vulnerability."""
    stated = game.stated.get("OptimumScore")
    if stated is None or game.vulnerability is None:
        return []
    number = parse_side_number(stated.text)
    if number is None or number.side is None or not number.value.is_integer():
        return []
    ns = int(number.value) if number.side is Side.NS else -int(number.value)
    if number.other is not None and number.other != -number.value:
        tally.count(game.key.file, False, "EVT014")
        detail = "gives the two sides values that do not cancel out"
        return [placed(EVT014.at(stated=f'"{stated.text}"', detail=detail), game, stated.place)]
    agreed = ns in achievable_scores(game.vulnerability)
    if agreed and game.double_dummy is not None and game.dealer is not None:
        source, table = game.double_dummy
        par = par_score(table, game.vulnerability, game.dealer)
        tally.count(game.key.file, ns == par, "EVT014")
        if ns == par:
            return []
        detail = f"is not the par of the board's {source}: par is {_side_form(par)}"
        return [placed(EVT014.at(stated=f'"{stated.text}"', detail=detail), game, stated.place)]
    tally.count(game.key.file, agreed, "EVT014")
    if agreed:
        return []
    vulnerable = {
        Vulnerability.NONE: "nobody",
        Vulnerability.NS: "North-South",
        Vulnerability.EW: "East-West",
        Vulnerability.ALL: "both sides",
    }[game.vulnerability]
    detail = f"is not a score any contract makes with {vulnerable} vulnerable"
    return [placed(EVT014.at(stated=f'"{stated.text}"', detail=detail), game, stated.place)]


def _check_par_contract(game: GameEntry, tally: _Tally) -> list[Diagnostic]:
    """EVT021: each stated par contract against the par of the board's own double-dummy
    table: it must score par there, with the result the table gives, and the opponents must
    have no higher contract that does better for them (DDS lists the lowest such level of
    each strain; a higher one that scores the same is par too)."""
    stated = game.stated.get("ParContract")
    if stated is None or game.double_dummy is None:
        return []
    if game.vulnerability is None or game.dealer is None:
        return []
    try:
        items = read_par_contract(stated.text)
    except ValueError as error:
        note = EVT019.at(name="ParContract", stated=f'"{stated.text}"', reason=str(error))
        return [placed(note, game, stated.place)]
    source, table = game.double_dummy
    result = par(table, game.vulnerability, game.dealer)
    found = []
    for item in items:
        why = _not_par(item, table, game.vulnerability, result)
        tally.count(game.key.file, why is None, "EVT021")
        if why is None:
            continue
        finding = EVT021.at(
            item=f'"{item.text}"',
            source=source,
            why=why,
            par=_side_form(result.score_ns),
            contracts=_contracts_text(result),
        )
        found.append(placed(finding, game, stated.place))
    return found


def _not_par(
    item: StatedContract,
    table: Mapping[tuple[Seat, Strain], int],
    vulnerability: Vulnerability,
    result: ParResult,
) -> str | None:
    """Why a stated contract is not par by the table (None when it is)."""
    if item.level == 0 or item.strain is None:
        return None if result.passed_out else "the board is not passed out"
    strain: Strain = item.strain
    seats = [Seat.from_letter(letter) for letter in item.declarers]
    seat = max(seats, key=lambda candidate: table[candidate, strain])
    tricks = table[seat, strain]
    score = score_ns(Contract(item.level, strain, item.doubling), seat, vulnerability, tricks)
    if score != result.score_ns:
        return f"it scores {_side_form(score)}"
    margin = tricks - item.level - 6
    if item.margin is not None and item.margin != margin:
        return f"the table gives {_margin(margin)}, not {_margin(item.margin)}"
    side = Side.NS if seat in (Seat.NORTH, Seat.SOUTH) else Side.EW
    if outbid(table, vulnerability, side, item.level, strain, score):
        return f"the opponents can outbid {item.level}{strain.letter} profitably"
    return None


def _margin(margin: int) -> str:
    return "=" if margin == 0 else f"{margin:+d}"


def _contracts_text(result: ParResult) -> str:
    if result.passed_out:
        return "pass it out"
    return ", ".join(str(contract) for contract in result.contracts)


# --- boards ----------------------------------------------------------------------------------


def _check_boards(
    games: Sequence[GameEntry], options: CheckOptions, tally: _Tally
) -> list[Diagnostic]:
    groups, grouping = group_games(games, options.group_by)
    ruter = ruter_files(games)
    methods = event_methods(games, options.spec)
    expected = expected_results(groups, methods)
    found = BoardCheck()
    for group in groups:
        spec = group_spec(group, methods)
        if spec is not None and spec.method in (Method.RUBBER, Method.CHICAGO):
            continue
        context = CheckContext(
            spec,
            _declared(group.games[0], options.spec, ruter),
            expected.get(group.event_key),
        )
        board = check_board_group(group, context)
        found.items.extend(board.items)
        found.diagnostics.extend(board.diagnostics)
        found.exact.extend(board.exact)
        found.notes.extend(board.notes)
    for file, agreed in found.exact:
        tally.count(file, agreed)
    for diagnostic in found.diagnostics:
        tally.files[diagnostic.file or ""].disagreements[diagnostic.code] += 1
    precision_notes: list[Diagnostic] = []
    if options.tolerance is None:
        _, precision_notes = infer_precisions(found.items)
    chosen, notes = choose_variants(found.items, VARIANTS, options.tolerance)
    notes.extend(_program_notes(groups, options.spec, ruter))
    diagnostics = [*grouping, *found.notes, *precision_notes, *notes, *found.diagnostics]
    diagnostics.extend(_compare_items(found.items, chosen, options.tolerance, tally))
    return diagnostics


RUTER_CROSS = "cross-IMP totals (Cross)"
"""Ruter (the Norwegian federation's program) writes cross-IMP totals under Scoring Cross2."""


def ruter_files(games: Iterable[GameEntry]) -> frozenset[str]:
    """The files whose Generator tag (in any game: it is often given once) names Ruter."""
    return frozenset(
        game.key.file for game in games if game.generator and "ruter" in game.generator.lower()
    )


def _ruter_cross(game: GameEntry, ruter: frozenset[str]) -> bool:
    """The game was written by Ruter with a Scoring tag that says Cross2."""
    if game.key.file not in ruter:
        return False
    words = {word.strip().lower() for word in (game.scoring or "").split(";")}
    return "cross2" in words


def _program_notes(
    groups: Sequence[BoardGroup], forced: ScoringSpec | None, ruter: frozenset[str]
) -> list[Diagnostic]:
    """EVT017 once per file whose program's convention overrides its Scoring tag."""
    if forced is not None or not ruter:
        return []
    notes: dict[str, Diagnostic] = {}
    for group in groups:
        for game in group.games:
            if game.key.file in notes or not _ruter_cross(game, ruter):
                continue
            variant = f"{RUTER_CROSS}, Ruter's convention for its Scoring Cross2"
            note = EVT017.at(what="the IMP values of this file", variant=variant)
            notes[game.key.file] = placed(note, game)
    return list(notes.values())


def _declared(game: GameEntry, forced: ScoringSpec | None, ruter: frozenset[str]) -> dict[str, str]:
    """The variants fixed by ``--method`` or by the modifiers of the game's Scoring tag (as
    the program that wrote it means them: see ``_ruter_cross``)."""
    spec = forced
    words: set[str] = set()
    if spec is None and _ruter_cross(game, ruter):
        return {"imp": RUTER_CROSS}
    if spec is None and game.scoring is not None:
        words = {word.strip().lower() for word in game.scoring.split(";")}
        spec = ScoringSpec.from_tag(game.scoring)
    if spec is None:
        return {}
    declared: dict[str, str] = {}
    forced_all = forced is not None
    if forced_all or words & {"butler", "butler-2", "cross", "cross1", "cross2"}:
        for variant in IMP_VARIANTS:
            if variant.spec.method is spec.method and (
                (spec.method is Method.BUTLER and variant.spec.discard == spec.discard)
                or (spec.method is Method.CROSS_IMP and variant.spec.cross is spec.cross)
            ):
                declared["imp"] = variant.label
    if forced_all or words & {"mp1", "mp2"}:
        for variant in MP_VARIANTS[:2]:
            if variant.spec.scale is spec.scale:
                declared["mp"] = variant.label
    return declared


def _compare_items(
    items: Sequence[Item],
    chosen: dict[tuple[str, str], str],
    tolerance: float | None,
    tally: _Tally,
) -> list[Diagnostic]:
    diagnostics = []
    for item in items:
        label = chosen[(item.game.key.file, item.kind)]
        computed = item.computed.get(label)
        if computed is None:
            continue
        agreed = agrees(item.stated, item.value, computed, tolerance, item.decimals)
        tally.count(item.game.key.file, agreed, item.code.id)
        if agreed:
            continue
        how = f" ({label}{_precision(item)})" if item.kind not in ("rank",) else ""
        sign = item.arguments.get("sign", 1)
        shown = str(item.arguments.get("prefix", "")) + format_value(
            computed * (-1 if sign == -1 else 1), item.stated
        )
        finding = item.code.at(
            stated=f'"{item.stated.text}"', computed=shown, how=how, column=_column(item.name)
        )
        diagnostics.append(placed(finding, item.game, item.stated.place))
    return diagnostics


def _precision(item: Item) -> str:
    """How precise the stated value was taken to be, when it is not the written precision."""
    if item.decimals is None:
        return ""
    unit = f"{10**-item.decimals:.{item.decimals}f}" if item.decimals else "1"
    return f"; stated to {unit}"


def _column(name: str) -> str:
    return name.removeprefix("ScoreTable ")


# --- rubbers ---------------------------------------------------------------------------------


def _check_rubbers(
    games: Sequence[GameEntry], options: CheckOptions, tally: _Tally
) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for sequence in sequences(games):
        kind = rubber_kind(sequence, options.spec)
        if kind is None:
            continue
        found = check_rubber_sequence(sequence, kind)
        for file, agreed in found.exact:
            tally.count(file, agreed)
        for diagnostic in found.diagnostics:
            if diagnostic.code not in NOTE_CODES:
                tally.files[diagnostic.file or ""].disagreements[diagnostic.code] += 1
        diagnostics.extend(found.diagnostics)
    return diagnostics


def _side_form(ns: int) -> str:
    """A North-South score as OptimumScore writes it: from the side that scores it."""
    return f"NS {ns}" if ns >= 0 else f"EW {-ns}"
