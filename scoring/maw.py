"""The Maw family (shared/spec/maw.md, seed 000): Twenty-Five, Forty-Five, One-Hundred-and-Ten,
Auction Forty-Fives (race games, scored by :mod:`scoring.race`) and Spoil Five
(:mod:`scoring.maw_spoil`).

Parties are the teams when the sitting names ``teams``, else the players (cut-throat). A trick,
a bidder or a maker is entered as the party, or as a player standing for his team. Every
player is active in every hand; ``players[0]`` deals first and the deal passes clockwise
across games. Two to ten players (the seed: "Von zwei bis zehn Spieler können spielen").

Hands: ``tricks`` (the winners in playing order: five, fewer only when the game was decided
earlier), ``top_trump_trick`` (1-based trick won by the highest trump in play, null when no
trump was played; required wherever ``top_trump_bonus`` is not 0, else optional and only
checked). 110 adds ``bidder`` and ``bid``; Auction 45s ``maker``, ``bid``, ``call``,
``other_bids``, ``bagged``. Optional fields may be given as null (same as omitted).

How each game turns a hand into points (the race itself is in :mod:`scoring.race`):

- 25 and 45: ``trick_points`` for each trick at the moment it is won, the top trump's trick
  ``top_trump_bonus`` more. ``majority_scoring`` (Barker): a party scores ``trick_points`` at
  the trick that gives it its third trick of the hand and as much again at its fifth (3 or 4
  tricks: 5, all five: 10).
- 110: the others score each trick as it is won (with ``must_bid_out``, never past target − 5
  unless they are already there: then they stay). The bidder's points count at the trick where
  what he made reaches his bid (all he made so far, or with ``maker_scores: bid`` the bid),
  then each further trick he wins (nothing more with ``maker_scores: bid``). A bid of 30 counts
  +60 at the fifth trick when he took all five. A failed bid costs the bid (30: 60) when the
  hand is played out.
- Auction 45s: always scored at the end of the hand (``ends_mid_hand`` fixed false, no option). The maker scores what it made (tricks and bonus)
  if that reaches the bid; a bid of 30 or a call is made only with all five tricks and scores
  the option's pair (``bid_30``, ``30_for_60``, ``60_for_120``: [made, failed], the failed value
  signed, e.g. [60, -60]); a failed bid below 30 costs the bid. A non-maker that had
  ``frozen_at`` or more when the hand began scores nothing, unless ``bid_unfreezes`` is set and
  ``other_bids`` shows it bid at least that much; with ``frozen_rule: maker_fails_only`` it
  scores what it took when the maker failed its bid (and nothing when the maker made it).

Decisions where the spec is silent:

- 25's double game: the party had 0 in the game as the hand began and takes all five tricks,
  and the game was not decided before the fifth trick; it wins (2 games) at the fifth trick
  even when an overridden target is not yet reached.
- ``dreaded_45`` together with ``ends_mid_hand`` is refused (a rules error): the game would be
  over before the end of the hand where the check is made.
- ``start_totals``: in a game decided mid-hand a party at or above the target is an error (that
  game is over); in 25 and 45 a negative score is an error (they cannot go below 0).
- Auction 45s: the 100 of ``min_bid_at_100``, and the 90 of ``on_the_green``, are judged on
  the totals as the hand begins. A ``bagged`` dealer must bid only ``min_bid`` (the seed: "muss
  15 bieten") even with 100 or more; only the dealer's party can be bagged, and then nobody
  else bid (``other_bids`` empty). ``other_bids`` name parties other than the maker, each bid a
  multiple of 5 from 5 to 30 and not above the maker's. ``60_for_120_in_hole`` is the Atlantic
  "only a party below 0" (judged on its total as the hand begins). ``sets_lose`` counts the
  bids a party failed in the game in progress.
- 110: ``min_bid`` is the smallest bid; bids go in steps of 5 up to 30. 30-for-60 is +/-60
  (twice the bid). ``bidder_out_first`` is played as :mod:`scoring.race` describes: the bidder
  wins at the trick his points reach the target; another party that reached it first wins
  only at the end of the hand, which must then be entered in full.
- Auction 45s ``frozen_rule`` reads its threshold from ``frozen_at`` (100 in Merrimack, 105 in
  the Atlantic provinces): ``maker_fails_only`` without a ``frozen_at`` is a rules error rather
  than a rule that never applies. ``bid_unfreezes`` applies under both rules. A frozen party
  that scores because the maker failed gets what it took (tricks and top trump), like anyone.
- Auction 45s ``lose_at``: a party at or below it when the hand has been scored loses the game
  (e.g. -125); the strictly highest of the others wins it (see :mod:`scoring.race`).

Response extras: see :mod:`scoring.race` (``scored``, ``games_won`` and ``made`` per hand,
``matches`` at the top) and :mod:`scoring.maw_spoil`; Auction 45s add ``next.min_bid`` (each
party's lowest bid in the next hand, the entry form's help).
"""

from __future__ import annotations

import random
from typing import Any

from . import maw_spoil
from .errors import Problems, _
from .options import BOOL, CHOICE, INT, INT_PAIR, Option
from .race import (
    MISSING,
    TRICKS,
    Plan,
    RaceReplay,
    check_fields,
    party_index,
    read_party,
    read_top_trump,
    read_tricks,
    replay_race,
)
from .registry import START_TOTALS, TEAMS, GameSpec, Sitting

MIN_PLAYERS, MAX_PLAYERS = 2, 10
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


def _check_sitting(sitting: Sitting, problems: Problems, *, can_go_negative: bool, fixed: dict) -> None:
    rules = {**fixed, **sitting.rules}
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
    if sitting.start_totals:
        target = rules["target"]
        mid = rules.get("ends_mid_hand", True)
        for party, total in sitting.start_totals.items():
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


# -- planners: a hand as points falling due trick by trick -------------------------------

TRICK_FIELDS = frozenset({"tricks", "top_trump_trick"})
ONE_TEN_FIELDS = frozenset({"bidder", "bid", "tricks", "top_trump_trick"})
AUCTION_FIELDS = frozenset({"maker", "bid", "call", "other_bids", "bagged", "tricks", "top_trump_trick"})


def _tricks_and_top(hand, number, problems, replay, bonus):
    tricks = read_tricks(hand, number, problems, replay.index)
    top = read_top_trump(hand, number, problems, len(tricks) if tricks else TRICKS, bonus > 0)
    return tricks, top


def plan_tricks(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """25 and 45: points for each trick as it is won."""
    rules = replay.rules
    ok = check_fields(hand, TRICK_FIELDS, number, problems)
    bonus = rules.get("top_trump_bonus", 0)
    tricks, top = _tricks_and_top(hand, number, problems, replay, bonus)
    if not ok or tricks is None or top is MISSING:
        return None
    points = rules["trick_points"]
    if rules.get("majority_scoring"):
        counts = [0] * replay.race.size
        credits = []
        for k, party in enumerate(tricks):
            counts[party] += 1
            value = points if counts[party] in (3, 5) else 0
            if k == top:
                value += bonus
            credits.append(((party, value, None),) if value else ())
    else:
        credits = [((party, points + bonus if k == top else points, None),) for k, party in enumerate(tricks)]
    return Plan(tricks, credits)


def _read_bid(hand, number, problems, low):
    value = hand.get("bid")
    if value is None:
        problems.add(number, "bid", _("Enter the bid."))
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BIDS:
        problems.add(number, "bid", _("A bid is 5, 10, 15, 20, 25 or 30."))
        return None
    if value < low:
        problems.add(number, "bid", _("The lowest bid is %(min)s."), min=low)
        return None
    return value


def plan_one_ten(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """110: the others score trick by trick; the bidder from the trick his bid is made."""
    rules = replay.rules
    ok = check_fields(hand, ONE_TEN_FIELDS, number, problems)
    bidder = read_party(hand, "bidder", number, problems, replay.index)
    bid = _read_bid(hand, number, problems, rules["min_bid"])
    bonus = rules["top_trump_bonus"]
    tricks, top = _tricks_and_top(hand, number, problems, replay, bonus)
    if not ok or bidder is None or bid is None or tricks is None or top is MISSING:
        return None
    points = rules["trick_points"]
    cap = rules["target"] - 5 if rules["must_bid_out"] else None
    scores_bid = rules["maker_scores"] == "bid"
    made = 0
    won = 0
    made_at = None
    credits = []
    for k, party in enumerate(tricks):
        value = points + bonus if k == top else points
        if party != bidder:
            credits.append(((party, value, cap),))
            continue
        made += value
        won += 1
        credit = 0
        if made_at is None:
            if bid == TOP_BID:
                if won == TRICKS:
                    made_at, credit = k, 2 * bid
            elif made >= bid:
                made_at, credit = k, (bid if scores_bid else made)
        elif not scores_bid:
            credit = value
        credits.append(((party, credit, None),) if credit else ())
    failed = made_at is None
    end = ((bidder, -2 * bid if bid == TOP_BID else -bid),) if failed else ()
    return Plan(tricks, credits, end, maker=bidder, made_at=made_at, failed=failed)


def plan_auction(hand: dict, number: int, problems: Problems, replay: RaceReplay) -> Plan | None:
    """Auction 45s: everything scored at the end of the hand."""
    rules = replay.rules
    index = replay.index
    totals = replay.race.totals
    ok = check_fields(hand, AUCTION_FIELDS, number, problems)
    maker = read_party(hand, "maker", number, problems, index)
    bagged = hand.get("bagged")
    if bagged is not None and not isinstance(bagged, bool):
        problems.add(number, "bagged", _("Bagged must be true or false."))
        ok, bagged = False, None
    low = rules["min_bid"]
    if maker is not None and not bagged and totals[maker] >= HUNDRED:
        low = rules["min_bid_at_100"]
    bid = _read_bid(hand, number, problems, BIDS[0])
    if bid is not None and maker is not None and bid < low:
        problems.add(
            number,
            "bid",
            _("%(party)s has %(total)s points: the lowest bid is %(min)s."),
            party=replay.parties[maker],
            total=totals[maker],
            min=low,
        )
        bid = None
    if bagged and maker is not None and maker != replay.dealer_party:
        problems.add(number, "bagged", _("Only the dealer can be bagged."))
        ok = False

    call = hand.get("call")
    pair = None
    if call is not None:
        if not isinstance(call, str) or call not in CALLS:
            problems.add(number, "call", _("A call is “30_for_60” or “60_for_120”."))
            ok = False
        elif rules[call] is None:
            problems.add(number, "call", _("The call “%(call)s” is not played in this variant."), call=call)
            ok = False
        elif bid is not None and bid != TOP_BID:
            problems.add(number, "call", _("A call needs a bid of 30."))
            ok = False
        elif call == "60_for_120" and rules["60_for_120_in_hole"] and maker is not None and totals[maker] >= 0:
            problems.add(
                number,
                "call",
                _("Only a party below 0 may call “60 for 120”; %(party)s has %(total)s."),
                party=replay.parties[maker],
                total=totals[maker],
            )
            ok = False
        else:
            pair = rules[call]

    others: dict[int, int] = {}
    value = hand.get("other_bids")
    if value is not None:
        if not isinstance(value, dict):
            problems.add(number, "other_bids", _("Other bids must map each party to the highest bid it made."))
            ok = False
        else:
            for name, other in value.items():
                party = index.get(name) if isinstance(name, str) else None
                if party is None:
                    problems.add(
                        number, "other_bids", _("“%(name)s” is not a player or team at this table."), name=str(name)
                    )
                    ok = False
                elif party == maker or party in others:
                    problems.add(
                        number,
                        "other_bids",
                        _("%(name)s is the maker or named twice: list each other party once."),
                        name=name,
                    )
                    ok = False
                elif isinstance(other, bool) or not isinstance(other, int) or other not in BIDS:
                    problems.add(number, "other_bids", _("A bid is 5, 10, 15, 20, 25 or 30."))
                    ok = False
                elif bid is not None and other > bid:
                    problems.add(
                        number,
                        "other_bids",
                        _("%(name)s bid %(other)s, more than the winning bid %(bid)s."),
                        name=name,
                        other=other,
                        bid=bid,
                    )
                    ok = False
                else:
                    others[party] = other
            if bagged and others:
                problems.add(number, "bagged", _("A bagged dealer bid because nobody else did: no other bids."))
                ok = False

    bonus = rules["top_trump_bonus"]
    tricks, top = _tricks_and_top(hand, number, problems, replay, bonus)
    if tricks is not None and len(tricks) != TRICKS:
        problems.add(number, "tricks", _("Enter all five tricks: in this variant every hand is played out."))
        tricks = None
    if not ok or maker is None or bid is None or tricks is None or top is MISSING:
        return None

    points = rules["trick_points"]
    size = replay.race.size
    taken = [0] * size
    count = [0] * size
    for k, party in enumerate(tricks):
        taken[party] += points + bonus if k == top else points
        count[party] += 1
    if bid == TOP_BID or pair is not None:
        made = count[maker] == TRICKS
        pair = pair or rules["bid_30"]
        score = pair[0] if made else pair[1]
    else:
        made = taken[maker] >= bid
        score = taken[maker] if made else -bid
    frozen_at = rules["frozen_at"]
    unfreezes = rules["bid_unfreezes"]
    # frozen_rule "maker_fails_only": a frozen party still scores when the maker fails its bid
    thaws = rules["frozen_rule"] == "maker_fails_only" and not made
    final = []
    for party in range(size):
        if party == maker:
            value = score
        elif (
            frozen_at is not None
            and totals[party] >= frozen_at
            and not thaws
            and not (unfreezes is not None and others.get(party, 0) >= unfreezes)
        ):
            value = 0
        else:
            value = taken[party]
        if value:
            final.append((party, value, None))
    credits = [(), (), (), (), tuple(final)]
    return Plan(tricks, credits, maker=maker, made_at=TRICKS - 1 if made else None, failed=not made)


# -- replays and specs -------------------------------------------------------------------


def _replay(planner, can_go_negative, fixed=None):
    fixed = fixed or {}

    def replay(sitting: Sitting) -> dict[str, Any]:
        problems = Problems()
        _check_sitting(sitting, problems, can_go_negative=can_go_negative, fixed=fixed)
        out = replay_race(sitting, planner, problems, fixed)
        if planner is plan_auction:
            out["next"]["min_bid"] = _next_min_bids(sitting.rules, out)
        return out

    return replay


def _next_min_bids(rules: dict[str, Any], out: dict[str, Any]) -> dict[str, int]:
    """Each party's lowest bid in the next hand (a finished game restarts from 0)."""
    restart = bool(out["hands"]) and out["hands"][-1]["game_over"] is not None
    low, high = rules["min_bid"], rules["min_bid_at_100"]
    return {p: high if not restart and total >= HUNDRED else low for p, total in out["totals"].items()}


RACE_FIELDS = frozenset({TEAMS, START_TOTALS})
# Auction 45s always score a hand at its end (no option: the spec fixes it)
AUCTION_FIXED = {"ends_mid_hand": False}

TWENTY_FIVE = GameSpec(
    key="twenty_five",
    label=_("Twenty-Five"),
    options=TWENTY_FIVE_OPTIONS,
    presets=TWENTY_FIVE_PRESETS,
    default_preset="standard",
    replay=_replay(plan_tricks, False),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    extra_fields=RACE_FIELDS,
    preset_labels={"standard": _("Twenty-Five")},
    hand_fields=TRICK_FIELDS,
)

FORTY_FIVE = GameSpec(
    key="forty_five",
    label=_("Forty-Five"),
    options=FORTY_FIVE_OPTIONS,
    presets=FORTY_FIVE_PRESETS,
    default_preset="bruff",
    replay=_replay(plan_tricks, False),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    extra_fields=RACE_FIELDS,
    hand_fields=TRICK_FIELDS,
    preset_labels={
        "bruff": _("Bruff (Limerick): jink wins, robbers of three"),
        "merrimack": _("Merrimack Valley: every hand played out"),
        "barker": _("Dave Barker: only the majority scores"),
        "kerry": _("Kerry: Thirty-One"),
    },
)

ONE_TEN = GameSpec(
    key="one_ten",
    label=_("One-Hundred-and-Ten"),
    options=ONE_TEN_OPTIONS,
    presets=ONE_TEN_PRESETS,
    default_preset="standard",
    replay=_replay(plan_one_ten, True),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    extra_fields=RACE_FIELDS,
    preset_labels={"standard": _("One-Hundred-and-Ten")},
    hand_fields=ONE_TEN_FIELDS,
)

AUCTION_45 = GameSpec(
    key="auction_45",
    label=_("Auction Forty-Fives"),
    options=AUCTION_45_OPTIONS,
    presets=AUCTION_45_PRESETS,
    default_preset="barker",
    replay=_replay(plan_auction, True, AUCTION_FIXED),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    extra_fields=RACE_FIELDS,
    hand_fields=AUCTION_FIELDS,
    preset_labels={
        "barker": _("Dave Barker"),
        "merrimack": _("Merrimack Valley"),
        "atlantic": _("Canadian Atlantic provinces"),
    },
)

SPOIL_FIVE = maw_spoil.SPOIL_FIVE


# -- what the entry form offers, from the same numbers the checks use ---------------------


def bids(rules: dict[str, Any]) -> list[int]:
    """Every bid allowed under ``rules``, lowest first; empty for a game without bids. The
    lowest is ``min_bid``, or in Auction 45s ``min_bid_at_100`` if that is lower (a bagged
    dealer bids ``min_bid`` even at 100, so a higher ``min_bid_at_100`` never removes a bid)."""
    lows = [rules[name] for name in ("min_bid", "min_bid_at_100") if rules.get(name) is not None]
    return [bid for bid in BIDS if bid >= min(lows)] if lows else []


def calls(rules: dict[str, Any]) -> list[str]:
    """The calls (Auction 45s) played under ``rules``: a call whose option is empty is not."""
    return [call for call in CALLS if rules.get(call) is not None]


def top_bid_scores(game: str, rules: dict[str, Any]) -> tuple[int, int] | None:
    """What a bid of TOP_BID (all five tricks) scores, made and failed; None without bids.
    110: twice the bid either way ("thirty for sixty"); Auction 45s: the option ``bid_30``."""
    if game == "one_ten":
        return 2 * TOP_BID, -2 * TOP_BID
    if game == "auction_45":
        made, failed = rules["bid_30"]
        return made, failed
    return None


GAMES = {spec.key: spec for spec in (TWENTY_FIVE, FORTY_FIVE, ONE_TEN, AUCTION_45, SPOIL_FIVE)}
PLANNERS = {
    "twenty_five": plan_tricks,
    "forty_five": plan_tricks,
    "one_ten": plan_one_ten,
    "auction_45": plan_auction,
}

# -- random valid sittings ---------------------------------------------------------------

NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Greta", "Hans", "Ida", "Jonas")
# (players, teams: 0 for cut-throat) a table of each variant typically sits at; partners
# never sit next to each other
TABLES = {
    ("forty_five", "bruff"): ((6, 3),),
    ("forty_five", "barker"): ((4, 2), (6, 2), (2, 0)),
    ("forty_five", "kerry"): ((4, 2), (3, 0)),
    ("auction_45", "barker"): ((4, 2), (6, 2)),
    ("auction_45", "atlantic"): ((4, 2), (6, 3), (3, 0)),
}
DEFAULT_TABLES = ((4, 2), (6, 3), (6, 2), (3, 0), (4, 0), (5, 0))


def example_request(rng: random.Random, hands: int, game: str = "twenty_five", **kw: Any) -> dict[str, Any]:
    """A valid calculate request for ``game`` with ``hands`` random, realistic hands.

    Keyword arguments: ``variant`` (a preset), ``rules`` (overrides), ``players`` (a count or
    names), ``teams`` (a number of teams, seated alternately, 0 for cut-throat, or a teams dict).
    """
    spec = GAMES[game]
    variant = kw.get("variant") or spec.default_preset
    if game == "spoil_five":
        return maw_spoil.example_request(rng, hands, variant=variant, **{k: v for k, v in kw.items() if k != "variant"})
    overrides = kw.get("rules") or {}
    rules = {**spec.presets[variant], **overrides}
    count, team_count = rng.choice(TABLES.get((game, variant), DEFAULT_TABLES))
    players = kw.get("players", count)
    if isinstance(players, int):
        players = list(NAMES[:players])
    players = list(players)
    teams = kw.get("teams", team_count)
    if isinstance(teams, int):
        if teams >= 2 and len(players) % teams == 0 and len(players) > teams:
            teams = {chr(65 + t): players[t::teams] for t in range(teams)}
        else:
            teams = None
    request: dict[str, Any] = {"game": game, "variant": variant, "players": players, "hands": []}
    if overrides:
        request["rules"] = overrides
    if teams:
        request["teams"] = teams
    sitting = Sitting(players=tuple(players), rules=rules, hands=(), teams=_tuple_teams(teams))
    problems = Problems()
    replay = RaceReplay(sitting, PLANNERS[game], problems, AUCTION_FIXED if game == "auction_45" else None)
    parties, _index, seat_party = party_index(sitting.players, sitting.teams)
    make = {"twenty_five": _random_tricks_hand, "forty_five": _random_tricks_hand}.get(game)
    for i in range(hands):
        start = replay.race.upcoming()
        dealer_party = seat_party[i % len(players)]
        if make:
            hand = make(rng, rules, parties)
        elif game == "one_ten":
            hand = _random_one_ten_hand(rng, rules, parties)
        else:
            hand = _random_auction_hand(rng, rules, parties, start, dealer_party)
        result = replay.step(hand)
        if problems:
            raise AssertionError(f"example_request made an invalid hand {hand}: {problems.items}")
        over = result["game_over"]
        if over and over["trick"] < TRICKS and rng.random() < 0.7:
            # the table stops at the trick that decides the game
            hand["tricks"] = hand["tricks"][: over["trick"]]
            if "top_trump_trick" in hand and (hand["top_trump_trick"] or 0) > over["trick"]:
                hand["top_trump_trick"] = None
        request["hands"].append(hand)
    return request


# Requests for the API docs showing the house-rule options at work (leagues/api.py reads
# them): {game: [(title, request)]}, the title saying what the figures are and why.
API_EXAMPLES = {
    "one_ten": [
        # Ben reaches 110 at trick 1, but Anna (100) makes her bid of 15 at trick 3 and reaches
        # 115: she wins at trick 3.
        (
            "The bidder goes out first",
            {
                "game": "one_ten",
                "rules": {"bidder_out_first": True},
                "players": ["Anna", "Ben", "Carl"],
                "start_totals": {"Anna": 100, "Ben": 105},
                "hands": [
                    {
                        "bidder": "Anna",
                        "bid": 15,
                        "tricks": ["Ben", "Anna", "Anna", "Anna", "Carl"],
                        "top_trump_trick": 2,
                    }
                ],
            },
        ),
    ],
    "auction_45": [
        # Frozen at 100: Ben bids 20 and takes 10, -20; Anna (100) took 15 and scores it because
        # Ben failed: 115.
        (
            "Frozen parties score only when the maker fails",
            {
                "game": "auction_45",
                "variant": "merrimack",
                "rules": {"frozen_rule": "maker_fails_only"},
                "players": ["Anna", "Ben", "Carl"],
                "start_totals": {"Anna": 100, "Ben": 50},
                "hands": [
                    {"maker": "Ben", "bid": 20, "tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "top_trump_trick": 1}
                ],
            },
        ),
        # Team A (-100) bids 25 and takes 15, -25: at -125 it has lost, and team B wins the game.
        (
            "Out at -125",
            {
                "game": "auction_45",
                "rules": {"lose_at": -125},
                "players": ["Anna", "Ben", "Carl", "Dora"],
                "teams": {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]},
                "start_totals": {"A": -100, "B": 50},
                "hands": [{"maker": "A", "bid": 25, "tricks": ["A", "B", "B", "A", "B"], "top_trump_trick": 1}],
            },
        ),
    ],
}


def _tuple_teams(teams):
    return {name: tuple(members) for name, members in teams.items()} if teams else None


def _random_winners(rng: random.Random, parties, favourite=None, weight=1.0) -> list[str]:
    if rng.random() < 0.04:
        return [rng.choice(parties)] * TRICKS  # all five tricks to one party
    if favourite is None:
        return [rng.choice(parties) for _ in range(TRICKS)]
    return [favourite if rng.random() < weight else rng.choice(parties) for _ in range(TRICKS)]


def _top_trump(rng: random.Random) -> int | None:
    return None if rng.random() < 0.05 else rng.randint(1, TRICKS)


def _random_tricks_hand(rng, rules, parties) -> dict[str, Any]:
    hand: dict[str, Any] = {"tricks": _random_winners(rng, parties)}
    if rules.get("top_trump_bonus", 0):
        hand["top_trump_trick"] = _top_trump(rng)
    return hand


def _random_one_ten_hand(rng, rules, parties) -> dict[str, Any]:
    bidder = rng.choice(parties)
    bid = rng.choice([b for b in (15, 20, 20, 25, 30) if b >= rules["min_bid"]] or [30])
    tricks = _random_winners(rng, parties, bidder, 0.45)
    return {"bidder": bidder, "bid": bid, "tricks": tricks, "top_trump_trick": _top_trump(rng)}


def _random_auction_hand(rng, rules, parties, start, dealer_party) -> dict[str, Any]:
    maker = rng.randrange(len(parties))
    low = rules["min_bid_at_100"] if start[maker] >= HUNDRED else rules["min_bid"]
    bids = [b for b in range(low, 31, 5)]
    bid = rng.choice(bids[:4] if rng.random() < 0.9 else bids)
    hand: dict[str, Any] = {"maker": parties[maker], "bid": bid}
    if bid == 30:
        if rules["60_for_120"] and (start[maker] < 0 or not rules["60_for_120_in_hole"]) and rng.random() < 0.1:
            hand["call"] = "60_for_120"  # "(selten)"
        elif rules["30_for_60"] and rng.random() < 0.5:
            hand["call"] = "30_for_60"
    if maker == dealer_party and bid == rules["min_bid"] and rng.random() < 0.3:
        hand["bagged"] = True
    elif len(parties) > 1 and rng.random() < 0.5:
        other = rng.choice([p for p in range(len(parties)) if p != maker])
        other_low = rules["min_bid_at_100"] if start[other] >= HUNDRED else rules["min_bid"]
        if other_low <= bid:
            hand["other_bids"] = {parties[other]: rng.choice(range(other_low, bid + 1, 5))}
    hand["tricks"] = _random_winners(rng, parties, parties[maker], 0.5)
    hand["top_trump_trick"] = _top_trump(rng)
    return hand
