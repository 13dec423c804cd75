"""Checks of the parts of a Doppelkopf hand: announcements, per-player numbers (Ramsch), outbid
soli (special points: ``doppelkopf_specials``). Problems name the hand's field."""

from __future__ import annotations

from .errors import _

CALLS = ("re", "kontra", "keine_90", "keine_60", "keine_30", "schwarz")
LEVEL = {"re": 0, "kontra": 0, "keine_90": 1, "keine_60": 2, "keine_30": 3, "schwarz": 4}
NO_ANNOUNCEMENTS = (False, False, 0, 0, False)
# Re and Kontra, each called by the other party.
OWN_CALL = {"re": _("Only the Re party can call Re."), "kontra": _("Only the Kontra party can call Kontra.")}
ALREADY_CALLED = {
    "re": _("The Re party has already made this call or a higher one: %(call)s."),
    "kontra": _("The Kontra party has already made this call or a higher one: %(call)s."),
}
# Re-kontra-re, as the calls come: the state after a call of each party, by the state before it
# (0 nothing yet, 1 Re called, 2 Kontra answered, 3 Re called again: done).
RE_KONTRA_RE = {"re": (1, 1, 3, 3), "kontra": (0, 2, 2, 3)}
# Facts of the deck (48 cards, four players): the engine checks with them and the entry form
# offers them, so that both say the same.
TOTAL_EYES = 240  # the eyes of all the cards
TRICKS = 12  # tricks in a game
FOXES = 2  # Füchse (aces of diamonds) in the deck
DOPPELKOPF_EYES = 40  # a trick with this many eyes is a Doppelkopf


def is_int(value) -> bool:
    return type(value) is int


def all_str(values) -> bool:
    """Every entry is a string (a plain loop: cheaper than all() over a generator for short lists)."""
    for v in values:
        if not isinstance(v, str):
            return False
    return True


def check_outbid(hand, number, ctx, problems, soloist):
    value = hand.get("solo_outbid")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        problems.add(number, "solo_outbid", _("Outbid soli must be a list of players."))
        return ()
    for name in value:
        if name not in ctx.active_set:
            report_not_active(number, "solo_outbid", name, ctx, problems)
        elif name == soloist:
            problems.add(number, "solo_outbid", _("%(name)s played the solo and was not outbid."), name=name)
    if len(set(value)) != len(value):
        problems.add(number, "solo_outbid", _("A player is named twice among the outbid soli."))
    return tuple(value)


def report_not_active(number, field, name, ctx, problems):
    if name in ctx.players:
        problems.add(number, field, _("%(name)s sits out this game."), name=name)
    else:
        problems.add(number, field, _("%(name)s is not at the table."), name=name)


def check_announcements(value, number, problems):
    """(re announced, kontra announced, Re's absage level, Kontra's absage level, re-kontra-re)."""
    if value is None:
        return NO_ANNOUNCEMENTS
    if not isinstance(value, list):
        problems.add(number, "announcements", _("Announcements must be a list of calls."))
        return None
    if not value:  # the most common entry: nothing announced
        return NO_ANNOUNCEMENTS
    # Each party's highest call: -1 nothing called, 0 Re or Kontra only, 1-4 the highest absage.
    highest = {"re": -1, "kontra": -1}
    state = 0  # re-kontra-re: 1 after a Re call, 2 after a Kontra call following it, 3 done
    ok = True
    for entry in value:
        call = _read_call(entry, number, problems)
        if call is None:
            ok = False
            continue
        party, name, level = call
        if level <= highest[party]:
            problems.add(number, "announcements", ALREADY_CALLED[party], call=name)
            ok = False
            continue
        highest[party] = level
        state = RE_KONTRA_RE[party][state]
    if not ok:
        return None
    re_hi, ko_hi = highest["re"], highest["kontra"]
    return (re_hi >= 0, ko_hi >= 0, re_hi if re_hi > 0 else 0, ko_hi if ko_hi > 0 else 0, state == 3)


def _read_call(entry, number, problems):
    """``(party, call, level)`` of one announcement, or None after a problem."""
    add = problems.add
    if not _party_and_call(entry):
        add(number, "announcements", _("Each announcement needs exactly a party and a call."))
        return None
    party = entry["party"]
    call = entry["call"]
    if party not in ("re", "kontra") or not isinstance(party, str):
        add(number, "announcements", _("The party of an announcement must be re or kontra."))
        return None
    level = LEVEL.get(call) if isinstance(call, str) else None
    if level is None:
        add(number, "announcements", _("Unknown call. Choose one of: %(calls)s."), calls=", ".join(CALLS))
        return None
    if level == 0 and call != party:
        add(number, "announcements", OWN_CALL[call])
        return None
    return party, call, level


def _party_and_call(entry) -> bool:
    return isinstance(entry, dict) and len(entry) == 2 and "party" in entry and "call" in entry


def check_per_player(value, number, field, total, ctx, problems):
    if value is None:
        problems.add(number, field, _("Missing “%(name)s”: one number per active player."), name=field)
        return None
    if not isinstance(value, dict) or not _all_int(value.values()):
        problems.add(number, field, _("“%(name)s” must give each active player a whole number."), name=field)
        return None
    # Exactly the active players (the usual entry) need no look-up per name.
    if (len(value) != len(ctx.active) or not ctx.active_set.issuperset(value)) and not _names_the_active(
        value, number, field, ctx, problems
    ):
        return None
    numbers = value.values()
    if min(numbers) < 0 or max(numbers) > total:
        problems.add(number, field, _("Each number in “%(name)s” must be from 0 to %(max)s."), name=field, max=total)
        return None
    s = sum(numbers)
    if s != total:
        problems.add(
            number, field, _("“%(name)s” must add up to %(total)s, not %(sum)s."), name=field, total=total, sum=s
        )
        return None
    return value


def _names_the_active(value, number, field, ctx, problems) -> bool:
    """Every player named is active, and every active player is named."""
    ok = True
    for name in value:
        if name not in ctx.active_set:
            report_not_active(number, field, name, ctx, problems)
            ok = False
    for name in ctx.active:
        if name not in value:
            problems.add(number, field, _("%(name)s is missing in “%(what)s”."), name=name, what=field)
            ok = False
    return ok


def _all_int(values) -> bool:
    for v in values:
        if type(v) is not int:
            return False
    return True
