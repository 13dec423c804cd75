"""The words each game's ``describe`` says a hand with, for the browser.

A hand entered without signal waits in the outbox (static/js/outbox.js) before the server can
read it; the outbox says it as the sheet's why view will once it is stored. The server cannot
be asked then, so the hand form carries these words (``data-say``, JSON, in the language of
the page) and static/js/hand-words.js reads the form's fields as the game's form reads them
and puts the words together as ``describe`` does. The labels and value words come from the
same messages and tables as each module's ``describe``."""

import json
from functools import lru_cache

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from leagues.table.hand_entry import doppelkopf, doppelkopf_labels, fifty_six, maw, suit_chips, thousand
from leagues.table.hand_entry.doppelkopf_entered import PLAYING


def _doppelkopf():
    labels = {
        "game": _("Game"),
        "solo": _("Solo"),
        "re": _("Re"),
        "eyes": _("Eyes"),
        "re_tricks": _("Re tricks"),
        "revoked": _("Revoked"),
        "won_by": _("Won by"),
        "value": _("Value"),
        "facts": _("Starts a special round"),
        "announcements": _("Announcements"),
        "specials": _("Sonderpunkte"),
        "fuchs_won": _("Fuchs won the last trick"),
        "ramsch": _("Ramsch"),
        "most_eyes": _("Most eyes (pays)"),
        "jungfrau": _("Jungfrau (no trick)"),
        "durchmarsch": _("Durchmarsch"),
        "outbid": _("Solo outbid"),
    }
    row = ("%(name)s %(eyes)s eyes, %(tricks)s trick", "%(name)s %(eyes)s eyes, %(tricks)s tricks")
    slots = {"name": "{name}", "eyes": "{eyes}", "tricks": "{tricks}"}

    def words(table):
        return {key: str(value) for key, value in table.items()}

    return {
        "labels": labels,
        "eyes_text": _("Re %(re)s : Kontra %(kontra)s") % {"re": "{re}", "kontra": "{kontra}"},
        # A row of the Ramsch table: one trick, and any other number (describe's ngettext).
        "ramsch_row": [ngettext(*row, 1) % slots, ngettext(*row, 2) % slots],
        "kinds": words(doppelkopf_labels.KIND_LABELS),
        "solos": words(doppelkopf_labels.SOLO_LABELS),
        "calls": words(doppelkopf_labels.CALL_LABELS),
        "parties": words(doppelkopf_labels.PARTY_LABELS),
        "specials": words(doppelkopf_labels.SPECIAL_LABELS),
        "facts": [[fact, str(doppelkopf_labels.FACT_LABELS[fact])] for fact in doppelkopf.POINTS_FACTS],
        "last_trick": _("(last trick)"),
        "doppel": _("(Doppel-Charly)"),
        "yes_doppelkopf": _("yes, a Doppelkopf"),
        "total": doppelkopf.TOTAL_EYES,
        "playing": PLAYING,
    }


def _maw():
    return {
        "labels": {
            "bidder": _("Bidder"),
            "maker": _("Maker (won the auction)"),
            "bid": _("Bid"),
            "call": _("Call"),
            "bagged": _("Bagged"),
            "other_bids": _("Highest bid of the others"),
            "tricks": _("Tricks"),
            "top_trump": _("Highest trump"),
            "jink": _("Jink"),
        },
        "calls": {key: str(value) for key, value in maw.CALL_LABELS.items()},
        "trick": _("trick %(number)s") % {"number": "{n}"},
        "no_trump": _("no trump played"),
        "no_trump_value": maw.NO_TRUMP,
        "yes": _("yes"),
    }


def _thousand():
    return {
        "labels": {
            "declarer": _("Declarer"),
            "bid": _("Final bid"),
            "points": _("Card points"),
            "marriages": _("Marriages"),
            "all_tricks": _("All tricks (durch)"),
            "forgot": _("Forgot to pass two cards"),
        },
        "looks": {chip["value"]: chip["symbol"] or str(chip["label"]) for chip in suit_chips(thousand.SUITS)},
        "yes": _("yes"),
    }


def _fifty_six():
    return {
        "labels": {
            "bidder": _("Bidder"),
            "bid": _("Bid"),
            "trump": _("Trump"),
            "doubled": _("Doubled"),
            "points": _("Card points of the bidding team"),
        },
        "looks": {chip["value"]: str(chip["label"]) for chip in suit_chips(fifty_six.TRUMPS)},
        "doubles": {"1": _("Double"), "2": _("Redouble")},
    }


FAMILIES = {"doppelkopf": _doppelkopf, "thousand": _thousand, "fifty_six": _fifty_six}


def hand_words(game):
    """The words of ``game``'s hands as JSON, in the active language."""
    return _hand_words(game, get_language())


@lru_cache(maxsize=64)
def _hand_words(game, _language):
    family = game if game in FAMILIES else "maw"
    words = FAMILIES.get(game, _maw)()
    return json.dumps({"game": family, **words}, ensure_ascii=False)
