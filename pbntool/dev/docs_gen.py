"""Generate ``docs/diagnostics.md`` from the diagnostics ``CATALOGUE``.

The page lists every code, grouped by family, with its severity, message template, meaning
and the fixture that triggers it (``fixtures/<format>/invalid/<CODE>_<slug>.<ext>``).  A test checks
that the committed page is up to date; ``pytest --update-golden`` rewrites it, and so does::

    python -m pbntool.dev.docs_gen > docs/diagnostics.md
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbntool.diagnostics import CATALOGUE, Code

__all__ = [
    "COMMON_FINDINGS",
    "FAMILIES",
    "CommonFinding",
    "Family",
    "command_fixtures",
    "family_of",
    "invalid_fixtures",
    "render_diagnostics_markdown",
]

DEFAULT_FIXTURE_ROOT = Path(__file__).resolve().parents[2] / "fixtures"
"""Where the fixtures live in a source checkout (absent from an installed wheel)."""


def invalid_fixtures(root: Path | None = None) -> list[Path]:
    """Every ``<root>/<format>/invalid/<CODE>_<slug>.<ext>`` fixture (not the ``.expected``
    files), sorted by format directory then name: what ``pbntool validate`` reports."""
    base = DEFAULT_FIXTURE_ROOT if root is None else root
    return _fixture_files(base.glob("*/invalid/*"))


def command_fixtures(root: Path | None = None) -> list[Path]:
    """Every ``<root>/commands/<command>/<CODE>_<slug>.<ext>`` fixture: codes that another
    command reports (``score --check``, ``fix``, ``dd --check`` …), each checked by that
    command's tests against its ``.expected`` file."""
    base = DEFAULT_FIXTURE_ROOT if root is None else root
    return _fixture_files(base.glob("commands/*/*"))


def _fixture_files(paths: Iterable[Path]) -> list[Path]:
    return sorted(
        path
        for path in paths
        if path.is_file()
        and path.suffix not in (".expected", ".args")
        and not path.name.startswith(".")
        and "_" in path.name
    )


COVERED_ELSEWHERE = {
    "SRC003": "none (needs an unreadable path; covered by the CLI tests)",
    "INT001": "none (needs a bug in pbntool; covered by the CLI tests)",
    "BWS001": "none (needs the bws extra missing; covered by tests/test_bws.py)",
    "USB005": "none (needs a document over 64 MiB; covered by tests/test_usebio.py)",
    "SRC009": "none (needs a game over 1 MiB; covered by tests/test_hostile_input.py)",
}
"""Codes that no fixture can trigger, with what the page says instead of a file name."""


@dataclass(frozen=True, slots=True)
class Family:
    """A group of codes: the prefix that selects it, a title and what its codes are about."""

    prefix: str
    title: str
    description: str


FAMILIES: tuple[Family, ...] = (
    Family(
        "SRC",
        "SRC: reading bytes",
        "Findings about the bytes before any PBN is parsed: the encoding that was detected, "
        "lines longer than the standard allows, and control characters.",
    ),
    Family(
        "PBN0",
        "PBN0xx: PBN syntax",
        "The structure of a game: tag pairs, strings, commentary and text that belongs to no "
        "tag, as defined by PBN sections 2 and 3.",
    ),
    Family(
        "PBN1",
        "PBN1xx: tag values and sections",
        "The micro-syntax inside tag values (Deal, Dealer, Contract, Result, Score, dates), "
        "inheritance with `#` and `##`, the tokens of the Auction and Play sections, notes "
        "and tables.",
    ),
    Family(
        "LIN0",
        "LIN0xx: LIN syntax",
        "The structure of LIN text and handviewer links: `tag|value|` pairs, stray text and "
        "pipes, unterminated pairs, marker commands and unknown commands.",
    ),
    Family(
        "LIN1",
        "LIN1xx: LIN values",
        "The values of LIN commands: the deal (`md`), vulnerability (`sv`), calls (`mb`), "
        "explanations (`an`), cards (`pc`), claims (`mc`), players (`pn`), board numbers "
        "(`ah`, `qx`) and the vugraph header (`vg`, `rs`).",
    ),
    Family(
        "EXP",
        "EXP: export format",
        "Rules of the strict export format, checked only in files that declare it with a "
        "`% EXPORT` escape line.",
    ),
    Family(
        "HND",
        "HND: the deal",
        "The cards of the deal: no card twice, 13 cards in each hand of a full deal, and hands "
        "of equal size in a partial deal or an end position.",
    ),
    Family(
        "AUC",
        "AUC: the auction",
        "The legality of the auction under the Laws: sufficient bids, doubles and redoubles, "
        "and how the auction ends.",
    ),
    Family(
        "PLY",
        "PLY: the play",
        "The legality of the play under the Laws: cards held and played once, following suit, "
        "the opening lead, and the end of the play.",
    ),
    Family(
        "CON",
        "CON: contract, declarer and result",
        "The stated Contract, Declarer and Result compared with what the auction and the play "
        "imply.",
    ),
    Family(
        "SCO",
        "SCO: scores",
        "Stated scores compared with the duplicate score computed from the record.",
    ),
    Family(
        "BRD",
        "BRD: board conventions and completeness",
        "The standard 16-board cycle of dealer and vulnerability, and the mandatory tag set.",
    ),
    Family(
        "OUT",
        "OUT: conversion losses",
        "What a target format cannot carry, reported by `convert` for each board (never "
        "dropped silently); see `docs/conversions.md`.",
    ),
    Family(
        "JSN",
        "JSN: JSON records",
        "Reading JSON records (JSON Lines, pretty-printed records or one array of them): text "
        "that is not JSON, values of the wrong type or of no known meaning, unknown keys. A "
        "broken record costs that record only.",
    ),
    Family(
        "XML",
        "XML: XML documents",
        "Reading documents of the pbntool XML vocabulary (docs/xml.md) as untrusted input: "
        "syntax errors, refused document type declarations, unknown elements and attributes, "
        "values of no known meaning, and boards too large to read safely.",
    ),
    Family(
        "USB",
        "USB: USEBIO results",
        "Reading USEBIO XML results (club and tournament scoring programs): documents that are "
        "not USEBIO, unknown event types, values that do not read, hand sets that are not a "
        "deal.",
    ),
    Family(
        "BWS",
        "BWS: Bridgemate databases",
        "Reading Bridgemate `.BWS` (Access) databases as untrusted input: the optional reader "
        "missing, damaged files, result rows that do not read.",
    ),
    Family(
        "ARC",
        "ARC: archives, trees and output paths",
        "Reading archives and directory trees as untrusted input: corrupt archives, "
        "decompression bombs, unsafe member names, links, nesting, and the output paths of "
        "`convert -o DIR`.",
    ),
    Family(
        "EVT",
        "EVT: event scores",
        "What `score --check` finds: stated matchpoints, IMPs, percentages, score tables, rubber "
        "scores and par scores compared with what the results of the event give.",
    ),
    Family(
        "FIX",
        "FIX: repairs by `pbntool fix`",
        "What `pbntool fix` changed, one code per kind of change (the message says old → new "
        "and why), and the changes it could not make.",
    ),
    Family(
        "DDA",
        "DDA: double-dummy annotations",
        "What `pbntool dd --check` finds when it compares DoubleDummyTricks, "
        "OptimumResultTable, OptimumScore and ParContract with the solver, and what `dd` "
        "could not analyse or `dd --fill` could not edit.",
    ),
    Family(
        "CLB",
        "CLB: club formats",
        "Reading dealing-machine files (DUP, DLM, BRI, DGE) and Pavlicek's RBN and RBX as "
        "untrusted input: truncated records, bytes that are not a deal, DLM checksums, "
        "unreadable RBN lines and values.",
    ),
    Family(
        "INT",
        "INT: internal errors",
        "Failures of pbntool itself; the rest of the input is skipped and the bug should be "
        "reported.",
    ),
)


@dataclass(frozen=True, slots=True)
class CommonFinding:
    """One of the ten findings most often seen in real files, and what cures it."""

    code: str
    findings: int
    files: int
    cure: str
    """What to do (Markdown): the ``pbntool fix`` invocation, or why there is none."""
    commands: tuple[str, ...] = ()
    """Commands that cure it (``FILE`` the input, ``OUT`` the result): the tests run them on
    the code's fixtures and check that the code is gone."""


CORPUS_MEASURE = (
    "`pbntool validate --format json` over the shared corpus (`../shared/corpus`: 1,530 inputs, "
    "29,266 boards, 20,451 findings)"
)
"""How ``COMMON_FINDINGS`` was counted (``tests/test_corpus.py`` checks that these ten are
still the ten most common codes)."""

COMMON_FINDINGS = (
    CommonFinding(
        "BRD003",
        9162,
        176,
        "`pbntool fix -i FILE` fills in Dealer, Vulnerable, Contract, Declarer and Result where "
        "the record determines them (162 of these findings in the corpus). The other tags (Site, "
        "Date, Scoring, Event, the players: the other 9,000) only the file's author knows: "
        '`pbntool convert --to pbn -o OUT FILE` writes each as `"?"` (unknown), as the '
        "standard allows (9,162 → 0).",
        ("pbntool fix -i FILE", "pbntool convert --to pbn -o OUT FILE"),
    ),
    CommonFinding(
        "PBN111",
        3172,
        175,
        "No cure, on purpose: `fix` keeps the form of each Score and `convert` its text. The "
        "value is read as if it had no `+`; `--ignore PBN111` hides the finding.",
    ),
    CommonFinding(
        "BRD002",
        2410,
        132,
        "`fix` cannot: it fills in a Vulnerable that is absent, never changes a stated one. "
        "Either the Board number or the Vulnerable tag is wrong (check the hand record), or the "
        "event does not follow the 16-board cycle: `--ignore BRD002`.",
    ),
    CommonFinding(
        "BRD001",
        2135,
        118,
        "`fix` cannot: it fills in a Dealer that is absent, never changes a stated one. Either "
        "the Board number or the Dealer tag is wrong (check the hand record), or the event does "
        "not follow the 16-board cycle: `--ignore BRD001`.",
    ),
    CommonFinding(
        "PBN112",
        1475,
        9,
        "`fix` cannot: correct the Date by hand to `YYYY.MM.DD`, with `?` for an unknown digit "
        '(in the corpus these are timestamps such as `"2013-08-10 17:32"`: `2013.08.10`, and '
        "the time of day in a Time tag).",
    ),
    CommonFinding(
        "PBN131",
        678,
        132,
        "Nothing to cure: the play was not recorded. `--ignore PBN131` hides it.",
    ),
    CommonFinding(
        "EXP001",
        483,
        74,
        "`fix` keeps the file's layout, so it cannot; `pbntool convert --to pbn -o OUT FILE` "
        "rewrites the file in export format (483 → 4 in the corpus: the 4 left are deals "
        "pbntool cannot read, kept as written).",
        ("pbntool convert --to pbn -o OUT FILE",),
    ),
    CommonFinding(
        "HND001",
        136,
        14,
        "`fix` cannot know which hand is wrong. When the other three are right, write the "
        "wrong hand as `-` and `pbntool fix -i FILE` fills it in from them (FIX003).",
    ),
    CommonFinding(
        "AUC005",
        92,
        38,
        "`fix` cannot. Most (69 of 92) are auctions with no call at all: an auction that was "
        "not recorded, or was cut short, ends with `*`.",
    ),
    CommonFinding(
        "SRC001",
        59,
        59,
        "`fix` keeps the file's encoding, on purpose; `pbntool convert --to pbn -o OUT FILE` "
        "writes UTF-8 (59 → 0).",
        ("pbntool convert --to pbn -o OUT FILE",),
    ),
)
"""The ten codes most often found in the corpus, most frequent first."""


def _checklist() -> list[str]:
    lines = [
        "",
        "## The ten most common findings in real files",
        "",
        f"Counted with {CORPUS_MEASURE}, most frequent first.",
        "`pbntool stats DIR` counts the findings of a folder by code, and",
        "`pbntool validate --select CODE DIR` lists one code's. Each finding names its file,",
        "line and column (and, in JSON, its board); its message says what to do next.",
        "",
    ]
    for number, common in enumerate(COMMON_FINDINGS, start=1):
        code = CATALOGUE[common.code]
        lines.append(
            f"- [ ] **{number}. `{code.id}`** ({code.severity.label}, "
            f"{common.findings:,} findings in {common.files:,} files): {code.summary} "
            f"**Cure:** {common.cure}"
        )
    return lines


def family_of(code: str) -> Family:
    """The family a code belongs to (``PBN0xx`` and ``PBN1xx`` are separate families).

    >>> family_of("PBN105").title
    'PBN1xx: tag values and sections'
    """
    for family in FAMILIES:
        if code.startswith(family.prefix):
            return family
    raise ValueError(f"no family for code {code!r}")


def render_diagnostics_markdown(fixture_root: Path | None = None) -> str:
    """The Markdown page documenting every code of ``CATALOGUE``.

    Args:
        fixture_root: The ``fixtures`` directory holding ``<format>/invalid/<CODE>_<slug>.*``
            (default: the source checkout's; no file names are listed if it is absent).

    Returns:
        The page, ending with a newline.
    """
    base = DEFAULT_FIXTURE_ROOT if fixture_root is None else fixture_root
    names = [
        path.relative_to(base).as_posix()
        for path in (*invalid_fixtures(fixture_root), *command_fixtures(fixture_root))
    ]
    lines = [*_INTRODUCTION, *_checklist()]
    for family in FAMILIES:
        codes = [code for code in CATALOGUE.values() if family_of(code.id) is family]
        if not codes:
            continue
        lines += ["", f"## {family.title}", "", family.description, ""]
        lines += [
            "| Code | Severity | Message template | What it means | Fixture |",
            "|---|---|---|---|---|",
        ]
        lines += [_row(code, _fixtures_for(code.id, names)) for code in codes]
    return "\n".join(lines) + "\n"


_INTRODUCTION = (
    "# Diagnostics",
    "",
    "<!-- Generated from pbntool/diagnostics.py by pbntool/dev/docs_gen.py; do not edit by hand.",
    "     Regenerate with `pytest --update-golden` or",
    "     `python -m pbntool.dev.docs_gen > docs/diagnostics.md`. -->",
    "",
    "Every finding of `pbntool validate` has a stable code: codes are never renumbered or",
    "reused, so they can be used in `--select` and `--ignore` (a prefix such as `AUC` selects",
    "a family).  Each finding is printed as `file:line:column: severity CODE board N: message`",
    "(without `board N:` when it is about no board); the line and column are 1-based and",
    "point at the offending token: the call or card, the hand",
    "inside a Deal value, the value of a tag for a bad value, or the `[` of a tag pair for a",
    "finding about the tag or its section.",
    "",
    "Severities: **error** (the record breaks the PBN standard or the Laws), **warning** (a",
    "deviation that is read anyway, often seen in real files), **info** (worth knowing, not a",
    "problem).  `validate` exits with 1 when a finding reaches `--fail-on` (default `error`).",
    "",
    "Each code has a fixture named after it: in `fixtures/<format>/invalid/` for what",
    "`validate` reports, in `fixtures/commands/<command>/` for what another command reports",
    "(an `.args` file beside it gives the command's options).  The matching `.expected` file",
    "lists the `line:column CODE` of every finding the fixture produces.",
)


def _fixtures_for(code: str, names: Sequence[str]) -> str:
    if code in COVERED_ELSEWHERE:
        return COVERED_ELSEWHERE[code]
    found = [name for name in names if name.rpartition("/")[2].startswith(code + "_")]
    return "<br>".join(f"`{name}`" for name in found) if found else "none yet"


def _row(code: Code, fixtures: str) -> str:
    cells: Iterable[str] = (
        f"`{code.id}`",
        code.severity.label,
        _code_span(_unformat(code.template)),
        code.summary,
        fixtures,
    )
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def _unformat(template: str) -> str:
    """The template as it reads: ``{{`` and ``}}`` are literal braces in ``str.format``."""
    return template.replace("{{", "{").replace("}}", "}")


def _code_span(text: str) -> str:
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """Escape what would end a table cell (GitHub Markdown needs ``\\|`` even in code)."""
    return text.replace("|", "\\|").replace("\n", " ")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the page (``--check PATH`` exits 1 if the file at PATH is out of date)."""
    args = list(sys.argv[1:] if argv is None else argv)
    page = render_diagnostics_markdown()
    if args[:1] == ["--check"] and len(args) == 2:
        current = Path(args[1]).read_text(encoding="utf-8") if Path(args[1]).is_file() else ""
        return 0 if current == page else 1
    sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
