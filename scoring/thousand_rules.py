"""The rule options and presets of 1000 (``thousand``): the Königsberg house rules and Pagat's
(the Polish penalties off in both), and the range of bids they allow."""

from __future__ import annotations

from typing import Any

from .errors import _
from .options import BOOL, INT, MAPPING, Option

SUITS = ("clubs", "spades", "hearts", "diamonds")
CARD_POINTS = 120
FORCED_CONTRACT = 100

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
