"""Hand entry: one module per game (or family), each holding the game's hand form.

A game's hand form is a ``leagues.hand_entry.base.HandForm`` (a Django form) built with
``players`` (the seat order, names) and ``result`` (the replay of the meeting so far, the
calculate response shape; ``result["next"]`` says who deals and who is active). It gives:

- ``to_payload()``: the hand in the shape of the game's spec, exactly as it will be stored;
- ``hand_errors()``: ``{payload field: message}`` for input that could not even be read (a
  number that is not a number), keyed by the payload's top-level field names like the
  engine's problems, so that the template shows both in one place. Everything else is
  checked by the engine when the hand is saved. A payload that comes with problems keeps
  the text that could not be read, so that the form shows it again; it is never saved;
- ``from_payload(payload)`` (a classmethod): the form's initial values (its template's
  ``initial``) for correcting a stored hand, or for showing a hand with problems again.

Its fields read ASCII digits, flags, chips and per-player fields (``points:<name>``) with
the fields of ``base``, never by hand. Its template shows problems and number inputs with
the partials of ``templates/hands/fields.html``.

Contract of a game's module (registered in ``FORMS`` below), which the views use:

- ``TEMPLATE``: the template holding ``{% partialdef form %}`` (the fields, rendered inside
  the meeting page's <form>) and ``{% partialdef next %}`` (the game's part of the "what comes
  next" panel above the sheet).
- ``payload_from_post(post, *, players, result) -> (payload, errors)`` and
  ``initial_from_payload(payload) -> dict``: the form's, bound by the module as
  ``payload_from_post = GameHandForm.payload_from_post`` and
  ``initial_from_payload = GameHandForm.from_payload``.
- optional ``extra_context(result) -> dict``: more context for its partials, worked out from
  the replay (e.g. the bids the rules in force allow), so that templates hold no rule.

So adding a game is one module with its form (and ``describe``, ``game_end``, ``breakdown``
below as it needs them) and one template.
"""

import importlib

from django.utils.translation import gettext as _
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
    "doppelkopf": "leagues.table.hand_entry.doppelkopf",
    "thousand": "leagues.table.hand_entry.thousand",
    "fifty_six": "leagues.table.hand_entry.fifty_six",
    "twenty_five": "leagues.table.hand_entry.maw",
    "forty_five": "leagues.table.hand_entry.maw",
    "one_ten": "leagues.table.hand_entry.maw",
    "auction_45": "leagues.table.hand_entry.maw",
    "spoil_five": "leagues.table.hand_entry.maw",
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


# --- the sheet's words for what a hand decided (race games, matches) -------------------------
#
# A game module's optional ``game_end(figures, result)`` lists what a hand decided, read from
# its engine's per-hand figures: ``[(kind, winner, games)]``, ``kind`` "game" or "match",
# ``winner`` None for a game nobody won, ``games`` 2 for a double game. Its optional
# ``breakdown(figures, payload, result)`` gives the why dialog's figures of one hand:
# ``{"facts": [(label, value)], "columns": [label], "rows": [(party, [value])]}``.


def party_label(party, members):
    """A party as the sheet names it: a player, or a team with its players."""
    players = (members or {}).get(party)
    if players and tuple(players) != (party,):
        return _("%(team)s (%(players)s)") % {"team": party, "players": ", ".join(players)}
    return party


def game_end_line(*, kind, winner, number, games=1, members=None):
    """The line drawn across the sheet after a hand that ended a game or a match."""
    if winner is None:
        return _("Game %(number)s ends without a winner") % {"number": number}
    who = party_label(winner, members)
    if kind == "match":
        return _("%(winner)s wins match %(number)s") % {"winner": who, "number": number}
    if games == 2:
        return _("%(winner)s wins game %(number)s, a double game") % {"winner": who, "number": number}
    return _("%(winner)s wins game %(number)s") % {"winner": who, "number": number}


def outcome_label(made):
    """A bid or contract as the replay judged it: made, failed, or cut off by a won game."""
    if made is True:
        return _("made")
    if made is False:
        return _("failed")
    return _("not counted: the game was won first")
