"""What a record determines about itself: the tag values ``pbntool fix`` fills in or corrects.

Pure functions over the model: no positions, no text layout, so the fixer of any format can
use them.  Each step looks at the board *as it will be written*: a step that changes the
contract changes what the Result and Score steps see, and a step left out by ``only`` leaves
its tag as the file has it, which is what the later steps then use (so a Score computed
under ``--only Score`` agrees with the Contract the file keeps).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pbntool.diagnostics import (
    FIX001,
    FIX002,
    FIX003,
    FIX004,
    FIX005,
    FIX006,
    FIX007,
    Code,
    Severity,
)
from pbntool.formats.pbn import values
from pbntool.model import (
    ALL_CARDS,
    Board,
    Contract,
    Hand,
    Result,
    Seat,
    Tag,
)
from pbntool.notation import CARDS_PER_HAND
from pbntool.rules import (
    AuctionOutcome,
    auction_outcome,
    check_auction,
)
from pbntool.scoring import board_dealer, board_vulnerability
from pbntool.tools.fix.evidence import (
    computed_score_ns,
    contract_for_play,
    declarer_for_play,
    played_result,
    score_of,
    stated_ns,
)
from pbntool.tools.fix.forms import ScoreForm, SideForm, format_side_score, read_side_form

__all__ = ["VALUE_TAGS", "ValueFix", "derive_fixes", "quoted"]

_FULL_DECK = sum(card.bit for card in ALL_CARDS)
_STRAIN_WORDS = ("clubs", "diamonds", "hearts", "spades", "notrump")
_DEFAULT_FORM = ScoreForm()


@dataclass(frozen=True, slots=True)
class ValueFix:
    """A tag value the record determines, different from what the file says.

    ``old`` is the value as the file gives it (None when the tag is absent); ``new`` replaces
    the part ``span`` of it (the whole value when ``span`` is None; ``(n, n)`` inserts).
    ``arguments`` fill the code's message.
    """

    code: Code
    tag: str
    old: str | None
    new: str
    arguments: dict[str, object] = field(default_factory=dict)
    span: tuple[int, int] | None = None

    @property
    def new_value(self) -> str:
        """The whole value after the change."""
        if self.span is None or self.old is None:
            return self.new
        start, end = self.span
        return self.old[:start] + self.new + self.old[end:]


def quoted(value: str | None) -> str:
    """A value for a message: ``"N"``, or ``absent`` for a tag that is not there."""
    return "absent" if value is None else f'"{value}"'


VALUE_TAGS = ("Dealer", "Vulnerable", "Deal", "Contract", "Declarer", "Result", "Score")
"""The tags ``derive_fixes`` fills in or corrects, in the order it decides them."""


def derive_fixes(
    board: Board,
    *,
    only: Iterable[str] = VALUE_TAGS,
    score_form: ScoreForm = _DEFAULT_FORM,
) -> list[ValueFix]:
    """Every tag value of ``VALUE_TAGS`` (restricted to ``only``) that the record determines
    and states otherwise or not at all.

    Args:
        board: The board as read.
        only: The tags that may change.
        score_form: How to write a Score where the board has none to copy the form of.

    Returns:
        The fixes, in the order of ``VALUE_TAGS``.
    """
    chosen = set(only)
    state = _State(board, score_form)
    fixes: list[ValueFix] = []
    for name, step in _STEPS:
        if name in chosen:
            fix = step(state)
            if fix is not None:
                fixes.append(fix)
                state.apply(fix)
    return fixes


@dataclass
class _State:
    """The board as it will be written, updated after each fix."""

    board: Board
    score_form: ScoreForm
    written: dict[str, str | None] = field(init=False)
    outcome: AuctionOutcome | None = field(init=False)
    auction_usable: bool = field(init=False)

    def __post_init__(self) -> None:
        self.written = {}
        for tag in self.board.tags:
            if tag.name not in self.written and not tag.duplicate:
                self.written[tag.name] = None if tag.written or tag.inherited else tag.value
        self.outcome, self.auction_usable = _usable_outcome(self.board)

    def value(self, name: str) -> str | None:
        """The value as written (None when absent or inherited with ``#``/``##``)."""
        return self.written.get(name)

    def editable(self, name: str) -> bool:
        """Absent, or present with a value written in this game (not inherited)."""
        return name not in self.written or self.written[name] is not None

    def unknown(self, name: str) -> bool:
        """Absent, or ``?`` or ``""``."""
        if name not in self.written:
            return True
        value = self.written[name]
        return value is not None and value.strip() in values.UNKNOWN_VALUES

    def apply(self, fix: ValueFix) -> None:
        new = fix.new_value
        self.written[fix.tag] = new
        self.board = _with_value(self.board, fix.tag, new)


def _with_value(board: Board, name: str, value: str) -> Board:
    """The board with one tag's value (and the typed field it decodes to) replaced."""
    tags = _replace_tag(board.tags, name, value)
    changes: dict[str, object] = {}
    if name == "Dealer":
        changes["dealer"] = values.decode_seat(value, "Dealer")[0]
    elif name == "Vulnerable":
        changes["vulnerability"] = values.decode_vulnerable(value)[0]
    elif name == "Deal":
        changes["deal"] = values.decode_deal(value)[0]
    elif name == "Contract":
        changes["contract"] = values.decode_contract(value)[0]
    elif name == "Declarer":
        changes["declarer"] = values.decode_seat(value.lstrip("^"), "Declarer")[0]
        changes["declarer_irregular"] = value.startswith("^")
    elif name == "Result":
        declarer = board.declarer
        tricks, irregular, _ = values.decode_result(value, declarer)
        changes["result"] = None if tricks is None else Result(tricks, irregular)
    elif name == "Score":
        changes["score"] = values.decode_score("Score", value)[0]
    return dataclasses.replace(board, tags=tags, **changes)  # type: ignore[arg-type]


def _replace_tag(tags: tuple[Tag, ...], name: str, value: str) -> tuple[Tag, ...]:
    for index, tag in enumerate(tags):
        if tag.name == name and not tag.duplicate:
            return (*tags[:index], tag._replace(value=value), *tags[index + 1 :])
    return (*tags, Tag(name, value))


def _usable_outcome(board: Board) -> tuple[AuctionOutcome | None, bool]:
    """The auction's outcome, and whether it may decide the contract and declarer: complete,
    every call readable, and no call the Laws forbid."""
    if board.auction is None:
        return None, False
    outcome = auction_outcome(board.auction)
    usable = (
        outcome.complete
        and outcome.contract is not None
        and outcome.checked == len(board.auction.calls)
        and not any(d.severity is Severity.ERROR for d in check_auction(board.auction))
    )
    return outcome, usable


# --- Dealer and Vulnerable ---------------------------------------------------------------------


def _fix_dealer(state: _State) -> ValueFix | None:
    if not (state.unknown("Dealer") and state.editable("Dealer")):
        return None
    board = state.board
    auction = board.auction
    if auction is not None and auction.calls:
        seat, reason = auction.first, f"the auction starts with {auction.first.name_title}"
    elif board.number is not None:
        seat = board_dealer(board.number)
        reason = f"board {board.number} of the 16-board cycle"
    else:
        return None
    return ValueFix(FIX001, "Dealer", state.value("Dealer"), seat.letter, {"reason": reason})


def _fix_vulnerable(state: _State) -> ValueFix | None:
    board = state.board
    if board.number is None or not (state.unknown("Vulnerable") and state.editable("Vulnerable")):
        return None
    if any(word in _scoring(board) for word in ("rubber", "chicago")):
        return None
    new = str(board_vulnerability(board.number))
    return ValueFix(FIX002, "Vulnerable", state.value("Vulnerable"), new, {"board": board.number})


def _scoring(board: Board) -> str:
    """The Scoring and Competition tags, lower case: rubber bridge and Chicago do not follow
    the 16-board cycle, and rubber bridge does not score by the duplicate table."""
    return " ".join(filter(None, (board.tag("Scoring"), board.tag("Competition")))).lower()


# --- The deal ----------------------------------------------------------------------------------


def _fix_deal(state: _State) -> ValueFix | None:
    """The fourth hand when three full hands are known: the 13 cards they do not hold."""
    board, written = state.board, state.value("Deal")
    deal = board.deal
    if deal is None or written is None or sum(hand is None for hand in deal.hands) != 1:
        return None
    known = [hand.mask for hand in deal.hands if hand is not None]
    union = known[0] | known[1] | known[2]
    if any(mask.bit_count() != CARDS_PER_HAND for mask in known) or union.bit_count() != 39:
        return None
    seat = next(seat for seat in Seat if deal.hands[seat] is None)
    hand = str(Hand.from_mask(_FULL_DECK & ~union))
    _, _, offsets = values.decode_deal(written)
    arguments: dict[str, object] = {"seat": seat.letter, "new": f'"{hand}"'}
    if seat in offsets:
        start = offsets[seat]
        if written[start : start + 2].rstrip() != "-":
            return None  # not a "-" but a hand we could not read: leave it to validate
        return ValueFix(
            FIX003, "Deal", written, hand, arguments | {"old": '"-"'}, (start, start + 1)
        )
    if len(offsets) != 3:
        return None
    end = len(written.rstrip())
    return ValueFix(FIX003, "Deal", written, " " + hand, arguments | {"old": "absent"}, (end, end))


# --- Contract and Declarer from the auction ----------------------------------------------------


def _fix_contract(state: _State) -> ValueFix | None:
    """The auction's contract where the Contract is missing, unknown or unreadable; where it
    contradicts the auction, only when the stated Score sides with the auction.

    Real files whose Contract contradicts the auction nearly always hold the auction of the
    other room or board (the Score and the play agree with the Contract), so the auction
    alone is no reason to overwrite a Contract.
    """
    outcome = state.outcome
    if not state.auction_usable or outcome is None or outcome.contract is None:
        return None
    if not state.editable("Contract"):
        return None
    derived = outcome.contract
    stated = state.board.contract
    declarer = state.board.declarer
    if declarer is not None and not derived.is_passed_out and declarer is not outcome.declarer:
        return None  # the stated Declarer is not the auction's: the auction is in doubt
    if not state.unknown("Contract") and stated is not None:
        if stated.level is None or _same_contract(stated, derived):
            return None  # agrees, or an end position (a denomination only) the auction cannot judge
        if not _score_prefers(state.board, (derived, outcome.declarer), (stated, declarer)):
            return None
        reason = "the auction ends in it, and the Score is its score"
        return ValueFix(
            FIX004, "Contract", state.value("Contract"), str(derived), {"reason": reason}
        )
    reason = "the auction ends in it"
    return ValueFix(FIX004, "Contract", state.value("Contract"), str(derived), {"reason": reason})


def _same_contract(one: Contract, other: Contract) -> bool:
    return (one.level, one.strain, one.doubling) == (other.level, other.strain, other.doubling)


def _fix_declarer(state: _State) -> ValueFix | None:
    """The auction's declarer where the Declarer is missing, unknown or unreadable; where it
    contradicts the auction, only when the opening lead or the Score sides with the auction.
    Empty on a passed-out board."""
    if not state.editable("Declarer"):
        return None
    written = state.value("Declarer")
    board = state.board
    if _passed_out(state):
        if written is not None and written.strip() == "":
            return None
        return ValueFix(FIX005, "Declarer", written, "", {"reason": "the board was passed out"})
    outcome = state.outcome
    if not state.auction_usable or outcome is None or outcome.contract is None:
        return None
    derived = outcome.declarer
    if derived is None:
        return None
    if board.contract is not None and not _same_contract(board.contract, outcome.contract):
        return None  # the Contract is not the auction's: neither is its declarer
    strain = outcome.contract.strain
    named = _STRAIN_WORDS[strain] if strain is not None else "the strain"
    reason = f"{derived.name_title} first named {named} for the declaring side"
    if not state.unknown("Declarer") and board.declarer is not None:
        if written is not None and written.strip().startswith("^"):
            return None  # declarer and dummy swapped on purpose (PBN ^)
        stated = board.declarer
        if stated is derived:
            return None
        contract = board.contract or outcome.contract
        led = board.play is not None and board.play.first is derived.lho is not stated.lho
        if not led and not _score_prefers(board, (contract, derived), (contract, stated)):
            return None
        witness = "the opening lead" if led else "the Score"
        reason += f", and {witness} agrees"
    return ValueFix(FIX005, "Declarer", written, derived.letter, {"reason": reason})


def _passed_out(state: _State) -> bool:
    """The board as it will be written was passed out: a Pass contract, or none stated and
    a passed-out auction."""
    contract = state.board.contract
    if contract is not None:
        return contract.is_passed_out
    outcome = state.outcome
    return (
        state.auction_usable
        and outcome is not None
        and outcome.contract is not None
        and outcome.contract.is_passed_out
    )


def _score_prefers(
    board: Board,
    new: tuple[Contract | None, Seat | None],
    old: tuple[Contract | None, Seat | None],
) -> bool:
    """True when the stated Score is the score of the ``new`` contract and declarer (with the
    stated Result) and not of the ``old`` ones: the Score witnesses the change."""
    result, vulnerability, score = board.result, board.vulnerability, board.score
    if result is None or vulnerability is None or score is None:
        return False
    new_score = score_of(new[0], new[1], vulnerability, result.tricks)
    old_score = score_of(old[0], old[1], vulnerability, result.tricks)
    stated_new = stated_ns(score, new[1])
    stated_old = stated_ns(score, old[1])
    return (
        new_score is not None
        and new_score == stated_new
        and (old_score is None or old_score != stated_old)
    )


# --- Result from the play ----------------------------------------------------------------------


def _fix_result(state: _State) -> ValueFix | None:
    """The tricks of a complete play, or of a claim with only the forced last trick left,
    where the Result is missing or unknown; where a complete play contradicts the Result,
    only when the stated Score is the score of the play's result (a play record with a card
    in the wrong column is more common than a Result typed wrong).  Empty when passed out."""
    if not state.editable("Result"):
        return None
    written = state.value("Result")
    board = state.board
    if _passed_out(state):
        if written is not None and written.strip() == "":
            return None
        return ValueFix(FIX006, "Result", written, "", {"reason": "the board was passed out"})
    stated = board.result
    if not state.unknown("Result") and (
        stated is None or stated.irregular or not _score_could_witness(board, stated.tricks)
    ):
        return None  # unreadable, agreed (^), or no Score that could witness a correction
    found = played_result(board)
    if found is None:
        return None
    tricks, reason, complete = found
    if not state.unknown("Result") and stated is not None:
        if stated.tricks == tricks or not complete:
            return None  # right, or a claim we do not second-guess
        if not _score_prefers_tricks(board, tricks, stated.tricks):
            return None
        reason += ", and the Score is its score"
    return ValueFix(FIX006, "Result", written, str(tricks), {"reason": reason})


def _score_could_witness(board: Board, stated: int) -> bool:
    """A stated Score that is not the score of the stated Result could be a witness for
    another one (checked before the play is analysed, which costs more)."""
    contract, declarer = contract_for_play(board), declarer_for_play(board)
    vulnerability, score = board.vulnerability, board.score
    if vulnerability is None or score is None:
        return False
    return score_of(contract, declarer, vulnerability, stated) != stated_ns(score, declarer)


def _score_prefers_tricks(board: Board, new: int, old: int) -> bool:
    contract, declarer = contract_for_play(board), declarer_for_play(board)
    vulnerability, score = board.vulnerability, board.score
    if vulnerability is None or score is None:
        return False
    stated = stated_ns(score, declarer)
    new_score = score_of(contract, declarer, vulnerability, new)
    old_score = score_of(contract, declarer, vulnerability, old)
    return new_score is not None and new_score == stated and old_score != stated


# --- Score -------------------------------------------------------------------------------------


def _fix_score(state: _State) -> ValueFix | None:
    board = state.board
    if not state.editable("Score") or "rubber" in _scoring(board):
        return None
    computed = computed_score_ns(board)
    if computed is None:
        return None
    ns, reason = computed
    declarer = declarer_for_play(board)
    written = state.value("Score")
    form: SideForm | None = None
    if not state.unknown("Score"):
        assert written is not None
        form = read_side_form(written)
        if form is None:
            return None  # a Score we cannot read: validate reports it
        if board.score is not None and stated_ns(board.score, declarer) == ns:
            return None
    if form is None:
        form = state.score_form.side_form(declarer)
    new = format_side_score(form, ns, -ns, declarer)
    if new is None:
        return None
    return ValueFix(FIX007, "Score", written, new, {"reason": reason})


_Step = Callable[[_State], ValueFix | None]
_STEPS: tuple[tuple[str, _Step], ...] = (
    ("Dealer", _fix_dealer),
    ("Vulnerable", _fix_vulnerable),
    ("Deal", _fix_deal),
    ("Contract", _fix_contract),
    ("Declarer", _fix_declarer),
    ("Result", _fix_result),
    ("Score", _fix_score),
)
assert tuple(name for name, _ in _STEPS) == VALUE_TAGS
