"""Comparing stated values with recomputed ones when the file does not say which variant of a
method it used.

PBN names the variant only through the ``Scoring`` tag (``IMP;Butler-2``, ``MP;MP2``), and most
files leave it out.  Each stated value becomes an ``Item`` holding what every candidate variant
gives for it; per file and kind of value, the checker takes the default variant when it
explains every value, else the candidate that explains most of them (saying so with EVT017),
and reports the values that still disagree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pbntool.diagnostics import EVT017, Code, Diagnostic
from pbntool.scoring.comparison import CrossAverage
from pbntool.scoring.matchpoints import MatchpointScale, PercentBase
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.games import GameEntry, Stated
from pbntool.tools.score.grouping import placed
from pbntool.tools.score.values import decimals

__all__ = [
    "BAM_VARIANTS",
    "IMP_VARIANTS",
    "KINDS",
    "MP_VARIANTS",
    "PERCENT_VARIANTS",
    "RANK_VARIANTS",
    "TEAM_VARIANTS",
    "Item",
    "Variant",
    "agrees",
    "choose_variants",
    "format_value",
]


@dataclass(frozen=True, slots=True)
class Variant:
    """One way of computing a kind of value: its name in messages and its scoring spec."""

    label: str
    spec: ScoringSpec
    value: str = "points"
    """Which number of a result it compares: ``points`` (MP, IMP …) or ``percentage``."""


_MP = ScoringSpec(Method.MP, neuberg=False)

IMP_VARIANTS = (
    Variant(
        "cross-IMPs averaged per comparison (Cross2)",
        ScoringSpec(Method.CROSS_IMP, cross=CrossAverage.PER_COMPARISON),
    ),
    Variant(
        "cross-IMPs averaged per score (Cross1)",
        ScoringSpec(Method.CROSS_IMP, cross=CrossAverage.PER_SCORE),
    ),
    Variant("cross-IMP totals (Cross)", ScoringSpec(Method.CROSS_IMP, cross=CrossAverage.TOTAL)),
    Variant(
        "Butler IMPs, datum without the extreme scores (Butler-2)",
        ScoringSpec(Method.BUTLER, discard=1),
    ),
    Variant(
        "Butler IMPs, datum the mean of all scores (Butler)", ScoringSpec(Method.BUTLER, discard=0)
    ),
)
"""Field IMPs, the default first."""

MP_VARIANTS = (
    Variant("MP1 matchpoints (2 per beaten score)", _MP),
    Variant(
        "MP2 matchpoints (1 per beaten score)",
        ScoringSpec(Method.MP, scale=MatchpointScale.MP2, neuberg=False),
    ),
    Variant("percentages instead of matchpoints", _MP, "percentage"),
)

PERCENT_VARIANTS = (
    Variant("percentages of the top", _MP, "percentage"),
    Variant(
        "percentages counting each result as also tying with itself",
        ScoringSpec(Method.MP, base=PercentBase.INCLUSIVE, neuberg=False),
        "percentage",
    ),
)

TEAM_VARIANTS = (Variant("IMPs against the other room of the match", ScoringSpec(Method.IMP)),)
BAM_VARIANTS = (Variant("board-a-match against the other room", ScoringSpec(Method.BAM)),)

RANK_VARIANTS = (
    Variant("the best rank among equal scores", _MP, "rank"),
    Variant("the row's position in the table", _MP, "position"),
)

KINDS: Mapping[str, str] = {
    "imp": "the IMP values",
    "mp": "the matchpoint values",
    "percentage": "the percentages",
    "rank": "the ScoreTable ranks",
    "team": "the team IMPs",
    "bam": "the board-a-match points",
    "vp": "the victory points",
}
"""What each kind of value is called in EVT017."""


@dataclass(slots=True)
class Item:
    """A stated value and what each candidate variant computes for it (None: cannot)."""

    kind: str
    code: Code
    name: str
    stated: Stated
    value: float
    game: GameEntry
    computed: dict[str, float | None]
    declared: str | None = None
    """The variant the file or the command line names, if any."""
    arguments: dict[str, object] = field(default_factory=dict)
    decimals: int | None = None
    """The decimals the value is stated to when it is not those written (a padded column)."""


def agrees(
    stated: Stated,
    value: float,
    computed: float,
    tolerance: float | None,
    places: int | None = None,
) -> bool:
    """True when ``computed`` rounds to the stated value at the stated precision (``places``
    decimals when given, else those written), or lies within ``tolerance`` when one is given."""
    if places is None:
        places = decimals(stated.text)
    allowed = tolerance if tolerance is not None else 0.5 * 10**-places
    return abs(value - computed) <= allowed + 1e-9


def format_value(computed: float, stated: Stated) -> str:
    """A computed value written one decimal finer than the stated one.

    >>> from pbntool.tools.score.games import Place
    >>> here = Place(1)
    >>> format_value(2.0, Stated("2", here)), format_value(0.52831, Stated("0.53", here))
    ('2', '0.528')
    """
    if float(computed).is_integer():
        return str(int(computed))
    places = max(decimals(stated.text) + 1, 2)
    return f"{computed:.{places}f}"


def choose_variants(
    items: Sequence[Item], variants: Mapping[str, Sequence[Variant]], tolerance: float | None
) -> tuple[dict[tuple[str, str], str], list[Diagnostic]]:
    """The variant used for each (file, kind), and an EVT017 note for each that is not the
    default (unless the file or the command line named it)."""
    groups: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in items:
        groups[(item.game.key.file, item.kind)].append(item)
    chosen: dict[tuple[str, str], str] = {}
    notes: list[Diagnostic] = []
    for (file, kind), members in groups.items():
        declared = next((item.declared for item in members if item.declared), None)
        labels = [variant.label for variant in variants[kind]]
        if declared is not None:
            chosen[(file, kind)] = declared
            continue
        best = _best(members, labels, tolerance)
        chosen[(file, kind)] = best
        if best != labels[0]:
            first = min(
                members, key=lambda item: (item.stated.place.line, item.stated.place.column or 0)
            )
            note = EVT017.at(what=f"{KINDS[kind]} of this file", variant=best)
            notes.append(placed(note, first.game, first.stated.place))
    return chosen, notes


def _best(members: Iterable[Item], labels: Sequence[str], tolerance: float | None) -> str:
    scores = dict.fromkeys(labels, 0)
    misses = dict.fromkeys(labels, 0)
    for item in members:
        for label in labels:
            computed = item.computed.get(label)
            if computed is None:
                continue
            if agrees(item.stated, item.value, computed, tolerance, item.decimals):
                scores[label] += 1
            else:
                misses[label] += 1
    if misses[labels[0]] == 0:
        return labels[0]
    return max(labels, key=lambda label: (scores[label], -labels.index(label)))
