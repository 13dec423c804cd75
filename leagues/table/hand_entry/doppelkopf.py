"""Doppelkopf hand entry: ``DoppelkopfHandForm`` reads the submitted form into a hand
payload (doppelkopf.md) and fills itself again from one.

Form fields (templates/hands/doppelkopf.html); only those of the kind posted are read:

- ``kind`` (chips), ``re`` (the Re players tapped, several values), ``solo`` (solo type);
- ``eyes`` with ``eyes_for`` (``re`` or ``kontra``: the scorekeeper counts whichever pile is
  at hand; Kontra's eyes are stored as ``re_eyes = TOTAL_EYES - eyes``), ``re_tricks`` (optional);
  ``eyes_range`` (``lo-hi``: the bracket of the result chip tapped, kept as ``re_eyes_range``
  while ``eyes`` is the chip's figure; a count typed is kept as the count);
- ``ann``: the announcements in the order made, each ``party:call`` (several values);
- Sonderpunkte: ``dk_re``/``dk_kontra`` (Doppelkopf count), ``fuchs_re``/``fuchs_kontra``
  (foxes caught), ``fuchs_last`` (the party that caught a fox in the last trick),
  ``karlchen`` (the party), ``karlchen_doppel``, ``fuchs_wins_last_doppelkopf``;
  ``karlchen_gefangen`` (the party that caught the other's club jack in the last trick; only
  read, and only offered, when the rules in force count it);
- ``revoke_by`` (kind revoke), ``eyes__<player>``/``tricks__<player>`` (kind ramsch, typed),
  or the Ramsch chips ``ramsch_losers`` (several values), ``ramsch_eyes`` (``lo-hi``) and
  ``ramsch_jungfrauen`` (several values), kept as they are (``losers``, ``loser_eyes``,
  ``jungfrauen``: scoring/doppelkopf_entered.py) when no figure is typed;
  ``solo_outbid`` (several values).

Only what cannot even be read is reported here (a number that is not a number); every rule
(who may be Re, which calls are allowed, sums) is the engine's to check when the hand is
saved (the form's problems are keyed by the hand's fields: ``eyes`` is ``re_eyes``, the
Sonderpunkte counts are ``specials``, ``ann`` is ``announcements``). A payload returned
together with read errors keeps the raw text, so that the form can show it again; it is
never saved. The numbers of the game (all the eyes, the tricks, the
common values) and which kinds of game, solo types and calls exist come from
``scoring.doppelkopf``, which checks with the same ones; only their words are kept here.
"""

from itertools import combinations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from leagues.table.hand_entry import doppelkopf_words
from leagues.table.hand_entry.base import FlagField, HandForm, ListField, TextField, WholeNumberField
from leagues.table.hand_entry.doppelkopf_entered import (
    RAMSCH_CHIP_FIELDS,
    chip_bracket,
    chips_initial,
    eye_brackets,
    ramsch_brackets,
    ramsch_chips_payload,
    read_ramsch_chips,
)
from leagues.table.hand_entry.doppelkopf_labels import (
    CALL_LABELS,
    FACT_LABELS,
    KIND_CHIP_CLASS,
    KIND_LABELS,
    PARTIES,
    PARTY_LABELS,
    ROUND_NAMES,
    SOLO_LABELS,
    label_of,
)
from leagues.table.hand_entry.doppelkopf_words import announcement_items
from leagues.templatetags.sheet import queue_badges, short_names
from scoring.doppelkopf import (
    CALLS,
    EYE_MARKS,
    FOXES,
    HALF,
    KINDS,
    MAX_DOPPELKOPF,
    REACHED,
    REACHED_AGAINST,
    SOLO_TYPES,
    TOTAL_EYES,
    TRICKS,
)
from scoring.doppelkopf_value import HAND_KINDS, MAX_POINTS_VALUE, POINTS_FACT_TRIGGERS, POINTS_FACTS

TEMPLATE = "hands/doppelkopf.html"

# The values a result is written with most (one tap each); any other, up to the engine's most,
# is typed. A game won without a call or a Sonderpunkt is worth 1 (gewonnen): pre-chosen.
POINTS_VALUE_CHIPS = (1, 2, 3, 4, 5, 6)
POINTS_DEFAULT_VALUE = 1
# Words for the replay's keys, shown by the "why" view (winners and triggers).
LABELS = {
    "re": gettext_lazy("Re"),
    "kontra": gettext_lazy("Kontra"),
    "kontra_lost": gettext_lazy("Kontra lost"),
    "schwarz": gettext_lazy("schwarz"),
    "split_120": gettext_lazy("120 : 120"),
    "re_kontra_re": gettext_lazy("Re, Kontra, Re"),
    "fuchs_last_doppelkopf": gettext_lazy("Fuchs wins the last Doppelkopf"),
    "solo_streak": gettext_lazy("solo streak"),
    "durchmarsch": gettext_lazy("Durchmarsch"),
    "loser_points": gettext_lazy("the losers got the points"),
}


# Fields of the hand by kind (a field not listed for the posted kind is not read at all).
EYE_KINDS_FIELDS = (
    "re",
    "eyes",
    "eyes_for",
    "eyes_range",
    "re_tricks",
    "ann",
    "dk_re",
    "dk_kontra",
    "fuchs_re",
    "fuchs_kontra",
    "fuchs_last",
    "karlchen",
    "karlchen_doppel",
    "karlchen_gefangen",
    "fuchs_wins_last_doppelkopf",
    "solo_outbid",
)
KIND_FIELDS = {
    "revoke": ("revoke_by", "ann"),
    "ramsch": ("solo_outbid", *RAMSCH_CHIP_FIELDS),  # and eyes__<player>, tricks__<player>
    "solo": ("solo", *EYE_KINDS_FIELDS),
    "points": ("re", "solo", "winner", "value", "value_other", *POINTS_FACTS, "solo_outbid"),
}


def _counts_karlchen_gefangen(result):
    """The rules in force (the replay's ``rules``) count a caught Karlchen."""
    return bool((result.get("rules") or {}).get("karlchen_gefangen"))


def _read_announcements(values):
    """``party:call`` chips, in the order made: (the announcements, whether one was unreadable)."""
    announcements, unreadable = [], False
    for raw in values or ():
        party, _sep, call = str(raw).partition(":")
        if party not in PARTIES or call not in CALLS:
            unreadable = True
            continue
        announcements.append({"party": party, "call": call})
    return announcements, unreadable


class DoppelkopfHandForm(HandForm):
    """A hand of doppelkopf.md from the chips of templates/hands/doppelkopf.html (see the
    module doc for the fields)."""

    kind = TextField()
    re = ListField()
    solo = TextField()
    eyes = WholeNumberField()
    eyes_for = TextField()
    eyes_range = TextField()
    re_tricks = WholeNumberField()
    ann = ListField()
    dk_re = WholeNumberField()
    dk_kontra = WholeNumberField()
    fuchs_re = WholeNumberField()
    fuchs_kontra = WholeNumberField()
    fuchs_last = TextField()
    karlchen = TextField()
    karlchen_doppel = FlagField()
    karlchen_gefangen = TextField()
    fuchs_wins_last_doppelkopf = FlagField()
    revoke_by = TextField()
    ramsch_losers = ListField()
    ramsch_eyes = TextField()
    ramsch_jungfrauen = ListField()
    solo_outbid = ListField()
    # kind points (the result only): the value's chip, or the value typed (it wins)
    winner = TextField()
    value = WholeNumberField()
    value_other = WholeNumberField()
    kontra_announced = FlagField()
    schwarz = FlagField()
    split_120 = FlagField()
    re_kontra_re = FlagField()

    ERROR_FIELDS = {
        "eyes": "re_eyes",
        "ann": "announcements",
        "dk_re": "specials",
        "dk_kontra": "specials",
        "fuchs_re": "specials",
        "fuchs_kontra": "specials",
        "fuchs_last": "specials",
        "karlchen": "specials",
        "karlchen_doppel": "specials",
        "karlchen_gefangen": "specials",
        "value_other": "value",
        "eyes_range": "re_eyes_range",
        **RAMSCH_CHIP_FIELDS,
    }
    ramsch_by_chips = False

    def kept_fields(self, data):
        # Only the fields of the kind posted are read: a revoke's form may still hold eyes
        # typed before the kind was changed, and they are not part of the hand.
        self.hand_kind = (data.get("kind") or "").strip() or "normal"
        keep = {"kind", *KIND_FIELDS.get(self.hand_kind, EYE_KINDS_FIELDS)}
        if not _counts_karlchen_gefangen(self.result):
            keep.discard("karlchen_gefangen")  # only read where the rules count it
        return keep

    def add_fields(self):
        if self.hand_kind == "ramsch":
            self.add_player_fields("eyes", WholeNumberField(), separator="__")
            self.add_player_fields("tricks", WholeNumberField(), separator="__")

    def clean(self):
        data = super().clean()
        kind = self.hand_kind
        if kind == "revoke" and not data.get("revoke_by"):
            self.add_error("revoke_by", _("Tap who revoked."))
        if kind == "ramsch":
            self._clean_ramsch(data)
        if kind == "solo" and not data.get("solo"):
            self.add_error("solo", _("Tap which solo was played."))
        if "eyes" in self.fields and "eyes" in data:
            self._clean_eyes(data)
        if "eyes_range" in self.fields:
            data["eyes_range"] = chip_bracket(data, self.data)
        if kind == "points":
            self._clean_points(data)
        if "ann" in data and _read_announcements(data["ann"])[1]:
            self.add_error("ann", _("An announcement could not be read; remove it and add it again."))
        for party in PARTIES:
            for name in (f"dk_{party}", f"fuchs_{party}"):
                if (data.get(name) or 0) < 0:
                    self.add_error(name, _("Sonderpunkte cannot be negative."))
        return data

    def _clean_eyes(self, data):
        eyes = data["eyes"]
        if eyes is None:
            self.add_error("eyes", _("Enter the eyes."))
        elif data.get("eyes_for") == "kontra":
            # The scorekeeper counted Kontra's pile; the hand stores Re's eyes.
            if eyes > TOTAL_EYES:
                self.add_error("eyes", _("Eyes must be between 0 and %(max)s.") % {"max": TOTAL_EYES})
            else:
                data["eyes"] = TOTAL_EYES - eyes

    def _clean_points(self, data):
        """A points-only game: who won, and its value from a chip or typed."""
        if data.get("winner") not in PARTIES:
            self.add_error("winner", _("Tap who won."))
        typed = data.get("value_other")
        if typed is not None:
            data["value"] = typed
        if data.get("value") is None and "value_other" not in self.errors:
            self.add_error("value", _("Tap the value."))

    def _clean_ramsch(self, data):
        """A Ramsch is entered by its chips when one was tapped and no figure typed; else
        everyone's eyes and tricks are needed."""
        typed = any(
            str(self.data.get(f"{prefix}__{name}") or "").strip()
            for name in self.active
            for prefix in ("eyes", "tricks")
        )
        if not typed and any(data.get(name) for name in RAMSCH_CHIP_FIELDS):
            self.ramsch_by_chips = True
            for name, problem in read_ramsch_chips(data).items():
                self.add_error(name, problem)
            return
        for name in self.active:
            for prefix, missing in (
                ("eyes", _("Enter everyone's eyes.")),
                ("tricks", _("Enter everyone's tricks.")),
            ):
                key = f"{prefix}__{name}"
                if key in data and data[key] is None:
                    self.add_error(key, missing)

    def _specials(self):
        specials = []
        for party in PARTIES:
            for kind, field in (("doppelkopf", f"dk_{party}"), ("fuchs", f"fuchs_{party}")):
                count = self.value(field)
                if not isinstance(count, int) or count < 0:
                    continue
                for i in range(min(count, TRICKS)):  # no more of either than tricks in a game
                    item = {"kind": kind, "party": party}
                    if kind == "fuchs" and i == 0 and self.value("fuchs_last") == party:
                        item["last_trick"] = True
                    specials.append(item)
        karlchen = self.value("karlchen")
        if karlchen in PARTIES:
            item = {"kind": "karlchen", "party": karlchen}
            if self.value("karlchen_doppel"):
                item["doppel"] = True
            specials.append(item)
        if "karlchen_gefangen" in self.fields and self.value("karlchen_gefangen") in PARTIES:
            specials.append({"kind": "karlchen_gefangen", "party": self.value("karlchen_gefangen")})
        return specials

    def to_payload(self):
        kind = self.hand_kind
        payload = {"kind": kind}
        outbid = self.value("solo_outbid") if "solo_outbid" in self.fields else None
        if kind == "revoke":
            payload["revoke_by"] = self.value("revoke_by") or None
            announcements, _unreadable = _read_announcements(self.value("ann"))
            if announcements:
                payload["announcements"] = announcements
            return payload
        if kind == "points":
            return self._points_payload(payload, outbid)
        if kind == "ramsch" and self.ramsch_by_chips:
            payload.update(ramsch_chips_payload(self.value))
            if outbid:
                payload["solo_outbid"] = outbid
            return payload
        if kind == "ramsch":
            payload["eyes"] = self.player_values("eyes", separator="__")
            payload["tricks"] = self.player_values("tricks", separator="__")
            if outbid:
                payload["solo_outbid"] = outbid
            return payload
        payload["re"] = self.value("re") or []
        if kind == "solo":
            payload["solo"] = self.value("solo") or None
        payload["re_eyes"] = self.value("eyes")
        if isinstance(self.value("eyes_range"), list):
            payload["re_eyes_range"] = self.value("eyes_range")
        tricks = self.value("re_tricks")
        if tricks is not None:
            payload["re_tricks"] = tricks
        payload["announcements"] = _read_announcements(self.value("ann"))[0]
        payload["specials"] = self._specials()
        if self.value("fuchs_wins_last_doppelkopf"):
            payload["fuchs_wins_last_doppelkopf"] = True
        if outbid:
            payload["solo_outbid"] = outbid
        return payload

    def _points_payload(self, payload, outbid):
        """A game written as its result: the Re party (one player: the soloist, with the
        solo type), who won, the value, and the facts that fire triggers, only those true."""
        re = self.value("re") or []
        payload["re"] = re
        if len(re) == 1:
            payload["solo"] = self.value("solo") or None
        payload["winner"] = self.value("winner") or None
        payload["value"] = self.value("value_other") if "value_other" in self.errors else self.value("value")
        for fact in POINTS_FACTS:
            if self.value(fact):
                payload[fact] = True
        if outbid:
            payload["solo_outbid"] = outbid
        return payload

    @classmethod
    def from_payload(cls, payload):
        return _initial_from_payload(payload)


def _points_only(result):
    """The league writes only each game's result (the rule option ``points_only``)."""
    return bool((result.get("rules") or {}).get("points_only"))


def _default_kind(nxt, *, points_only=False):
    """The kind pre-chosen for a new hand: a solo when someone must play one, Ramsch in a
    Ramsch round, else a normal game; where the league writes only the result, that (the
    soloist's too), except in a Ramsch round without a soloist (a Ramsch has no result to
    write: its loser pays by his eyes)."""
    if nxt.get("round") == "ramsch" and not nxt.get("soloist"):
        return "ramsch"
    if points_only:
        return "points"
    if nxt.get("soloist"):
        return "solo"
    return "normal"


def _re_pairs(active):
    """Every pair of the active players, named short enough for three chips a row."""
    short = short_names(active)
    return [{"value": f"{a}|{b}", "label": f"{short[a]} + {short[b]}"} for a, b in combinations(active, 2)]


def next_words(nxt):
    """The words with figures in them of Doppelkopf's part of what comes next (the ``next``
    partial of templates/hands/doppelkopf.html, which has the constant ones): the running
    round and its games left, the stacked Bock rounds with their multiplier (with more than
    one of them, or a multiplier outside a Bock round: ``bock_stacking`` stack), the rounds
    waiting after it, who still owes a solo."""
    words = {}
    kind = nxt.get("round")
    if kind and kind != "normal":
        left = nxt.get("round_games_left")
        words["round"] = ROUND_NAMES.get(kind, kind)
        words["round_left"] = ngettext("%(games)s game left", "%(games)s games left", left) % {"games": left}
    bock_rounds = nxt.get("bock_rounds") or []
    multiplier = nxt.get("multiplier")
    if len(bock_rounds) > 1 or (multiplier is not None and multiplier > 1 and kind != "bock"):
        words["multiplier"] = _("Every point counts ×%(multiplier)s") % {"multiplier": multiplier}
        words["bock_stack"] = ngettext(
            "Bock round, games left: %(games)s", "%(rounds)s Bock rounds, games left: %(games)s", len(bock_rounds)
        ) % {"rounds": len(bock_rounds), "games": ", ".join(str(games) for games in bock_rounds)}
    if nxt.get("queue"):
        words["queue"] = queue_badges(nxt["queue"])
    if nxt.get("solo_owed"):
        words["solo_owed"] = ", ".join(nxt["solo_owed"])
    return words


def extra_context(result):
    """What the form offers, from the engine: the kinds of game (Ramsch only when the next
    game is in a Ramsch round, as the replay's ``next`` says), the solo types, each party's
    calls (its own Re or Kontra, then the absagen: ``CALLS``); and the game's numbers: the
    common values of the eyes (quick buttons), the ranges of eyes and tricks, and how many
    Doppelköpfe and Füchse a party can have; and the words with figures of its part of what
    comes next (``dk``, ``next_words``)."""
    nxt = result["next"]
    points_only = _points_only(result)
    bock_triggers = set((result.get("rules") or {}).get("bock_triggers") or ())
    return {
        "kinds": _kinds(result, points_only=points_only),
        "default_kind": _default_kind(nxt, points_only=points_only),
        "dk": next_words(nxt),
        "points_only": points_only,
        "value_chips": POINTS_VALUE_CHIPS,
        "default_value": POINTS_DEFAULT_VALUE,
        "max_value": MAX_POINTS_VALUE,
        # The facts offered are those that fire a trigger the rules in force count.
        "points_facts": [
            {"name": fact, "label": FACT_LABELS[fact]}
            for fact, trigger in POINTS_FACT_TRIGGERS.items()
            if trigger in bock_triggers
        ],
        "solo_types": [{"value": solo, "label": label_of(SOLO_LABELS, solo)} for solo in SOLO_TYPES],
        "party_calls": _party_calls(),
        # The row for a caught Karlchen only where the league's rules count it.
        "karlchen_gefangen": _counts_karlchen_gefangen(result),
        # One tap for the Re pair of a normal game: every pair of the active players.
        "re_pairs": _re_pairs(nxt.get("active") or ()),
        "doppel_charly": bool((result.get("rules") or {}).get("doppel_charly")),
        **_numbers(),
    }


def _kinds(result, *, points_only):
    """The kinds of game as chips. Ramsch only when the next game is in a Ramsch round; where
    the league writes only the result, that kind comes first, elsewhere it is offered only for
    correcting a hand stored so (the API takes them)."""
    kinds = ("points", *KINDS) if points_only else (*KINDS, *(k for k in HAND_KINDS if k not in KINDS))
    offered = {"ramsch": result["next"].get("round") == "ramsch", "points": points_only}
    return [
        {
            "value": kind,
            "label": label_of(KIND_LABELS, kind),
            "offered": offered.get(kind, True),
            "chip_class": KIND_CHIP_CLASS.get(kind, ""),
        }
        for kind in kinds
    ]


def _party_calls():
    """Each party's calls: the engine lets a party call only its own name of the two (Re or
    Kontra), then the absagen."""
    return [
        {
            "party": party,
            "label": PARTY_LABELS[party],
            "calls": [
                {"value": f"{party}:{call}", "label": label_of(CALL_LABELS, call)}
                for call in CALLS
                if call == party or call not in PARTIES
            ],
        }
        for party in PARTIES
    ]


def _numbers():
    """The game's numbers the form is drawn with: the eyes' marks and brackets, the tricks,
    how many Doppelköpfe and Füchse a party can have, the absagen's targets."""
    return {
        "eye_marks": EYE_MARKS,
        "total_eyes": TOTAL_EYES,
        "eyes_digits": len(str(TOTAL_EYES)),
        "tricks": TRICKS,
        "tricks_digits": len(str(TRICKS)),
        "max_doppelkopf": MAX_DOPPELKOPF,
        "foxes": FOXES,
        "brackets": eye_brackets(),
        "half": HALF,
        "absage_targets": "|".join(str(n) for n in (*REACHED, TOTAL_EYES)),
        "absage_against": "|".join(str(n) for n in REACHED_AGAINST),
        "ramsch_brackets": ramsch_brackets(),
    }


def _initial_from_payload(payload):
    initial = {
        "kind": payload.get("kind", "normal"),
        "re": list(payload.get("re") or ()),
        "solo": payload.get("solo"),
        "eyes": payload.get("re_eyes"),
        "re_tricks": payload.get("re_tricks"),
        "announcements": announcement_items(payload.get("announcements")),
        "revoke_by": payload.get("revoke_by"),
        "solo_outbid": list(payload.get("solo_outbid") or ()),
        "fuchs_wins_last_doppelkopf": bool(payload.get("fuchs_wins_last_doppelkopf")),
        "has_specials": bool(payload.get("specials") or payload.get("fuchs_wins_last_doppelkopf")),
        "winner": payload.get("winner"),
    }
    if payload.get("kind") == "points":
        initial.update(_points_initial(payload))
    initial.update(_specials_initial(payload.get("specials")))
    initial.update(chips_initial(payload))
    eyes, tricks = payload.get("eyes"), payload.get("tricks")
    if isinstance(eyes, dict):
        tricks = tricks if isinstance(tricks, dict) else {}
        initial["ramsch_rows"] = [{"name": n, "eyes": e, "tricks": tricks.get(n)} for n, e in eyes.items()]
    return initial


def _points_initial(payload):
    value = payload.get("value")
    return {
        "value_chip": value if value in POINTS_VALUE_CHIPS else None,
        "value_other": None if value in POINTS_VALUE_CHIPS else value,
        "facts": [fact for fact in POINTS_FACTS if payload.get(fact) is True],
    }


def _specials_initial(specials):
    """The Sonderpunkte chips as a stored hand's specials set them."""
    initial = {f"{kind}_{party}": 0 for party in PARTIES for kind in ("dk", "fuchs")}
    for item in specials or ():
        if not isinstance(item, dict) or item.get("party") not in PARTIES:
            continue
        party, kind = item["party"], item.get("kind")
        if kind == "doppelkopf":
            initial[f"dk_{party}"] += 1
        elif kind == "fuchs":
            initial[f"fuchs_{party}"] += 1
            if item.get("last_trick"):
                initial["fuchs_last"] = party
        elif kind == "karlchen":
            initial["karlchen"] = party
            initial["karlchen_doppel"] = bool(item.get("doppel"))
        elif kind == "karlchen_gefangen":
            initial["karlchen_gefangen"] = party
    return initial


# The module contract the views use (leagues/table/hand_entry/__init__.py).
payload_from_post = DoppelkopfHandForm.payload_from_post
initial_from_payload = DoppelkopfHandForm.from_payload
describe = doppelkopf_words.describe
