"""One Doppelkopf game: check the hand as entered, then work out winner, value and points.

``score_hand`` is called by the replay (``scoring.doppelkopf``) with what the deal says about
the game (round, active players, the player who must play solo) and returns the hand's
entry of the response, or None after reporting every problem of the hand to ``problems``.
It checks the kind of game against its fields and the round, then scores a revoke, a Ramsch
or a game written as its result here, and a party game in ``doppelkopf_party``.

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
    report_not_active,
)
from .doppelkopf_entered import RAMSCH_CHIPS, RAMSCH_STEP, check_ramsch_chips
from .doppelkopf_figures import absage_items, announcement_items, hand_figures, item, party_points, party_winners
from .doppelkopf_party import SOLO_TYPES, check_soloist, party_game
from .errors import Problems, _

KINDS = ("normal", "hochzeit", "trumpfabgabe", "solo", "ramsch", "revoke")  # the entry form's
HAND_KINDS = (*KINDS, "points")  # and the result only (the API; the fast form is to come)

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
REVOKE_VALUE = 5  # a revoke is scored as the revoker's game lost schwarz: 5 points
DURCHMARSCH_VALUE = 8  # a Ramsch won by one player taking every trick
RAMSCH_PLAYERS = 4


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
    """The hand's entry of the response, or None after reporting every problem of the hand."""
    reported = problems.items  # a problem added below makes the hand invalid
    before = len(reported)
    kind = hand.get("kind")
    if not _check_fields(hand, kind, number, problems):
        return None
    result = _score_kind(hand, kind, number, ctx, problems)
    if len(reported) != before:
        return None
    return result


def _check_fields(hand, kind, number, problems) -> bool:
    """The kind of game is known (else False) and every field applies to it."""
    if not isinstance(kind, str) or kind not in ALLOWED:
        problems.add(number, "kind", _("The kind of game must be one of: %(kinds)s."), kinds=", ".join(HAND_KINDS))
        for key in hand:
            if key not in ALL_FIELDS:
                problems.add(number, key, _("Unknown field “%(name)s”."), name=key)
        return False
    allowed = ALLOWED[kind]
    if allowed.issuperset(hand):  # only else look for the field at fault
        return True
    for key in hand:
        if key in allowed:
            continue
        if key not in ALL_FIELDS:
            problems.add(number, key, _("Unknown field “%(name)s”."), name=key)
        elif hand[key] is not None:
            problems.add(number, key, _("“%(name)s” does not apply to a game of kind “%(kind)s”."), name=key, kind=kind)
    return True


def _score_kind(hand, kind, number, ctx, problems):
    if kind == "revoke":
        return _revoke(hand, number, ctx, problems)
    if kind == "ramsch":
        if ctx.round == "ramsch":
            return _ramsch(hand, number, ctx, problems)
        if ctx.rules.ramsch:
            problems.add(number, "kind", _("Ramsch is only played in a Ramsch round."))
        else:
            problems.add(number, "kind", _("Ramsch is not played under these rules."))
        return None
    if not _round_allows(hand, kind, number, ctx, problems):
        return None
    if kind == "points":
        return _points_game(hand, number, ctx, problems)
    return party_game(hand, number, kind, ctx, problems)


def _round_allows(hand, kind, number, ctx, problems) -> bool:
    """A Ramsch, Pflichtsolo or penalty round takes a solo (or a revoke, or a Ramsch game)."""
    # A ``points`` hand with one Re player is a solo; its solo type is checked with the hand.
    re = hand.get("re")
    solo_like = kind == "solo" or (kind == "points" and isinstance(re, list) and len(re) == 1)
    if solo_like:
        return True
    if ctx.round == "ramsch":
        problems.add(number, "kind", _("In a Ramsch round only Ramsch, a trump solo or a revoke can be entered."))
        return False
    if ctx.round in ("pflichtsolo", "penalty"):
        problems.add(number, "kind", _("%(name)s must play a solo in this game (or enter a revoke)."), name=ctx.soloist)
        return False
    return True


# -- a game written as its result only ----------------------------------------------------


def _points_game(hand, number, ctx, problems):
    """A game written as its result only: who won, the value, the facts that fire triggers."""
    before = len(problems.items)
    re = hand.get("re")
    re_ok = _check_points_re(re, number, ctx, problems)
    solo_game = re_ok and len(re) == 1
    solo_type = hand.get("solo")
    _check_points_solo(solo_type, solo_game, re_ok, number, ctx, problems)
    winner, value = _check_result(hand, number, problems)
    facts = _read_facts(hand, number, problems)
    if "solo_outbid" in hand:
        check_outbid(hand, number, ctx, problems, re[0] if solo_game else None)
    if len(problems.items) != before:
        return None
    re_won = winner == "re"
    soloist, points = party_points(ctx, re, value if re_won else -value, solo_game)
    triggers = _points_triggers(facts, re_won)
    breakdown = [item("Spielwert (nur Ergebnis)", value)]
    return hand_figures(
        ctx,
        number,
        "points",
        winner,
        value,
        breakdown,
        points,
        triggers,
        solo_type if solo_game else None,
        soloist,
        list(re),
        None,
        False,
        party_winners(ctx, winner, re),
    )


def _points_triggers(facts: dict[str, bool], re_won: bool) -> list[str]:
    """The triggers the facts fire, in the spec's order: Kontra announced fires only when Re won."""
    return [
        trigger
        for fact, trigger in POINTS_FACT_TRIGGERS.items()
        if facts[fact] and (re_won or fact != "kontra_announced")
    ]


def _check_points_re(re, number, ctx, problems) -> bool:
    """Two Re players, or the soloist alone, all active."""
    if re is None:
        problems.add(number, "re", _("Name the Re party (or the soloist)."))
        return False
    if not isinstance(re, list) or not all_str(re):
        problems.add(number, "re", _("The Re party must be a list of players."))
        return False
    if len(re) not in (1, 2):
        problems.add(number, "re", _("The Re party has two players, or one: the soloist."))
        return False
    at_table = _all_active(re, number, ctx, problems)
    unique = len(set(re)) == len(re)
    if not unique:
        problems.add(number, "re", _("A player is named twice in the Re party."))
    if at_table and unique:
        check_soloist(re, number, ctx, problems)
    return at_table and unique


def _all_active(re, number, ctx, problems) -> bool:
    ok = True
    for name in re:
        if name not in ctx.active_set:
            report_not_active(number, "re", name, ctx, problems)
            ok = False
    return ok


def _check_points_solo(solo_type, solo_game, re_ok, number, ctx, problems) -> None:
    if solo_game:
        if not isinstance(solo_type, str) or solo_type not in SOLO_TYPES:
            problems.add(number, "solo", _("Which solo? One of: %(types)s."), types=", ".join(SOLO_TYPES))
        elif ctx.round == "ramsch" and solo_type != "trumpf":
            problems.add(number, "solo", _("Only a trump solo can replace a Ramsch game."))
    elif solo_type is not None and re_ok:
        problems.add(number, "solo", _("A solo type needs a single Re player: the soloist."))


def _check_result(hand, number, problems) -> tuple:
    """``(winner, value)`` as written (each checked, a problem added when it is wrong)."""
    winner = hand.get("winner")
    if winner is None:
        problems.add(number, "winner", _("Who won? re or kontra."))
    elif not isinstance(winner, str) or winner not in ("re", "kontra"):
        problems.add(number, "winner", _("The winner must be re or kontra."))
    value = hand.get("value")
    if value is None:
        problems.add(number, "value", _("Enter the value of the game."))
    elif type(value) is not int or not 0 <= value <= MAX_POINTS_VALUE:
        problems.add(number, "value", _("The value must be a whole number from 0 to %(max)s."), max=MAX_POINTS_VALUE)
    return winner, value


def _read_facts(hand, number, problems) -> dict[str, bool]:
    facts = {}
    for name in POINTS_FACTS:
        fact = hand.get(name)
        if fact is not None and type(fact) is not bool:
            problems.add(number, name, _("Must be true or false."))
        facts[name] = fact is True
    if facts["schwarz"] and facts["split_120"]:
        problems.add(number, "split_120", _("A game of 120 to 120 cannot be schwarz."))
    return facts


# -- a revoke ----------------------------------------------------------------------------


def _revoke(hand, number, ctx, problems):
    by = _revoker(hand, number, ctx, problems)
    ann = check_announcements(hand.get("announcements"), number, problems)
    if by is None or ann is None:
        return None
    re_ann, ko_ann, re_abs, ko_abs, _rkr = ann
    breakdown = [item("falsch bedient: schwarz verloren", REVOKE_VALUE)]
    breakdown += announcement_items(re_ann, ko_ann, ctx.rules.announcement_points)
    breakdown += absage_items("re", re_abs) + absage_items("kontra", ko_abs)
    value = sum(line["points"] for line in breakdown)
    paid = value * ctx.multiplier
    points = dict.fromkeys(ctx.players, paid)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    points[by] = -ctx.rules.revoke_multiplier * paid
    # Scored as the revoker's game lost schwarz: everybody else at the table won it.
    others = [name for name in ctx.active if name != by]
    return hand_figures(ctx, number, "revoke", None, value, breakdown, points, [], None, None, [], by, False, others)


def _revoker(hand, number, ctx, problems) -> str | None:
    by = hand.get("revoke_by")
    if by is None or not isinstance(by, str):
        problems.add(number, "revoke_by", _("Who revoked? Name an active player."))
        return None
    if by not in ctx.active_set:
        report_not_active(number, "revoke_by", by, ctx, problems)
        return None
    return by


# -- Ramsch ------------------------------------------------------------------------------


def _read_ramsch(hand, number, ctx, problems):
    """A Ramsch by its chips or by everyone's eyes and tricks: ``(losers, (lo, hi), jungfrauen,
    durchmarsch)``; None after a problem."""
    if all(hand.get(key) is None for key in RAMSCH_CHIPS):
        return _ramsch_counts(hand, number, ctx, problems)
    read = check_ramsch_chips(hand, number, ctx, problems)
    if "solo_outbid" in hand:
        check_outbid(hand, number, ctx, problems, None)
    return read


def _ramsch_counts(hand, number, ctx, problems):
    """A Ramsch by everyone's eyes and tricks: ``(losers, most, jungfrauen, durchmarsch)``,
    ``most`` the losers' eyes as the breakdown names them; None after a problem."""
    eyes = check_per_player(hand.get("eyes"), number, "eyes", TOTAL_EYES, ctx, problems)
    tricks = check_per_player(hand.get("tricks"), number, "tricks", TRICKS, ctx, problems)
    if "solo_outbid" in hand:
        check_outbid(hand, number, ctx, problems, None)
    if eyes is None or tricks is None:
        return None
    ok = True
    for name in ctx.active:
        ok = _eyes_fit_tricks(name, eyes[name], tricks[name], number, problems) and ok
    if not ok:
        return None
    return _ramsch_read(eyes, tricks, ctx.active)


def _ramsch_read(eyes, tricks, active):
    """What the chips would say of a Ramsch entered by its figures (checked)."""
    most = max(eyes.values())
    losers = [name for name in active if eyes[name] == most]
    jungfrauen = [name for name in active if tricks[name] == 0]
    durchmarsch = any(tricks[name] == TRICKS for name in active)  # with all 240 eyes, checked before
    return losers, (most, most), jungfrauen, durchmarsch


def _eyes_fit_tricks(name, eyes, tricks, number, problems) -> bool:
    """No eyes without a trick, all 240 with every trick."""
    if tricks == 0 and eyes != 0:
        problems.add(number, "eyes", _("%(name)s took no trick and cannot have eyes."), name=name)
        return False
    if tricks == TRICKS and eyes != TOTAL_EYES:
        problems.add(number, "eyes", _("%(name)s took every trick and has all 240 eyes."), name=name)
        return False
    return True


def _ramsch(hand, number, ctx, problems):
    read = _read_ramsch(hand, number, ctx, problems)
    if read is None:
        return None
    losers, (lo, hi), jungfrau, durchmarsch = read
    # A Ramsch game is never a Bock game: no multiplier.
    points = dict.fromkeys(ctx.players, -DURCHMARSCH_VALUE)
    if ctx.sitting_out:
        points.update(ctx.sitting_out)
    if durchmarsch:
        return _durchmarsch(points, losers[0], number, ctx)
    value, breakdown = _ramsch_value(lo, hi, jungfrau)
    k = len(losers)  # the losers: everyone with the most eyes
    win = value * k
    lose = -value * (RAMSCH_PLAYERS - k)
    # The player(s) with the most eyes lose; everybody else wins (all four level: nobody wins).
    winners = [name for name in ctx.active if name not in losers]
    for name in ctx.active:
        points[name] = win if name in winners else lose
    return hand_figures(ctx, number, "ramsch", None, value, breakdown, points, [], None, None, [], None, False, winners)


def _durchmarsch(points, player, number, ctx):
    """One player took every trick: he wins the Durchmarsch from each of the other three."""
    points[player] = 3 * DURCHMARSCH_VALUE
    breakdown = [item("Durchmarsch", DURCHMARSCH_VALUE)]
    return hand_figures(
        ctx,
        number,
        "ramsch",
        None,
        DURCHMARSCH_VALUE,
        breakdown,
        points,
        ["durchmarsch"],
        None,
        None,
        [],
        None,
        False,
        [player],
    )


def _ramsch_value(lo, hi, jungfrauen) -> tuple[int, list[dict]]:
    """What each loser pays each winner: a point per 30 of his eyes, doubled for each Jungfrau."""
    value = lo // RAMSCH_STEP
    breakdown = [item(f"{lo} Augen" if lo == hi else f"{lo}–{hi} Augen", value)]
    for name in jungfrauen:
        breakdown.append(item(f"Jungfrau ({name})", value))
        value *= 2
    return value, breakdown
