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
