"""Hand entry: one module per game (or family) turning a submitted form into a hand payload.

Contract of a game's module (registered in ``FORMS`` below):

- ``TEMPLATE``: the template holding ``{% partialdef form %}`` (the fields, rendered inside
  the meeting page's <form>) and ``{% partialdef next %}`` (the game's part of the "what comes
  next" panel above the sheet).
- ``payload_from_post(post, *, players, result) -> (payload, errors)``: ``post`` is the
  QueryDict, ``players`` the seat order (names), ``result`` the replay of the meeting so far
  (the calculate response shape; ``result["next"]`` says who deals and who is active).
  ``payload`` is the hand in the shape of the game's spec, exactly as it will be stored;
  ``errors`` maps a hand field to a message for input that could not even be read (a number
  that is not a number). Everything else is checked by the engine when the hand is saved, and
  its problems come back keyed by the same top-level field names.
- ``initial_from_payload(payload) -> dict``: values to pre-fill the form when a hand is
  corrected.
- optional ``extra_context(result) -> dict``: more context for its partials, worked out from
  the replay (e.g. the bids the rules in force allow), so that templates hold no rule.
"""

import importlib

from django.utils.translation import gettext_lazy

# How a suit looks on a chip: its name (the chip's title) and its symbol; red suits are red.
# Which suits (or trumps) exist is the engine's: ``suit_chips`` takes them from scoring/.
SUIT_LOOKS = {
    "clubs": (gettext_lazy("clubs"), "♣", False),
    "spades": (gettext_lazy("spades"), "♠", False),
    "hearts": (gettext_lazy("hearts"), "♥", True),
    "diamonds": (gettext_lazy("diamonds"), "♦", True),
    "no_trump": (gettext_lazy("No trump"), "", False),
}

FORMS = {
    "doppelkopf": "leagues.hand_entry.doppelkopf",
    "thousand": "leagues.hand_entry.thousand",
    "fifty_six": "leagues.hand_entry.fifty_six",
    "twenty_five": "leagues.hand_entry.maw",
    "forty_five": "leagues.hand_entry.maw",
    "one_ten": "leagues.hand_entry.maw",
    "auction_45": "leagues.hand_entry.maw",
    "spoil_five": "leagues.hand_entry.maw",
}


def form_module(game):
    return importlib.import_module(FORMS[game])


def suit_chips(values):
    """The chips for an engine's suits (or trumps), in its order: ``value``, ``label``,
    ``symbol`` (empty for one without, like no trump: the chip shows the label) and ``red``.
    A value this module has no look for yet is still offered, under its own name."""
    chips = []
    for value in values:
        label, symbol, red = SUIT_LOOKS.get(value, (value, "", False))
        chips.append({"value": value, "label": label, "symbol": symbol, "red": red})
    return chips
