"""Diagnostics: what is wrong, where, and how bad.

Every problem the tool can report has a stable ``Code`` declared once in ``CATALOGUE``
(never renumbered, never reused; ``docs/diagnostics.md`` is generated from it).  Checks
build a ``Diagnostic`` with ``CODE.at(path, **arguments)``; ``path`` names the part of the
board it is about (``("tag", "Deal")``, ``("call", 5)``, ``("card", trick, seat)``) and
the reader's ``SourceMap`` turns it into a line and column.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

__all__ = [
    "CATALOGUE",
    "Code",
    "Diagnostic",
    "DiagnosticError",
    "Path",
    "Severity",
]

Path = tuple[Any, ...]
"""Where in a board a diagnostic points: ``("tag", name[, offset])``, ``("call", i)``,
``("card", trick, seat)``, ``("deal", seat)``, ``("note", section, index)``,
``("table", name)``, ``("section", name)``, or ``("offset", n)`` for a reader finding."""


class Severity(IntEnum):
    """How bad a finding is; comparisons follow severity."""

    INFO = 10
    WARNING = 20
    ERROR = 30

    @property
    def label(self) -> str:
        """``info``, ``warning`` or ``error``."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, with its place in the input when it came from a file."""

    code: str
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    board: int | None = None
    path: Path | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        """``file:line:col: severity CODE message`` (clickable in editors and terminals)."""
        place = ":".join(
            str(part) for part in (self.file or "-", self.line, self.column) if part is not None
        )
        return f"{place}: {self.severity.label} {self.code} {self.message}"

    def to_dict(self) -> dict[str, object]:
        """The JSON form; its keys are part of the public interface."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "board": self.board,
            "code": self.code,
            "severity": self.severity.label,
            "message": self.message,
        }

    def to_json(self) -> str:
        """One JSON object on one line."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


class DiagnosticError(ValueError):
    """Raised by the strict entry points (``loads``); carries every error found, not just one."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        more = f" (and {len(self.diagnostics) - 1} more)" if len(self.diagnostics) > 1 else ""
        super().__init__(f"{first}{more}" if first else "invalid input")


@dataclass(frozen=True, slots=True)
class Code:
    """A kind of finding: its stable identifier, default severity and message template."""

    id: str
    severity: Severity
    template: str
    summary: str

    def at(self, path: Path | None = None, **arguments: object) -> Diagnostic:
        """A diagnostic of this code; file, line and column are filled in by the reader."""
        return Diagnostic(
            code=self.id,
            severity=self.severity,
            message=self.template.format(**arguments),
            path=path,
        )


CATALOGUE: dict[str, Code] = {}


def _code(identifier: str, severity: Severity, template: str, summary: str) -> Code:
    code = Code(identifier, severity, template, summary)
    assert identifier not in CATALOGUE, identifier
    CATALOGUE[identifier] = code
    return code


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# --- SRC: reading bytes -----------------------------------------------------------------
SRC001 = _code(
    "SRC001",
    INFO,
    "not valid UTF-8; decoded as {encoding}",
    "The file is not UTF-8 and was decoded as Windows-1252 (or Latin-1).",
)
SRC002 = _code(
    "SRC002",
    INFO,
    "decoded as {encoding} (byte-order mark or byte pattern)",
    "The file is UTF-16 or starts with a UTF-8 byte-order mark.",
)
SRC003 = _code(
    "SRC003",
    ERROR,
    "cannot read input: {reason}",
    "The file or directory could not be opened or read.",
)
SRC004 = _code(
    "SRC004",
    WARNING,
    "line is {length} characters long; PBN allows 255",
    "A line longer than the standard's limit of 255 characters.",
)
SRC005 = _code(
    "SRC005",
    WARNING,
    "control character {char} in the text",
    "A control character other than tab, vertical tab and line ends.",
)

SRC006 = _code(
    "SRC006",
    INFO,
    "{count} more {code} findings in this game are not listed",
    "A game with more than 50 findings of one code lists the first 50 and counts the rest.",
)

SRC007 = _code(
    "SRC007",
    ERROR,
    "not a bridge record: neither PBN, LIN, JSON nor XML",
    "The content of the input matches none of the formats pbntool reads (e.g. a readme "
    "named on the command line); the input is skipped.",
)

# --- PBN0xx: PBN syntax -------------------------------------------------------------------
PBN001 = _code(
    "PBN001",
    ERROR,
    'unterminated string in tag pair {text}; expected a closing "',
    "A tag value's string has no closing quote on its line.",
)
PBN002 = _code(
    "PBN002",
    ERROR,
    "malformed tag pair {text}: {detail}",
    'A `[` that does not start a well-formed `[Name "value"]` tag pair.',
)
PBN003 = _code(
    "PBN003",
    ERROR,
    "unterminated brace comment; expected }} before the end of {where}",
    "A `{` commentary that is never closed; the text after it is read as PBN.",
)
PBN004 = _code(
    "PBN004",
    WARNING,
    "text outside any tag or section: {text}",
    "Stray text (e.g. a generator's statistics); it is kept as commentary.",
)
PBN005 = _code(
    "PBN005",
    WARNING,
    "tag name {name} does not start with an upper-case letter",
    "PBN tag names start with A-Z.",
)
PBN006 = _code(
    "PBN006",
    WARNING,
    "duplicate tag {name}; the first value is kept",
    "A tag that already occurred in the game (only Note may repeat).",
)
PBN007 = _code(
    "PBN007",
    INFO,
    "tag {name} is not defined by PBN 2.1; kept as written",
    "An unknown tag name (vendor extensions such as DoubleDummyTricks are known).",
)
PBN008 = _code(
    "PBN008", WARNING, "tab inside the value of {name}", "Tabs are not allowed inside strings."
)
PBN009 = _code(
    "PBN009",
    WARNING,
    "commentary inside the data of {name}; kept with the table",
    "Comments between the elements of a table are not allowed.",
)

# --- PBN1xx: tag values and sections --------------------------------------------------------
PBN101 = _code(
    "PBN101",
    ERROR,
    "bad Deal {value}: {detail}",
    "The Deal value is not `<seat>:<hand> <hand> <hand> <hand>`.",
)
PBN102 = _code(
    "PBN102",
    WARNING,
    "Deal hand {hand} written with suit letters",
    "A real-world deviation: suit letters inside Deal hands (`SA7.H864...`).",
)
PBN103 = _code(
    "PBN103", ERROR, "bad Dealer {value}; expected N, E, S or W", "The Dealer value is not a seat."
)
PBN104 = _code(
    "PBN104",
    ERROR,
    "bad Vulnerable {value}; expected None, NS, EW or All",
    "The Vulnerable value is not one of the standard words or aliases.",
)
PBN105 = _code(
    "PBN105",
    WARNING,
    "Board {value} is not a positive integer",
    "A board label such as `4-1`; kept, but board-number checks are skipped.",
)
PBN106 = _code(
    "PBN106",
    ERROR,
    "bad Contract {value}; expected Pass or e.g. 4S, 3NTX, 6CXX",
    "The Contract value cannot be read.",
)
PBN107 = _code(
    "PBN107",
    WARNING,
    "{text} written with N for notrump; NT expected",
    "A real-world deviation: `1N`/`3N` for notrump calls and contracts.",
)
PBN108 = _code(
    "PBN108",
    ERROR,
    "bad Declarer {value}; expected N, E, S, W or ^ and a seat",
    "The Declarer value is not a seat.",
)
PBN109 = _code(
    "PBN109",
    ERROR,
    "bad Result {value}; expected a number of tricks 0-13",
    "The Result value cannot be read.",
)
PBN110 = _code(
    "PBN110",
    ERROR,
    "bad {name} {value}; expected e.g. 420, NS 420 or EW -50",
    "A Score (or other side-score tag) that cannot be read.",
)
PBN111 = _code(
    "PBN111",
    WARNING,
    "plus sign in {name} {value}",
    'A real-world deviation: `Score "+1430"`, `OptimumScore "NS +90"`.',
)
PBN112 = _code(
    "PBN112",
    WARNING,
    "{name} {value} is not in the form YYYY.MM.DD",
    "A date in another form (e.g. `2021-04-03 05:06`).",
)
PBN113 = _code(
    "PBN113",
    WARNING,
    "{name} may not be inherited with {value}; {action}",
    "`#`/`##` on Dealer, Vulnerable, Deal, Declarer, Contract, Auction, Play or Note.",
)
PBN114 = _code(
    "PBN114",
    WARNING,
    '{name} "#" but no earlier game gives a value',
    "Inheritance with nothing to inherit from; the value is empty.",
)
PBN115 = _code(
    "PBN115",
    WARNING,
    "unrecognised call {token}; kept as text, the auction is not checked beyond it",
    "Free text or an unknown token in the auction (a real-world deviation).",
)
PBN116 = _code(
    "PBN116",
    ERROR,
    "unrecognised card {token}; expected e.g. SA, HT, D2 or -",
    "A token in the play section that is not a card.",
)
PBN117 = _code(
    "PBN117",
    ERROR,
    "{token} before any {what}",
    "A suffix, note reference or NAG at the start of a section, with nothing to annotate.",
)
PBN118 = _code(
    "PBN118",
    WARNING,
    "second {what} {token} on one {item}",
    "Two suffixes or two note references on the same call or card.",
)
PBN119 = _code(
    "PBN119",
    WARNING,
    "NAG {token} is not defined for a {item}",
    "A NAG outside the ranges for calls ($1-$6, $13, $20-$93) or cards ($7-$12, $14, $200-$238).",
)
PBN120 = _code(
    "PBN120",
    ERROR,
    'bad Note {value}; expected "<1-32>:<text>"',
    "A Note tag without an index 1-32 and a colon.",
)
PBN121 = _code(
    "PBN121",
    WARNING,
    "note reference ={index}= has no Note",
    "A call or card refers to a note that the section does not give.",
)
PBN122 = _code(
    "PBN122", WARNING, "Note {index} is never referenced", "A Note that no call or card refers to."
)
PBN123 = _code(
    "PBN123",
    WARNING,
    "Auction starts at {first} with {count} placeholder(s) but the dealer is {dealer}",
    'The `-` placeholders do not lead up to the dealer (verifier: "Bad side").',
)
PBN124 = _code(
    "PBN124",
    WARNING,
    "{section} section without {needed} before it",
    "Auction needs Dealer; Play needs Deal, Contract and Declarer, in the file before it.",
)
PBN125 = _code(
    "PBN125",
    ERROR,
    "{token} after the end of the {section} section",
    "Calls or cards after `*` or `+`.",
)
PBN126 = _code(
    "PBN126",
    ERROR,
    "bad table header {value}: {detail}",
    "A table column header that is not `[+|-]Name[\\width[L|R]]` separated by `;`.",
)
PBN127 = _code(
    "PBN127",
    ERROR,
    "{name} has {count} elements, not a multiple of its {columns} columns",
    "Table data that does not fill whole rows.",
)
PBN128 = _code(
    "PBN128",
    ERROR,
    "bad {name} {value}; expected N, E, S or W",
    "The Auction or Play tag value is not a seat.",
)
PBN129 = _code(
    "PBN129",
    WARNING,
    "Note {index} is given in the {found} section but referenced from the {used}",
    "A real-world deviation: auction notes written after the play.",
)
PBN130 = _code(
    "PBN130",
    WARNING,
    "{name} value contains an encoded table (\\n or \\t)",
    "A real-world deviation: a whole table inside one tag value.",
)
PBN131 = _code(
    "PBN131",
    INFO,
    "Play section with no cards",
    '`[Play "W"]` followed by nothing or only `*` (a real-world deviation).',
)
PBN132 = _code(
    "PBN132",
    WARNING,
    'Deal "#" (PBN 0.8): deal taken from the previous game',
    'PBN 0.8\'s `Deal "#"`, forbidden since 1.0.',
)

PBN133 = _code(
    "PBN133",
    WARNING,
    "bad {name} {value}; expected {expected}",
    "A supplemental tag whose value breaks the format the standard gives it "
    "(Round, Room, Time, TimeCall, ScorePercentage, Scoring, Hidden, ...).",
)
PBN134 = _code(
    "PBN134",
    INFO,
    "{name} {value} is not among the values PBN names ({known})",
    "An open-ended tag (Scoring, Mode, Competition, Termination, Table, WestType, ...) with a "
    "value the standard does not list; kept as written.",
)
PBN135 = _code(
    "PBN135",
    ERROR,
    "Note {index} is given twice in the {section} section",
    "Note indices must be unique within the auction and within the play section.",
)
PBN136 = _code(
    "PBN136",
    WARNING,
    "{token} repeats the annotation already given by a suffix on this {item}",
    'A suffix and its equivalent NAG on the same call or card (the verifier\'s "Double nag").',
)

PBN137 = _code(
    "PBN137",
    WARNING,
    "second {name} tag after the {section}: read as a new game (no blank line before it?)",
    "Two games with no semi-empty line between them; the second is read as a game of its own.",
)

# --- EXP: export-format rules, checked when the file says `% EXPORT` ------------------------
EXP001 = _code(
    "EXP001",
    WARNING,
    "% EXPORT file: {detail}",
    "A deviation from the PBN export format in a file that declares it.",
)

# --- HND: the deal ----------------------------------------------------------------------
HND001 = _code(
    "HND001",
    ERROR,
    "card {card} appears more than once in the deal",
    "A card in two hands, or twice in one hand.",
)
HND002 = _code(
    "HND002",
    ERROR,
    "{seat} hand has {count} cards; 13 expected",
    "A hand that does not hold 13 cards while all four hands are given.",
)
HND003 = _code(
    "HND003",
    ERROR,
    "known hands hold different numbers of cards ({counts})",
    "In a partial deal or end position every known hand must hold the same number.",
)

# --- AUC: the auction ---------------------------------------------------------------------
AUC001 = _code(
    "AUC001",
    ERROR,
    "insufficient bid {call} after {previous}",
    "A bid not higher than the previous bid (without `^I`).",
)
AUC002 = _code(
    "AUC002",
    ERROR,
    "double not allowed here: {reason}",
    "X only of an opponent's last bid that is not yet doubled.",
)
AUC003 = _code(
    "AUC003",
    ERROR,
    "redouble not allowed here: {reason}",
    "XX only of an opponent's double of your side's bid, not yet redoubled.",
)
AUC004 = _code(
    "AUC004",
    ERROR,
    "call {call} after the auction ended",
    "Calls after three passes following a bid, or after four initial passes.",
)
AUC005 = _code(
    "AUC005",
    WARNING,
    "auction stops after {count} call(s) without ending and without *",
    "An incomplete auction that does not say it is incomplete.",
)
AUC006 = _code(
    "AUC006",
    WARNING,
    "^I on the sufficient bid {call}",
    "The insufficient-bid mark on a bid that was sufficient.",
)

# --- PLY: the play ------------------------------------------------------------------------
PLY001 = _code(
    "PLY001",
    ERROR,
    "{seat} plays {card}, which is not in {seat_poss} hand{holder}",
    "A card that the player does not hold.",
)
PLY002 = _code(
    "PLY002",
    ERROR,
    "{card} played a second time (first in trick {first})",
    "The same card played twice.",
)
PLY003 = _code(
    "PLY003",
    ERROR,
    "revoke: {seat} plays {card} on a {led} lead while holding {held}",
    "Not following suit while able (without `^R`).",
)
PLY004 = _code(
    "PLY004",
    ERROR,
    "opening lead by {seat}; declarer {declarer}'s left-hand opponent is {lho}",
    "The Play section's first card is not led by declarer's LHO (without `^L`).",
)
PLY005 = _code("PLY005", ERROR, "{card} played after the play ended", "Cards after the 13th trick.")
PLY006 = _code(
    "PLY006",
    WARNING,
    "play not checked: {reason}",
    "A play record without the contract, declarer or deal needed to check it.",
)
PLY007 = _code(
    "PLY007",
    WARNING,
    "^R on {card}, which {seat} played legally",
    "The revoke mark on a card that did not revoke.",
)
PLY008 = _code(
    "PLY008",
    WARNING,
    "^L on {card}, but {seat} was the rightful leader",
    "The lead-out-of-turn mark on a lead in turn.",
)

# --- CON: stated contract, declarer and result against the auction and play ------------------
CON001 = _code(
    "CON001",
    ERROR,
    "Contract {stated} contradicts the auction, which ends in {derived}",
    "The stated contract is not the auction's final contract.",
)
CON002 = _code(
    "CON002",
    ERROR,
    "Declarer {stated} contradicts the auction: {derived} first named {strain}",
    "The stated declarer is not the auction's declarer.",
)
CON003 = _code(
    "CON003",
    ERROR,
    "Result {value} is impossible; declarer takes 0-13 tricks",
    "A result outside 0..13.",
)
CON004 = _code(
    "CON004",
    ERROR,
    "Result {stated} contradicts the play, in which declarer took {derived} tricks",
    "The stated result differs from the tricks counted from a complete play.",
)
CON005 = _code(
    "CON005",
    ERROR,
    "Result {stated} after a claim is impossible: declarer had won {won} of {played} tricks, "
    "so {low}-{high} is possible",
    "A claim that gives more tricks than remain (or takes away tricks already won).",
)
CON006 = _code(
    "CON006",
    WARNING,
    "passed-out board with {name} {value}",
    "A passed-out board should have an empty Declarer and Result.",
)
CON007 = _code(
    "CON007",
    WARNING,
    "Result {stated} but the {played} tricks played so far gave declarer {won}",
    "A partial play without `*` whose Result is not the tricks won so far.",
)

CON008 = _code(
    "CON008",
    WARNING,
    "Declarer ^{seat} marks a declarer/dummy swap, but {seat} is the auction's declarer",
    "The `^` swap mark on the seat that is declarer anyway.",
)

# --- SCO: stated scores -------------------------------------------------------------------
SCO001 = _code(
    "SCO001",
    ERROR,
    "Score {stated} contradicts {contract} by {declarer} with {tricks} tricks{vul}, "
    "which scores {computed}",
    "The stated score differs from the duplicate score computed from the record.",
)
SCO002 = _code(
    "SCO002",
    WARNING,
    "{name} {value}: the NS and EW values do not cancel out",
    "A side-score tag giving both sides with inconsistent values.",
)

# --- BRD: board conventions and completeness -------------------------------------------------
BRD001 = _code(
    "BRD001",
    WARNING,
    "Dealer {stated} but board {board} is dealt by {expected}",
    "The dealer differs from the standard 16-board cycle.",
)
BRD002 = _code(
    "BRD002",
    WARNING,
    "Vulnerable {stated} but board {board} has {expected}",
    "The vulnerability differs from the standard 16-board cycle.",
)
BRD003 = _code(
    "BRD003",
    WARNING,
    "missing mandatory tag(s): {names}",
    "One or more of the 15 tags of the mandatory tag set are absent.",
)

# --- DDA: double-dummy annotations (pbntool dd --check / --fill) ------------------------------
DDA001 = _code(
    "DDA001",
    ERROR,
    "DoubleDummyTricks {value} disagrees with double dummy: {cells}",
    "A digit of DoubleDummyTricks is not the tricks the solver finds for that declarer and strain.",
)
DDA002 = _code(
    "DDA002",
    ERROR,
    "OptimumResultTable gives {seat} {strain} {stated} tricks; double dummy gives {computed}",
    "A row of OptimumResultTable disagrees with the solver (reported at the row).",
)
DDA003 = _code(
    "DDA003",
    ERROR,
    'OptimumScore "{value}" is not the par score: par is {par} ({contracts})',
    "The stated par score differs from the par the solver computes.",
)
DDA004 = _code(
    "DDA004",
    ERROR,
    "ParContract {item} is not par: double dummy it scores {score} for NS; par is {par} "
    "({contracts})",
    "A stated par contract does not score the par score when played double dummy.",
)
DDA005 = _code(
    "DDA005",
    WARNING,
    "{name} {value} cannot be checked: {reason}",
    "A double-dummy tag whose value cannot be read, so it was not checked.",
)
DDA006 = _code(
    "DDA006",
    WARNING,
    "board not analysed: {reason}",
    "The board has no full deal of 52 different cards (or the solver failed on it).",
)
DDA007 = _code(
    "DDA007",
    INFO,
    "{names} not {done}: par needs the {missing}",
    "Par depends on the vulnerability and the dealer; neither the board nor its number gives them.",
)
DDA008 = _code(
    "DDA008",
    WARNING,
    "--fill edits PBN files only; this {form} input is left unchanged",
    "dd --fill was given an input that is not PBN.",
)

# --- INT: our own failures ----------------------------------------------------------------
INT001 = _code(
    "INT001",
    ERROR,
    "internal error, {skipped} was skipped: {error}",
    "A bug in pbntool; please report it with the input that caused it.",
)
