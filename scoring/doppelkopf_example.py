"""Random valid, realistic Doppelkopf meetings: for the benchmark, property tests and demo data.

The hands follow the deal: Ramsch games in Ramsch rounds (now and then a trump solo instead),
the designated soloist in Pflichtsolo rounds and penalty soli, special points only where they
count, announcements in a legal order, eyes and tricks that fit together.
"""

from __future__ import annotations

import random
from typing import Any

from .doppelkopf import Deal, active_seats
from .doppelkopf_party import game_type
from .doppelkopf_rules import PRESETS, Rules
from .doppelkopf_value import Context, score_hand
from .errors import Problems

NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz")
CALL_NAMES = ("", "keine_90", "keine_60", "keine_30", "schwarz")


def example_request(rng: random.Random, hands: int, **kw: Any) -> dict[str, Any]:
    """``kw``: ``players`` (a list of names or a count), ``variant``, ``rules`` (overrides),
    ``compulsory_solos`` (list of names; default: now and then one), ``points`` (the share of
    hands written as their result only, kind ``points``; default 0: the entry form has no such
    hands yet)."""
    players = _players(rng, kw.get("players"))
    variant = kw.get("variant", "club")
    overrides = kw.get("rules") or {}
    rules = Rules({**PRESETS[variant], **overrides})
    solos = kw.get("compulsory_solos")
    if solos is None:
        solos = [rng.choice(players)] if rng.random() < 0.1 else []
    out = _hands(rng, hands, players, rules, solos, kw.get("points", 0))
    request: dict[str, Any] = {"game": "doppelkopf", "variant": variant, "players": players, "hands": out}
    if overrides:
        request["rules"] = overrides
    if solos:
        request["compulsory_solos"] = list(solos)
    return request


def _players(rng: random.Random, players) -> list[str]:
    if players is None:
        players = rng.choice((4, 5, 5, 6))
    if isinstance(players, int):
        players = list(NAMES[:players])
    return list(players)


def _hands(rng, hands, players, rules, solos, points_share) -> list[dict[str, Any]]:
    """Hands that follow the deal, each scored as it comes to know what the next one is."""
    n = len(players)
    seat = {p: i for i, p in enumerate(players)}
    deal = Deal(n, rules, [seat[p] for p in solos], [])
    ctx = Context(tuple(players), rules)
    problems = Problems()
    out = []
    for number in range(1, hands + 1):
        rnd, dealer, soloist = deal.upcoming()
        ctx.active = tuple(players[i] for i in active_seats(n, dealer))
        ctx.active_set = frozenset(ctx.active)
        ctx.round = rnd
        ctx.soloist = players[soloist] if soloist is not None else None
        hand = random_hand(rng, ctx)
        if points_share and hand["kind"] not in ("ramsch", "revoke") and rng.random() < points_share:
            hand = _as_points(rng, hand)
        scored = score_hand(hand, number, ctx, problems)
        if scored is None:  # a bug in this generator
            raise AssertionError(f"generated an invalid hand {hand!r}: {problems.items!r}")
        deal.finish(rnd, scored, [])
        out.append(hand)
    return out


def random_hand(rng: random.Random, ctx: Context) -> dict[str, Any]:
    active = ctx.active
    rnd = ctx.round
    r = rng.random()
    if r < 0.02:
        return _revoke(rng, active)
    if rnd == "ramsch":
        if r < 0.12:
            return _party(rng, ctx, "solo", [rng.choice(active)], "trumpf")
        return _ramsch(rng, active)
    if ctx.soloist is not None:
        return _party(rng, ctx, "solo", [ctx.soloist], rng.choice(("trumpf", "damen", "buben", "fleischlos")))
    if r < 0.70:
        return _party(rng, ctx, "normal", rng.sample(active, 2), None)
    if r < 0.76:
        re = rng.sample(active, 2) if rng.random() < 0.85 else [rng.choice(active)]
        return _party(rng, ctx, "hochzeit", re, None)
    if r < 0.82:
        return _party(rng, ctx, "trumpfabgabe", rng.sample(active, 2), None)
    solo = rng.choice(("trumpf", "trumpf", "damen", "buben", "fleischlos", "stilles"))
    return _party(rng, ctx, "solo", [rng.choice(active)], solo)


def _as_points(rng, hand):
    """The same game written as its result only: who won, a plausible value, the facts."""
    re = hand["re"]
    points: dict[str, Any] = {"kind": "points", "re": re, "winner": rng.choice(("re", "kontra"))}
    points["value"] = rng.choice((0, 1, 2, 3, 3, 4, 5, 6, 8, 12))
    if len(re) == 1:
        points["solo"] = hand.get("solo") or "trumpf"
    eyes = hand["re_eyes"]
    if eyes in (0, 240):
        points["schwarz"] = True
    elif eyes == 120:
        points["split_120"] = True
    for fact in ("kontra_announced", "re_kontra_re", "fuchs_wins_last_doppelkopf"):
        if rng.random() < 0.1:
            points[fact] = True
    if "solo_outbid" in hand:
        points["solo_outbid"] = hand["solo_outbid"]
    return points


def _calls(rng, absage_p):
    """One party's calls in order: maybe its re/kontra, then rising absagen."""
    if rng.random() > absage_p[0]:
        return []
    level = 0
    while level < 4 and rng.random() < absage_p[1]:
        level += 1
    calls = [None]  # None: the party's own re/kontra
    levels = sorted(rng.sample(range(1, level + 1), rng.randint(1, level))) if level else []
    if levels and rng.random() < 0.3:
        calls = []  # an absage implies the announcement
    return calls + levels


def _announcements(rng, re_calls, ko_calls):
    seq = []
    i = j = 0
    while i < len(re_calls) or j < len(ko_calls):
        if j >= len(ko_calls) or (i < len(re_calls) and rng.random() < 0.5):
            level = re_calls[i]
            seq.append({"party": "re", "call": "re" if level is None else CALL_NAMES[level]})
            i += 1
        else:
            level = ko_calls[j]
            seq.append({"party": "kontra", "call": "kontra" if level is None else CALL_NAMES[level]})
            j += 1
    return seq


def _party(rng, ctx, kind, re, solo):
    hand: dict[str, Any] = {"kind": kind, "re": re}
    if solo is not None:
        hand["solo"] = solo
    eyes = _eyes(rng)
    hand["re_eyes"] = eyes
    tricks = None
    if rng.random() < 0.3:
        tricks = _tricks(rng, eyes)
        hand["re_tricks"] = tricks
    ann = _announcements(rng, _calls(rng, (0.35, 0.3)), _calls(rng, (0.2, 0.2)))
    if ann or rng.random() < 0.2:
        hand["announcements"] = ann
    _specials(rng, ctx.rules, game_type(kind, solo, len(re) == 1), eyes, tricks, hand)
    if len(re) == 1 and rng.random() < 0.05:
        others = [p for p in ctx.active if p != re[0]]
        hand["solo_outbid"] = [rng.choice(others)]
    return hand


def _eyes(rng) -> int:
    """Re's eyes: now and then none, all or half, else around a little more than half."""
    x = rng.random()
    if x < 0.015:
        return 0
    if x < 0.03:
        return 240
    if x < 0.06:
        return 120
    return max(0, min(240, int(rng.gauss(128, 42))))


def _tricks(rng, eyes) -> int:
    if eyes == 0:
        return rng.choice((0, 1))
    if eyes == 240:
        return rng.choice((11, 12))
    return rng.randint(1, 11)


def _specials(rng, rules, gtype, eyes, tricks, hand) -> None:
    """Special points where they count, now and then an empty list where they do."""
    if gtype not in rules.sp_all and gtype not in rules.sp_doppelkopf:
        return
    specials = _doppelkoepfe(rng, eyes)
    if gtype in rules.sp_all:
        if tricks is None:
            re_none, ko_none = eyes == 0, eyes == 240
        else:
            re_none, ko_none = tricks == 0, tricks == 12
        _other_specials(rng, rules, specials, re_none, ko_none, hand)
    if specials or rng.random() < 0.3:
        rng.shuffle(specials)
        hand["specials"] = specials


def _doppelkoepfe(rng, eyes) -> list[dict[str, Any]]:
    """Now and then a Doppelkopf, at most two a party and one per 40 of its eyes."""
    specials = []
    for party, e in (("re", eyes), ("kontra", 240 - eyes)):
        for _ in range(min(e // 40, 2)):
            if rng.random() < 0.15:
                specials.append({"kind": "doppelkopf", "party": party})
    return specials


def _other_specials(rng, rules, specials, re_none, ko_none, hand) -> None:
    """Füchse, a Karlchen, a Karlchen caught, a Fuchs winning the last Doppelkopf: the last
    trick's claims all for one party that took a trick."""
    with_trick = [p for p, none in (("re", re_none), ("kontra", ko_none)) if not none]
    last = rng.choice(with_trick)
    _foxes(rng, specials, with_trick, last)
    karlchen, doppel = _karlchen(rng, specials, last)
    # The other party's club jack caught in the last trick (not beside a Doppel-Charly:
    # both club jacks are the winners' own then).
    caught = rules.karlchen_gefangen and not doppel and rng.random() < 0.1
    if caught:
        specials.append({"kind": "karlchen_gefangen", "party": last})
    if not karlchen and not caught and _has_doppelkopf(specials) and rng.random() < 0.1:
        hand["fuchs_wins_last_doppelkopf"] = True


def _foxes(rng, specials, with_trick, last) -> None:
    """Up to two Füchse caught, one of the last party's now and then in the last trick."""
    for _ in range(2):
        if rng.random() < 0.15:
            party = rng.choice(with_trick)
            entry = {"kind": "fuchs", "party": party}
            if party == last and rng.random() < 0.2:
                entry["last_trick"] = True
            specials.append(entry)


def _karlchen(rng, specials, last) -> tuple[bool, bool]:
    """Now and then a Karlchen in the last trick, sometimes a Doppel-Charly: ``(karlchen, doppel)``."""
    if rng.random() >= 0.1:
        return False, False
    entry = {"kind": "karlchen", "party": last}
    doppel = rng.random() < 0.2
    if doppel:
        entry["doppel"] = True
    specials.append(entry)
    return True, doppel


def _has_doppelkopf(specials) -> bool:
    return any(s["kind"] == "doppelkopf" for s in specials)


def _revoke(rng, active):
    hand: dict[str, Any] = {"kind": "revoke", "revoke_by": rng.choice(active)}
    if rng.random() < 0.3:
        hand["announcements"] = _announcements(rng, _calls(rng, (0.5, 0.3)), _calls(rng, (0.3, 0.2)))
    return hand


def _ramsch(rng, active):
    if rng.random() < 0.03:
        winner = rng.choice(active)
        tricks = {p: 12 if p == winner else 0 for p in active}
        eyes = {p: 240 if p == winner else 0 for p in active}
        return {"kind": "ramsch", "eyes": eyes, "tricks": tricks}
    counts = _ramsch_tricks(rng)
    shares = [c * (0.5 + rng.random()) for c in counts]
    total = sum(shares)
    eyes_list = [int(240 * s / total) for s in shares]
    eyes_list[shares.index(max(shares))] += 240 - sum(eyes_list)
    return {
        "kind": "ramsch",
        "eyes": dict(zip(active, eyes_list, strict=True)),
        "tricks": dict(zip(active, counts, strict=True)),
    }


def _ramsch_tricks(rng) -> list[int]:
    """The twelve tricks among four players, never all to one (a Durchmarsch has its own branch)."""
    counts = [0, 0, 0, 0]
    weights = [rng.random() + (0 if rng.random() < 0.15 else 0.3) for _ in range(4)]
    for _ in range(12):
        counts[rng.choices(range(4), weights)[0]] += 1
    if max(counts) == 12:
        i = counts.index(12)
        counts[i] -= 1
        counts[(i + 1) % 4] += 1
    return counts
