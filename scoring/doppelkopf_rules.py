"""Doppelkopf rule options and the two presets (``club`` and ``ddv``), as data.

Every difference between the club's house rules (seed 003) and the DDV tournament scoring is
one option here; the engine (``scoring.doppelkopf``) branches on option values only.

Decisions where the spec is silent:

- ``special_points_in`` lists game types in which all special points (Sonderpunkte) count;
  an entry ``<type>_doppelkopf`` makes only the Doppelkopf point count in that type (the
  club: ``trumpf_doppelkopf``). Game types: ``normal``, ``hochzeit`` (with partner),
  ``trumpfabgabe``, and the soli ``trumpf`` (also a Hochzeit without partner), ``damen``,
  ``buben``, ``fleischlos``, ``stilles``.
- ``bock_in_bock``: what a Bock trigger in a Bock game enqueues: ``ramsch`` (a Ramsch round
  instead; with ``ramsch`` switched off it falls back to a Bock round), ``bock`` (another Bock
  round) or none (nothing; the trigger is still listed).
- ``revoke_multiplier``: the revoker pays this many times the value, every other active player
  gets the value once (with 3 the game sums to zero).
- ``announcement_points``: what ``re`` and ``kontra`` are worth in the game value, and also in a
  revoke's value (the points of the announcements made so far).
- ``karlchen_gefangen``: counts where all special points count (not where only the Doppelkopf
  does), 1 point for the party that won the last trick; it names that party.
- ``bock_stacking: stack``: Bock rounds run beside the queue of the other special rounds (Ramsch,
  Pflichtsolo): a game in such a round is still a Bock game for the multiplier (``round`` names
  the Ramsch or Pflichtsolo round), except a Ramsch game, which is never a Bock game. A Bock round
  covers as many games as the deal moves on (a trump solo that suspends a Ramsch game does not
  count, as in a queued round). The multiplier counts at most ``MAX_STACKED_BOCK`` rounds (×64):
  further triggers still start rounds, but keep every figure of an evening inside the limits of
  ``scoring/limits.py``.
- ``points_only``: the club writes only each game's result (the ``points`` kind of hand:
  winner, value, the facts that fire triggers). It chooses the hand-entry form the league
  offers first; the engine scores a ``points`` hand the same with it on or off (the API takes
  them either way), so it changes no figure.
"""

from __future__ import annotations

import dataclasses

from .errors import _
from .options import BOOL, CHOICE, INT, MULTI, Option

GAME_TYPES = ("normal", "hochzeit", "trumpfabgabe", "trumpf", "damen", "buben", "fleischlos", "stilles")
SPECIAL_POINT_PLACES = GAME_TYPES + tuple(f"{t}_doppelkopf" for t in GAME_TYPES)
# The most Bock rounds a game's multiplier counts with ``bock_stacking: stack`` (2**6 = 64): a
# game of 100 points (the most the ``points`` kind takes), tripled for the soloist, stays under
# scoring.limits.MOST_PER_HAND.
MAX_STACKED_BOCK = 6
BOCK_TRIGGERS = ("kontra_lost", "schwarz", "split_120", "re_kontra_re", "fuchs_last_doppelkopf", "solo_streak")

_GAME_TYPE_LABELS = {
    "normal": _("normal game"),
    "hochzeit": _("Hochzeit with partner"),
    "trumpfabgabe": _("Trumpfabgabe"),
    "trumpf": _("trump solo (and Hochzeit without partner)"),
    "damen": _("Damensolo"),
    "buben": _("Bubensolo"),
    "fleischlos": _("Fleischloser"),
    "stilles": _("stilles Solo (stille Hochzeit)"),
}
_PLACE_LABELS = dict(_GAME_TYPE_LABELS)
_PLACE_LABELS.update(
    {
        "normal_doppelkopf": _("normal game: only the Doppelkopf"),
        "hochzeit_doppelkopf": _("Hochzeit with partner: only the Doppelkopf"),
        "trumpfabgabe_doppelkopf": _("Trumpfabgabe: only the Doppelkopf"),
        "trumpf_doppelkopf": _("trump solo: only the Doppelkopf"),
        "damen_doppelkopf": _("Damensolo: only the Doppelkopf"),
        "buben_doppelkopf": _("Bubensolo: only the Doppelkopf"),
        "fleischlos_doppelkopf": _("Fleischloser: only the Doppelkopf"),
        "stilles_doppelkopf": _("stilles Solo: only the Doppelkopf"),
    }
)

OPTIONS = (
    Option(
        "solo_point",
        BOOL,
        _("Solopunkt"),
        _("A solo is worth one point more, whoever wins it."),
    ),
    Option(
        "announcement_points",
        INT,
        _("Points for Re and Kontra"),
        _("What announcing Re and announcing Kontra are worth each (most clubs: 2, some: 1)."),
        minimum=1,
        maximum=3,
    ),
    Option(
        "absage_points",
        CHOICE,
        _("Points for keine 90, keine 60, …"),
        _(
            "Who scores the points for the absagen (keine 90, keine 60, keine 30, schwarz): only the winners "
            "for their own absagen, or the winners for the absagen of both parties (DDV)."
        ),
        choices=("winner_only", "both"),
        choice_labels={"winner_only": _("only the winners' own absagen"), "both": _("the absagen of both parties")},
    ),
    Option(
        "special_points_in",
        MULTI,
        _("Where Sonderpunkte count"),
        _(
            "The games in which Doppelkopf, Fuchs gefangen and Karlchen count. Anywhere else a special "
            "point entered for a game is a mistake."
        ),
        choices=SPECIAL_POINT_PLACES,
        choice_labels=_PLACE_LABELS,
    ),
    Option(
        "fuchs_last_trick_points",
        INT,
        _("Fuchs caught in the last trick"),
        _("Points for a Fuchs (diamond ace) of the other party caught in the last trick."),
        minimum=1,
        maximum=3,
    ),
    Option(
        "doppel_charly",
        BOOL,
        _("Doppel-Charly"),
        _("Karlchen wins the last trick and the second club jack came from the same party: 2 points instead of 1."),
    ),
    Option(
        "karlchen_gefangen",
        BOOL,
        _("Karlchen gefangen"),
        _("A club jack (Karlchen) of one party caught by the other party in the last trick: 1 point for the catchers."),
    ),
    Option(
        "gegen_die_alten_in_stilles",
        BOOL,
        _("Gegen die Alten in a stilles Solo"),
        _("The opponents get the point for winning gegen die Alten also against a stille Hochzeit."),
    ),
    Option(
        "loser_gets_points",
        BOOL,
        _("Losers get the points"),
        _(
            "The losers are credited the points anyway when they stay under 60 and the winners announced "
            "nothing, under 30 and the winners only said Re or Kontra, or without a trick against keine 90. "
            "Such a game starts a Pflichtsolo round."
        ),
    ),
    Option(
        "bock_triggers",
        MULTI,
        _("Bock rounds after"),
        _("What starts a Bock round (every point counts double): each one enqueues a round of its own."),
        choices=BOCK_TRIGGERS,
        choice_labels={
            "kontra_lost": _("Kontra announced and lost"),
            "schwarz": _("a party took no trick (schwarz)"),
            "split_120": _("120 to 120 (gespaltener Arsch)"),
            "re_kontra_re": _("Re – Kontra – Re announced"),
            "fuchs_last_doppelkopf": _("a Fuchs wins the last trick with a Doppelkopf"),
            "solo_streak": _("as many soli in a row as players at the table"),
        },
    ),
    Option(
        "bock_in_bock",
        CHOICE,
        _("Bock trigger in a Bock game"),
        _(
            "What a Bock trigger in a Bock game starts: a Ramsch round, another Bock round, or nothing. "
            "With stacked Bock rounds every trigger starts a Bock round."
        ),
        choices=("ramsch", "bock"),
        nullable=True,
        choice_labels={"ramsch": _("a Ramsch round"), "bock": _("another Bock round"), None: _("nothing")},
    ),
    Option(
        "bock_stacking",
        CHOICE,
        _("Several Bock rounds at once"),
        _(
            "Queued: each Bock round waits until the running one is over. Stacked: each Bock round starts "
            "with the next game and overlaps any running one; a game counts double for each Bock round "
            "covering it (two ×4, three ×8)."
        ),
        choices=("queue", "stack"),
        choice_labels={"queue": _("one after the other"), "stack": _("stacked (×4, ×8, …)")},
    ),
    Option(
        "ramsch",
        BOOL,
        _("Ramsch"),
        _(
            "Ramsch rounds are played: everyone for himself, the most eyes lose; Jungfrau doubles, a "
            "Durchmarsch wins 8 points and starts a Bock round."
        ),
    ),
    Option(
        "pflichtsolo_rounds",
        BOOL,
        _("Pflichtsolo rounds"),
        _("After a game in which the losers got the points, everyone in turn must play a solo."),
    ),
    Option(
        "carry_special_rounds",
        BOOL,
        _("Carry Bock and Ramsch rounds over"),
        _("Special rounds still waiting at the end of a meeting are played at the start of the next one."),
    ),
    Option(
        "points_only",
        BOOL,
        _("Write only the result"),
        _(
            "The scorekeeper enters each game as its result only: the Re party, who won, the value, and "
            "what starts a special round. Eyes, announcements and Sonderpunkte are not entered."
        ),
    ),
    Option(
        "revoke_multiplier",
        INT,
        _("Falsch bedient"),
        _("A revoke counts as a solo lost schwarz: the revoker pays this many times the value, everyone else gets it."),
        minimum=1,
        maximum=3,
    ),
)

# The league form folds the options into these groups (a long list is hard to read on a phone).
POINTS = _("Points")
SPECIAL_POINTS = _("Sonderpunkte")
SPECIAL_ROUNDS = _("Special rounds")
_GROUPS = {
    "solo_point": POINTS,
    "absage_points": POINTS,
    "announcement_points": POINTS,
    "revoke_multiplier": POINTS,
    "points_only": POINTS,
    "special_points_in": SPECIAL_POINTS,
    "fuchs_last_trick_points": SPECIAL_POINTS,
    "doppel_charly": SPECIAL_POINTS,
    "karlchen_gefangen": SPECIAL_POINTS,
    "gegen_die_alten_in_stilles": SPECIAL_POINTS,
    "loser_gets_points": SPECIAL_ROUNDS,
    "bock_triggers": SPECIAL_ROUNDS,
    "bock_in_bock": SPECIAL_ROUNDS,
    "bock_stacking": SPECIAL_ROUNDS,
    "ramsch": SPECIAL_ROUNDS,
    "pflichtsolo_rounds": SPECIAL_ROUNDS,
    "carry_special_rounds": SPECIAL_ROUNDS,
}
OPTIONS = tuple(dataclasses.replace(option, group=_GROUPS[option.name]) for option in OPTIONS)

PRESETS = {
    "club": {
        "solo_point": True,
        "absage_points": "winner_only",
        "special_points_in": ["normal", "hochzeit", "trumpfabgabe", "stilles", "trumpf_doppelkopf"],
        "fuchs_last_trick_points": 2,
        "doppel_charly": True,
        "gegen_die_alten_in_stilles": True,
        "loser_gets_points": True,
        "bock_triggers": list(BOCK_TRIGGERS),
        "bock_in_bock": "ramsch",
        "ramsch": True,
        "pflichtsolo_rounds": True,
        "carry_special_rounds": False,
        "revoke_multiplier": 3,
        "announcement_points": 2,
        "karlchen_gefangen": False,
        "bock_stacking": "queue",
        "points_only": False,
    },
    "ddv": {
        "solo_point": False,
        "absage_points": "both",
        "special_points_in": ["normal", "hochzeit", "trumpfabgabe"],
        "fuchs_last_trick_points": 1,
        "doppel_charly": False,
        "gegen_die_alten_in_stilles": False,
        "loser_gets_points": False,
        "bock_triggers": [],
        "bock_in_bock": None,
        "ramsch": False,
        "pflichtsolo_rounds": False,
        "carry_special_rounds": False,
        "revoke_multiplier": 3,
        "announcement_points": 2,
        "karlchen_gefangen": False,
        "bock_stacking": "queue",
        "points_only": False,
    },
}

PRESET_LABELS = {"club": _("Club (house rules)"), "ddv": _("DDV tournament rules")}


class Rules:
    """The rules in force, unpacked once per replay for fast lookups."""

    __slots__ = (
        "solo_point",
        "absage_both",
        "sp_all",
        "sp_doppelkopf",
        "fuchs_last",
        "doppel_charly",
        "gda_types",
        "loser_gets",
        "bock_triggers",
        "bock_in_bock",
        "ramsch",
        "pflichtsolo",
        "revoke_multiplier",
        "announcement_points",
        "karlchen_gefangen",
        "bock_stack",
    )

    def __init__(self, rules: dict):
        self.solo_point = bool(rules["solo_point"])
        self.absage_both = rules["absage_points"] == "both"
        places = rules["special_points_in"]
        self.sp_all = frozenset(p for p in places if p in GAME_TYPES)
        self.sp_doppelkopf = frozenset(p[: -len("_doppelkopf")] for p in places if p.endswith("_doppelkopf"))
        self.fuchs_last = rules["fuchs_last_trick_points"]
        self.doppel_charly = bool(rules["doppel_charly"])
        self.gda_types = frozenset(
            ("normal", "hochzeit", "stilles") if rules["gegen_die_alten_in_stilles"] else ("normal", "hochzeit")
        )
        self.loser_gets = bool(rules["loser_gets_points"])
        self.bock_triggers = frozenset(rules["bock_triggers"])
        self.ramsch = bool(rules["ramsch"])
        bib = rules["bock_in_bock"]
        if bib == "ramsch" and not self.ramsch:
            bib = "bock"
        self.bock_in_bock = bib
        self.pflichtsolo = bool(rules["pflichtsolo_rounds"])
        self.revoke_multiplier = rules["revoke_multiplier"]
        self.announcement_points = rules["announcement_points"]
        self.karlchen_gefangen = bool(rules["karlchen_gefangen"])
        self.bock_stack = rules["bock_stacking"] == "stack"
