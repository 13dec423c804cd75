"""Checks of the parts of a Doppelkopf hand: announcements, special points, per-player
numbers (Ramsch), outbid soli. Used by ``doppelkopf_value``; problems name the hand's field."""

from __future__ import annotations

from .errors import _

CALLS = ("re", "kontra", "keine_90", "keine_60", "keine_30", "schwarz")
LEVEL = {"re": 0, "kontra": 0, "keine_90": 1, "keine_60": 2, "keine_30": 3, "schwarz": 4}
SPECIAL_KINDS = ("doppelkopf", "fuchs", "karlchen", "karlchen_gefangen")
# How the players say them, for messages.
SPECIAL_NAMES = {
    "doppelkopf": "Doppelkopf",
    "fuchs": "Fuchs",
    "karlchen": "Karlchen",
    "karlchen_gefangen": "Karlchen gefangen",
}
CLUB_JACKS = 2  # Karlchen (jacks of clubs) in the deck
NO_ANNOUNCEMENTS = (False, False, 0, 0, False)
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
    re_hi = ko_hi = -1
    state = 0  # re-kontra-re: 1 after a Re call, 2 after a Kontra call following it, 3 done
    ok = True
    add = problems.add
    for entry in value:
        if not isinstance(entry, dict) or len(entry) != 2 or "party" not in entry or "call" not in entry:
            add(number, "announcements", _("Each announcement needs exactly a party and a call."))
            ok = False
            continue
        party = entry["party"]
        call = entry["call"]
        if party != "re" and party != "kontra" or not isinstance(party, str):
            add(number, "announcements", _("The party of an announcement must be re or kontra."))
            ok = False
            continue
        level = LEVEL.get(call) if isinstance(call, str) else None
        if level is None:
            add(number, "announcements", _("Unknown call. Choose one of: %(calls)s."), calls=", ".join(CALLS))
            ok = False
            continue
        if level == 0 and call != party:
            if call == "re":
                add(number, "announcements", _("Only the Re party can call Re."))
            else:
                add(number, "announcements", _("Only the Kontra party can call Kontra."))
            ok = False
            continue
        if party == "re":
            if level <= re_hi:
                add(
                    number,
                    "announcements",
                    _("The Re party has already made this call or a higher one: %(call)s."),
                    call=call,
                )
                ok = False
                continue
            re_hi = level
            if state != 1:
                state = 1 if state == 0 else (3 if state >= 2 else state)
        else:
            if level <= ko_hi:
                add(
                    number,
                    "announcements",
                    _("The Kontra party has already made this call or a higher one: %(call)s."),
                    call=call,
                )
                ok = False
                continue
            ko_hi = level
            if state == 1:
                state = 2
    if not ok:
        return None
    # Levels: -1 nothing called, 0 Re or Kontra only, 1-4 the highest absage.
    return (re_hi >= 0, ko_hi >= 0, re_hi if re_hi > 0 else 0, ko_hi if ko_hi > 0 else 0, state == 3)


def check_specials_shape(hand, number, problems):
    value = hand.get("specials")
    if value is not None and not isinstance(value, list):
        problems.add(number, "specials", _("Special points must be a list."))


def check_specials(hand, number, gtype, re_eyes, ko_eyes, re_none, ko_none, rules, problems):
    """({(item, party): points}, Re's total, Kontra's total, fuchs wins last doppelkopf) or None."""
    value = hand.get("specials")
    flag = hand.get("fuchs_wins_last_doppelkopf")
    if flag is not None and type(flag) is not bool:
        problems.add(number, "fuchs_wins_last_doppelkopf", _("Must be true or false."))
        flag = None
    if not value:
        if value is not None and not isinstance(value, list):
            problems.add(number, "specials", _("Special points must be a list."))
            return None
        if flag:
            problems.add(
                number, "fuchs_wins_last_doppelkopf", _("A Fuchs winning the last trick needs a Doppelkopf entered.")
            )
            return None
        return {}, 0, 0, False
    if not isinstance(value, list):
        problems.add(number, "specials", _("Special points must be a list."))
        return None
    all_count = gtype in rules.sp_all
    dk_counts = all_count or gtype in rules.sp_doppelkopf
    add = problems.add
    items: dict = {}
    re_sp = ko_sp = 0
    re_dk = ko_dk = 0  # Doppelköpfe per party
    fuchs = karlchen = caught = 0
    jacks = 0  # club jacks the entries put into the last trick
    re_last = ko_last = False  # the party claims the last trick (Karlchen, Fuchs in the last trick)
    ok = True
    for entry in value:
        if not isinstance(entry, dict):
            add(number, "specials", _("Each special point needs a kind and a party."))
            ok = False
            continue
        special = entry.get("kind")
        party = entry.get("party")
        if not isinstance(special, str) or special not in SPECIAL_KINDS:
            if rules.karlchen_gefangen:
                add(number, "specials", _("A special point is a doppelkopf, fuchs, karlchen or karlchen_gefangen."))
            else:
                add(number, "specials", _("A special point is a doppelkopf, fuchs or karlchen."))
            ok = False
            continue
        if special == "karlchen_gefangen" and not rules.karlchen_gefangen:
            add(number, "specials", _("Karlchen gefangen does not count under these rules."))
            ok = False
            continue
        if not isinstance(party, str) or party not in ("re", "kontra"):
            add(number, "specials", _("The party of a special point must be re or kontra."))
            ok = False
            continue
        extra = False
        if len(entry) > 2:  # more than kind and party (both present, checked above)
            flag_name = "last_trick" if special == "fuchs" else ("doppel" if special == "karlchen" else None)
            for key in entry:
                if key == "kind" or key == "party":
                    continue
                if key != flag_name:
                    add(
                        number,
                        "specials",
                        _("“%(name)s” does not apply to a special point %(kind)s."),
                        name=key,
                        kind=special,
                    )
                    ok = False
                elif type(entry[key]) is not bool:
                    add(number, "specials", _("“%(name)s” must be true or false."), name=key)
                    ok = False
                else:
                    extra = entry[key]
        if not dk_counts or (special != "doppelkopf" and not all_count):
            if dk_counts:
                add(
                    number,
                    "specials",
                    _("Only the Doppelkopf counts in this game, not %(kind)s."),
                    kind=SPECIAL_NAMES[special],
                )
            else:
                add(number, "specials", _("Special points do not count in this game."))
            ok = False
            continue
        is_re = party == "re"
        if special == "doppelkopf":
            if is_re:
                re_dk += 1
            else:
                ko_dk += 1
            key = ("doppelkopf", party)
            pts = 1
        elif re_none if is_re else ko_none:
            add(number, "specials", _("A party without a trick can have no %(kind)s."), kind=special)
            ok = False
            continue
        elif special == "karlchen_gefangen":
            # The catchers won the last trick; the caught club jack was the other party's.
            caught += 1
            jacks += 1
            if is_re:
                re_last = True
            else:
                ko_last = True
            key = ("karlchen_gefangen", party)
            pts = 1
        elif special == "fuchs":
            fuchs += 1
            if extra:
                if is_re:
                    re_last = True
                else:
                    ko_last = True
                key = ("fuchs_last", party)
                pts = rules.fuchs_last
            else:
                key = ("fuchs", party)
                pts = 1
        else:
            karlchen += 1
            # Doppel-Charly: both club jacks in the last trick came from the winning party.
            jacks += 2 if extra else 1
            if is_re:
                re_last = True
            else:
                ko_last = True
            if extra and rules.doppel_charly:
                key = ("doppel_charly", party)
                pts = 2
            else:
                key = ("karlchen", party)
                pts = 1
        items[key] = items.get(key, 0) + pts
        if is_re:
            re_sp += pts
        else:
            ko_sp += pts
    if fuchs > FOXES:
        add(number, "specials", _("There are only two Füchse in a game."))
        ok = False
    if karlchen > 1:
        add(number, "specials", _("Only one Karlchen can win the last trick."))
        ok = False
    if jacks > CLUB_JACKS:
        if caught and karlchen:
            add(number, "specials", _("With a Doppel-Charly no Karlchen of the other party can be caught."))
        else:
            add(number, "specials", _("There are only two Karlchen in a game."))
        ok = False
    if re_last and ko_last:
        add(number, "specials", _("Only one party can win the last trick."))
        ok = False
    for dks, eyes in ((re_dk, re_eyes), (ko_dk, ko_eyes)):
        if dks > eyes // DOPPELKOPF_EYES:
            add(
                number,
                "specials",
                _("With %(eyes)s eyes a party has at most %(max)s Doppelkopf."),
                eyes=eyes,
                max=eyes // DOPPELKOPF_EYES,
            )
            ok = False
    if flag:
        if not dk_counts:
            add(number, "fuchs_wins_last_doppelkopf", _("Special points do not count in this game."))
            ok = False
        elif not (re_dk or ko_dk):
            add(number, "fuchs_wins_last_doppelkopf", _("A Fuchs winning the last trick needs a Doppelkopf entered."))
            ok = False
        elif karlchen:
            add(number, "fuchs_wins_last_doppelkopf", _("The last trick was won by a Karlchen, not by a Fuchs."))
            ok = False
        elif caught:
            add(number, "fuchs_wins_last_doppelkopf", _("A Fuchs cannot win a trick that holds a Karlchen."))
            ok = False
    if not ok:
        return None
    return items, re_sp, ko_sp, bool(flag)


def check_per_player(value, number, field, total, ctx, problems):
    if value is None:
        problems.add(number, field, _("Missing “%(name)s”: one number per active player."), name=field)
        return None
    if not isinstance(value, dict) or not _all_int(value.values()):
        problems.add(number, field, _("“%(name)s” must give each active player a whole number."), name=field)
        return None
    active = ctx.active
    # Exactly the active players (the usual entry) need no look-up per name.
    if len(value) != len(active) or not ctx.active_set.issuperset(value):
        ok = True
        for name in value:
            if name not in ctx.active_set:
                report_not_active(number, field, name, ctx, problems)
                ok = False
        for name in active:
            if name not in value:
                problems.add(number, field, _("%(name)s is missing in “%(what)s”."), name=name, what=field)
                ok = False
        if not ok:
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


def _all_int(values) -> bool:
    for v in values:
        if type(v) is not int:
            return False
    return True
