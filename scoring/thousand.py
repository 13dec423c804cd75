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
from .options import BOOL, INT, MAPPING, Option
from .registry import START_TOTALS, GameSpec, Sitting
from .results import ReplayResult

SUITS = ("clubs", "spades", "hearts", "diamonds")
CARD_POINTS = 120
FORCED_CONTRACT = 100
ZERO_HANDS = 3  # ``zero_rounds_penalty``: this many hands in a row with 0 points cost it
HAND_FIELDS = frozenset({"declarer", "bid", "points", "marriages", "all_tricks", "forgot_to_pass"})

# The ranges keep an evening's figures within what the results table stores (scoring/limits.py).
MAX_TARGET = 10_000

OPTIONS = (
    Option(
        "marriage_values",
        MAPPING,
        _("Marriage values"),
        _("What a melded king and queen of each suit are worth."),
        choices=SUITS,
        choice_labels={
            "clubs": _("Clubs"),
            "spades": _("Spades"),
            "hearts": _("Hearts"),
            "diamonds": _("Diamonds"),
        },
        minimum=0,
        maximum=1_000,
    ),
    Option(
        "bid_offset",
        INT,
        _("Added to the bid"),
        _(
            "The contract is the bid plus this: 100 when bids are 5, 10, 15 … (a bid of 0 means the declarer "
            "was forced and needs 100); 0 when bids are 100, 105, 110 …"
        ),
        minimum=0,
        maximum=1_000,
    ),
    Option("bid_step", INT, _("Bidding step"), _("Bids go up in steps of this many points."), minimum=1, maximum=100),
    Option(
        "round_to",
        INT,
        _("Round the others' points to"),
        _("The other players' points are rounded to the nearest multiple of this (52 → 50, 53 → 55)."),
        minimum=1,
        maximum=100,
    ),
    Option(
        "target",
        INT,
        _("Target"),
        _(
            "A player wins with more than this many points; with “Reaching the target exactly wins” on, with "
            "this many too."
        ),
        minimum=1,
        maximum=MAX_TARGET,
    ),
    Option(
        "barrel",
        INT,
        _("Barrel"),
        _("From here on a player scores only as declarer; nobody else rises above it. Empty: no barrel."),
        nullable=True,
        minimum=0,
        maximum=MAX_TARGET,
    ),
    Option(
        "forgot_to_pass_penalty",
        INT,
        _("Penalty for forgetting to pass cards"),
        _("What the declarer loses when he leads without passing two cards; nobody else scores."),
        minimum=0,
        maximum=10_000,
    ),
    Option(
        "barrel_turns",
        INT,
        _("Hands on the barrel"),
        _(
            "A player on the barrel who has not won after this many hands he plays there falls back (3 in the "
            "Polish rules). Needs a barrel. Empty: he may stay there."
        ),
        nullable=True,
        minimum=1,
        maximum=100,
    ),
    Option(
        "barrel_fall",
        INT,
        _("Falling off the barrel costs"),
        _("What a player loses who has not won in his hands on the barrel."),
        minimum=0,
        maximum=10_000,
    ),
    Option(
        "zero_rounds_penalty",
        INT,
        _("Penalty for three hands with 0 points"),
        _(
            "A player who takes 0 points in three hands in a row that he plays loses this. Hands he plays on the "
            "barrel don't count, even with no trick, nor does the hand that ends the game. Empty: no penalty."
        ),
        nullable=True,
        minimum=0,
        maximum=10_000,
    ),
    Option(
        "target_inclusive",
        BOOL,
        _("Reaching the target exactly wins"),
        _(
            "On: a player wins with the target or more (1000 wins, as in Pagat's and the Polish rules: from the "
            "barrel at 880 a contract of 120 does it). Off: only with more than the target."
        ),
    ),
)

# The Polish penalties (both 1000 peers): off in every preset.
NO_POLISH_PENALTIES = {"barrel_turns": None, "barrel_fall": 120, "zero_rounds_penalty": None}

PRESETS = {
    "koenigsberg": {
        "marriage_values": {"clubs": 100, "spades": 80, "hearts": 60, "diamonds": 40},
        "bid_offset": 100,
        "bid_step": 5,
        "round_to": 5,
        "target": 1000,
        "barrel": None,
        "forgot_to_pass_penalty": 240,
        "target_inclusive": False,  # seed 001: "mehr als 1000"
        **NO_POLISH_PENALTIES,
    },
    "pagat": {
        "marriage_values": {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40},
        "bid_offset": 0,
        "bid_step": 5,
        "round_to": 5,
        "target": 1000,
        "barrel": 880,
        "forgot_to_pass_penalty": 240,
        "target_inclusive": True,  # Pagat and the Polish rules: reaching 1000 wins
        **NO_POLISH_PENALTIES,
    },
}


def bid_range(rules: dict[str, Any]) -> tuple[int, int]:
    """The lowest and the highest bid under ``rules`` (bids go in steps of ``bid_step``): the
    lowest makes the forced contract of 100, the highest the largest contract 520 points
    allow (every trick, doubled, and every positive marriage)."""
    offset, step = rules["bid_offset"], rules["bid_step"]
    min_bid = max(0, FORCED_CONTRACT - offset)
    min_bid += -min_bid % step
    max_contract = 2 * CARD_POINTS + sum(v for v in rules["marriage_values"].values() if v > 0)
    max_bid = max_contract - offset
    max_bid -= max_bid % step
    return min_bid, max_bid


def _is_int(value: Any) -> bool:
    return type(value) is int  # bool is not an int here


def round_half_up(value: int, multiple: int) -> int:
    """Nearest multiple of ``multiple``; a tie rounds up (52 → 50, 53 → 55 for 5)."""
    return (2 * value + multiple) // (2 * multiple) * multiple


def _check_points(number, hand, active, problems):
    """The card points by active player, or None when unusable (problems added)."""
    points = hand.get("points")
    if not isinstance(points, dict):
        problems.add(number, "points", _("Points must give the card points of each active player."))
        return None
    ok = True
    for name, value in points.items():
        if name not in active:
            problems.add(number, "points", _("%(name)s is not active in this deal."), name=str(name))
            ok = False
        elif not _is_int(value) or not 0 <= value <= CARD_POINTS:
            problems.add(number, "points", _("%(name)s's card points must be a whole number from 0 to 120."), name=name)
            ok = False
    missing = [p for p in active if p not in points]
    if missing:
        problems.add(number, "points", _("Card points missing for: %(names)s."), names=", ".join(missing))
        ok = False
    if not ok:
        return None
    total = sum(points.values())
    if total != CARD_POINTS:
        problems.add(number, "points", _("The card points add up to %(sum)s, not 120."), sum=total)
        return None
    return points


def _check_marriages(number, hand, active, values, problems):
    """{player: marriage points} for the active players, or None (problems added)."""
    marriages = hand.get("marriages")
    if marriages is None:
        return {}
    if not isinstance(marriages, dict):
        problems.add(number, "marriages", _("Marriages must map players to the suits they melded."))
        return None
    ok = True
    seen: set[str] = set()
    result: dict[str, int] = {}
    for name, suits in marriages.items():
        if name not in active:
            problems.add(number, "marriages", _("%(name)s is not active in this deal."), name=str(name))
            ok = False
            continue
        if not isinstance(suits, list):
            problems.add(number, "marriages", _("%(name)s's marriages must be a list of suits."), name=name)
            ok = False
            continue
        worth = 0
        for suit in suits:
            if not isinstance(suit, str) or suit not in SUITS:  # the rules value every one of SUITS
                problems.add(
                    number,
                    "marriages",
                    _("Unknown suit in %(name)s's marriages; use clubs, spades, hearts or diamonds."),
                    name=name,
                )
                ok = False
            elif suit in seen:
                problems.add(number, "marriages", _("The %(suit)s marriage is claimed twice."), suit=suit)
                ok = False
            else:
                seen.add(suit)
                worth += values[suit]
        result[name] = worth
    return result if ok else None


def _optional_bool(number, hand, name, problems):
    value = hand.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        problems.add(number, name, _("“%(name)s” must be true or false."), name=name)
        return None
    return value


def replay(sitting: Sitting) -> ReplayResult:
    rules = sitting.rules
    players = sitting.players
    seats = len(players)
    offset = rules["bid_offset"]
    step = rules["bid_step"]
    round_to = rules["round_to"]
    target = rules["target"]
    barrel = rules["barrel"]
    penalty = rules["forgot_to_pass_penalty"]
    values = rules["marriage_values"]
    barrel_turns = rules["barrel_turns"]
    barrel_fall = rules["barrel_fall"]
    zero_penalty = rules["zero_rounds_penalty"]
    inclusive = rules["target_inclusive"]
    min_bid, max_bid = bid_range(rules)
    problems = Problems()
    if barrel_turns is not None and barrel is None:
        problems.add(None, "rules", _("Rule option “barrel_turns” needs a barrel (rule option “barrel”)."))

    def wins(total: int) -> bool:
        return total >= target if inclusive else total > target

    totals = dict.fromkeys(players, 0)
    if sitting.start_totals:
        for name, value in sitting.start_totals.items():
            if wins(value):
                problems.add(
                    None,
                    START_TOTALS,
                    _("%(name)s starts at or above the target of %(target)s; that game is already over.")
                    if inclusive
                    else _("%(name)s starts above the target of %(target)s; that game is already over."),
                    name=name,
                    target=target,
                )
            totals[name] = value

    out_hands = []
    games = []
    winner = None
    reset = False
    dealer_index = 0
    zero = dict.fromkeys(players, 0)
    # hands each player has played on the barrel without winning, and hands in a row he took
    # 0 points in (both within the game in progress)
    on_barrel = dict(zero)
    zero_run = dict(zero)
    # who plays when each seat deals: with four the dealer sits out
    actives = [tuple(p for p in players if p != d) if seats == 4 else players for d in players]

    for number, hand in enumerate(sitting.hands, start=1):
        dealer = players[dealer_index]
        active = actives[dealer_index]
        dealer_index = (dealer_index + 1) % seats
        before = len(problems)

        for key in hand:
            if key not in HAND_FIELDS:
                problems.add(number, key, _("Unknown field “%(name)s”."), name=str(key))

        declarer = hand.get("declarer")
        if declarer is None:
            problems.add(number, "declarer", _("Say who the declarer was."))
        elif not isinstance(declarer, str) or declarer not in players:
            problems.add(number, "declarer", _("The declarer is not at the table."))
        elif declarer not in active:
            problems.add(number, "declarer", _("%(name)s deals and sits out this hand."), name=declarer)

        bid = hand.get("bid")
        if bid is None:
            problems.add(number, "bid", _("Give the declarer's final bid."))
        elif not _is_int(bid):
            problems.add(number, "bid", _("The bid must be a whole number."))
        elif bid % step:
            problems.add(number, "bid", _("The bid must be a multiple of %(step)s."), step=step)
        elif bid < min_bid:
            problems.add(number, "bid", _("The bid must be at least %(min)s."), min=min_bid)
        elif bid > max_bid:
            problems.add(
                number,
                "bid",
                _(
                    "A bid of %(bid)s is more than 120 card points (240 taking every trick) and every marriage can "
                    "make; the highest possible bid is %(max)s."
                ),
                bid=bid,
                max=max_bid,
            )

        forgot = _optional_bool(number, hand, "forgot_to_pass", problems)
        all_tricks = _optional_bool(number, hand, "all_tricks", problems)
        if forgot and all_tricks:
            problems.add(number, "all_tricks", _("A declarer who forgot to pass cards cannot have taken every trick."))

        points = None
        if forgot and hand.get("points") is None:
            pass
        else:
            points = _check_points(number, hand, active, problems)
        marriages = _check_marriages(number, hand, active, values, problems)

        if all_tricks and points is not None and isinstance(declarer, str) and declarer in points:
            if points[declarer] != CARD_POINTS:
                problems.add(number, "points", _("The declarer took every trick, so he has all 120 card points."))
            if marriages and any(p != declarer and hand["marriages"][p] for p in marriages):
                problems.add(
                    number,
                    "marriages",
                    _("Only the declarer can meld when he took every trick (melding needs the lead)."),
                )

        if len(problems) != before:
            continue  # an invalid hand scores nothing; the deal has moved on

        if reset:
            previous = totals
            totals = dict(zero)
            on_barrel, zero_run = dict(zero), dict(zero)
            reset = False
        else:
            previous = totals
            totals = dict(totals)
        contract = bid + offset
        scored = dict(zero)
        began = dict(totals)
        taken_by: dict[str, int] = {}  # each non-declarer's points, rounded, before the barrel
        if forgot:
            made = False
            scored[declarer] = -penalty
            totals[declarer] += -penalty
        else:
            taken = points[declarer] * (2 if all_tricks else 1) + marriages.get(declarer, 0)
            made = taken >= contract
            gain = contract if made else -contract
            scored[declarer] = gain
            totals[declarer] += gain
            for name in active:
                if name == declarer:
                    continue
                gain = round_half_up(points[name] + marriages.get(name, 0), round_to)
                taken_by[name] = gain
                if barrel is not None:
                    now = totals[name]
                    if now >= barrel:
                        gain = 0
                    elif now + gain > barrel:
                        gain = barrel - now
                scored[name] = gain
                totals[name] += gain

        game_winner = None
        over = [p for p in active if wins(totals[p])]
        penalties: list[dict[str, Any]] = []
        if over:
            if len(over) == 1:
                game_winner = over[0]
            else:
                best = max(totals[p] for p in over)
                tied = [p for p in over if totals[p] == best]
                if declarer in tied:
                    game_winner = declarer
                else:
                    # first of them after the dealer, clockwise
                    d = players.index(dealer)
                    game_winner = min(tied, key=lambda p: (players.index(p) - d - 1) % seats)
            winner = game_winner
            games.append({"winner": game_winner, "hand": number})
            reset = True
        else:
            # The game goes on: the Polish penalties (a hand that ends the game has none).
            if zero_penalty is not None and not forgot:
                for name in active:
                    zero_hand = taken_by.get(name, 1) == 0 and (barrel is None or began[name] < barrel)
                    zero_run[name] = zero_run[name] + 1 if zero_hand else 0
                    if zero_run[name] == ZERO_HANDS:
                        zero_run[name] = 0
                        _charge(name, zero_penalty, "zero_rounds", totals, scored, penalties)
            if barrel_turns is not None and barrel is not None:
                for name in active:
                    if began[name] >= barrel and totals[name] >= barrel:
                        on_barrel[name] += 1
                        if on_barrel[name] == barrel_turns:
                            on_barrel[name] = 0
                            _charge(name, barrel_fall, "barrel", totals, scored, penalties)
                    else:
                        on_barrel[name] = 0

        out_hands.append(
            {
                "number": number,
                "dealer": dealer,
                "active": list(active),
                "deltas": {p: totals[p] - previous[p] for p in players},
                "totals": totals,
                "contract": contract,
                "made": made,
                "declarer": declarer,
                "scored": scored,
                "game_winner": game_winner,
                "penalties": penalties,
                "hand_winners": _hand_winners(active, declarer, made, forgot, game_winner),
            }
        )

    problems.raise_if_any()
    next_dealer = players[dealer_index]
    next_active = [p for p in players if p != next_dealer] if seats == 4 else list(players)
    return {
        "parties": list(players),
        "hands": out_hands,
        "totals": dict(totals),
        "next": {"dealer": next_dealer, "active": next_active},
        "winner": winner,
        "games": games,
    }


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


def _charge(name, points, reason, totals, scored, penalties) -> None:
    """A Polish penalty (``reason``: "barrel" or "zero_rounds"), part of the hand's score."""
    totals[name] -= points
    scored[name] -= points
    penalties.append({"player": name, "reason": reason, "points": -points})


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
    offset, step = rules["bid_offset"], rules["bid_step"]
    values = rules["marriage_values"]
    min_bid, max_bid = bid_range(rules)
    out = []
    seats = len(players)
    for i in range(hands):
        dealer = players[i % seats]
        active = [p for p in players if p != dealer] if seats == 4 else players
        declarer = rng.choice(active)
        if rng.random() < 0.01:
            bid = rng.randrange(min_bid, min(max_bid, min_bid + 60) + 1, step) if max_bid >= min_bid else min_bid
            out.append({"declarer": declarer, "bid": bid, "forgot_to_pass": True})
            continue
        all_tricks = rng.random() < 0.03
        marriages: dict[str, list[str]] = {}
        for suit in SUITS:
            if rng.random() < 0.3:
                who = declarer if all_tricks or rng.random() < 0.6 else rng.choice(active)
                marriages.setdefault(who, []).append(suit)
        if all_tricks:
            points = {p: (CARD_POINTS if p == declarer else 0) for p in active}
        else:
            mine = rng.randint(40, 110)
            rest = _split(rng, CARD_POINTS - mine, 2)
            others = [p for p in active if p != declarer]
            points = {declarer: mine, others[0]: rest[0], others[1]: rest[1]}
        taken = points[declarer] * (2 if all_tricks else 1) + sum(values[s] for s in marriages.get(declarer, ()))
        contract = (taken // step) * step + rng.choice((-30, -20, -10, -10, -5, -5, 0, 0, 5, 10))
        bid = min(max(contract - offset, min_bid), max_bid)
        bid -= bid % step
        hand: dict[str, Any] = {"declarer": declarer, "bid": bid, "points": points}
        if marriages:
            hand["marriages"] = marriages
        if all_tricks:
            hand["all_tricks"] = True
        out.append(hand)
    request: dict[str, Any] = {"game": "thousand", "variant": variant, "players": players, "hands": out}
    if kw.get("rules"):
        request["rules"] = kw["rules"]
    if kw.get("start_totals"):
        request["start_totals"] = kw["start_totals"]
    return request
