"""The engine's problems in the words of the HTML forms.

scoring/ reports a problem with the payload's own names in it: the field at fault ("“eyes”
must give each active player a whole number"), a call ("already made this call: keine_90"),
a kind of game, a suit, a rule option ("it needs “ends_mid_hand” off"). The API keeps them:
its clients speak the payload. A page says them as its form labels the field and as the
players say the values ("„Augen“ muss…", "…schon gemacht: keine 90"), in the page's language.

The words come from where the forms keep them: the values' words (kinds of game, solo types,
calls, special points, suits) from the games' hand-entry modules, the rule options' labels
from scoring/'s option metadata (as the rules form shows them); the field labels, which the
hand-entry modules keep in their templates, are written here with the templates' words.

Nothing here changes a message of scoring/ or its params: ``page_message`` renders a Problem
with its params (and the payload words quoted in the message itself) put in those words.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from leagues.table.hand_entry import SUIT_LOOKS
from leagues.table.hand_entry import doppelkopf_labels as doppelkopf_entry
from leagues.table.hand_entry import maw as maw_entry
from scoring.errors import Problem
from scoring.registry import COMPULSORY_SOLOS, START_TOTALS, TEAMS, get_game

# The fields of a sitting, as the start-meeting page names them.
SITTING_FIELDS = {
    "players": _("Players"),
    TEAMS: _("Teams"),
    START_TOTALS: _("Scores carried over"),
    COMPULSORY_SOLOS: _("Penalty soli"),
}

# Each game's hand fields (the spec's payload keys, and the keys inside their entries) as its
# form labels them (templates/hands/<game>.html).
DOPPELKOPF_FIELDS = {
    "kind": _("Game"),
    "re": _("Re party"),
    "solo": _("Which solo"),
    "re_eyes": _("Eyes"),
    "re_tricks": _("Re tricks"),
    "announcements": _("Announcements"),
    "specials": _("Sonderpunkte"),
    "fuchs_wins_last_doppelkopf": _("Fuchs won the last trick"),
    "revoke_by": _("Who revoked"),
    "eyes": _("Eyes"),
    "tricks": _("Tricks"),
    # the chips as entered (leagues/table/hand_entry/doppelkopf_entered.py)
    "re_eyes_range": _("Result: Re's eyes"),
    "losers": _("Most eyes (pays)"),
    "loser_eyes": _("… with eyes"),
    "jungfrauen": _("Jungfrau (no trick)"),
    "solo_outbid": _("Solo announced but outbid"),
    # a hand written as its result only (kind points; its facts in the form's words)
    "winner": _("Won by"),
    "value": _("Value"),
    **{fact: label for fact, label in doppelkopf_entry.FACT_LABELS.items() if fact != "fuchs_wins_last_doppelkopf"},
    # inside an announcement or a special point
    "party": _("Party"),
    "call": _("Call"),
    "last_trick": _("in the last trick"),
    "doppel": _("Doppel-Charly"),
}
THOUSAND_FIELDS = {
    "declarer": _("Declarer"),
    "bid": _("Final bid"),
    "points": _("Card points"),
    "marriages": _("Marriages"),
    "all_tricks": _("Durch: declarer took every trick"),
    "forgot_to_pass": _("Forgot to pass two cards"),
}
FIFTY_SIX_FIELDS = {
    "bidder": _("Bidder"),
    "bid": _("Bid"),
    "trump": _("Trump"),
    "double": _("Double"),
    "bidder_team_points": _("Card points of the bidding team"),
}
MAW_FIELDS = {
    "tricks": _("Tricks"),
    "top_trump_trick": _("Trick won by the top trump"),
    "bidder": _("Bidder"),
    "maker": _("Maker (won the auction)"),
    "bid": _("Bid"),
    "call": _("Call"),
    "bagged": _("Bagged"),
    "other_bids": _("Highest bid of the others"),
    "jink": _("Jink"),
}
FIELDS = {
    "doppelkopf": DOPPELKOPF_FIELDS,
    "thousand": THOUSAND_FIELDS,
    "fifty_six": FIFTY_SIX_FIELDS,
    "twenty_five": MAW_FIELDS,
    "forty_five": MAW_FIELDS,
    "one_ten": MAW_FIELDS,
    "auction_45": MAW_FIELDS,
    "spoil_five": MAW_FIELDS,
}

SUITS = {suit: label for suit, (label, _symbol, _red) in SUIT_LOOKS.items()}
# The values a payload holds, as the forms offer them (the hand-entry modules' words).
VALUES = {
    "doppelkopf": {
        **doppelkopf_entry.KIND_LABELS,
        **doppelkopf_entry.SOLO_LABELS,
        **doppelkopf_entry.SPECIAL_LABELS,
        **doppelkopf_entry.CALL_LABELS,
    },
    "thousand": SUITS,
    "fifty_six": SUITS,
    "auction_45": maw_entry.CALL_LABELS,
}

# Params that hold a value of the payload (a call, a kind of game, a suit), or a list of them
# joined by ", "; any other param holds a name: a field, a rule option, or a player.
VALUE_PARAMS = frozenset({"call", "kind", "suit", "trump"})
LIST_PARAMS = frozenset({"calls", "kinds", "types", "names"})
# A payload word quoted in a message's own text (English “…”, German „…“).
QUOTED = re.compile(r"([“„\"])([a-z0-9][a-z0-9_]*)([”“\"])")


@dataclasses.dataclass(frozen=True)
class Words:
    """A game's payload words and how its forms say them (lazy labels: the page's language)."""

    fields: dict[str, Any]
    values: dict[str, Any]
    options: dict[str, Any]

    def field(self, word: str) -> str | None:
        for table in (self.fields, self.options, self.values):
            if word in table:
                return str(table[word])
        return None

    def value(self, word: str) -> str | None:
        for table in (self.values, self.fields, self.options):
            if word in table:
                return str(table[word])
        return None


def words(game: str) -> Words:
    """The payload words of ``game`` (its hand fields, the sitting's fields, its rule options
    and the values its hands hold) with the words its forms use for them."""
    options = {option.name: _Translated(option.label) for option in get_game(game).options if option.label}
    return Words(
        fields={**SITTING_FIELDS, **FIELDS.get(game, {})},
        values=dict(VALUES.get(game, {})),
        options=options,
    )


class _Translated:
    """An option label scoring/ marked for translation, translated when shown."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return gettext(str(self.text))


def page_message(problem: Problem, *, game: str, players: Iterable[str] = ()) -> str:
    """The problem's message as an HTML page shows it: the fields named as the form labels
    them, the values as the players say them, in the current language. A param naming a
    player or a party at the table (``players``) stays as it is, whatever it is called."""
    vocabulary = words(game)
    people = set(players)
    params = {
        key: value if key == "problem" else _param(key, value, vocabulary, people)
        for key, value in problem.params.items()
    }

    def translate(message: str) -> str:
        text = gettext(message)
        return QUOTED.sub(lambda m: m.group(1) + (_literal(m.group(2), vocabulary)) + m.group(3), text)

    return dataclasses.replace(problem, params=params).render(translate=translate)


def _literal(word: str, vocabulary: Words) -> str:
    return vocabulary.value(word) or word


def _param(key: str, value: Any, vocabulary: Words, people: set[str]) -> Any:
    if not isinstance(value, str) or value in people:
        return value
    if key in LIST_PARAMS:
        return ", ".join(_param("", item, vocabulary, people) for item in value.split(", "))
    found = vocabulary.value(value) if key in VALUE_PARAMS or not key else vocabulary.field(value)
    return found if found is not None else value


def page_errors(errors: list[dict[str, Any]], *, game: str, players: Iterable[str] = ()) -> list[dict[str, Any]]:
    """A service's errors ({"hand", "field", "message"}) as an HTML page shows them: those
    that carry the engine's Problem (services.ProblemError) said in the page's words
    (``page_message``); the others are in the page's words already."""
    names = list(players)
    return [
        {**error, "message": page_message(error.problem, game=game, players=names)}
        if isinstance(getattr(error, "problem", None), Problem)
        else error
        for error in errors
    ]
