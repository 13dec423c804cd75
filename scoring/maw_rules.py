"""The rule options and presets of the Maw family's race games: Twenty-Five, Forty-Five,
One-Hundred-and-Ten and Auction Forty-Fives (Spoil Five's are in :mod:`scoring.maw_spoil`), and
the checks of a sitting's rules and starting totals the options alone cannot make.

Decisions where the spec is silent:

- ``dreaded_45`` together with ``ends_mid_hand`` is refused (a rules error): the game would be
  over before the end of the hand where the check is made.
- ``start_totals``: in a game decided mid-hand a party at or above the target is an error (that
  game is over); in 25 and 45 a negative score is an error (they cannot go below 0).
"""

from __future__ import annotations

from .errors import Problems, _
from .options import BOOL, CHOICE, INT, INT_PAIR, Option
from .registry import START_TOTALS, Sitting

HUNDRED = 100  # min_bid_at_100 applies to a party with this many points or more
CALLS = ("30_for_60", "60_for_120")
# Bids (110, Auction 45s) go in steps of BID_STEP up to TOP_BID, which needs all five tricks.
BID_STEP, TOP_BID = 5, 30
BIDS = tuple(range(BID_STEP, TOP_BID + 1, BID_STEP))

# -- options -----------------------------------------------------------------------------

# The ranges keep an evening's figures within what the results table stores (scoring/limits.py).
MAX_TARGET = 1_000
MAX_CALL_SCORE = 1_000  # either way, a bid of 30 or a call (Auction 45s)
TARGET = Option(
    "target",
    INT,
    _("Points to win a game"),
    _("The first party to reach it wins the game."),
    minimum=1,
    maximum=MAX_TARGET,
)
TRICK_POINTS = Option("trick_points", INT, _("Points per trick"), minimum=0, maximum=100)
TOP_TRUMP_BONUS = Option(
    "top_trump_bonus",
    INT,
    _("Bonus for the highest trump"),
    _("Counted for the trick the highest trump in play wins, at the moment it is won."),
    minimum=0,
    maximum=100,
)
MATCH_GAMES = Option(
    "match_games",
    INT,
    _("Games to win a match (robber)"),
    _("Empty: no matches, just games. 3 plays best of five."),
    nullable=True,
    minimum=1,
    maximum=100,
)
ENDS_MID_HAND = Option(
    "ends_mid_hand",
    BOOL,
    _("A game can end in the middle of a hand"),
    _("On: the first party to reach the target wins at that trick. Off: every hand is played out."),
)

TWENTY_FIVE_OPTIONS = (
    TARGET,
    TRICK_POINTS,
    Option(
        "double_on_jink_from_zero",
        BOOL,
        _("All five tricks from nothing win a double game"),
        _("A party with no points in the game that takes all five tricks of a hand wins two games."),
    ),
    MATCH_GAMES,
)

FORTY_FIVE_OPTIONS = (
    TARGET,
    TRICK_POINTS,
    TOP_TRUMP_BONUS,
    ENDS_MID_HAND,
    Option(
        "jink_wins_game",
        BOOL,
        _("All five tricks win the game (jink)"),
        _("A party that takes all five tricks of a hand wins the game whatever the score."),
    ),
    Option(
        "majority_scoring",
        BOOL,
        _("Only the majority scores"),
        _("3 or 4 tricks score one trick's points, all five twice that; the others nothing."),
    ),
    Option(
        "dreaded_45",
        BOOL,
        _("Dreaded 45"),
        _("A party ending a hand on exactly the target drops to 0. Needs every hand played out."),
    ),
    MATCH_GAMES,
)

ONE_TEN_OPTIONS = (
    TARGET,
    TRICK_POINTS,
    TOP_TRUMP_BONUS,
    Option(
        "maker_scores",
        CHOICE,
        _("A successful bidder scores"),
        choices=("made", "bid"),
        choice_labels={"made": _("what he made"), "bid": _("his bid")},
    ),
    Option(
        "must_bid_out",
        BOOL,
        _("Must bid out"),
        _("Only the bidder can go past the target less 5 (105): the others' scores stop there."),
    ),
    Option("min_bid", INT, _("Lowest bid"), minimum=BIDS[0], maximum=TOP_BID),
    Option(
        "bidder_out_first",
        BOOL,
        _("The bidder goes out first"),
        _(
            "When the bidder and another player both reach the target in one hand, the bidder wins if he made his "
            "bid. Off: the first to reach it wins."
        ),
    ),
    MATCH_GAMES,
)

AUCTION_45_OPTIONS = (
    Option("min_bid", INT, _("Lowest bid"), minimum=BIDS[0], maximum=TOP_BID),
    Option("min_bid_at_100", INT, _("Lowest bid with 100 or more"), minimum=BIDS[0], maximum=TOP_BID),
    Option(
        "bid_30",
        INT_PAIR,
        _("A bid of 30: made / failed"),
        _("Points for all five tricks bid, e.g. 60 / -60."),
        minimum=-MAX_CALL_SCORE,
        maximum=MAX_CALL_SCORE,
    ),
    Option(
        "30_for_60",
        INT_PAIR,
        _("Call “30 for 60”: made / failed"),
        _("Empty: the call is not played."),
        nullable=True,
        minimum=-MAX_CALL_SCORE,
        maximum=MAX_CALL_SCORE,
    ),
    Option(
        "60_for_120",
        INT_PAIR,
        _("Call “60 for 120”: made / failed"),
        _("Empty: the call is not played."),
        nullable=True,
        minimum=-MAX_CALL_SCORE,
        maximum=MAX_CALL_SCORE,
    ),
    Option(
        "60_for_120_in_hole",
        BOOL,
        _("Only a party in the hole may call “60 for 120”"),
        _("On: only a party below 0 may make the call."),
    ),
    Option(
        "frozen_at",
        INT,
        _("Frozen at"),
        _("A party with this many points or more scores only as the maker. Empty: never frozen."),
        nullable=True,
        minimum=0,
        maximum=MAX_TARGET,
    ),
    Option(
        "frozen_rule",
        CHOICE,
        _("What frozen means"),
        _("For a party at “Frozen at” or more that is not the maker."),
        choices=("frozen_at", "maker_fails_only"),
        choice_labels={
            "frozen_at": _("it scores nothing"),
            "maker_fails_only": _("it scores only when the maker fails"),
        },
    ),
    Option(
        "bid_unfreezes",
        INT,
        _("A frozen party that bid this much still scores"),
        _("Empty: a frozen party scores only as the maker."),
        nullable=True,
        minimum=BIDS[0],
        maximum=TOP_BID,
    ),
    Option(
        "on_the_green",
        BOOL,
        _("On the green"),
        _("With two or more parties at 90 or more, a party can only win the game as the maker."),
    ),
    TARGET,
    Option(
        "both_reach_target",
        CHOICE,
        _("When several parties reach the target in one hand"),
        choices=("maker", "higher"),
        choice_labels={"maker": _("the maker wins"), "higher": _("the higher total wins")},
    ),
    Option(
        "lose_at",
        INT,
        _("A party this far down loses"),
        _("A party at or below it (e.g. -120) loses the game. Empty: nobody loses that way."),
        nullable=True,
        minimum=-MAX_TARGET,
        maximum=-1,
    ),
    Option(
        "sets_lose",
        INT,
        _("Failed bids that lose the game"),
        _("A party that fails this many bids in a game loses it. Empty: no limit."),
        nullable=True,
        minimum=1,
        maximum=100,
    ),
    TRICK_POINTS,
    TOP_TRUMP_BONUS,
    MATCH_GAMES,
)

# -- presets -----------------------------------------------------------------------------

TWENTY_FIVE_PRESETS = {
    "standard": {"target": 25, "trick_points": 5, "double_on_jink_from_zero": True, "match_games": None},
}

_FORTY_FIVE_BASE = {
    "target": 45,
    "trick_points": 5,
    "top_trump_bonus": 5,
    "ends_mid_hand": True,
    "jink_wins_game": False,
    "majority_scoring": False,
    "dreaded_45": False,
    "match_games": None,
}
FORTY_FIVE_PRESETS = {
    "bruff": {**_FORTY_FIVE_BASE, "jink_wins_game": True, "match_games": 3},
    "merrimack": {**_FORTY_FIVE_BASE, "ends_mid_hand": False},
    "barker": {**_FORTY_FIVE_BASE, "top_trump_bonus": 0, "ends_mid_hand": False, "majority_scoring": True},
    "kerry": {**_FORTY_FIVE_BASE, "target": 31, "top_trump_bonus": 11},
}

ONE_TEN_PRESETS = {
    "standard": {
        "target": 110,
        "trick_points": 5,
        "top_trump_bonus": 5,
        "maker_scores": "made",
        "must_bid_out": False,
        "min_bid": 15,
        "bidder_out_first": False,
        "match_games": None,
    },
}

_AUCTION_BASE = {
    "min_bid": 5,
    "min_bid_at_100": 20,
    "bid_30": [60, -60],
    "30_for_60": None,
    "60_for_120": None,
    "60_for_120_in_hole": False,
    "frozen_at": None,
    "frozen_rule": "frozen_at",
    "bid_unfreezes": None,
    "on_the_green": False,
    "target": 120,
    "both_reach_target": "maker",
    "lose_at": None,
    "sets_lose": None,
    "trick_points": 5,
    "top_trump_bonus": 5,
    "match_games": None,
}
AUCTION_45_PRESETS = {
    "barker": dict(_AUCTION_BASE),
    "merrimack": {
        **_AUCTION_BASE,
        "min_bid": 15,
        "bid_30": [30, -30],
        "30_for_60": [60, -60],
        "60_for_120": [120, -120],
        "frozen_at": 100,
    },
    "atlantic": {
        **_AUCTION_BASE,
        "min_bid": 15,
        "min_bid_at_100": 15,
        "bid_30": [60, -30],
        "30_for_60": [60, -30],
        "60_for_120": [120, -60],
        "60_for_120_in_hole": True,
        "frozen_at": 105,
    },
}


# -- checks of the rules and starting totals ---------------------------------------------


def check_sitting(sitting: Sitting, problems: Problems, *, can_go_negative: bool, fixed: dict) -> None:
    """The rules in force (``fixed`` under the sitting's) and the starting totals."""
    rules = {**fixed, **sitting.rules}
    _check_rules(rules, problems)
    if sitting.start_totals:
        _check_start_totals(sitting.start_totals, rules, problems, can_go_negative)


def _check_rules(rules: dict, problems: Problems) -> None:
    for name in ("min_bid", "min_bid_at_100"):
        if name in rules and rules[name] % BID_STEP:
            problems.add(None, "rules", _("Rule option “%(name)s” must be a multiple of 5."), name=name)
    if rules.get("frozen_rule") == "maker_fails_only" and rules.get("frozen_at") is None:
        problems.add(
            None,
            "rules",
            _("Rule option “frozen_rule” needs “frozen_at”: the score from which a party is frozen (e.g. 100)."),
        )
    if rules.get("dreaded_45") and rules.get("ends_mid_hand", True):
        problems.add(
            None,
            "rules",
            _("Dreaded 45 is checked at the end of a hand: it needs “ends_mid_hand” off."),
        )


def _check_start_totals(start_totals: dict, rules: dict, problems: Problems, can_go_negative: bool) -> None:
    target = rules["target"]
    mid = rules.get("ends_mid_hand", True)
    for party, total in start_totals.items():
        if mid and total >= target:
            problems.add(
                None,
                START_TOTALS,
                _("%(name)s already has the target (%(total)s): that game is over."),
                name=party,
                total=total,
            )
        if not can_go_negative and total < 0:
            problems.add(None, START_TOTALS, _("%(name)s cannot have less than 0 in this game."), name=party)
