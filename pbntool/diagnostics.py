"""Diagnostics: what is wrong, where, and how bad.

Every problem the tool can report has a stable ``Code`` declared once in ``CATALOGUE``
(never renumbered, never reused; ``docs/diagnostics.md`` is generated from it).  Checks
build a ``Diagnostic`` with ``CODE.at(path, **arguments)``; ``path`` names the part of the
board it is about (``("tag", "Deal")``, ``("call", 5)``, ``("card", trick, seat)``) and
the reader's ``SourceMap`` turns it into a line and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from pbntool.model import pickle_by_fields

__all__ = [
    "CATALOGUE",
    "OUTPUT_CODES",
    "UNREAD_CODES",
    "Code",
    "Diagnostic",
    "DiagnosticError",
    "Path",
    "Severity",
    "is_unreadable",
    "printable",
]

Path = tuple[Any, ...]
"""Where in a board a diagnostic points: ``("tag", name[, offset])`` (the tag's value,
``offset`` characters into it), ``("call", i)``,
``("card", trick, seat)``, ``("deal", seat)``, ``("note", section, index)``,
``("table", name)``, ``("cell", table, index)`` (the index-th element of a table's data),
``("section", name)`` (the ``[`` of the tag that opens it), or ``("offset", n)`` for a
reader finding."""


# Every control character but tab, DEL, the C1 controls, and the Unicode line and paragraph
# separators: what could end a line of text output (or move the cursor) in a terminal.
_CONTROLS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def printable(text: str) -> str:
    """``text`` for one line of text output: control characters written as escapes (``\\n``,
    ``\\x1b``, ``\\u2028``), so a file name or a value cannot forge a line or a finding."""
    if _CONTROLS.search(text) is None:
        return text
    return _CONTROLS.sub(lambda m: _NAMED.get(m.group()) or _escape(m.group()), text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


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
        """``file:line:col: severity CODE [board N: ]message`` (clickable in editors and
        terminals; the board number, when the finding is about a board, so that a reader
        knows which deal to look at without counting)."""
        place = ":".join(
            str(part) for part in (self.file or "-", self.line, self.column) if part is not None
        )
        board = f"board {self.board}: " if self.board is not None else ""
        return printable(f"{place}: {self.severity.label} {self.code} {board}{self.message}")

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


UNREAD_CODES = frozenset(
    {"SRC003", "INT001", "ARC001", "ARC002", "ARC003", "ARC005", "ARC006", "BWS001"}
)
"""Codes that, at no line, mean an input (or the rest of one) could not be read: exit 2."""
OUTPUT_CODES = frozenset({"ARC007"})
"""Codes that mean an output was not written: exit 2."""


def is_unreadable(diagnostic: Diagnostic) -> bool:
    """Whether the diagnostic means data was not read (or not written): exit code 2."""
    if diagnostic.code in OUTPUT_CODES:
        return True
    return diagnostic.code in UNREAD_CODES and diagnostic.line in (None, 0)


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
    "not valid UTF-8; decoded as {encoding} (pbntool fix keeps the encoding; "
    "convert --to pbn writes UTF-8)",
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
    "not a bridge record: its content matches none of the formats pbntool reads (the --from "
    "choices in `pbntool validate --help`)",
    "The content of the input matches none of the formats pbntool reads (e.g. a readme "
    "named on the command line); the input is skipped.",
)

SRC008 = _code(
    "SRC008",
    ERROR,
    "not a {form} file: {reason}; the input is skipped",
    "The input is named like a bridge file (.pbn, .lin) but its content is not one: binary "
    "data, an archive or document (a renamed .docx), or text with no tag pair or LIN pair "
    "in its first 64 KiB.",
)

SRC009 = _code(
    "SRC009",
    ERROR,
    "{what} larger than the limit of {limit} characters (--max-game-size); it is skipped "
    "and reading goes on after it",
    "A game (PBN: the text between two blank lines) or a table (LIN: the pairs of one board) "
    "over the size limit, 1 MiB by default: real ones, even with a big score table, are far "
    "smaller, and parsing a huge one would take memory in proportion.  Adjustable with "
    "``--max-game-size``.",
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
    "plus sign in {name} {value}: the standard writes none (the value is read as if "
    "without it; pbntool fix keeps the file's form: --ignore PBN111 to hide)",
    'A real-world deviation: `Score "+1430"`, `OptimumScore "NS +90"`.',
)
PBN112 = _code(
    "PBN112",
    WARNING,
    "{name} {value} is not in the form YYYY.MM.DD: correct it by hand (? for an unknown "
    "digit, as in 1995.??.??)",
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
    "A NAG outside the ranges for calls ($1-$6, $13, $20-$93, and $15: an alert, as LIN "
    "converters write it) or cards ($7-$12, $14, $200-$238).",
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
    "Play section with no cards: the play was not recorded (nothing to fix; --ignore PBN131 "
    "to hide)",
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

PBN138 = _code(
    "PBN138",
    WARNING,
    "comment not closed before line {line}, which starts a game; read as ending there",
    "A `{` comment whose `}` comes only after a line that starts a game (`[Event`, `[Board`, "
    "`[Deal`): usually a comment closed by the wrong bracket, as in `{par 7NT N]`.  Read as "
    "ending before that line, so the games after it are not swallowed.",
)

PBN139 = _code(
    "PBN139",
    WARNING,
    "empty Play tag with no cards: read as no play",
    '`[Play ""]` with no card after it, which real files write for a board not played '
    "(§15.2: warn, don't fail); with cards after it, the seat is needed (PBN128).",
)

PBN140 = _code(
    "PBN140",
    WARNING,
    "{token} in the auction read as {reading}",
    "A bidding program's spelling (a real-world deviation): `P` for Pass, or a `*` glued to a "
    "call (`4N*`), which marks an alert there, not the end of the auction.",
)
PBN141 = _code(
    "PBN141",
    WARNING,
    "irregularity mark {token} with no {what} after it to mark; dropped",
    "`^I` (insufficient bid), `^R` (revoke) or `^L` (lead out of turn) marks the call or card "
    "that follows it; here the section ends, or another mark comes, first.",
)

# --- EXP: export-format rules, checked when the file says `% EXPORT` ------------------------
EXP001 = _code(
    "EXP001",
    WARNING,
    "% EXPORT file: {detail} (pbntool convert --to pbn rewrites the file in export format)",
    "A deviation from the PBN export format in a file that declares it.",
)

# --- HND: the deal ----------------------------------------------------------------------
HND001 = _code(
    "HND001",
    ERROR,
    "card {card} appears more than once in the deal, so another card is missing: if one hand "
    "is wrong, write it as - and pbntool fix fills it in from the other three",
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
    "auction stops after {count} call(s) without ending and without *: end an auction not "
    "recorded (or cut short) with *",
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
    "{seat} plays {card}, which is not in {seat_poss} hand{holder}{later}",
    "A card that the player does not hold (once per play: later such cards are counted in "
    "the message).",
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
    "Dealer {stated} but board {board} is dealt by {expected}: check the Board and Dealer "
    "tags (pbntool fix keeps a stated Dealer; --ignore BRD001 if the event has its own cycle)",
    "The dealer differs from the standard 16-board cycle.",
)
BRD002 = _code(
    "BRD002",
    WARNING,
    "Vulnerable {stated} but board {board} has {expected}: check the Board and Vulnerable "
    "tags (pbntool fix keeps a stated Vulnerable; --ignore BRD002 if the event has its own "
    "cycle)",
    "The vulnerability differs from the standard 16-board cycle.",
)
BRD003 = _code(
    "BRD003",
    WARNING,
    "missing mandatory tag(s): {names}{advice}",
    "One or more of the 15 tags of the mandatory tag set are absent.",
)

# --- LIN0xx: LIN syntax -------------------------------------------------------------------
LIN001 = _code(
    "LIN001",
    WARNING,
    "text that is not a LIN pair: {text}; reading goes on at the next pair",
    "Text where a `tag|value|` pair should be (often a pipe missing earlier); it is kept "
    "as commentary.",
)
LIN002 = _code(
    "LIN002",
    WARNING,
    "stray pipe(s) {text} where a tag should be",
    "Doubled pipes (`||mb||`) or a pipe with no tag before it.",
)
LIN003 = _code(
    "LIN003",
    WARNING,
    "the last pair {tag}|{value} has no closing pipe; the value is read anyway",
    "The input ends inside a pair: its closing `|` is missing.",
)
LIN004 = _code(
    "LIN004",
    WARNING,
    "{tag} carries no data, but has the value {value}: is a pipe missing?",
    "A marker command (`st`, `rh`, `pg`) with a value: usually a sign that a pipe was lost "
    "and the pairs that follow are out of phase.",
)
LIN005 = _code(
    "LIN005",
    ERROR,
    "the link points at a remote file ({url}); download it and read the file",
    "A handviewer link with `linurl=`: pbntool never fetches anything from the network.",
)
LIN006 = _code(
    "LIN006",
    INFO,
    "the link's LIN was percent-encoded twice; decoded twice",
    "After one decoding pass the value still held `%7C` and no `|`.",
)
LIN007 = _code(
    "LIN007",
    INFO,
    "unknown command {tag}|{value}| kept as it is",
    "A LIN command pbntool does not know; it is kept (and written back) at its place.",
)
LIN008 = _code(
    "LIN008",
    WARNING,
    "undo command up|{value}| kept but not applied: the play may not be the final one",
    "A teaching-file `up` (undo) command; the cards stay as recorded.",
)
LIN009 = _code(
    "LIN009",
    ERROR,
    "no LIN found: {detail}",
    "A handviewer link whose `lin` parameter holds no LIN pairs.",
)

# --- LIN1xx: LIN values -----------------------------------------------------------------------
LIN101 = _code(
    "LIN101",
    ERROR,
    "bad md value: {detail}",
    "The deal is not a dealer digit and up to four hands S, W, N, E separated by commas.",
)
LIN102 = _code(
    "LIN102",
    WARNING,
    "no dealer digit in md; dealer {dealer} {source}",
    "The deal gives no dealer; it is taken from the board number (or assumed).",
)
LIN103 = _code(
    "LIN103",
    WARNING,
    "no sv; vulnerability {vulnerable} taken from board {board}",
    "The table gives no vulnerability; it is taken from the board number.",
)
LIN104 = _code(
    "LIN104",
    ERROR,
    "bad sv value {value}; expected o, n, e or b",
    "The vulnerability is not one of the LIN letters (or their known variants).",
)
LIN105 = _code(
    "LIN105",
    ERROR,
    "bad call in mb: {detail}",
    "An `mb` value that is not a call (p, d, r, 1C…7N, with `!` for an alert) or a compact "
    "run of calls; it is kept as written.",
)
LIN106 = _code(
    "LIN106",
    INFO,
    "explanation before the first call kept as commentary: {text}",
    "An `an` with no call before it (vugraph operators type into the wrong box).",
)
LIN107 = _code(
    "LIN107",
    ERROR,
    "bad card in pc: {detail}",
    "A `pc` value that is not a card (or up to four cards written together); it is kept as "
    "written.",
)
LIN108 = _code(
    "LIN108",
    ERROR,
    "bad claim mc|{value}|; expected the total tricks of declarer's side, 0 to 13",
    "A claim that is not a number of tricks.",
)
LIN109 = _code(
    "LIN109",
    WARNING,
    "{count} claims ({values}) at this table; the last, {last}, is kept",
    "Several `mc` commands for one table.",
)
LIN110 = _code(
    "LIN110",
    WARNING,
    "pn gives {count} names; expected 4 (S, W, N, E) or 8 in a vugraph header",
    "A player list of unexpected length; the names are read in S, W, N, E order.",
)
LIN111 = _code(
    "LIN111",
    WARNING,
    "board {first} ({first_source}) but board {second} ({second_source})",
    "Two commands give this table different board numbers; the first is kept.",
)
LIN112 = _code(
    "LIN112",
    WARNING,
    "rs entry {entry} for board {board} cannot be read",
    "A vugraph result that is not `<level><strain><declarer>[x|xx][=|+n|-n]` or PASS.",
)
LIN113 = _code(
    "LIN113",
    WARNING,
    "rs gives {entry} for this table, but the record gives {actual}",
    "The vugraph results line disagrees with the auction, play or claim of the table.",
)
LIN114 = _code(
    "LIN114",
    WARNING,
    "vg header has {count} fields; expected 9 (title, segment, scoring, first board, last "
    "board, team, score, team, score)",
    "A vugraph header with an unexpected number of fields.",
)
LIN115 = _code(
    "LIN115",
    WARNING,
    "bad qx value {value}; expected a room letter and a board number (o12, c12)",
    "A table id that cannot be read; the table is kept without room or number.",
)
LIN116 = _code(
    "LIN116",
    WARNING,
    "rs has {count} entries; expected {expected} (two per board, {first} to {last})",
    "A results line with missing or extra entries (a common real-file defect).",
)
LIN117 = _code(
    "LIN117",
    WARNING,
    "the play cannot be placed by seat ({reason}); cards from trick {trick} on follow "
    "{seat}'s rotation",
    "Without a contract (for trick winners) or a deal (for card holders) the seats of later "
    "cards are a guess.",
)

# --- OUT: what a target format cannot carry ------------------------------------------------
OUT010 = _code(
    "OUT010",
    WARNING,
    "LIN has no place for the tag(s) {names}; dropped",
    "Tags a LIN board cannot carry (LIN knows players, board, dealer, vulnerability, deal, "
    "auction and play; a vugraph file also event, stage, scoring, teams and rooms).",
)
OUT011 = _code(
    "OUT011",
    WARNING,
    "LIN has no place for the table(s) {names}; dropped",
    "PBN tables (ScoreTable, OptimumResultTable …) cannot be written in LIN.",
)
OUT012 = _code(
    "OUT012",
    WARNING,
    "LIN has no place for {what}; dropped",
    "Annotations LIN cannot carry: NAGs and suffixes (but NAG 15, the alert), irregularity "
    "marks, notes on cards, notes no call refers to.",
)
OUT013 = _code(
    "OUT013",
    WARNING,
    "{count} escape line(s) or comment(s) on notes have no place in LIN; dropped",
    "PBN `%` escape lines (other than kept LIN commands) and comments attached to notes.",
)
OUT014 = _code(
    "OUT014",
    WARNING,
    "auction: {what} cannot be written in LIN; dropped",
    "Auction entries that are not calls (unreadable text, `^S`, `+`) or an end marker.",
)
OUT015 = _code(
    "OUT015",
    WARNING,
    "play: {what} cannot be written in LIN; dropped",
    "Cards LIN cannot place: unreadable ones, and cards after an unknown card or whose "
    "order cannot be derived (LIN lists cards in played order).",
)
OUT016 = _code(
    "OUT016",
    WARNING,
    "{what} held a character LIN values cannot (a pipe, a line break, or a comma in a "
    "name); replaced",
    "LIN has no escapes: `|` becomes `/`, line breaks spaces, commas in names spaces.",
)

OUT030 = _code(
    "OUT030",
    WARNING,
    "PBN cannot hold {what}; dropped",
    "What PBN's grammar cannot write back as the same board: a tag or table name that is not "
    "letters, digits and `_` (a `]`, a quote, a space or a line break would end the tag pair "
    "and start another game), a call or card token the reader would not read back as itself "
    "(a space, `[`, `{`, `*`, a NAG …; a card becomes unknown, a call a word that keeps its "
    "place, so the calls after it stay unchecked as they were).",
)
OUT031 = _code(
    "OUT031",
    WARNING,
    "{what} held a line break or tab, which a PBN string cannot; written as a space",
    "A PBN string is one line: line breaks and tabs in a tag value or a note are spaces.",
)

OUT040 = _code(
    "OUT040",
    WARNING,
    "USEBIO has no place for {what}; dropped",
    "What a USEBIO document cannot carry: the auction, the play (but the lead), commentary and "
    "notes, the seats' names at one table, room and round, double-dummy tables, other tags, "
    "and a dealer or vulnerability that is not the board number's.",
)
OUT020 = _code(
    "OUT020",
    WARNING,
    "{format} has no place for {what}; dropped",
    "What a club format (DUP, DLM, BRI, DGE, RBN, RBX, CSV) cannot carry: tags, tables, "
    "commentary, notes or the play; `docs/conversions.md` lists each format's losses.",
)
OUT021 = _code(
    "OUT021",
    WARNING,
    "{format} cannot hold this board ({reason}); not written",
    "A board the target format cannot hold at all: a deal that is not 52 cards in a "
    "dealing-machine file, a board number outside 1-99 (DUP, DLM), a board number given twice "
    "in one DLM file.",
)
OUT022 = _code(
    "OUT022",
    WARNING,
    "{format} does not store {what}: {detail}",
    "Dealing-machine files give dealer and vulnerability by the board number (the 16-board "
    "cycle), and BRI and DGE number boards by their place in the file: what differs is lost.",
)

# --- JSN and XML: reading JSON and XML records -------------------------------------------------
# JSN: JSON records (JSON Lines, pretty-printed records, or one array of records).
JSN001 = _code(
    "JSN001",
    ERROR,
    "not valid JSON: {detail}; the record is skipped",
    "Text that is not JSON (a missing comma, an unclosed string or brace); the record it "
    "belongs to is skipped and reading goes on with the next line.",
)
JSN002 = _code(
    "JSN002",
    ERROR,
    "a record must be a JSON object, not {found}; skipped",
    "A top-level JSON value (or an element of the top-level array) that is not an object.",
)
JSN003 = _code(
    "JSN003",
    ERROR,
    "{where} must be {expected}, not {found}; ignored",
    "A value of the wrong JSON type (a number where a string is expected ...); the board is "
    "read without it.",
)
JSN004 = _code(
    "JSN004",
    ERROR,
    "{where}: {found} is not {expected}; ignored",
    "A value of the right type with no meaning (an unknown seat, vulnerability, strain, "
    "hand ...); the board is read without it.",
)
JSN005 = _code(
    "JSN005",
    WARNING,
    "unknown key {key} in {where}; ignored",
    "A key the record format does not define (a typo, or another program's field).",
)
JSN006 = _code(
    "JSN006",
    ERROR,
    "{where} has no {key}; {consequence}",
    "An object without a key it cannot do without (a tag without a name, an auction without "
    "its first seat, a record with neither a model nor summary keys).",
)
JSN007 = _code(
    "JSN007",
    WARNING,
    "{where}: {found} is not a {what}; kept as text",
    "A call or card spelled in no known way; it is kept as a token, so the positions of the "
    "calls or cards after it do not move.",
)
JSN008 = _code(
    "JSN008",
    WARNING,
    "record of schema {found}; read as {expected}",
    "A record whose `schema` is not the one this version writes.",
)
JSN009 = _code(
    "JSN009",
    ERROR,
    "record {detail}; skipped",
    "A record too large (over ``--max-record-size``, 16 Mi characters by default; a line that "
    "long is never held in memory) or too deeply nested to be read safely.",
)
JSN010 = _code(
    "JSN010",
    WARNING,
    "{where}: unpaired surrogate {escape} replaced by U+FFFD",
    "A `\\uD800`-`\\uDFFF` escape that is not half of a pair: no character, so it cannot "
    "be written in any format.",
)
JSN011 = _code(
    "JSN011",
    INFO,
    "the record has no model: its board is read from the summary keys (board, dealer, deal, "
    "auction, play, tags ...)",
    "A record of another program, without the `model` key pbntool writes: what its summary "
    "keys say is read as a PBN game would be (the rest of a full record, such as notes and "
    "commentary, cannot be there).",
)

# XML: the pbntool XML vocabulary (docs/xml.md), read as untrusted input.
XML001 = _code(
    "XML001",
    ERROR,
    "not well-formed XML: {detail}; the rest of the input is skipped",
    "A syntax error (or a limit of the parser, such as a text node over 10 MB or nesting over "
    "256 levels); the boards before it are kept.",
)
XML002 = _code(
    "XML002",
    ERROR,
    "{what} refused: XML is read as untrusted input (no DTD, no entities); the input is skipped",
    "A document type declaration (which could declare entities: billion laughs, external "
    "files or URLs); nothing of the document is read.",
)
XML003 = _code(
    "XML003",
    ERROR,
    "root element <{found}> is not <boards> or <board>; the input is skipped",
    "A well-formed XML document of another vocabulary.",
)
XML004 = _code(
    "XML004",
    WARNING,
    "unknown element <{name}> in <{parent}>; ignored",
    "An element the vocabulary does not define at this place.",
)
XML005 = _code(
    "XML005",
    WARNING,
    "unknown attribute {name} on <{owner}>; ignored",
    "An attribute the vocabulary does not define on this element.",
)
XML006 = _code(
    "XML006",
    ERROR,
    "{where} must be {expected}, not {found}; ignored",
    "An attribute or text that cannot be read as what it stands for (a number, true or "
    "false ...); the board is read without it.",
)
XML007 = _code(
    "XML007",
    ERROR,
    "{where}: {found} is not {expected}; ignored",
    "A value with no meaning (an unknown seat, vulnerability, strain, hand ...); the board is "
    "read without it.",
)
XML008 = _code(
    "XML008",
    ERROR,
    "{where} has no {key}; {consequence}",
    "An element without an attribute it cannot do without (a tag without a name, an auction "
    "without its first seat).",
)
XML009 = _code(
    "XML009",
    WARNING,
    "{where}: {found} is not a {what}; kept as text",
    "A call or card spelled in no known way; it is kept as a token.",
)
XML010 = _code(
    "XML010",
    WARNING,
    "version {found}; read as {expected}",
    "A document whose `version` attribute is not the one this version writes.",
)
XML011 = _code(
    "XML011",
    ERROR,
    "board {detail}; skipped",
    "A board element too large to be read safely.",
)
XML012 = _code(
    "XML012",
    WARNING,
    "text {text} inside <{owner}> ignored",
    "Character data where the vocabulary has only elements.",
)

# --- USB and BWS: club results (USEBIO XML, Bridgemate databases) -------------------------------
USB001 = _code(
    "USB001",
    ERROR,
    "not a USEBIO document: {detail}",
    "The root element is not `USEBIO`, or it holds no `EVENT`: there are no results to read.",
)
USB002 = _code(
    "USB002",
    WARNING,
    "event type {value} is not a USEBIO event type; {action}",
    "An `EVENT_TYPE` outside the USEBIO list (`MP_PAIRS`, `BUTLER_PAIRS`, `CROSS_IMP`, `PAIRS`, "
    "`TEAMS`, …): the boards' own event type or scoring method is used when they give one.",
)
USB003 = _code(
    "USB003",
    WARNING,
    "<{element}> {value}: {detail}; {action}",
    "A traveller, participant or hand value of no known meaning (a contract, seat, trick "
    "count, score or lead that does not read): the cell is left empty, the rest is kept.",
)
USB004 = _code(
    "USB004",
    WARNING,
    "HANDSET board {board}: {detail}; the deal is left out",
    "A hand set whose four hands are not a deal (a card twice, a hand of the wrong size, a "
    "seat missing or repeated).",
)
USB005 = _code(
    "USB005",
    ERROR,
    "the document is larger than {limit}; the rest of it is not read",
    "USEBIO is read whole before the boards are written (the hands come after the results): "
    "inputs above the limit are cut there.",
)
BWS001 = _code(
    "BWS001",
    ERROR,
    "cannot read a Bridgemate database without the access-parser package: "
    "pip install 'pbntool[bws]'",
    "A `.BWS` input when the optional `bws` extra is not installed; nothing of it is read.",
)
BWS002 = _code(
    "BWS002",
    ERROR,
    "not a readable Bridgemate database: {detail}",
    "A truncated or damaged Access file, or one without a `ReceivedData` table: nothing of "
    "it is read.",
)
BWS003 = _code(
    "BWS003",
    WARNING,
    "ReceivedData row {row} (table {table}, round {round}, board {board}): {detail}; {action}",
    "A result row whose contract, declarer, result or lead does not read: the row is kept "
    "without the value.",
)

# --- ARC: archives, directory trees and output paths (inputs at scale) ---------------------
ARC001 = _code(
    "ARC001",
    ERROR,
    "cannot read archive: {reason}; {skipped} was skipped",
    "A zip, tar, gzip, bzip2 or xz input is corrupt or truncated; what could be read was read.",
)
ARC002 = _code(
    "ARC002",
    ERROR,
    "decompression stopped after {size} bytes: {reason}; the rest of this member was skipped",
    "A compressed member expands past the size limit (`--max-member-size`) or the ratio "
    "limit (`--max-ratio`), the members of one zip or the archives of one run past their "
    "budget (`--max-total-size`): a decompression bomb, or a limit to raise.",
)
ARC003 = _code(
    "ARC003",
    ERROR,
    "unsafe member name {name}: {reason}; the member was not read",
    "An archive member named with an absolute path, a `..` component or control characters; "
    "it is skipped, so nothing can be written outside the output directory.",
)
ARC004 = _code(
    "ARC004",
    WARNING,
    "{kind} not followed: {reason}",
    "A link (in an archive, or a symbolic link leading out of a directory tree) or a special "
    "file is not read; `--follow-symlinks` follows symbolic links out of a tree.",
)
ARC005 = _code(
    "ARC005",
    ERROR,
    "cannot read member: {reason}",
    "An archive member that is encrypted, uses an unsupported compression method or fails "
    "its checksum.",
)
ARC006 = _code(
    "ARC006",
    ERROR,
    "archive nested more than {depth} levels deep: not read",
    "An archive inside an archive inside an archive …: nesting is bounded.",
)
ARC007 = _code(
    "ARC007",
    ERROR,
    "output {target} not written: {reason}",
    "`convert -o DIR` refused an output path: it would leave the directory, overwrite an "
    "input, or was already written for another input.",
)
ARC008 = _code(
    "ARC008",
    WARNING,
    "the output name {name} is longer than the file system takes ({limit} bytes a name); "
    "written as {target}",
    "`-o DIR/` names each output after its input: an archive member or a path whose name is "
    "longer than a file name may be is shortened (its start and a hash of the whole name).",
)

# --- EVT: event scores (score --check) --------------------------------------------------------
EVT001 = _code(
    "EVT001",
    ERROR,
    "ScoreMP {stated} but the board's results give {computed}{how}",
    "The stated matchpoints of the game differ from those recomputed over the board's results.",
)
EVT002 = _code(
    "EVT002",
    ERROR,
    "ScoreIMP {stated} but the board's results give {computed}{how}",
    "The stated IMPs of the game differ from those recomputed (team match, Butler or cross-IMPs).",
)
EVT003 = _code(
    "EVT003",
    ERROR,
    "ScorePercentage {stated} but the board's results give {computed}{how}",
    "The stated percentage of the game differs from the one recomputed over the board's results.",
)
EVT004 = _code(
    "EVT004",
    ERROR,
    "ScoreTable {column} {stated} contradicts {contract} by {declarer} with {tricks} tricks"
    "{vul}, which scores {computed}",
    "A ScoreTable row's score differs from the duplicate score of its Contract, Declarer and "
    "Result.",
)
EVT005 = _code(
    "EVT005",
    ERROR,
    "ScoreTable {column} {stated} but the table's results give {computed}{how}",
    "A ScoreTable row's matchpoints differ from those recomputed over the table's rows.",
)
EVT006 = _code(
    "EVT006",
    ERROR,
    "ScoreTable {column} {stated} but the table's results give {computed}{how}",
    "A ScoreTable row's IMPs differ from those recomputed over the table's rows.",
)
EVT007 = _code(
    "EVT007",
    ERROR,
    "ScoreTable {column} {stated} but the table's results give {computed}{how}",
    "A ScoreTable row's percentage differs from the one recomputed over the table's rows.",
)
EVT008 = _code(
    "EVT008",
    WARNING,
    "ScoreTable Rank {stated} but the row's score ranks {computed}",
    "A ScoreTable Rank that is not the best rank of the row's score among the board's results.",
)
EVT009 = _code(
    "EVT009",
    ERROR,
    "TotalScoreTable {column} {stated} but {detail} gives {computed}",
    "A TotalScoreTable value that disagrees with the other values of its row, the ranking, or "
    "the pair's results on the boards.",
)
EVT010 = _code(
    "EVT010",
    ERROR,
    "ScoreRubber {stated} but the deal scores {computed} ({kind})",
    "The stated above/below-the-line score of a rubber or Chicago deal differs from the one "
    "computed from the sequence of deals.",
)
EVT011 = _code(
    "EVT011",
    ERROR,
    "ScoreRubberHistory {stated} but the deals before it give {computed}",
    "The stated rubber score before the deal differs from the one the earlier deals give.",
)
EVT012 = _code(
    "EVT012",
    ERROR,
    "Vulnerable {stated} but ScoreRubberHistory {history} makes {expected} vulnerable",
    "In rubber bridge a side that has won a game is vulnerable; the Vulnerable tag disagrees "
    "with the stated ScoreRubberHistory.",
)
EVT013 = _code(
    "EVT013",
    WARNING,
    "Vulnerable {stated} but {reason} gives {expected}",
    "The vulnerability of a rubber deal (games won) or a Chicago deal (its place in the cycle) "
    "differs from the Vulnerable tag.",
)
EVT014 = _code(
    "EVT014",
    ERROR,
    "OptimumScore {stated} {detail}",
    "The stated par score cannot be right: no contract scores it at this vulnerability, or it "
    "is not the par of the OptimumResultTable.",
)
EVT015 = _code(
    "EVT015",
    WARNING,
    "board {board}: {detail}",
    "The tables of a team match cannot be told apart or paired by their Room tags.",
)
EVT016 = _code(
    "EVT016",
    INFO,
    "board {board} of event {event} has another deal than the one at {file}:{line}; "
    "scored as a different board{more}",
    "Games of one file with the same Event, Section and Board number but different deals "
    "(rounds that reuse board numbers): they are different boards.  Reported once per file.",
)
EVT017 = _code(
    "EVT017",
    INFO,
    "{what} follow {variant}; checked as such",
    "The file's values follow a known variant of the scoring method rather than the default "
    "one (PBN says which only through the Scoring tag).",
)
EVT018 = _code(
    "EVT018",
    WARNING,
    "the game's own result ({score}) is not a row of its ScoreTable",
    "A ScoreTable is the traveller of the board; it should include the game's own result.",
)
EVT019 = _code(
    "EVT019",
    INFO,
    "{name} {stated} is not checked: {reason}",
    "A stated score that cannot be recomputed (no other result to compare with, an "
    "unknown contract, an unreadable value).",
)
EVT020 = _code(
    "EVT020",
    ERROR,
    "{column} {stated} but the team's matches give {computed}{how}",
    "A team's victory points (TotalScoreTable TotalVP, a USEBIO team's TOTAL_SCORE in VPs) or a "
    "match's stated IMPs or VPs (USEBIO TEAM_SCORE, TEAM_VICTORY_POINTS …) differ from those "
    "the match's boards give: each board's IMPs summed, the margin converted with the VP "
    "scale (--vp, else the WBF scale that explains the file).",
)
EVT021 = _code(
    "EVT021",
    ERROR,
    "ParContract {item} is not par by the board's {source}: {why}; par is {par} ({contracts})",
    "A stated par contract that the board's own double-dummy table (DoubleDummyTricks or "
    "OptimumResultTable) does not make par: it scores otherwise, its result is not what the "
    "table gives, or the opponents can outbid it profitably.",
)

# --- FIX: what `pbntool fix` changed (and could not change) ---------------------------------
# Positions are in the input file: an edited value where it starts, an inserted tag where its
# value goes (its line is inserted before the line given, or at that column of it).
FIX001 = _code(
    "FIX001",
    INFO,
    "Dealer {old} → {new}: {reason}",
    "The missing or unknown Dealer filled in from the auction's first call, else from the "
    "board number (16-board cycle).",
)
FIX002 = _code(
    "FIX002",
    INFO,
    "Vulnerable {old} → {new}: board {board} of the 16-board cycle",
    "The missing or unknown Vulnerable filled in from the board number.",
)
FIX003 = _code(
    "FIX003",
    INFO,
    "Deal {seat} hand {old} → {new}: the 13 cards the other three hands do not hold",
    "The fourth hand of a deal whose other three hands are known.",
)
FIX004 = _code(
    "FIX004",
    INFO,
    "Contract {old} → {new}: {reason}",
    "The missing, unknown or unreadable Contract set to the completed auction's; one that "
    "contradicts the auction only when the stated Score is the auction's contract's score.",
)
FIX005 = _code(
    "FIX005",
    INFO,
    "Declarer {old} → {new}: {reason}",
    "The missing, unknown or unreadable Declarer set to the completed auction's (empty on a "
    "passed-out board); one that contradicts the auction only when the opening lead or the "
    "Score agrees with the auction.",
)
FIX006 = _code(
    "FIX006",
    INFO,
    "Result {old} → {new}: {reason}",
    "The missing or unknown Result set to the tricks declarer took in a complete play or a "
    "claim with only the forced last trick left (empty on a passed-out board); one that a "
    "complete play contradicts only when the stated Score is the play's result's score.",
)
FIX007 = _code(
    "FIX007",
    INFO,
    "Score {old} → {new}: {reason}",
    "The missing, unknown or wrong Score set to the duplicate score of the contract, "
    "declarer, result and vulnerability, written in the form the file uses.",
)
FIX008 = _code(
    "FIX008",
    INFO,
    "Note {old} → {new} in the {section}: notes numbered 1 to {count}",
    "A Note renumbered so that a section's notes are numbered 1, 2, ... without gaps or repeats.",
)
FIX009 = _code(
    "FIX009",
    INFO,
    "note reference ={old}= → ={new}= in the {section}",
    "A note reference renumbered with the Note it points to.",
)
FIX010 = _code(
    "FIX010",
    INFO,
    "{name} {old} → {new}: from the event's results",
    "A ScoreMP, ScoreIMP or ScorePercentage set to what the event's scoring gives.",
)
FIX011 = _code(
    "FIX011",
    WARNING,
    "{name} not changed to {new}: {reason}",
    "A change fix would make but cannot make without touching other bytes; the input is "
    "kept as it is there.",
)
FIX012 = _code(
    "FIX012",
    ERROR,
    "fix edits PBN files only; this {format} input was not changed",
    "`pbntool fix` was given a LIN, JSON or XML input.",
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
DDA009 = _code(
    "DDA009",
    WARNING,
    "double-dummy tags not written: {reason}; the board is left as it was",
    "dd --fill could not write a board's tags without touching other bytes (a malformed tag "
    "pair, or a line that does not read back as it was written).",
)

# --- CLB: the club formats (dealing-machine files, RBN and RBX) --------------------------------
CLB001 = _code(
    "CLB001",
    ERROR,
    "{format} record {index} is cut short ({size} of {record} bytes); skipped",
    "A binary dealing-machine file whose size is not a multiple of its record size "
    "(BRI and DGE 128 bytes, DUP 156): the last record is truncated.",
)
CLB002 = _code(
    "CLB002",
    ERROR,
    "{format} record {index}: {detail}; the board is skipped",
    "A record whose bytes are not a deal: a card number that is not two digits 01-52, a "
    "card given twice, a byte that is neither a suit mark nor a rank.",
)
CLB003 = _code(
    "CLB003",
    ERROR,
    "board {board}: the DLM checksum is {stated} but the letters give {computed}",
    "A DLM board line whose 3-digit checksum is not the board number XOR the codes of its "
    "26 letters: the line was edited or damaged.",
)
CLB004 = _code(
    "CLB004",
    WARNING,
    "the DLM header checksum is {stated}; Duplicates, From board, To board and Status give "
    "{computed}",
    "The header `Checksum` is Duplicates XOR From board XOR To board, XOR 1 when `Status=Show`.",
)
CLB005 = _code(
    "CLB005",
    ERROR,
    "DLM: {detail}",
    "A DLM file that cannot be read as one: no `[Document]` section, a missing or unreadable "
    "`From board`/`To board`, a board line that is not 26 letters a-p and 3 digits, or a "
    "board of the range that has no line.",
)
CLB006 = _code(
    "CLB006",
    ERROR,
    "{format} board {board}: {seat} holds {count} cards; 13 expected; the board is skipped",
    "A dealing-machine record whose hands do not hold 13 cards each.",
)
CLB007 = _code(
    "CLB007",
    WARNING,
    "DUP record {index}: {detail}",
    "A DUP record whose trailer (random, backwards, lowest board, copies, highest board) "
    "cannot be read, or whose DGE part shows another deal than its digits.",
)
CLB008 = _code(
    "CLB008",
    ERROR,
    "{format} input larger than {limit} bytes; the rest is not read",
    "Dealing-machine and RBN inputs are read up to a bound, so a huge or endless input "
    "cannot exhaust memory.",
)
CLB010 = _code(
    "CLB010",
    WARNING,
    "{format} line is not a label, a space and data: {text}; skipped",
    "An RBN line that is not `L data` with a label letter, or an RBX line that is not "
    "`L{{data}}` groups.",
)
CLB011 = _code(
    "CLB011",
    WARNING,
    "RBN {label} value {value} cannot be read ({detail}); {action}",
    "An RBN value that does not follow its label's syntax (date, hands, auction, contract, "
    "play, result, makes, a note with nothing to belong to, a label given twice): the value "
    "is kept as written in an `Rbn…` tag (so it is written back), and gives no PBN tag.",
)
CLB012 = _code(
    "CLB012",
    WARNING,
    "RBN {label} value {value} holds {what}, which PBN cannot; the value is kept as the {tag} tag",
    "RBN can say what PBN cannot: pseudo cards and plays (`x ? - ~ + .`), hidden hands, the "
    "`Y` quiz marker and the `*` annotation, goals and an opening leader in `C`, circa dates "
    "and spans, scoring modifiers, team carry-overs. The PBN tags get what they can hold; the "
    "value as written is kept in an `Rbn…` tag and written back while it agrees with them.",
)
CLB013 = _code(
    "CLB013",
    WARNING,
    "{format} commentary opened here is not closed by a closing brace before line {line}; "
    "it ends there",
    "A `{` paragraph runs to a line ending in `}` and holds no blank line: one that is not "
    "closed ends at the blank line (or the end of the file), so it cannot swallow the "
    "records after it.",
)

# --- INT: our own failures ----------------------------------------------------------------
INT001 = _code(
    "INT001",
    ERROR,
    "internal error, {skipped} was skipped: {error}",
    "A bug in pbntool; please report it with the input that caused it.",
)


pickle_by_fields(Diagnostic, Code)  # compiled, a frozen dataclass cannot unpickle itself
