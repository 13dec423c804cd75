"""One Doppelkopf game: check the hand as entered, then work out winner, value and points.

``score_hand`` is called by the replay (``scoring.doppelkopf``) with what the deal says about
the game (round, active players, the player who must play solo) and returns the hand's
entry of the response, or None after reporting every problem of the hand to ``problems``.

Decisions where the spec is silent (see also ``scoring.doppelkopf``):

- ``null`` for a field is taken as the field left out (forms send every field); a required
  field that is null is missing.
- A party without a trick can have no special point (no Doppelkopf, Fuchs or Karlchen); all
  last-trick claims (Karlchen, Fuchs with ``last_trick``) must name the same party, and a
  Karlchen cannot be entered together with ``fuchs_wins_last_doppelkopf`` (the last trick is
  won by one card).
- No winner: the party ahead gets the difference; the breakdown is written from its side
  (the Re side when the difference is 0, which then moves no point).
- Ramsch: ``eyes`` and ``tricks`` name exactly the four active players; a player without a
  trick has no eyes, a player with all 12 tricks has all 240.
- A hand entered by chips: a bracket of Re's eyes (``re_eyes_range``) beside the figure it is
  scored with, a Ramsch by who has the most eyes, their bracket and the Jungfrauen
  (``doppelkopf_entered``).
- Kind ``points`` (a club writes only the result): ``re`` (two players, or the soloist alone,
  then ``solo`` names the solo type; a Hochzeit without partner is ``solo: trumpf``),
  ``winner`` (``re`` or ``kontra``), ``value`` (the winner's value before Bock and tripling, 0
  to ``MAX_POINTS_VALUE``), and the facts that fire triggers, each an optional bool:
  ``schwarz``, ``split_120``, ``kontra_announced`` (with ``winner: re``: Kontra lost),
  ``re_kontra_re``, ``fuchs_wins_last_doppelkopf``; ``solo_outbid`` as in any party game.
  Plain plus-minus (no loser-gets-points: the club writes the result as it counts), so no
  Pflichtsolo trigger; ``schwarz`` and ``split_120`` together are an error (a split game
  has a trick on each side). The breakdown is one item, the value as written.
"""

from __future__ import annotations

from .doppelkopf_checks import (
    TOTAL_EYES,
    TRICKS,
    all_str,
    check_announcements,
    check_outbid,
    check_per_player,
    check_specials,
    check_specials_shape,
    report_not_active,
)
from .doppelkopf_entered import RAMSCH_CHIPS, RAMSCH_STEP, check_eyes_range, check_ramsch_chips, eye_lines
from .errors import Problems, _
from .results import HandFigures, in_party_order

KINDS = ("normal", "hochzeit", "trumpfabgabe", "solo", "ramsch", "revoke")  # the entry form's
HAND_KINDS = (*KINDS, "points")  # and the result only (the API; the fast form is to come)
SOLO_TYPES = ("trumpf", "damen", "buben", "fleischlos", "stilles")

PARTY_FIELDS = frozenset(
    (
        "kind",
        "re",
        "solo",
        "re_eyes",
        "re_eyes_range",
        "re_tricks",
        "announcements",
        "specials",
        "fuchs_wins_last_doppelkopf",
        "solo_outbid",
    )
)
RAMSCH_FIELDS = frozenset(("kind", "eyes", "tricks", *RAMSCH_CHIPS, "solo_outbid"))
REVOKE_FIELDS = frozenset(("kind", "revoke_by", "announcements"))
POINTS_FACTS = ("schwarz", "split_120", "kontra_announced", "re_kontra_re", "fuchs_wins_last_doppelkopf")
POINTS_FIELDS = frozenset(("kind", "re", "solo", "winner", "value", "solo_outbid", *POINTS_FACTS))
# The trigger each fact of a ``points`` hand fires, in the spec's order of triggers
# (``kontra_announced`` only when Re won: Kontra lost); the entry form offers the facts by it.
POINTS_FACT_TRIGGERS = {
    "kontra_announced": "kontra_lost",
    "schwarz": "schwarz",
    "split_120": "split_120",
    "re_kontra_re": "re_kontra_re",
    "fuchs_wins_last_doppelkopf": "fuchs_last_doppelkopf",
}
ALL_FIELDS = PARTY_FIELDS | RAMSCH_FIELDS | REVOKE_FIELDS | POINTS_FIELDS
# The most a ``points`` hand can be worth (a game of real cards reaches a few dozen points):
# with a soloist's tripling and the most Bock rounds counted it stays inside scoring/limits.py.
MAX_POINTS_VALUE = 100
ALLOWED = {k: PARTY_FIELDS for k in ("normal", "hochzeit", "trumpfabgabe", "solo")}
ALLOWED["ramsch"] = RAMSCH_FIELDS
ALLOWED["revoke"] = REVOKE_FIELDS
ALLOWED["points"] = POINTS_FIELDS
NO_SPECIALS = ({}, 0, 0, False)  # what check_specials finds in a hand without special points (never changed)

# Item names of the breakdown, in the players' terms.
ABSAGE_NAME = ("", "keine 90", "keine 60", "keine 30", "schwarz")
ABSAGE_ITEM = {
    "re": ("", "keine 90 angesagt (Re)", "keine 60 angesagt (Re)", "keine 30 angesagt (Re)", "schwarz angesagt (Re)"),
    "kontra": (
        "",
        "keine 90 angesagt (Kontra)",
        "keine 60 angesagt (Kontra)",
        "keine 30 angesagt (Kontra)",
        "schwarz angesagt (Kontra)",
    ),
}
UNDER = ((90, "keine 90"), (60, "keine 60"), (30, "keine 30"))  # item 2: the loser under 90, 60, 30
AGAINST = ((120, "120 gegen keine 90"), (90, "90 gegen keine 60"), (60, "60 gegen keine 30"), (30, "30 gegen schwarz"))
HALF = TOTAL_EYES // 2  # 120: enough against a party that said Kontra only, a split game
REACHED = (151, 181, 211)  # own absage keine 90 / 60 / 30
REACHED_AGAINST = (90, 60, 30)  # the other party's absage keine 90 / 60 / 30
# Where the brackets of Re's eyes start: every figure between two lines scores the same.
EYE_LINES = eye_lines(HALF, REACHED, REACHED_AGAINST)
SPECIAL_ITEM = {
    ("doppelkopf", "re"): "Doppelkopf (Re)",
    ("doppelkopf", "kontra"): "Doppelkopf (Kontra)",
    ("fuchs", "re"): "Fuchs gefangen (Re)",
    ("fuchs", "kontra"): "Fuchs gefangen (Kontra)",
    ("fuchs_last", "re"): "Fuchs im letzten Stich (Re)",
    ("fuchs_last", "kontra"): "Fuchs im letzten Stich (Kontra)",
    ("karlchen", "re"): "Karlchen (Re)",
    ("karlchen", "kontra"): "Karlchen (Kontra)",
    ("doppel_charly", "re"): "Doppel-Charly (Re)",
    ("doppel_charly", "kontra"): "Doppel-Charly (Kontra)",
    ("karlchen_gefangen", "re"): "Karlchen gefangen (Re)",
    ("karlchen_gefangen", "kontra"): "Karlchen gefangen (Kontra)",
}


def _entry(
    ctx, number, kind, winner, value, breakdown, points, happened, solo, soloist, re, revoke_by, loser_points, winners
) -> HandFigures:
    """The response's entry for a valid hand, in the key order of calculate-api.md.

    Written here once, not copied from an intermediate result: the replay only adds
    ``totals`` and replaces ``triggers`` (here: what happened in the game, in the spec's
    order) by the triggers in force. ``winners``: the players who won the game, in any order
    (``hand_winners``, see scoring.results).
    """
    return {
        "number": number,
        "dealer": ctx.dealer,
        "active": list(ctx.active),
        "deltas": points,  # every player in seat order, Bock multiplier applied (0: sitting out)
        "totals": None,
        "round": ctx.round,
        "multiplier": ctx.multiplier,
        "winner": winner,
        "value": value,
        "triggers": happened,
        "breakdown": breakdown,
        "kind": kind,
        "solo": solo,
        "soloist": soloist,  # the single Re player of a solo or a Hochzeit without partner
        "re": re,
        "revoke_by": revoke_by,
        "loser_points": loser_points,
        "hand_winners": in_party_order(ctx.players, winners),
        "game_winner": None,  # every Doppelkopf hand is a game of its own: its winners are above
    }


def _party_winners(ctx, winner, re) -> list[str]:
    """The members of the winning party of a party game (a soloist alone); nobody without a
    winner. Who won, not who gained: with "loser gets the points" the winners pay."""
    if winner is None:
        return []
    if winner == "re":
        return list(re)
    return [name for name in ctx.active if name not in re]


class Context:
    """What the deal says about the game about to be scored."""

    __slots__ = ("players", "active", "active_set", "sitting_out", "round", "soloist", "dealer", "multiplier", "rules")

    def __init__(self, players, rules):
        self.players = players
        self.rules = rules
        self.active = ()
        self.active_set = frozenset()
        self.sitting_out: dict = {}  # player -> 0 for those not playing this game
        self.round = "normal"
        self.soloist = None
        self.dealer = None
        self.multiplier = 1  # 2 in a Bock game: every point counts double


def score_hand(hand: dict, number: int, ctx: Context, problems: Problems) -> dict | None:
    reported = problems.items  # a problem added below makes the hand invalid
    before = len(reported)
    kind = hand.get("kind")
    if not isinstance(kind, str) or kind not in ALLOWED:
        problems.add(number, "kind", _("The kind of game must be one of: %(kinds)s."), kinds=", ".join(HAND_KINDS))
        for key in hand:
            if key not in ALL_FIELDS:
                problems.add(number, key, _("Unknown field “%(name)s”."), name=key)
        return None
    allowed = ALLOWED[kind]
    if not allowed.issuperset(hand):  # only then look for the field at fault
        for key in hand:
            if key in allowed:
                continue
            if key not in ALL_FIELDS:
                problems.add(number, key, _("Unknown field “%(name)s”."), name=key)
            elif hand[key] is not None:
                problems.add(
                    number, key, _("“%(name)s” does not apply to a game of kind “%(kind)s”."), name=key, kind=kind
                )
    rnd = ctx.round
    rules = ctx.rules
    if kind == "revoke":
        result = _revoke(hand, number, ctx, problems)
    elif kind == "ramsch":
        if rnd != "ramsch":
            if rules.ramsch:
                problems.add(number, "kind", _("Ramsch is only played in a Ramsch round."))
            else:
                problems.add(number, "kind", _("Ramsch is not played under these rules."))
            return None
        result = _ramsch(hand, number, ctx, problems)
    else:
        # A ``points`` hand with one Re player is a solo; its solo type is checked below.
        solo_like = kind == "solo" or (kind == "points" and isinstance(hand.get("re"), list) and len(hand["re"]) == 1)
        if rnd == "ramsch" and not solo_like:
            problems.add(number, "kind", _("In a Ramsch round only Ramsch, a trump solo or a revoke can be entered."))
            return None
        if rnd in ("pflichtsolo", "penalty") and not solo_like:
            problems.add(
                number,
                "kind",
                _("%(name)s must play a solo in this game (or enter a revoke)."),
                name=ctx.soloist,
            )
            return None
        if kind == "points":
            result = _points_game(hand, number, ctx, problems)
        else:
            result = _party_game(hand, number, kind, ctx, problems)
    if len(reported) != before:
        return None
    return result


def _party_game(hand, number, kind, ctx, problems):
    rules = ctx.rules
    active_set = ctx.active_set
    # --- re
    re = hand.get("re")
    re_ok = False
    if re is None:
        problems.add(number, "re", _("Name the Re party."))
    elif not isinstance(re, list) or not all_str(re):
        problems.add(number, "re", _("The Re party must be a list of players."))
    else:
        re_ok = True
        size = len(re)
        if not active_set.issuperset(re):  # only then name the players at fault
            for name in re:
                if name not in active_set:
                    report_not_active(number, "re", name, ctx, problems)
                    re_ok = False
        if size > 1 and len(set(re)) != size:
            problems.add(number, "re", _("A player is named twice in the Re party."))
            re_ok = False
        if kind == "solo":
            if size != 1:
                problems.add(number, "re", _("A solo has exactly one Re player: the soloist."))
                re_ok = False
        elif kind == "hochzeit":
            if size not in (1, 2):
                problems.add(number, "re", _("A Hochzeit has two Re players, or one when no partner was found."))
                re_ok = False
        elif size != 2:
            problems.add(number, "re", _("This game needs two Re players."))
            re_ok = False
        if re_ok and ctx.soloist is not None and re[0] != ctx.soloist:
            problems.add(number, "re", _("%(name)s must play the solo in this game."), name=ctx.soloist)
    # --- solo type
    solo_type = None
    if kind == "solo":
        solo_type = hand.get("solo")
        if not isinstance(solo_type, str) or solo_type not in SOLO_TYPES:
            problems.add(number, "solo", _("Which solo? One of: %(types)s."), types=", ".join(SOLO_TYPES))
            solo_type = None
        elif ctx.round == "ramsch" and solo_type != "trumpf":
            problems.add(number, "solo", _("Only a trump solo can replace a Ramsch game."))
    elif hand.get("solo") is not None:
        problems.add(
            number, "solo", _("“%(name)s” does not apply to a game of kind “%(kind)s”."), name="solo", kind=kind
        )
    solo_game = kind == "solo" or (kind == "hochzeit" and re_ok and len(re) == 1)
    if kind == "solo":
        gtype = solo_type
    elif kind == "hochzeit" and solo_game:
        gtype = "trumpf"
    else:
        gtype = kind
    # --- eyes and tricks
    eyes = hand.get("re_eyes")
    eyes_ok = type(eyes) is int and 0 <= eyes <= TOTAL_EYES  # an int, not a bool
    if not eyes_ok:
        problems.add(number, "re_eyes", _("Re's eyes must be a whole number from 0 to 240."))
    tricks = hand.get("re_tricks")
    if tricks is not None:
        if type(tricks) is not int or not 0 <= tricks <= TRICKS:
            problems.add(number, "re_tricks", _("Re's tricks must be a whole number from 0 to 12."))
            tricks = None
            eyes_ok = False
        elif eyes_ok:
            if tricks == 0 and eyes != 0:
                problems.add(number, "re_tricks", _("Without a trick Re cannot have eyes."))
                eyes_ok = False
            elif tricks == TRICKS and eyes != TOTAL_EYES:
                problems.add(number, "re_tricks", _("With all 12 tricks Re has all 240 eyes."))
                eyes_ok = False
    if eyes_ok and hand.get("re_eyes_range") is not None:  # a result chip: the bracket the figure stands for
        check_eyes_range(hand["re_eyes_range"], eyes, EYE_LINES, number, problems)
    ann = check_announcements(hand.get("announcements"), number, problems)
    if "solo_outbid" in hand:  # the replay takes the names from the hand once it is valid
        check_outbid(hand, number, ctx, problems, re[0] if re_ok and solo_game else None)
    if not eyes_ok or ann is None:
        check_specials_shape(hand, number, problems)
        return None
    re_eyes = eyes
    ko_eyes = TOTAL_EYES - eyes
    if tricks is None:
        re_none = eyes == 0
        ko_none = eyes == TOTAL_EYES
    else:
        re_none = tricks == 0
        ko_none = tricks == TRICKS
    if "specials" in hand or "fuchs_wins_last_doppelkopf" in hand:
        specials = check_specials(hand, number, gtype, re_eyes, ko_eyes, re_none, ko_none, rules, problems)
    else:
        specials = NO_SPECIALS
    if specials is None or not re_ok or (kind == "solo" and solo_type is None):
        return None
    sp_items, re_sp, ko_sp, fuchs_last_dk = specials
    re_ann, ko_ann, re_abs, ko_abs, rkr = ann

    # --- DDV 7.1: who reached his target
    if re_abs:
        re_won = ko_none if re_abs == 4 else re_eyes >= REACHED[re_abs - 1]
    elif ko_abs:
        re_won = (not re_none) if ko_abs == 4 else re_eyes >= REACHED_AGAINST[ko_abs - 1]
    elif ko_ann and not re_ann:
        re_won = re_eyes >= HALF
    else:
        re_won = re_eyes >= HALF + 1
    if ko_abs:
        ko_won = re_none if ko_abs == 4 else ko_eyes >= REACHED[ko_abs - 1]
    elif re_abs:
        ko_won = (not ko_none) if re_abs == 4 else ko_eyes >= REACHED_AGAINST[re_abs - 1]
    elif ko_ann and not re_ann:
        ko_won = ko_eyes >= HALF + 1
    else:
        ko_won = ko_eyes >= HALF

    breakdown = []
    add = breakdown.append
    loser_points = False
    if re_won or ko_won:
        winner = "re" if re_won else "kontra"
        if re_won:
            w_eyes, l_eyes, l_none, w_abs, l_abs, w_ann = re_eyes, ko_eyes, ko_none, re_abs, ko_abs, re_ann
        else:
            w_eyes, l_eyes, l_none, w_abs, l_abs, w_ann = ko_eyes, re_eyes, re_none, ko_abs, re_abs, ko_ann
        value = 1
        add({"item": "gewonnen", "points": 1})
        if l_eyes < 90:
            add({"item": "keine 90", "points": 1})
            value += 1
            if l_eyes < 60:
                add({"item": "keine 60", "points": 1})
                value += 1
                if l_eyes < 30:
                    add({"item": "keine 30", "points": 1})
                    value += 1
        if l_none:
            add({"item": "schwarz", "points": 1})
            value += 1
        if re_ann:
            add({"item": "Re angesagt", "points": rules.announcement_points})
            value += rules.announcement_points
        if ko_ann:
            add({"item": "Kontra angesagt", "points": rules.announcement_points})
            value += rules.announcement_points
        if rules.absage_both:
            if re_abs:
                names = ABSAGE_ITEM["re"]
                for level in range(1, re_abs + 1):
                    add({"item": names[level], "points": 1})
                value += re_abs
            if ko_abs:
                names = ABSAGE_ITEM["kontra"]
                for level in range(1, ko_abs + 1):
                    add({"item": names[level], "points": 1})
                value += ko_abs
        elif w_abs:
            names = ABSAGE_ITEM[winner]
            for level in range(1, w_abs + 1):
                add({"item": names[level], "points": 1})
            value += w_abs
        if l_abs:
            for reach, item in AGAINST[:l_abs]:
                if w_eyes >= reach:
                    add({"item": item, "points": 1})
                    value += 1
        if not re_won and gtype in rules.gda_types:
            add({"item": "gegen die Alten", "points": 1})
            value += 1
        if solo_game and rules.solo_point:
            add({"item": "Solopunkt", "points": 1})
            value += 1
        if sp_items:
            for (special, party), pts in sp_items.items():
                signed = pts if party == winner else -pts
                add({"item": SPECIAL_ITEM[special, party], "points": signed})
                value += signed
        if rules.loser_gets:
            if not w_ann:
                loser_points = l_eyes < 60
            elif not w_abs:
                loser_points = l_eyes < 30
            elif w_abs == 1:
                loser_points = l_none
        re_value = value if re_won else -value
        # Loser gets the points: the signs are swapped (losers +v, winners -v), so the game
        # still sums to zero. When the special points outweigh (v <= 0) the losers already
        # gain by plain plus-minus: nothing is swapped.
        if loser_points and value > 0:
            re_value = -re_value
        ko_value = -re_value
    else:
        winner = None
        # No winner (DDV TSR 7.1.4): only 7.2.2 (a), (e) and (f) count: for each party the
        # opponents under 90/60/30/schwarz (item 2), the points against the other party's
        # absage (item 5), and the special points.
        re_pts = ko_pts = 0
        items = []
        for party, other_eyes, other_none in (("re", ko_eyes, ko_none), ("kontra", re_eyes, re_none)):
            pts = 0
            for limit, item in UNDER:
                if other_eyes < limit:
                    items.append((party, item))
                    pts += 1
            if other_none:
                items.append((party, "schwarz"))
                pts += 1
            other_abs = re_abs if party == "kontra" else ko_abs
            own_eyes = TOTAL_EYES - other_eyes
            for level in range(other_abs):
                reach, item = AGAINST[level]
                if own_eyes >= reach:
                    items.append((party, item))
                    pts += 1
            if party == "re":
                re_pts = pts
            else:
                ko_pts = pts
        ahead = "re" if re_pts + re_sp >= ko_pts + ko_sp else "kontra"
        for party, item in items:
            add({"item": f"{item} ({'Re' if party == 're' else 'Kontra'})", "points": 1 if party == ahead else -1})
        for (special, party), pts in sp_items.items():
            add({"item": SPECIAL_ITEM[special, party], "points": pts if party == ahead else -pts})
        diff = re_pts + re_sp - ko_pts - ko_sp
        value = diff if diff >= 0 else -diff
        re_value = diff
        ko_value = -diff

    # --- points per player (the soloist plays against three)
    multiplier = ctx.multiplier
    re_value *= multiplier
    points = dict.fromkeys(ctx.players, ko_value * multiplier)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    if solo_game:
        soloist = re[0]
        points[soloist] = 3 * re_value
    else:
        soloist = None
        for name in re:
            points[name] = re_value

    # --- triggers, in the spec's order (the replay keeps those in force)
    triggers = []
    if winner == "re" and ko_ann:
        triggers.append("kontra_lost")
    if re_none or ko_none:
        triggers.append("schwarz")
    if re_eyes == HALF:
        triggers.append("split_120")
    if rkr:
        triggers.append("re_kontra_re")
    if fuchs_last_dk:
        triggers.append("fuchs_last_doppelkopf")
    if loser_points:
        triggers.append("loser_points")
    return _entry(
        ctx,
        number,
        kind,
        winner,
        value,
        breakdown,
        points,
        triggers,
        solo_type,
        soloist,
        list(re),
        None,
        loser_points,
        _party_winners(ctx, winner, re),
    )


def _points_game(hand, number, ctx, problems):
    """A game written as its result only: who won, the value, the facts that fire triggers."""
    before = len(problems.items)
    add = problems.add
    re = hand.get("re")
    re_ok = False
    if re is None:
        add(number, "re", _("Name the Re party (or the soloist)."))
    elif not isinstance(re, list) or not all_str(re):
        add(number, "re", _("The Re party must be a list of players."))
    elif len(re) not in (1, 2):
        add(number, "re", _("The Re party has two players, or one: the soloist."))
    else:
        re_ok = True
        for name in re:
            if name not in ctx.active_set:
                report_not_active(number, "re", name, ctx, problems)
                re_ok = False
        if len(re) == 2 and re[0] == re[1]:
            add(number, "re", _("A player is named twice in the Re party."))
            re_ok = False
        if re_ok and ctx.soloist is not None and re[0] != ctx.soloist:
            add(number, "re", _("%(name)s must play the solo in this game."), name=ctx.soloist)
    solo_game = re_ok and len(re) == 1
    solo_type = hand.get("solo")
    if solo_game:
        if not isinstance(solo_type, str) or solo_type not in SOLO_TYPES:
            add(number, "solo", _("Which solo? One of: %(types)s."), types=", ".join(SOLO_TYPES))
        elif ctx.round == "ramsch" and solo_type != "trumpf":
            add(number, "solo", _("Only a trump solo can replace a Ramsch game."))
    elif solo_type is not None and re_ok:
        add(number, "solo", _("A solo type needs a single Re player: the soloist."))
    winner = hand.get("winner")
    if winner is None:
        add(number, "winner", _("Who won? re or kontra."))
    elif not isinstance(winner, str) or winner not in ("re", "kontra"):
        add(number, "winner", _("The winner must be re or kontra."))
    value = hand.get("value")
    if value is None:
        add(number, "value", _("Enter the value of the game."))
    elif type(value) is not int or not 0 <= value <= MAX_POINTS_VALUE:
        add(number, "value", _("The value must be a whole number from 0 to %(max)s."), max=MAX_POINTS_VALUE)
    facts = {}
    for name in POINTS_FACTS:
        fact = hand.get(name)
        if fact is not None and type(fact) is not bool:
            add(number, name, _("Must be true or false."))
        facts[name] = fact is True
    if facts["schwarz"] and facts["split_120"]:
        add(number, "split_120", _("A game of 120 to 120 cannot be schwarz."))
    if "solo_outbid" in hand:
        check_outbid(hand, number, ctx, problems, re[0] if solo_game else None)
    if len(problems.items) != before:
        return None
    re_won = winner == "re"
    re_value = value if re_won else -value
    multiplier = ctx.multiplier
    points = dict.fromkeys(ctx.players, -re_value * multiplier)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    re_value *= multiplier
    if solo_game:
        soloist = re[0]
        points[soloist] = 3 * re_value
    else:
        soloist = None
        solo_type = None
        for name in re:
            points[name] = re_value
    triggers = [  # in the spec's order
        trigger
        for fact, trigger in POINTS_FACT_TRIGGERS.items()
        if facts[fact] and (re_won or fact != "kontra_announced")
    ]
    breakdown = [{"item": "Spielwert (nur Ergebnis)", "points": value}]
    return _entry(
        ctx,
        number,
        "points",
        winner,
        value,
        breakdown,
        points,
        triggers,
        solo_type,
        soloist,
        list(re),
        None,
        False,
        _party_winners(ctx, winner, re),
    )


def _revoke(hand, number, ctx, problems):
    by = hand.get("revoke_by")
    if by is None:
        problems.add(number, "revoke_by", _("Who revoked? Name an active player."))
        by = None
    elif not isinstance(by, str):
        problems.add(number, "revoke_by", _("Who revoked? Name an active player."))
        by = None
    elif by not in ctx.active_set:
        report_not_active(number, "revoke_by", by, ctx, problems)
        by = None
    ann = check_announcements(hand.get("announcements"), number, problems)
    if by is None or ann is None:
        return None
    re_ann, ko_ann, re_abs, ko_abs, _rkr = ann
    breakdown = [{"item": "falsch bedient: schwarz verloren", "points": 5}]
    value = 5
    worth = ctx.rules.announcement_points
    if re_ann:
        breakdown.append({"item": "Re angesagt", "points": worth})
        value += worth
    if ko_ann:
        breakdown.append({"item": "Kontra angesagt", "points": worth})
        value += worth
    for party, level_max in (("re", re_abs), ("kontra", ko_abs)):
        names = ABSAGE_ITEM[party]
        for level in range(1, level_max + 1):
            breakdown.append({"item": names[level], "points": 1})
        value += level_max
    paid = value * ctx.multiplier
    points = dict.fromkeys(ctx.players, paid)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    points[by] = -ctx.rules.revoke_multiplier * paid
    # Scored as the revoker's game lost schwarz: everybody else at the table won it.
    others = [name for name in ctx.active if name != by]
    return _entry(ctx, number, "revoke", None, value, breakdown, points, [], None, None, [], by, False, others)


def _ramsch_counts(hand, number, ctx, problems):
    """A Ramsch by everyone's eyes and tricks: ``(losers, most, jungfrauen, durchmarsch)``,
    ``most`` the losers' eyes as the breakdown names them; None after a problem."""
    active = ctx.active
    eyes = check_per_player(hand.get("eyes"), number, "eyes", TOTAL_EYES, ctx, problems)
    tricks = check_per_player(hand.get("tricks"), number, "tricks", TRICKS, ctx, problems)
    if "solo_outbid" in hand:
        check_outbid(hand, number, ctx, problems, None)
    if eyes is None or tricks is None:
        return None
    # One pass over the players: eyes against tricks, who took every trick, who took none.
    ok = True
    durchmarsch = None
    jungfrau = []
    for name in active:
        taken = tricks[name]
        if taken == 0:
            if eyes[name] != 0:
                problems.add(number, "eyes", _("%(name)s took no trick and cannot have eyes."), name=name)
                ok = False
            jungfrau.append(name)
        elif taken == TRICKS:
            if eyes[name] != TOTAL_EYES:
                problems.add(number, "eyes", _("%(name)s took every trick and has all 240 eyes."), name=name)
                ok = False
            elif durchmarsch is None:
                durchmarsch = name
    if not ok:
        return None
    most = max(eyes.values())
    return [name for name in active if eyes[name] == most], (most, most), jungfrau, durchmarsch is not None


def _ramsch(hand, number, ctx, problems):
    if any(hand.get(key) is not None for key in RAMSCH_CHIPS):
        read = check_ramsch_chips(hand, number, ctx, problems)
        if "solo_outbid" in hand:
            check_outbid(hand, number, ctx, problems, None)
    else:
        read = _ramsch_counts(hand, number, ctx, problems)
    if read is None:
        return None
    losers, (lo, hi), jungfrau, durchmarsch = read
    # A Ramsch game is never a Bock game: no multiplier.
    points = dict.fromkeys(ctx.players, -8)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    if durchmarsch:
        points[losers[0]] = 24
        breakdown = [{"item": "Durchmarsch", "points": 8}]
        return _entry(
            ctx, number, "ramsch", None, 8, breakdown, points, ["durchmarsch"], None, None, [], None, False, losers
        )
    value = lo // RAMSCH_STEP
    breakdown = [{"item": f"{lo} Augen" if lo == hi else f"{lo}–{hi} Augen", "points": value}]
    for name in jungfrau:
        breakdown.append({"item": f"Jungfrau ({name})", "points": value})
        value *= 2
    k = len(losers)  # the losers: everyone with the most eyes
    win = value * k
    lose = -value * (4 - k)
    # The player(s) with the most eyes lose; everybody else wins (all four level: nobody wins).
    winners = [name for name in ctx.active if name not in losers]
    for name in ctx.active:
        points[name] = win if name in winners else lose
    return _entry(ctx, number, "ramsch", None, value, breakdown, points, [], None, None, [], None, False, winners)
