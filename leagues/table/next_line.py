"""Words of the one line above the hand form (the summary of "what comes next", the partial
``next_card`` of templates/meetings/meeting.html), which a phone shows with the panel folded:
the form's first control must be on the screen before any scroll.

A race game's line holds what its panel holds at most length: each party's score (to the
target, or the chips of a pot game), the pot, and who won the game the last hand ended. The
panel itself unfolds on a tap (and on a wide screen by itself: static/js/race-entry.js)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def race_words(result):
    """The line's words of a game other than Doppelkopf: ``scores`` ((party, total) in seat
    order), ``pot`` (pot games) and ``game_won`` (the last hand ended a game)."""
    words = {"scores": list((result.get("totals") or {}).items())}
    pot = result.get("pot")
    if pot is not None:
        words["pot"] = ngettext("pot: %(chips)s chip", "pot: %(chips)s chips", pot) % {"chips": pot}
    games = result.get("games") or []
    if games and games[-1].get("hand") == len(result.get("hands") or ()):
        words["game_won"] = _("game won by %(name)s") % {"name": games[-1].get("winner")}
    return words


def owed_words(owed, players):
    """Who still owes a solo in the evening's last round: "everyone" when all at the table do
    (six names do not fit the line of a 360 px phone), else their names."""
    if len(owed) > 1 and players and set(owed) >= set(players):
        return _("solo owed: everyone")
    return _("solo owed: %(names)s") % {"names": ", ".join(owed)}
