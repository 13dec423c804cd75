"""56 (``fifty_six``): shared/spec/fifty-six.md, seed 002.

Six players in two teams of three (the seed knows only six: "zwei Teams mit je drei
Spielern"), seated alternately: ``A`` = ``players[0,2,4]``, ``B`` = ``players[1,3,5]`` unless
the request names ``teams``. ``players[0]`` deals first; play runs counterclockwise, so the
deal passes to the dealer's right, ``players[i-1]``. Everyone plays every hand.

A hand: ``bidder``, ``bid`` (28..56), ``trump`` (clubs, spades, hearts, diamonds, no_trump),
``double`` (0 none, 1 double, 2 redouble), ``bidder_team_points`` (0..56).

The bidding team wins with at least its bid. The winner scores the stake of the table (by
bid, and whether the bidders won: the option ``stake_table``, tiers of [lowest bid, bidders
won, bidders lost], the seed's 28-39 / 40-47 / 48-55 / 56 → 1/2, 2/3, 3/4, 4/5 by default),
after double (``double`` option) or redouble (``redouble`` option); the other team scores
nothing. Options ``double``/``redouble`` are
data: ``"x2"`` multiplies the stake by 2, ``"+1"`` adds 1.

With ``tables`` (tokens per team) the totals start at that number; the losing team pays the
stake to the winning one; a team that cannot pay in full pays what it has and loses the match,
and so does a team left with exactly 0 tokens (the other then holds them all); the next hand
starts a new match with ``tables`` tokens each.

Decisions where the spec is silent:

- ``double`` may be omitted or null (no double); it must otherwise be 0, 1 or 2 (not a bool).
- The given ``teams`` must be exactly two teams of three.
- ``stake_table``: the first tier starts at 28 (so every bid has a stake), each further tier
  higher, at most 8 tiers; a tier runs up to the next tier's lowest bid. Stakes from 0 to 100.
- ``deltas`` are the net change of the totals as shown, so every hand's totals are the
  previous hand's totals plus its deltas; the first hand of a new match therefore includes
  the reset to ``tables``. Without ``tables`` there are no resets and the deltas are the
  stake for the winning team, 0 for the other.

Response extras: per hand ``bidder_team``, ``made`` (the bidding team took at least its bid),
``paid`` (tables only: tokens the losing team actually paid, else null), ``match_winner``
(the team that won the match at this hand, or null), ``hand_winners`` (``[winner_team]``) and
``game_winner`` (``match_winner``), see :mod:`scoring.results`; at the top ``matches`` (every finished
match: ``{"winner", "hand"}``).
"""

from __future__ import annotations

import random
from typing import Any

from .errors import Problems, _
from .options import CHOICE, INT, TIERS, Option, tier_of
from .registry import TEAMS, GameSpec, Sitting
from .results import ReplayResult

TRUMPS = ("clubs", "spades", "hearts", "diamonds", "no_trump")
HAND_FIELDS = frozenset({"bidder", "bid", "trump", "double", "bidder_team_points"})
MIN_BID, MAX_BID, CARD_POINTS = 28, 56, 56
DOUBLES = (0, 1, 2)  # none, double, redouble

# The seed's stake table: [lowest bid of the tier, bidding team wins: it scores, bidding team
# loses: the others score].
SEED_STAKES = [[28, 1, 2], [40, 2, 3], [48, 3, 4], [56, 4, 5]]
MAX_STAKE = 100  # x 8 at most (a redouble): far inside one hand's bound (scoring/limits.py)

FACTORS = ("x2", "x3", "x4", "x6", "x8", "+1", "+2", "+3", "+4")
FACTOR_LABELS = {
    "x2": _("× 2"),
    "x3": _("× 3"),
    "x4": _("× 4"),
    "x6": _("× 6"),
    "x8": _("× 8"),
    "+1": _("+ 1"),
    "+2": _("+ 2"),
    "+3": _("+ 3"),
    "+4": _("+ 4"),
}

OPTIONS = (
    Option(
        "double",
        CHOICE,
        _("Double"),
        _("What a double does to the stake: multiply it (× 2) or add to it (+ 1)."),
        choices=FACTORS,
        choice_labels=FACTOR_LABELS,
    ),
    Option(
        "redouble",
        CHOICE,
        _("Redouble"),
        _("What a redouble does to the stake: multiply it (× 4) or add to it (+ 2)."),
        choices=FACTORS,
        choice_labels=FACTOR_LABELS,
    ),
    Option(
        "tables",
        INT,
        _("Tables (tokens per team)"),
        _(
            "Each team starts with this many tokens and the losers of a hand pay the stake to the winners; a "
            "team that cannot pay in full loses the match. Empty: just add up the points."
        ),
        nullable=True,
        minimum=1,
        maximum=1_000,  # tokens: a total never exceeds both teams' (scoring/limits.py)
    ),
    Option(
        "stake_table",
        TIERS,
        _("Stakes by bid"),
        _(
            "Each row: the lowest bid of the tier, what the bidding team scores when it makes its bid, what the "
            "others score when it fails. A tier runs up to the next row's lowest bid; the first starts at 28."
        ),
        choices=tuple(range(MIN_BID, MAX_BID + 1)),
        minimum=0,
        maximum=MAX_STAKE,
    ),
)

PRESETS = {
    "seed": {"double": "x2", "redouble": "x4", "tables": None, "stake_table": SEED_STAKES},
    "tournament": {"double": "+1", "redouble": "+2", "tables": None, "stake_table": [list(t) for t in SEED_STAKES]},
}


def apply_factor(stake: int, factor: str) -> int:
    amount = int(factor[1:])
    return stake * amount if factor[0] == "x" else stake + amount


def replay(sitting: Sitting) -> ReplayResult:
    players = sitting.players
    seats = len(players)
    problems = Problems()
    teams = sitting.teams or {"A": players[0::2], "B": players[1::2]}
    if len(teams) != 2 or any(len(members) * 2 != seats for members in teams.values()):
        problems.add(None, TEAMS, _("56 is played by two teams of three."))
        problems.raise_if_any()
    team_of = {p: team for team, members in teams.items() for p in members}
    match = _Match(sitting.rules, list(teams))
    out_hands = []
    dealer_index = 0
    for number, hand in enumerate(sitting.hands, start=1):
        dealer = players[dealer_index]
        dealer_index = (dealer_index - 1) % seats  # play runs counterclockwise
        read = _read_hand(hand, number, team_of, problems)
        if read is not None:
            bidder, bid, double, points = read
            result = {"number": number, "dealer": dealer, "active": list(players)}
            result.update(match.play(number, team_of[bidder], bid, double, points))
            out_hands.append(result)
    problems.raise_if_any()
    return {
        "parties": match.parties,
        "hands": out_hands,
        "totals": dict(match.totals),
        "next": {"dealer": players[dealer_index], "active": list(players)},
        "winner": match.winner,
        "matches": match.matches,
    }


def _read_hand(hand, number, team_of, problems) -> tuple[str, int, int, int] | None:
    """``(bidder, bid, double, bidder_team_points)``, or None after reporting every problem."""
    before = len(problems)
    for key in hand:
        if key not in HAND_FIELDS:
            problems.add(number, key, _("Unknown field “%(name)s”."), name=str(key))
    bidder = hand.get("bidder")
    if bidder is None:
        problems.add(number, "bidder", _("Say who made the final bid."))
    elif not isinstance(bidder, str) or bidder not in team_of:
        problems.add(number, "bidder", _("The bidder is not at the table."))
    bid = hand.get("bid")
    _check_whole(
        bid,
        MIN_BID,
        MAX_BID,
        number,
        "bid",
        _("Give the final bid."),
        _("The bid must be a whole number from 28 to 56."),
        problems,
    )
    _check_trump(hand.get("trump"), number, problems)
    double = _read_double(hand.get("double"), number, problems)
    points = hand.get("bidder_team_points")
    _check_whole(
        points,
        0,
        CARD_POINTS,
        number,
        "bidder_team_points",
        _("Give the card points the bidding team took."),
        _("The bidding team's card points must be from 0 to 56."),
        problems,
    )
    if len(problems) != before:
        return None
    return bidder, bid, double, points


def _check_whole(value, low, high, number, field, missing, wrong, problems) -> None:
    """A required whole number from ``low`` to ``high``: ``missing`` or ``wrong`` otherwise."""
    if value is None:
        problems.add(number, field, missing)
    elif type(value) is not int or not low <= value <= high:
        problems.add(number, field, wrong)


def _check_trump(trump, number, problems) -> None:
    if trump is None:
        problems.add(number, "trump", _("Say which suit was trump, or no_trump."))
    elif not isinstance(trump, str) or trump not in TRUMPS:
        problems.add(number, "trump", _("Trump must be clubs, spades, hearts, diamonds or no_trump."))


def _read_double(double, number, problems) -> int:
    """0 none (also when left out), 1 double, 2 redouble."""
    if double is None:
        return 0
    if type(double) is not int or double not in DOUBLES:
        problems.add(number, "double", _("Double must be 0 (none), 1 (double) or 2 (redouble)."))
    return double


class _Match:
    """The totals of the two teams across the hands of a sitting; with ``tables`` the tokens of
    the match in progress, and the matches won."""

    def __init__(self, rules: dict[str, Any], parties: list[str]):
        self.rules = rules
        self.parties = parties
        self.other = {parties[0]: parties[1], parties[1]: parties[0]}
        self.tables = rules["tables"]
        self.start = dict.fromkeys(parties, self.tables or 0)
        self.totals = dict(self.start)  # replaced by a copy at each hand: the hands keep theirs
        self.reset = False  # the last hand ended a match: the next starts with ``tables`` again
        self.winner = None
        self.matches: list[dict[str, Any]] = []

    def stake(self, bid: int, made: bool, double: int) -> int:
        """The stake of the table for ``bid``, after a double or redouble."""
        won_stake, lost_stake = tier_of(self.rules["stake_table"], bid)
        stake = won_stake if made else lost_stake
        if double:
            stake = apply_factor(stake, self.rules["redouble" if double == 2 else "double"])
        return stake

    def play(self, number: int, bidder_team: str, bid: int, double: int, points: int) -> dict[str, Any]:
        """Score a valid hand: the winning team gets the stake (with tables: from the losers'
        tokens); the hand's result fields."""
        made = points >= bid
        stake = self.stake(bid, made, double)
        winner_team = bidder_team if made else self.other[bidder_team]
        previous = self.totals
        self.totals = totals = dict(self.start) if self.reset else dict(previous)
        self.reset = False
        match_winner = None
        paid = None
        if self.tables is None:
            totals[winner_team] += stake
        else:
            paid = self._pay(winner_team, stake)
            if totals[self.other[winner_team]] == 0:
                match_winner = self._match_won(winner_team, number)
        return {
            "deltas": {t: totals[t] - previous[t] for t in self.parties},
            "totals": totals,
            "winner_team": winner_team,
            "stake": stake,
            "bidder_team": bidder_team,
            "made": made,
            "paid": paid,
            "match_winner": match_winner,
            # scoring.results: the hand's winning team; the match (tables) as the game
            "hand_winners": [winner_team],
            "game_winner": match_winner,
        }

    def _pay(self, winner_team: str, stake: int) -> int:
        """The losers pay the stake, or what they have left."""
        loser_team = self.other[winner_team]
        paid = min(stake, self.totals[loser_team])
        self.totals[loser_team] -= paid
        self.totals[winner_team] += paid
        return paid

    def _match_won(self, winner_team: str, number: int) -> str:
        """Short of the stake, or paid down to exactly 0: the other team holds every token."""
        self.winner = winner_team
        self.matches.append({"winner": winner_team, "hand": number})
        self.reset = True
        return winner_team


GAME = GameSpec(
    key="fifty_six",
    label=_("56"),
    options=OPTIONS,
    presets=PRESETS,
    default_preset="seed",
    replay=replay,
    min_players=6,
    max_players=6,
    extra_fields=frozenset({TEAMS}),
    preset_labels={
        "seed": _("Seed rules (double × 2, redouble × 4)"),
        "tournament": _("Tournament (double + 1, redouble + 2)"),
    },
    teams_required=True,
    hand_fields=HAND_FIELDS,
)


# Requests for the API docs showing the house-rule options at work (leagues/api.py reads
# them): {game: [(title, request)]}, the title saying what the figures are and why.
API_EXAMPLES = {
    "fifty_six": [
        # 28-39 / 40-55 / 56 -> 1/2, 2/3, 3/4, 10 tokens a team: Anna (A) bids 48 and takes 40:
        # the others score 3, doubled 6, paid from A's tokens (A 4, B 16).
        (
            "Stake table of three tiers, with tables",
            {
                "game": "fifty_six",
                "rules": {"stake_table": [[28, 1, 2], [40, 2, 3], [56, 3, 4]], "tables": 10},
                "players": ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"],
                "hands": [{"bidder": "Anna", "bid": 48, "trump": "hearts", "double": 1, "bidder_team_points": 40}],
            },
        ),
    ],
}


def example_request(rng: random.Random, hands: int, **kw: Any) -> dict[str, Any]:
    """A valid calculate request with ``hands`` random, realistic hands.

    Keyword arguments: ``variant``, ``rules`` (overrides, e.g. ``{"tables": 12}``),
    ``players`` (six names), ``teams``.
    """
    players = list(kw.get("players", ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]))
    variant = kw.get("variant", "seed")
    out = []
    for _i in range(hands):
        bid = min(MAX_BID, MIN_BID + int(rng.expovariate(1 / 6)))
        points = max(0, min(CARD_POINTS, bid + rng.randint(-10, 8)))
        roll = rng.random()
        double = 2 if roll < 0.02 else 1 if roll < 0.1 else 0
        out.append(
            {
                "bidder": rng.choice(players),
                "bid": bid,
                "trump": rng.choice(TRUMPS),
                "double": double,
                "bidder_team_points": points,
            }
        )
    request: dict[str, Any] = {"game": "fifty_six", "variant": variant, "players": players, "hands": out}
    if kw.get("rules"):
        request["rules"] = kw["rules"]
    if kw.get("teams"):
        request["teams"] = kw["teams"]
    return request
