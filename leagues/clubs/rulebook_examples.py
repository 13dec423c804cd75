"""The rule book's worked examples: small hands as data, scored live by the engine.

Each example is named in a rules file (``<!-- example: NAME -->`` before the paragraph that
tells it in words) and defined here per game: the table, the hands (or a function of the
rules in force, where a hand must be written in the rules' own terms, e.g. a bid in 1000 is
the contract less ``bid_offset``) and which hand the page shows. The page replays them through
``scoring``'s replay for the game, under the league's (or the meeting's) rules, so a league that
changes an option sees the figures change. Under rules where the hand cannot be played (a
Ramsch game where nobody plays Ramsch) the page says so in the engine's words; an example that
needs an option the rules leave empty (1000's barrel) says so in its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from leagues.table.hand_entry import form_module, game_end_line, party_label
from scoring.errors import ScoringError
from scoring.registry import Sitting, get_game

FOUR = ("Anna", "Ben", "Carl", "Dora")
THREE = ("Anna", "Ben", "Carl")
SIX = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz")
PAIRS = {"A": ("Anna", "Carl"), "B": ("Ben", "Dora")}

Hands = list[dict[str, Any]] | Callable[[dict[str, Any]], list[dict[str, Any]]]


@dataclass(frozen=True)
class Example:
    players: tuple[str, ...]
    hands: Hands
    show: int = -1  # which hand's figures the page shows (the last by default)
    teams: dict[str, tuple[str, ...]] | None = None
    # Scores carried in (race games, 1000); a function of the rules where they must sit
    # relative to the target.
    start_totals: dict[str, int] | Callable[[dict[str, Any]], dict[str, int]] | None = None
    totals: bool = False  # also show the totals after the shown hand
    extra: dict[str, Any] = field(default_factory=dict)
    # A rule option the example cannot do without (its text speaks of it), and what the page
    # says when the rules in force leave it empty: (option, why).
    needs: tuple[str, str] | None = None


def _re(call):
    return {"party": "re", "call": call}


def _kontra(call):
    return {"party": "kontra", "call": call}


def _normal(eyes, *, re=("Anna", "Ben"), announcements=(), specials=(), **more):
    hand: dict[str, Any] = {"kind": "normal", "re": list(re), "re_eyes": eyes}
    if announcements:
        hand["announcements"] = list(announcements)
    if specials:
        hand["specials"] = list(specials)
    hand.update(more)
    return hand


def _solo(kind, eyes, *, soloist="Anna", **more):
    return {"kind": "solo", "solo": kind, "re": [soloist], "re_eyes": eyes, **more}


SPLIT = _normal(120)  # 120:120: a Bock trigger in the club's rules
RE_160 = _normal(160, announcements=[_re("re")])
TIMID = _normal(190)  # Kontra under 60 and Re said nothing: the losers get the points (club)

DOPPELKOPF = {
    "re_announced": Example(FOUR, [RE_160]),
    "solo": Example(FOUR, [_solo("damen", 130)]),
    "absagen": Example(FOUR, [_normal(170, announcements=[_re("re"), _re("keine_90"), _kontra("keine_90")])]),
    "special_points": Example(
        FOUR,
        [_normal(150, specials=[{"kind": "fuchs", "party": "re"}, {"kind": "doppelkopf", "party": "re"}])],
    ),
    "trump_solo_doppelkopf": Example(FOUR, [_solo("trumpf", 140, specials=[{"kind": "doppelkopf", "party": "re"}])]),
    "fuchs_last_trick": Example(FOUR, [_normal(130, specials=[{"kind": "fuchs", "party": "re", "last_trick": True}])]),
    "doppel_charly": Example(FOUR, [_normal(130, specials=[{"kind": "karlchen", "party": "re", "doppel": True}])]),
    "karlchen_gefangen": Example(FOUR, [_normal(130, specials=[{"kind": "karlchen_gefangen", "party": "re"}])]),
    "stilles_lost": Example(FOUR, [_solo("stilles", 110)]),
    "loser_points": Example(FOUR, [TIMID]),
    "bock_round": Example(FOUR, [SPLIT, RE_160]),
    "bock_in_bock": Example(FOUR, [SPLIT, SPLIT]),
    "bock_stacked": Example(FOUR, [SPLIT, SPLIT, RE_160]),
    "ramsch": Example(
        FOUR,
        [
            SPLIT,  # a Bock round follows ...
            SPLIT,  # ... and a Bock trigger in it queues a Ramsch round
            _normal(130),
            _normal(130),
            _normal(130),
            {
                "kind": "ramsch",
                "eyes": {"Anna": 100, "Ben": 70, "Carl": 70, "Dora": 0},
                "tricks": {"Anna": 5, "Ben": 4, "Carl": 3, "Dora": 0},
            },
        ],
    ),
    "pflichtsolo": Example(FOUR, [TIMID, _solo("damen", 125, soloist="Carl")]),
    "revoke": Example(FOUR, [{"kind": "revoke", "revoke_by": "Carl", "announcements": [_re("re")]}]),
    "points_only": Example(
        FOUR,
        [
            {"kind": "points", "re": ["Anna", "Ben"], "winner": "kontra", "value": 2, "split_120": True},
            {"kind": "points", "re": ["Anna", "Ben"], "winner": "re", "value": 4},
        ],
    ),
}


def _contract(rules, contract):
    """The bid that makes ``contract`` under these rules (contract = bid + offset)."""
    return contract - rules["bid_offset"]


THOUSAND = {
    "contract": Example(
        THREE,
        lambda rules: [
            {
                "declarer": "Anna",
                "bid": _contract(rules, 130),
                "points": {"Anna": 80, "Ben": 28, "Carl": 12},
                "marriages": {"Anna": ["hearts"]},
            }
        ],
    ),
    "contract_failed": Example(
        THREE,
        lambda rules: [
            {
                "declarer": "Anna",
                "bid": _contract(rules, 160),
                "points": {"Anna": 98, "Ben": 14, "Carl": 8},
                "marriages": {"Anna": ["diamonds"]},
            }
        ],
    ),
    "target": Example(
        THREE,
        lambda rules: [
            {
                "declarer": "Anna",
                "bid": _contract(rules, 120),
                "points": {"Anna": 85, "Ben": 20, "Carl": 15},
                "marriages": {"Anna": ["hearts"]},
            }
        ],
        start_totals={"Anna": 900, "Ben": 500, "Carl": 300},
        totals=True,
    ),
    "target_exact": Example(
        THREE,
        lambda rules: [
            {
                "declarer": "Anna",
                "bid": _contract(rules, 120),
                "points": {"Anna": 85, "Ben": 20, "Carl": 15},
                "marriages": {"Anna": ["hearts"]},
            }
        ],
        start_totals={"Anna": 880, "Ben": 500, "Carl": 300},
        totals=True,
    ),
    "barrel": Example(
        THREE,
        lambda rules: [
            {
                "declarer": "Anna",
                "bid": _contract(rules, 130),
                "points": {"Anna": 70, "Ben": 40, "Carl": 10},
                "marriages": {"Anna": ["hearts", "diamonds"]},
            }
        ],
        start_totals={"Anna": 300, "Ben": 870, "Carl": 200},
        totals=True,
    ),
    "three_zeros": Example(
        THREE,
        lambda rules: (
            [
                {
                    "declarer": "Anna",
                    "bid": _contract(rules, 120),
                    "points": {"Anna": 80, "Ben": 40, "Carl": 0},
                    "marriages": {"Anna": ["hearts"]},
                }
            ]
            * 3
        ),
        totals=True,
    ),
    "three_zeros_on_the_barrel": Example(
        THREE,
        lambda rules: (
            [
                {
                    "declarer": "Anna",
                    "bid": _contract(rules, 120),
                    "points": {"Anna": 80, "Ben": 40, "Carl": 0},
                    "marriages": {"Anna": ["hearts"]},
                }
            ]
            * 3
        ),
        start_totals=lambda rules: {"Carl": rules["barrel"]} if rules.get("barrel") is not None else None,
        totals=True,
        needs=("barrel", gettext_noop("there is no barrel.")),
    ),
    "forgot_to_pass": Example(
        THREE, lambda rules: [{"declarer": "Anna", "bid": _contract(rules, 120), "forgot_to_pass": True}]
    ),
}

FIFTY_SIX = {
    "doubled_failed": Example(
        SIX, [{"bidder": "Anna", "bid": 40, "trump": "hearts", "double": 1, "bidder_team_points": 38}]
    ),
    "redoubled_made": Example(
        SIX, [{"bidder": "Ben", "bid": 28, "trump": "no_trump", "double": 2, "bidder_team_points": 30}]
    ),
    "made": Example(SIX, [{"bidder": "Anna", "bid": 44, "trump": "spades", "double": 0, "bidder_team_points": 47}]),
}

# Twenty-Five and Forty-Five: who won each trick, in order.
_SPREAD = {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 2}
_SWEEP = {"tricks": ["Carl"] * 5, "top_trump_trick": 1}

TWENTY_FIVE = {
    "tricks": Example(THREE, [{"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"]}]),
    "double_game": Example(THREE, [{"tricks": ["Carl"] * 5}], start_totals={"Anna": 10, "Ben": 15, "Carl": 0}),
}

FORTY_FIVE = {
    "top_trump": Example(THREE, [_SPREAD]),
    "mid_hand": Example(
        THREE,
        [{"tricks": ["Ben", "Anna", "Anna", "Anna", "Anna"], "top_trump_trick": 2}],
        start_totals=lambda rules: {"Anna": rules["target"] - 10, "Ben": rules["target"] - 5, "Carl": 0},
        totals=True,
    ),
    "jink": Example(THREE, [_SWEEP], start_totals={"Anna": 30, "Ben": 30, "Carl": 0}),
    "majority": Example(THREE, [{"tricks": ["Anna", "Ben", "Anna", "Anna", "Carl"], "top_trump_trick": 2}]),
    "dreaded": Example(
        THREE,
        [{"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 2}],
        start_totals=lambda rules: {"Anna": rules["target"] - 15, "Ben": 0, "Carl": 0},
        totals=True,
    ),
}

ONE_TEN = {
    "bid_made": Example(
        THREE, [{"bidder": "Anna", "bid": 20, "tricks": ["Anna", "Ben", "Anna", "Anna", "Anna"], "top_trump_trick": 1}]
    ),
    "bid_failed": Example(
        THREE, [{"bidder": "Anna", "bid": 25, "tricks": ["Anna", "Ben", "Anna", "Carl", "Carl"], "top_trump_trick": 4}]
    ),
    "thirty_for_sixty": Example(THREE, [{"bidder": "Carl", "bid": 30, "tricks": ["Carl"] * 5, "top_trump_trick": 3}]),
    "bidder_out": Example(
        THREE,
        [{"bidder": "Anna", "bid": 15, "tricks": ["Ben", "Ben", "Anna", "Anna", "Anna"], "top_trump_trick": 3}],
        start_totals={"Anna": 95, "Ben": 100, "Carl": 0},
        totals=True,
    ),
    "bid_out": Example(
        THREE,
        [{"bidder": "Anna", "bid": 15, "tricks": ["Ben", "Anna", "Ben", "Anna", "Anna"], "top_trump_trick": 5}],
        start_totals={"Anna": 20, "Ben": 100, "Carl": 60},
        totals=True,
    ),
}

AUCTION_45 = {
    "made": Example(
        FOUR, [{"maker": "A", "bid": 15, "tricks": ["A", "B", "A", "A", "B"], "top_trump_trick": 1}], teams=PAIRS
    ),
    "failed": Example(
        FOUR, [{"maker": "A", "bid": 25, "tricks": ["A", "B", "A", "B", "A"], "top_trump_trick": 2}], teams=PAIRS
    ),
    "bid_30": Example(FOUR, [{"maker": "B", "bid": 30, "tricks": ["B"] * 5, "top_trump_trick": 1}], teams=PAIRS),
    "call_30_for_60": Example(
        FOUR,
        [{"maker": "B", "bid": 30, "call": "30_for_60", "tricks": ["B"] * 5, "top_trump_trick": 1}],
        teams=PAIRS,
    ),
    "call_60_for_120": Example(
        FOUR,
        [{"maker": "A", "bid": 30, "call": "60_for_120", "tricks": ["A"] * 5, "top_trump_trick": 2}],
        teams=PAIRS,
        start_totals={"A": -20, "B": 60},
        totals=True,
    ),
    "at_100": Example(
        FOUR,
        [{"maker": "A", "bid": 15, "tricks": ["A", "A", "B", "A", "B"], "top_trump_trick": 1}],
        teams=PAIRS,
        start_totals={"A": 100, "B": 40},
    ),
    "frozen": Example(
        FOUR,
        [{"maker": "A", "bid": 15, "tricks": ["A", "B", "A", "B", "A"], "top_trump_trick": 1}],
        teams=PAIRS,
        start_totals={"A": 60, "B": 105},
        totals=True,
    ),
    "both_reach": Example(
        FOUR,
        [{"maker": "A", "bid": 20, "tricks": ["A", "B", "A", "B", "A"], "top_trump_trick": 1}],
        teams=PAIRS,
        start_totals={"A": 100, "B": 110},
        totals=True,
    ),
    "deep_in_the_hole": Example(
        FOUR,
        [{"maker": "A", "bid": 15, "tricks": ["B", "B", "A", "B", "B"], "top_trump_trick": 1}],
        teams=PAIRS,
        start_totals={"A": -110, "B": 40},
        totals=True,
    ),
    "frozen_maker_fails": Example(
        FOUR,
        [{"maker": "A", "bid": 25, "tricks": ["A", "B", "A", "B", "A"], "top_trump_trick": 2}],
        teams=PAIRS,
        start_totals={"A": 60, "B": 105},
        totals=True,
    ),
}

SPOIL_FIVE = {
    "pot": Example(FOUR, [{"tricks": ["Anna", "Ben", "Anna", "Anna"]}]),
    "spoilt": Example(
        FOUR,
        [{"tricks": ["Anna", "Ben", "Carl", "Dora", "Anna"]}, {"tricks": ["Ben", "Ben", "Carl", "Ben"]}],
    ),
    "jink": Example(FOUR, [{"tricks": ["Dora"] * 5, "jink": True}]),
    "two_tricks": Example(SIX, [{"tricks": ["Anna", "Ben", "Anna", "Carl", "Dora"]}]),
}

EXAMPLES: dict[str, dict[str, Example]] = {
    "doppelkopf": DOPPELKOPF,
    "thousand": THOUSAND,
    "fifty_six": FIFTY_SIX,
    "twenty_five": TWENTY_FIVE,
    "forty_five": FORTY_FIVE,
    "one_ten": ONE_TEN,
    "auction_45": AUCTION_45,
    "spoil_five": SPOIL_FIVE,
}


# --- running one ---------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What the engine made of an example: one line per party (``cells``), a few facts in
    words (``lines``), or why it cannot be played under these rules (``problem``)."""

    cells: list[tuple[str, str]] = field(default_factory=list)  # (party, "+4")
    lines: list[str] = field(default_factory=list)
    totals: list[tuple[str, str]] = field(default_factory=list)
    problem: str = ""


def hands_for(example: Example, rules: dict[str, Any]) -> list[dict[str, Any]]:
    return list(example.hands(rules) if callable(example.hands) else example.hands)


def replay(game: str, example: Example, rules: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer for the example's hands under ``rules`` (raises ScoringError)."""
    spec = get_game(game)
    sitting = Sitting(
        players=example.players,
        rules=dict(rules),
        hands=tuple(hands_for(example, rules)),
        teams=example.teams,
        start_totals=example.start_totals(rules) if callable(example.start_totals) else example.start_totals,
    )
    return spec.replay(sitting)


def run(game: str, name: str, rules: dict[str, Any]) -> Outcome | None:
    """The example ``name`` of ``game`` scored under ``rules``; None if there is none."""
    from leagues.clubs.rulebook import plain_number  # the page's way of writing figures

    example = EXAMPLES.get(game, {}).get(name)
    if example is None:
        return None
    if example.needs is not None and rules.get(example.needs[0]) is None:
        return Outcome(problem=_(example.needs[1]))
    try:
        result = replay(game, example, rules)
    except ScoringError as error:
        return Outcome(problem=" ".join(p.render(_) for p in error.problems))
    figures = result["hands"][example.show]
    teams = example.teams or _teams_of(result)
    outcome = Outcome(cells=_cells(figures, result, teams))
    outcome.lines = _facts(game, figures, result, teams, hands_for(example, rules)[example.show])
    if example.totals:
        outcome.totals = [(party_label(p, teams), plain_number(figures["totals"][p])) for p in result["parties"]]
    return outcome


def _cells(figures, result, teams) -> list[tuple[str, str]]:
    """Each party's figure for the shown hand; without teams, those who sit out are left out."""
    from leagues.clubs.rulebook import signed

    active = set(figures.get("active") or ())
    shown = figures.get("scored") or figures["deltas"]
    return [
        (party_label(party, teams), signed(shown[party]))
        for party in result["parties"]
        if teams is not None or not active or party in active
    ]


def _teams_of(result):
    members = result.get("team_members")
    if members:
        return members
    parties = result.get("parties") or ()
    if parties and set(parties) <= {"A", "B"}:  # 56: teams formed from the seats
        players = result["hands"][0].get("active") or ()
        return {"A": tuple(players[0::2]), "B": tuple(players[1::2])}
    return None


def _facts(game, figures, result, teams, hand) -> list[str]:
    """The lines under the example's figures: how the engine reached them, in the game's words."""
    lines = []
    if game == "doppelkopf":
        lines += _doppelkopf_value(figures) + _doppelkopf_next(result)
    lines += _game_ends(game, figures, result, teams)
    lines += _penalties(game, figures)
    if game == "thousand":
        lines += _thousand_contract(figures, hand)
    if game == "spoil_five":
        lines.append(_spoil_five_pot(figures))
    return lines


def _doppelkopf_value(figures) -> list[str]:
    from leagues.table.selectors import ROUND_LABELS

    lines = _doppelkopf_sum(figures)
    if (figures.get("multiplier") or 1) != 1:
        lines.append(
            _("× %(multiplier)s in a %(round)s round")
            % {"multiplier": figures["multiplier"], "round": ROUND_LABELS.get(figures["round"], figures["round"])}
        )
    elif figures.get("round") in ROUND_LABELS:
        lines.append(_("A %(round)s game") % {"round": ROUND_LABELS[figures["round"]]})
    if figures.get("loser_points"):
        lines.append(_("The losers get the points."))
    return lines


def _doppelkopf_sum(figures) -> list[str]:
    """The game value's items added up."""
    items = figures.get("breakdown") or ()
    value = figures.get("value")
    if items:
        sum_ = " + ".join(f"{item['item']} {item['points']}" for item in items)
        return [f"{sum_} = {value}" if value is not None and len(items) > 1 else sum_]
    if value is not None:
        return [_("Game value: %(value)s") % {"value": value}]
    return []


def _doppelkopf_next(result) -> list[str]:
    """The special round under way after the hand, and those waiting behind it."""
    from leagues.table.selectors import ROUND_LABELS

    lines = []
    queue = list(result["next"].get("queue") or ())
    nxt = result["next"].get("round")
    if nxt in ROUND_LABELS and result["next"].get("round_games_left"):
        lines.append(
            _("Next: %(round)s, %(games)s games left")
            % {"round": ROUND_LABELS[nxt], "games": result["next"]["round_games_left"]}
        )
    if queue:
        lines.append(
            _("Waiting after it: %(rounds)s") % {"rounds": ", ".join(str(ROUND_LABELS.get(r, r)) for r in queue)}
        )
    return lines


def _game_ends(game, figures, result, teams) -> list[str]:
    end = getattr(form_module(game), "game_end", None)
    numbers = {"game": 0, "match": 0}
    lines = []
    for kind, winner, games in end(figures, result) if end else ():
        numbers[kind] += 1
        lines.append(game_end_line(kind=kind, winner=winner, number=numbers[kind], games=games, members=teams))
    return lines


def _penalties(game, figures) -> list[str]:
    """A game's penalties for a rule option (1000's Polish ones)."""
    from leagues.clubs.rulebook import signed

    penalties = getattr(form_module(game), "penalty_facts", None)
    if penalties is None:
        return []
    return [f"{label}: {who}" for label, who in penalties(figures, sign=signed)]


def _thousand_contract(figures, hand) -> list[str]:
    if hand.get("forgot_to_pass"):
        return [_("Forgot to pass two cards: only the declarer scores.")]
    if figures.get("contract") is None:
        return []
    return [
        _("Contract %(contract)s: %(outcome)s")
        % {"contract": figures["contract"], "outcome": _("made") if figures.get("made") else _("failed")}
    ]


def _spoil_five_pot(figures) -> str:
    if figures["game_winner"]:  # Spoil Five's game is the pot (scoring/results.py)
        return _("%(player)s wins the pot.") % {"player": figures["game_winner"]}
    return _("Nobody took three tricks: the hand is spoilt, %(pot)s chips stay in the pot.") % {
        "pot": figures.get("pot")
    }
