"""Special points (Sonderpunkte) of a Doppelkopf party game, as entered: a Doppelkopf, a Fuchs
caught (also in the last trick), a Karlchen winning the last trick (a Doppel-Charly), a Karlchen
caught. Each entry of ``specials`` is checked on its own, then all of them together against the
deck: two Füchse, two club jacks, one last trick, a Doppelkopf per 40 eyes of its party."""

from __future__ import annotations

from .doppelkopf_checks import DOPPELKOPF_EYES, FOXES
from .errors import _

SPECIAL_KINDS = ("doppelkopf", "fuchs", "karlchen", "karlchen_gefangen")
# How the players say them, for messages.
SPECIAL_NAMES = {
    "doppelkopf": "Doppelkopf",
    "fuchs": "Fuchs",
    "karlchen": "Karlchen",
    "karlchen_gefangen": "Karlchen gefangen",
}
# The one flag an entry of each kind may carry: a Fuchs caught in the last trick, a Karlchen
# beside the other club jack of its own party (Doppel-Charly).
FLAGS = {"fuchs": "last_trick", "karlchen": "doppel"}
CLUB_JACKS = 2  # Karlchen (jacks of clubs) in the deck


class _Tally:
    """What the entries claim so far: the points by item and party, and what they put into the
    game (Doppelköpfe, Füchse, club jacks, who won the last trick) for the checks against the deck."""

    __slots__ = ("items", "points", "doppelkoepfe", "foxes", "karlchen", "caught", "jacks", "last_trick")

    def __init__(self):
        self.items: dict = {}  # (item, party) -> points
        self.points = {"re": 0, "kontra": 0}
        self.doppelkoepfe = {"re": 0, "kontra": 0}
        self.foxes = 0
        self.karlchen = 0  # Karlchen winning the last trick
        self.caught = 0  # Karlchen caught in the last trick
        self.jacks = 0  # club jacks the entries put into the last trick
        self.last_trick: set[str] = set()  # the parties claiming the last trick

    def count(self, special: str, party: str, flag: bool, rules) -> None:
        if special == "doppelkopf":
            self.doppelkoepfe[party] += 1
            self._add(("doppelkopf", party), 1)
        elif special == "karlchen_gefangen":
            # The catchers won the last trick; the caught club jack was the other party's.
            self.caught += 1
            self.jacks += 1
            self.last_trick.add(party)
            self._add(("karlchen_gefangen", party), 1)
        elif special == "fuchs":
            self.foxes += 1
            if flag:
                self.last_trick.add(party)
                self._add(("fuchs_last", party), rules.fuchs_last)
            else:
                self._add(("fuchs", party), 1)
        else:
            self.karlchen += 1
            # Doppel-Charly: both club jacks in the last trick came from the winning party.
            self.jacks += 2 if flag else 1
            self.last_trick.add(party)
            if flag and rules.doppel_charly:
                self._add(("doppel_charly", party), 2)
            else:
                self._add(("karlchen", party), 1)

    def _add(self, key: tuple[str, str], points: int) -> None:
        self.items[key] = self.items.get(key, 0) + points
        self.points[key[1]] += points


class _Reading:
    """The hand's special points being read: where they count, and the problems found."""

    __slots__ = ("number", "rules", "problems", "all_count", "dk_counts", "no_trick", "tally")

    def __init__(self, number, gtype, no_trick, rules, problems):
        self.number = number
        self.rules = rules
        self.problems = problems
        self.all_count = gtype in rules.sp_all
        self.dk_counts = self.all_count or gtype in rules.sp_doppelkopf
        self.no_trick = no_trick  # party -> it took no trick
        self.tally = _Tally()

    def add(self, message: str, **params) -> None:
        self.problems.add(self.number, "specials", message, **params)

    def entry(self, entry) -> bool:
        """Count one entry of ``specials``; False after a problem (it may still count)."""
        kind_party = self._kind_and_party(entry)
        if kind_party is None:
            return False
        special, party = kind_party
        flag, flag_ok = self._flag(entry, special)
        if not self._counts_here(special):
            return False
        if special != "doppelkopf" and self.no_trick[party]:
            self.add(_("A party without a trick can have no %(kind)s."), kind=special)
            return False
        self.tally.count(special, party, flag, self.rules)
        return flag_ok

    def _kind_and_party(self, entry) -> tuple[str, str] | None:
        if not isinstance(entry, dict):
            self.add(_("Each special point needs a kind and a party."))
            return None
        special = entry.get("kind")
        party = entry.get("party")
        if not isinstance(special, str) or special not in SPECIAL_KINDS:
            if self.rules.karlchen_gefangen:
                self.add(_("A special point is a doppelkopf, fuchs, karlchen or karlchen_gefangen."))
            else:
                self.add(_("A special point is a doppelkopf, fuchs or karlchen."))
            return None
        if special == "karlchen_gefangen" and not self.rules.karlchen_gefangen:
            self.add(_("Karlchen gefangen does not count under these rules."))
            return None
        if not isinstance(party, str) or party not in ("re", "kontra"):
            self.add(_("The party of a special point must be re or kontra."))
            return None
        return special, party

    def _flag(self, entry: dict, special: str) -> tuple[bool, bool]:
        """``(flag, ok)``: the entry's ``last_trick`` or ``doppel`` (False when left out), and
        whether the entry holds nothing else."""
        flag, ok = False, True
        if len(entry) == 2:  # kind and party only (both present, checked before)
            return flag, ok
        for key in entry:
            if key == "kind" or key == "party":
                continue
            if key != FLAGS.get(special):
                self.add(_("“%(name)s” does not apply to a special point %(kind)s."), name=key, kind=special)
                ok = False
            elif type(entry[key]) is not bool:
                self.add(_("“%(name)s” must be true or false."), name=key)
                ok = False
            else:
                flag = entry[key]
        return flag, ok

    def _counts_here(self, special: str) -> bool:
        if self.all_count or (self.dk_counts and special == "doppelkopf"):
            return True
        if self.dk_counts:
            self.add(_("Only the Doppelkopf counts in this game, not %(kind)s."), kind=SPECIAL_NAMES[special])
        else:
            self.add(_("Special points do not count in this game."))
        return False

    def fits_the_deck(self, eyes: dict[str, int]) -> bool:
        """The entries together: no more Füchse, Karlchen and club jacks than the deck holds, one
        party winning the last trick, at most one Doppelkopf per 40 eyes of its party."""
        tally = self.tally
        ok = True
        if tally.foxes > FOXES:
            self.add(_("There are only two Füchse in a game."))
            ok = False
        if tally.karlchen > 1:
            self.add(_("Only one Karlchen can win the last trick."))
            ok = False
        if tally.jacks > CLUB_JACKS:
            if tally.caught and tally.karlchen:
                self.add(_("With a Doppel-Charly no Karlchen of the other party can be caught."))
            else:
                self.add(_("There are only two Karlchen in a game."))
            ok = False
        if len(tally.last_trick) > 1:
            self.add(_("Only one party can win the last trick."))
            ok = False
        for party in ("re", "kontra"):
            most = eyes[party] // DOPPELKOPF_EYES
            if tally.doppelkoepfe[party] > most:
                self.add(_("With %(eyes)s eyes a party has at most %(max)s Doppelkopf."), eyes=eyes[party], max=most)
                ok = False
        return ok

    def fuchs_wins_last_doppelkopf(self) -> bool:
        """The flag beside the entries: a Doppelkopf whose last trick a Fuchs won."""
        tally = self.tally
        if not self.dk_counts:
            message = _("Special points do not count in this game.")
        elif not (tally.doppelkoepfe["re"] or tally.doppelkoepfe["kontra"]):
            message = _("A Fuchs winning the last trick needs a Doppelkopf entered.")
        elif tally.karlchen:
            message = _("The last trick was won by a Karlchen, not by a Fuchs.")
        elif tally.caught:
            message = _("A Fuchs cannot win a trick that holds a Karlchen.")
        else:
            return True
        self.problems.add(self.number, "fuchs_wins_last_doppelkopf", message)
        return False


def check_specials_shape(hand, number, problems):
    value = hand.get("specials")
    if value is not None and not isinstance(value, list):
        problems.add(number, "specials", _("Special points must be a list."))


def _fuchs_flag(hand, number, problems) -> bool | None:
    """``fuchs_wins_last_doppelkopf``: None when left out or when it is no bool."""
    flag = hand.get("fuchs_wins_last_doppelkopf")
    if flag is not None and type(flag) is not bool:
        problems.add(number, "fuchs_wins_last_doppelkopf", _("Must be true or false."))
        return None
    return flag


def _no_entries(value, flag, number, problems):
    """No special point entered (a list left empty, or left out)."""
    if value is not None and not isinstance(value, list):
        problems.add(number, "specials", _("Special points must be a list."))
        return None
    if flag:
        problems.add(
            number, "fuchs_wins_last_doppelkopf", _("A Fuchs winning the last trick needs a Doppelkopf entered.")
        )
        return None
    return {}, 0, 0, False


def check_specials(hand, number, gtype, re_eyes, ko_eyes, re_none, ko_none, rules, problems):
    """({(item, party): points}, Re's total, Kontra's total, fuchs wins last doppelkopf) or None."""
    value = hand.get("specials")
    flag = _fuchs_flag(hand, number, problems)
    if not value:
        return _no_entries(value, flag, number, problems)
    if not isinstance(value, list):
        problems.add(number, "specials", _("Special points must be a list."))
        return None
    reading = _Reading(number, gtype, {"re": re_none, "kontra": ko_none}, rules, problems)
    ok = True
    for entry in value:
        ok = reading.entry(entry) and ok
    ok = reading.fits_the_deck({"re": re_eyes, "kontra": ko_eyes}) and ok
    if flag:
        ok = reading.fuchs_wins_last_doppelkopf() and ok
    if not ok:
        return None
    tally = reading.tally
    return tally.items, tally.points["re"], tally.points["kontra"], bool(flag)
