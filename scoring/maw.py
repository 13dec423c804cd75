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

How each game turns a hand into points is in :mod:`scoring.maw_plans`; the options, presets
and the checks of a sitting's rules in :mod:`scoring.maw_rules`.

Decisions where the spec is silent:

- 25's double game: the party had 0 in the game as the hand began and takes all five tricks,
  and the game was not decided before the fifth trick; it wins (2 games) at the fifth trick
  even when an overridden target is not yet reached.
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
from .maw_plans import AUCTION_FIELDS, ONE_TEN_FIELDS, TRICK_FIELDS, plan_auction, plan_one_ten, plan_tricks
from .maw_rules import (
    AUCTION_45_OPTIONS,
    AUCTION_45_PRESETS,
    BIDS,
    CALLS,
    FORTY_FIVE_OPTIONS,
    FORTY_FIVE_PRESETS,
    HUNDRED,
    ONE_TEN_OPTIONS,
    ONE_TEN_PRESETS,
    TOP_BID,
    TWENTY_FIVE_OPTIONS,
    TWENTY_FIVE_PRESETS,
    check_sitting,
)
from .race import TRICKS, RaceReplay, party_index, replay_race
from .registry import START_TOTALS, TEAMS, GameSpec, Sitting

MIN_PLAYERS, MAX_PLAYERS = 2, 10

# -- replays and specs -------------------------------------------------------------------


def _replay(planner, can_go_negative, fixed=None):
    fixed = fixed or {}

    def replay(sitting: Sitting) -> dict[str, Any]:
        problems = Problems()
        check_sitting(sitting, problems, can_go_negative=can_go_negative, fixed=fixed)
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
    players, teams = _table(rng, game, variant, kw)
    request: dict[str, Any] = {"game": game, "variant": variant, "players": players, "hands": []}
    if overrides:
        request["rules"] = overrides
    if teams:
        request["teams"] = teams
    sitting = Sitting(players=tuple(players), rules=rules, hands=(), teams=_tuple_teams(teams))
    request["hands"] = _random_hands(rng, hands, game, sitting)
    return request


def _table(rng: random.Random, game: str, variant: str, kw: dict[str, Any]):
    """``(players, teams)``: the names, and the teams (None for cut-throat), partners seated
    alternately."""
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
    return players, teams


def _random_hands(rng: random.Random, hands: int, game: str, sitting: Sitting) -> list[dict[str, Any]]:
    """Hands played one after the other, each made for the game in progress as it begins."""
    rules = sitting.rules
    problems = Problems()
    replay = RaceReplay(sitting, PLANNERS[game], problems, AUCTION_FIXED if game == "auction_45" else None)
    parties, _index, seat_party = party_index(sitting.players, sitting.teams)
    out = []
    for i in range(hands):
        if game == "one_ten":
            hand = _random_one_ten_hand(rng, rules, parties)
        elif game == "auction_45":
            dealer_party = seat_party[i % len(sitting.players)]
            hand = _random_auction_hand(rng, rules, parties, replay.race.upcoming(), dealer_party)
        else:
            hand = _random_tricks_hand(rng, rules, parties)
        result = replay.step(hand)
        if problems:
            raise AssertionError(f"example_request made an invalid hand {hand}: {problems.items}")
        _stop_at_game_over(rng, hand, result["game_over"])
        out.append(hand)
    return out


def _stop_at_game_over(rng: random.Random, hand: dict[str, Any], over) -> None:
    """Mostly the table stops at the trick that decides the game."""
    if not over or over["trick"] >= TRICKS or rng.random() >= 0.7:
        return
    hand["tricks"] = hand["tricks"][: over["trick"]]
    if "top_trump_trick" in hand and (hand["top_trump_trick"] or 0) > over["trick"]:
        hand["top_trump_trick"] = None


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
    bids = list(range(_lowest_bid(rules, start[maker]), 31, 5))
    bid = rng.choice(bids[:4] if rng.random() < 0.9 else bids)
    hand: dict[str, Any] = {"maker": parties[maker], "bid": bid}
    if bid == 30:
        _random_call(rng, rules, start[maker], hand)
    if maker == dealer_party and bid == rules["min_bid"] and rng.random() < 0.3:
        hand["bagged"] = True
    elif len(parties) > 1 and rng.random() < 0.5:
        _random_other_bid(rng, rules, parties, start, maker, bid, hand)
    hand["tricks"] = _random_winners(rng, parties, parties[maker], 0.5)
    hand["top_trump_trick"] = _top_trump(rng)
    return hand


def _lowest_bid(rules, total: int) -> int:
    return rules["min_bid_at_100"] if total >= HUNDRED else rules["min_bid"]


def _random_call(rng, rules, total: int, hand: dict[str, Any]) -> None:
    """Now and then a call on a bid of 30, where the variant plays it."""
    if rules["60_for_120"] and (total < 0 or not rules["60_for_120_in_hole"]) and rng.random() < 0.1:
        hand["call"] = "60_for_120"  # "(selten)"
    elif rules["30_for_60"] and rng.random() < 0.5:
        hand["call"] = "30_for_60"


def _random_other_bid(rng, rules, parties, start, maker, bid, hand: dict[str, Any]) -> None:
    """Another party's highest bid, when it could bid at all below the maker's."""
    other = rng.choice([p for p in range(len(parties)) if p != maker])
    other_low = _lowest_bid(rules, start[other])
    if other_low <= bid:
        hand["other_bids"] = {parties[other]: rng.choice(range(other_low, bid + 1, 5))}
