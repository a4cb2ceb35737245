"""PBN tag names: the mandatory tag set, known supplemental tags, tables, inheritance rules."""

from __future__ import annotations

__all__ = [
    "FORBIDDEN_INHERITANCE",
    "KNOWN_TAGS",
    "MANDATORY_TAGS",
    "MANDATORY_TAGS_V1",
    "SECTION_TAGS",
    "TABLE_TAGS",
]

MANDATORY_TAGS: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
"""The mandatory tag set of PBN 2.0/2.1, in export order."""

MANDATORY_TAGS_V1: tuple[str, ...] = tuple(tag for tag in MANDATORY_TAGS if tag != "Scoring")
"""PBN 1.0 (and 0.8) had no Scoring in the mandatory tag set."""

TABLE_TAGS = frozenset(
    {
        "ActionTable",
        "AuctionTimeTable",
        "InstantScoreTable",
        "OptimumPlayTable",
        "OptimumResultTable",
        "PlayTimeTable",
        "ScoreTable",
        "TotalScoreTable",
    }
)

SECTION_TAGS = TABLE_TAGS | {"Auction", "Play"}

SUPPLEMENTAL_TAGS = frozenset(
    {
        "Annotator",
        "AnnotatorNA",
        "Application",
        "BidSystemEW",
        "BidSystemNS",
        "Competition",
        "DealId",
        "Description",
        "EventDate",
        "EventSponsor",
        "FrenchMP",
        "Generator",
        "Hidden",
        "HomeTeam",
        "Mode",
        "OptimumScore",
        "PairEW",
        "PairNS",
        "Room",
        "Round",
        "Score",
        "ScoreIMP",
        "ScoreMP",
        "ScorePercentage",
        "ScoreRubber",
        "ScoreRubberHistory",
        "Section",
        "Stage",
        "Table",
        "Termination",
        "Time",
        "TimeCall",
        "TimeCard",
        "TimeControl",
        "UTCDate",
        "UTCTime",
        "VisitTeam",
        "WestNA",
        "NorthNA",
        "EastNA",
        "SouthNA",
        "WestType",
        "NorthType",
        "EastType",
        "SouthType",
        "Note",
        "Auction",
        "Play",
    }
)

VENDOR_TAGS = frozenset(
    {
        "DoubleDummyTricks",
        "ParContract",
        "BCFlags",
        "Ability",
        "Minimax",
        "RotationBasis",
        "Student",
    }
)
"""Extensions written by widely used programs (BridgeComposer, DDS-based tools); see §14."""

KNOWN_TAGS = frozenset(MANDATORY_TAGS) | SUPPLEMENTAL_TAGS | TABLE_TAGS | VENDOR_TAGS

FORBIDDEN_INHERITANCE = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"}
)
"""Tags that may not take ``#``/``##`` values (PBN §6)."""
