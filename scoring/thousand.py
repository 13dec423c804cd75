"""1000 (``thousand``): shared/spec/thousand.md, seed 001 (Königsberg house rules).

Three active players; with four at the table the dealer sits out. ``players[0]`` deals first
and the deal passes clockwise (``players[i+1]``), across games.

A hand: ``declarer``, ``bid``, ``points`` ({active player: card points}, sum 120), optional
``marriages`` ({player: [suit, ...]}), ``all_tricks`` and ``forgot_to_pass``.

Scoring, in the order the spec gives it:

- contract = bid + ``bid_offset``. The declarer's T = card points (doubled with
  ``all_tricks``) + his marriages; made when T >= contract, judged on the exact T (before any
  rounding: 158 or 159 against 160 fails). Made: + contract; failed: − contract.
- Every other active player adds card points + marriages rounded to the nearest multiple of
  ``round_to`` (half up: 52 → 50, 53 → 55; with an even ``round_to`` a tie rounds up).
- ``barrel``: a non-declarer's total never rises above it; at or above it he scores nothing
  except as declarer.
- ``forgot_to_pass``: the declarer loses ``forgot_to_pass_penalty``, nobody else scores.
- A player above ``target`` wins the game (with ``target_inclusive``: at or above it, Pagat's
  and the Polish ">= 1000", on in ``pagat``: from the barrel at 880 a made contract of 120
  lands on 1000 and wins); several in one hand: the higher total, then the declarer, then
  the first of them after the dealer (clockwise). That hand's totals are the game's final
  scores; the next hand starts a new game from 0.

The Polish penalties (off in both presets):

- ``barrel_turns`` (needs a ``barrel``) and ``barrel_fall``: a player on the barrel who has not
  won the game within ``barrel_turns`` of the hands he plays there loses ``barrel_fall``.
- ``zero_rounds_penalty``: a player who takes 0 points in three hands in a row that he plays
  loses it. Hands he plays on the barrel don't count, even with no trick (Pagat's rule), nor
  does the hand that ends the game.

Decisions where the spec is silent (the scorekeeper's view):

- ``deltas`` are the net change of the totals as shown, resets included, so that every hand's
  totals are the previous hand's totals plus its deltas (calculate-api.md, "in race games the
  net change, resets included"). The first hand of a new game therefore shows, for a player
  who ended the previous game at 1010 and now scores 60, a delta of −950. What each player
  scored in the hand itself is in the extra per-hand field ``scored``.
- The smallest bid is the one whose contract is 100 (the forced "vorgeführt" contract):
  ``koenigsberg`` bid 0 (or 5, 10, …), ``pagat`` bid 100. In general a bid must be a
  non-negative multiple of ``bid_step`` with bid + ``bid_offset`` >= 100.
- The largest contract is what 520 points allow (thousand.md): 240 (all tricks, doubled)
  plus every positive marriage value; bids above it are an error.
- ``points`` must name every active player (a player who took nothing is entered as 0) and
  nobody else; each between 0 and 120, summing to 120. With ``all_tricks`` the declarer took
  all 120 and nobody else can have melded (melding needs the lead, which only the declarer
  had). ``all_tricks`` together with ``forgot_to_pass`` is an impossible combination.
- With ``forgot_to_pass`` the hand ended at the first lead: ``points`` and ``marriages`` may be
  omitted; when given they are checked like any other hand's but score nothing.
- Optional fields may be given as ``null`` (same as omitted).
- ``start_totals`` above the target are an error (that game would already be over); a start
  total on or above the barrel is allowed (the player sits on the barrel).
- ``barrel_turns``, where the peers say "within three deals": a hand counts as one of his hands
  on the barrel when he began it on the barrel (total >= ``barrel``) and played in it (with
  four, the hand he deals and sits out does not count; a forgot-to-pass hand counts, it was
  dealt). The hand that takes him onto the barrel does not count. If after his
  ``barrel_turns``-th such hand he is still on the barrel and the game was not won in it, he
  loses ``barrel_fall`` at the end of that hand (part of what the hand scored him, so the sheet
  shows it in that hand's delta). Leaving the barrel (a failed contract, a penalty) ends the
  count; climbing back starts a new one. A game that ends starts every count afresh.
- ``zero_rounds_penalty``: "0 points" is what a defender took in the hand, card points plus
  marriages rounded to ``round_to`` (2 card points are 0). A hand he began on the barrel
  (total >= ``barrel``, as for ``barrel_turns``) is no zero hand, even when he took no trick;
  it ends the run, though none can be running then: the hand that took him onto the barrel
  scored him points or had him declare. A declarer never has 0 (he plays for a contract), so
  declaring breaks the run; a hand he sits out (four at the table) and a forgot-to-pass hand
  (not played) neither count nor break it. The third zero in a row costs the penalty at the
  end of that hand and starts a new run; the runs start afresh with each game.
- Both penalties come after the hand's winner is known: a hand that ends the game costs
  nobody a penalty and counts towards no run (its totals are the game's final scores; the
  next game's runs start from nothing). The two never fall on one player in one hand: the
  zero penalty only on one who began the hand below the barrel, the fall only on one who
  began it on the barrel.

Response extras: per hand ``declarer``, ``scored`` (by player: what the hand itself scored,
before any reset, penalties included), ``game_winner`` (the player who won the game at this
hand, or null), ``hand_winners`` (scoring.results: the game's winner at the hand that ends a
game, else the declarer who made his contract or the defenders who set him, nobody after
``forgot_to_pass``), ``penalties`` (the Polish penalties of the hand: ``{"player", "reason":
"barrel" or "zero_rounds", "points"}``, points negative); at the top ``games`` (every finished
game: ``{"winner", "hand"}``).
"""

from __future__ import annotations

import random
from typing import Any

from .errors import Problems, _
from .registry import START_TOTALS, GameSpec, Sitting
from .results import ReplayResult
from .thousand_hand import HAND_FIELDS, Hand, read_hand
from .thousand_rules import CARD_POINTS, OPTIONS, PRESETS, SUITS, bid_range

ZERO_HANDS = 3  # ``zero_rounds_penalty``: this many hands in a row with 0 points cost it


def round_half_up(value: int, multiple: int) -> int:
    """Nearest multiple of ``multiple``; a tie rounds up (52 → 50, 53 → 55 for 5)."""
    return (2 * value + multiple) // (2 * multiple) * multiple


# -- the game in progress ----------------------------------------------------------------


class _Game:
    """The game in progress across the hands of a sitting, and the games won."""

    def __init__(self, sitting: Sitting):
        rules = sitting.rules
        self.rules = rules
        self.players = sitting.players
        self.barrel = rules["barrel"]
        self.zero = dict.fromkeys(self.players, 0)
        self.totals = dict(self.zero)  # replaced by a copy at each hand: the hands keep theirs
        # hands each player has played on the barrel without winning, and hands in a row he took
        # 0 points in (both within the game in progress)
        self.on_barrel = dict(self.zero)
        self.zero_run = dict(self.zero)
        self.reset = False  # the last hand ended a game: the next starts from 0
        self.winner = None
        self.games: list[dict[str, Any]] = []

    def wins(self, total: int) -> bool:
        target = self.rules["target"]
        return total >= target if self.rules["target_inclusive"] else total > target

    def start(self, start_totals: dict[str, int] | None, problems: Problems) -> None:
        """The totals the sitting starts with; a game already won cannot go on."""
        for name, value in (start_totals or {}).items():
            if self.wins(value):
                problems.add(
                    None,
                    START_TOTALS,
                    _("%(name)s starts at or above the target of %(target)s; that game is already over.")
                    if self.rules["target_inclusive"]
                    else _("%(name)s starts above the target of %(target)s; that game is already over."),
                    name=name,
                    target=self.rules["target"],
                )
            self.totals[name] = value

    def play(self, hand: Hand, number: int, dealer: str, active) -> dict[str, Any]:
        """Score a valid hand; its entry of the response."""
        previous = self.totals
        if self.reset:  # a new game: the totals and the Polish counts start afresh
            self.totals = dict(self.zero)
            self.on_barrel, self.zero_run = dict(self.zero), dict(self.zero)
            self.reset = False
        else:
            self.totals = dict(previous)
        totals = self.totals
        began = dict(totals)
        scored = dict(self.zero)
        contract = hand.bid + self.rules["bid_offset"]
        if hand.forgot:  # the declarer pays the penalty, nobody else scores
            made = False
            taken_by: dict[str, int] = {}
            self._book(hand.declarer, -self.rules["forgot_to_pass_penalty"], scored)
        else:
            made = self._declarer_plays(hand, contract, scored)
            taken_by = self._defenders_score(hand, active, scored)
        game_winner = self._judge(hand.declarer, dealer, active, number)
        penalties: list[dict[str, Any]] = []
        if game_winner is None:  # the game goes on: the Polish penalties
            if not hand.forgot:
                self._zero_hands(active, began, taken_by, scored, penalties)
            self._barrel_turns(active, began, scored, penalties)
        return {
            "number": number,
            "dealer": dealer,
            "active": list(active),
            "deltas": {p: totals[p] - previous[p] for p in self.players},
            "totals": totals,
            "contract": contract,
            "made": made,
            "declarer": hand.declarer,
            "scored": scored,
            "game_winner": game_winner,
            "penalties": penalties,
            "hand_winners": _hand_winners(active, hand.declarer, made, hand.forgot, game_winner),
        }

    def _book(self, name: str, points: int, scored: dict[str, int]) -> None:
        scored[name] += points
        self.totals[name] += points

    def _declarer_plays(self, hand: Hand, contract: int, scored: dict[str, int]) -> bool:
        """The declarer's card points (doubled with all tricks) and marriages against his
        contract, judged on the exact figure: made, he gains the contract, else loses it."""
        declarer = hand.declarer
        taken = hand.points[declarer] * (2 if hand.all_tricks else 1) + hand.marriages.get(declarer, 0)
        made = taken >= contract
        self._book(declarer, contract if made else -contract, scored)
        return made

    def _defenders_score(self, hand: Hand, active, scored: dict[str, int]) -> dict[str, int]:
        """Each other player's card points and marriages, rounded, up to the barrel; what
        each took before the barrel (for the zero hands)."""
        taken_by = {}
        for name in active:
            if name == hand.declarer:
                continue
            gain = round_half_up(hand.points[name] + hand.marriages.get(name, 0), self.rules["round_to"])
            taken_by[name] = gain
            self._book(name, self._below_barrel(self.totals[name], gain), scored)
        return taken_by

    def _below_barrel(self, total: int, gain: int) -> int:
        """A non-declarer's total never rises above the barrel; on it he scores nothing."""
        barrel = self.barrel
        if barrel is None:
            return gain
        if total >= barrel:
            return 0
        return barrel - total if total + gain > barrel else gain

    def _judge(self, declarer: str, dealer: str, active, number: int) -> str | None:
        """The player who won the game at this hand (the next hand starts a new one), or None."""
        totals = self.totals
        over = [p for p in active if self.wins(totals[p])]
        if not over:
            return None
        best = max(totals[p] for p in over)
        tied = [p for p in over if totals[p] == best]
        if len(tied) == 1:
            winner = tied[0]
        elif declarer in tied:
            winner = declarer
        else:
            # first of them after the dealer, clockwise
            players = self.players
            d = players.index(dealer)
            winner = min(tied, key=lambda p: (players.index(p) - d - 1) % len(players))
        self.winner = winner
        self.games.append({"winner": winner, "hand": number})
        self.reset = True
        return winner

    def _zero_hands(self, active, began, taken_by, scored, penalties) -> None:
        """``zero_rounds_penalty``: the third hand in a row a defender took 0 (below the
        barrel) costs it; declaring breaks the run."""
        penalty = self.rules["zero_rounds_penalty"]
        if penalty is None:
            return
        barrel = self.barrel
        for name in active:
            zero_hand = taken_by.get(name, 1) == 0 and (barrel is None or began[name] < barrel)
            self.zero_run[name] = self.zero_run[name] + 1 if zero_hand else 0
            if self.zero_run[name] == ZERO_HANDS:
                self.zero_run[name] = 0
                self._charge(name, penalty, "zero_rounds", scored, penalties)

    def _barrel_turns(self, active, began, scored, penalties) -> None:
        """``barrel_turns``: a player still on the barrel after that many hands he began there
        and played falls off, losing ``barrel_fall``."""
        turns, barrel = self.rules["barrel_turns"], self.barrel
        if turns is None or barrel is None:
            return
        for name in active:
            if began[name] < barrel or self.totals[name] < barrel:
                self.on_barrel[name] = 0
                continue
            self.on_barrel[name] += 1
            if self.on_barrel[name] == turns:
                self.on_barrel[name] = 0
                self._charge(name, self.rules["barrel_fall"], "barrel", scored, penalties)

    def _charge(self, name, points, reason, scored, penalties) -> None:
        """A Polish penalty (``reason``: "barrel" or "zero_rounds"), part of the hand's score."""
        self._book(name, -points, scored)
        penalties.append({"player": name, "reason": reason, "points": -points})


def replay(sitting: Sitting) -> ReplayResult:
    rules = sitting.rules
    players = sitting.players
    seats = len(players)
    problems = Problems()
    if rules["barrel_turns"] is not None and rules["barrel"] is None:
        problems.add(None, "rules", _("Rule option “barrel_turns” needs a barrel (rule option “barrel”)."))
    game = _Game(sitting)
    game.start(sitting.start_totals, problems)
    actives = [_active(players, dealer) for dealer in players]
    out_hands = []
    dealer_index = 0
    for number, hand in enumerate(sitting.hands, start=1):
        dealer = players[dealer_index]
        active = actives[dealer_index]
        dealer_index = (dealer_index + 1) % seats
        read = read_hand(hand, number, players, active, rules, problems)
        if read is not None:
            out_hands.append(game.play(read, number, dealer, active))
    problems.raise_if_any()
    next_dealer = players[dealer_index]
    return {
        "parties": list(players),
        "hands": out_hands,
        "totals": dict(game.totals),
        "next": {"dealer": next_dealer, "active": list(_active(players, next_dealer))},
        "winner": game.winner,
        "games": game.games,
    }


def _active(players: tuple[str, ...], dealer: str) -> tuple[str, ...]:
    """Who plays when ``dealer`` deals: with four at the table the dealer sits out."""
    if len(players) == 4:
        return tuple(p for p in players if p != dealer)
    return players


def _hand_winners(active, declarer, made, forgot, game_winner) -> list[str]:
    """Who won the hand (scoring.results): the game's winner where it was won; else the
    declarer who made his contract, or the defenders who set him; nobody when he forgot to
    pass (no card was played)."""
    if game_winner is not None:
        return [game_winner]
    if forgot:
        return []
    if made:
        return [declarer]
    return [name for name in active if name != declarer]


GAME = GameSpec(
    key="thousand",
    label=_("1000"),
    options=OPTIONS,
    presets=PRESETS,
    default_preset="koenigsberg",
    replay=replay,
    min_players=3,
    max_players=4,
    extra_fields=frozenset({START_TOTALS}),
    hand_fields=HAND_FIELDS,
    preset_labels={
        "koenigsberg": _("Königsberg house rules (bids 5, 10, 15 … plus 100)"),
        "pagat": _("Pagat (bids from 100, barrel at 880)"),
    },
)


# Requests for the API docs showing the house-rule options at work (leagues/api.py reads
# them): {game: [(title, request)]}, the title saying what the figures are and why.
API_EXAMPLES = {
    "thousand": [
        # Anna sits on the barrel (880) and has not won after three hands there: she falls back
        # 120 to 760 in hand 3 (its "penalties"). Ben and Carl each fail a contract of 100 in turn.
        (
            "Polish rules: falling off the barrel",
            {
                "game": "thousand",
                "variant": "pagat",
                "rules": {"barrel_turns": 3, "barrel_fall": 120, "zero_rounds_penalty": 120, "target_inclusive": True},
                "players": ["Anna", "Ben", "Carl"],
                "start_totals": {"Anna": 880},
                "hands": [
                    {"declarer": "Ben", "bid": 100, "points": {"Anna": 20, "Ben": 70, "Carl": 30}},
                    {"declarer": "Carl", "bid": 100, "points": {"Anna": 20, "Ben": 30, "Carl": 70}},
                    {"declarer": "Ben", "bid": 100, "points": {"Anna": 20, "Ben": 70, "Carl": 30}},
                ],
            },
        ),
    ],
}


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def example_request(rng: random.Random, hands: int, **kw: Any) -> dict[str, Any]:
    """A valid calculate request with ``hands`` random, realistic hands.

    Keyword arguments: ``players`` (3 or 4 names, or a count), ``variant``, ``rules``
    (overrides), ``start_totals``.
    """
    names = ["Anna", "Ben", "Carl", "Dora"]
    players = kw.get("players", 3 if rng.random() < 0.6 else 4)
    if isinstance(players, int):
        players = names[:players]
    players = list(players)
    variant = kw.get("variant", "koenigsberg")
    rules = {**PRESETS[variant], **(kw.get("rules") or {})}
    seats = len(players)
    out = []
    for i in range(hands):
        dealer = players[i % seats]
        active = [p for p in players if p != dealer] if seats == 4 else players
        out.append(_random_hand(rng, rules, active))
    request: dict[str, Any] = {"game": "thousand", "variant": variant, "players": players, "hands": out}
    if kw.get("rules"):
        request["rules"] = kw["rules"]
    if kw.get("start_totals"):
        request["start_totals"] = kw["start_totals"]
    return request


def _random_hand(rng: random.Random, rules: dict[str, Any], active: list[str]) -> dict[str, Any]:
    declarer = rng.choice(active)
    min_bid, max_bid = bid_range(rules)
    if rng.random() < 0.01:
        step = rules["bid_step"]
        bid = rng.randrange(min_bid, min(max_bid, min_bid + 60) + 1, step) if max_bid >= min_bid else min_bid
        return {"declarer": declarer, "bid": bid, "forgot_to_pass": True}
    all_tricks = rng.random() < 0.03
    marriages = _random_marriages(rng, declarer, active, all_tricks)
    points = _random_points(rng, declarer, active, all_tricks)
    bid = _random_bid(rng, rules, points[declarer], marriages.get(declarer, ()), all_tricks)
    hand: dict[str, Any] = {"declarer": declarer, "bid": bid, "points": points}
    if marriages:
        hand["marriages"] = marriages
    if all_tricks:
        hand["all_tricks"] = True
    return hand


def _random_marriages(rng, declarer, active, all_tricks) -> dict[str, list[str]]:
    """Now and then a marriage of each suit, mostly the declarer's (only his with all tricks)."""
    marriages: dict[str, list[str]] = {}
    for suit in SUITS:
        if rng.random() < 0.3:
            who = declarer if all_tricks or rng.random() < 0.6 else rng.choice(active)
            marriages.setdefault(who, []).append(suit)
    return marriages


def _random_points(rng, declarer, active, all_tricks) -> dict[str, int]:
    if all_tricks:
        return {p: (CARD_POINTS if p == declarer else 0) for p in active}
    mine = rng.randint(40, 110)
    rest = _split(rng, CARD_POINTS - mine, 2)
    others = [p for p in active if p != declarer]
    return {declarer: mine, others[0]: rest[0], others[1]: rest[1]}


def _random_bid(rng, rules, card_points, suits, all_tricks) -> int:
    """A bid around what the declarer took, now and then too high (a failed contract)."""
    offset, step = rules["bid_offset"], rules["bid_step"]
    min_bid, max_bid = bid_range(rules)
    taken = card_points * (2 if all_tricks else 1) + sum(rules["marriage_values"][s] for s in suits)
    contract = (taken // step) * step + rng.choice((-30, -20, -10, -10, -5, -5, 0, 0, 5, 10))
    bid = min(max(contract - offset, min_bid), max_bid)
    return bid - bid % step
