"""The benchmarks' leagues, built in process on the bench's database (Django set up on it).

A league is Doppelkopf among five players: ``seasons`` x ``meetings`` evenings of ``hands``
random valid hands each (the engine's own generator, following the deal and the special rounds
each evening was given). They are bulk-inserted, an evening at a time, and their results written
by the app's own writer (``services.write_results``) from the real replay, not entered one by
one, so a league of 32,000 hands is built in well under a minute. Every season but the last is
closed. The last evening holds one hand less (a few less in a long carrying league), so that
the next hand can be entered as a normal game.

Besides the league, ``build_league`` finds the writes the benches repeat without changing the
league's shape:

- ``live_flip``: a hand of the last evening (of an earlier one in a tiny league) and two
  payloads of it that replay alike except for the scores (the winner changes): the write
  "elsewhere in the league" before a fresh page;
- ``chain_flip`` (a carrying league): a hand some 45 evenings before the last and two payloads
  of it, one of them 120 to 120, that differ in the special rounds the evening leaves open, so
  that the rounds carried into every later evening change, yet no later game does (the queue
  of a random carrying league grows, and the extra round waits at its end).
"""

from __future__ import annotations

import datetime
import random
import time

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
USERNAME, PASSWORD = "bench", "bench-league-password"
LATER_EVENINGS = 45  # what the carrying correction reaches


def parse_size(text, *, carry=False):
    """``"20x40x40"`` (seasons x evenings x hands) as a size tuple."""
    seasons, meetings, hands = (int(part) for part in text.lower().replace("×", "x").split("x"))
    return (seasons, meetings, hands, carry)


def describe(size):
    seasons, meetings, hands, carry = size
    text = f"{seasons} × {meetings} × {hands}"
    return text + ", carrying" if carry else text


def random_hands(rng, *, players, rules, carried, count):
    """``count`` random valid hands for a meeting of ``players`` (seat order) under ``rules``
    (a meeting's full rule set) that was given the special rounds ``carried``: the engine's
    own example generator, fed the carried queue as the replay will be."""
    from scoring.doppelkopf import Deal, active_seats
    from scoring.doppelkopf_example import random_hand
    from scoring.doppelkopf_rules import Rules
    from scoring.doppelkopf_value import Context, score_hand
    from scoring.errors import Problems

    rules = Rules(rules)
    n = len(players)
    deal = Deal(n, rules, [], list(carried))
    ctx = Context(tuple(players), rules)
    problems = Problems()
    hands = []
    for number in range(1, count + 1):
        rnd, dealer, soloist = deal.upcoming()
        ctx.active = tuple(players[i] for i in active_seats(n, dealer))
        ctx.active_set = frozenset(ctx.active)
        ctx.round = rnd
        ctx.soloist = players[soloist] if soloist is not None else None
        hand = random_hand(rng, ctx)
        scored = score_hand(hand, number, ctx, problems)
        if scored is None:
            raise AssertionError(f"generated an invalid hand {hand!r}: {problems.items!r}")
        deal.finish(rnd, scored, [])
        hands.append(hand)
    return hands


def _plain_first_hand(result):
    """Whether hand 1 of a replay is a plain normal game that sets off nothing (so that a
    correction of it changes no special round, and with it nothing carried)."""
    first = result["hands"][0]
    return (first.get("round") or "normal") == "normal" and not first.get("triggers") and first.get("soloist") is None


def _normal_game(hand):
    """Whether a hand (or what comes next) is a normal or Bock game: no special round, no soloist."""
    return (hand.get("round") or "normal") in ("normal", "bock") and not hand.get("soloist")


def _entry_ready(result):
    """Whether the replay's next hand is a normal (or Bock) game: the next hand is entered as one."""
    return _normal_game(result["next"])


def _next_active(result, seats):
    """Who plays the next hand (at five, the dealer sits out)."""
    nxt = result.get("next") or {}
    active = nxt.get("active")
    if active:
        return list(active)
    dealer = nxt.get("dealer")
    return [name for name in seats if name != dealer][:4]


def _new_league(*, slug, carry, user):
    pass
    from leagues.clubs import services
    from leagues.models import League, Player

    overrides = {"carry_special_rounds": True} if carry else {}
    league = services.create_league(
        name=f"Bench {slug}", slug=slug, game="doppelkopf", variant="club", rule_overrides=overrides, user=user
    )
    League.objects.filter(pk=league.pk).update(public_token=f"bench-{slug}-" + "t" * 24)
    league.refresh_from_db()
    players = [Player.objects.create(league=league, name=name) for name in NAMES]
    return league, players, services.resolved_rules(game="doppelkopf", variant="club", overrides=overrides)


def add_evening(league, season, players, *, index, date, rules, user):
    """A new evening of ``season``, its seats turned by ``index``; (meeting, seated names)."""
    from leagues.models import Meeting, Seat

    seats = players[index % 5 :] + players[: index % 5]
    meeting = Meeting.objects.create(
        league=league,
        season=season,
        date=date,
        host=seats[0],
        game="doppelkopf",
        variant="club",
        rules=rules,
        created_by=user,
    )
    Seat.objects.bulk_create(Seat(meeting=meeting, player=p, position=i) for i, p in enumerate(seats))
    return meeting, [p.name for p in seats]


def _fitting_hands(rng, meeting, seats, *, rules, given, count, first, last, settle):
    """Random hands for an evening, tried again until they fit: the first evening's hand 1
    must be a plain game (it is corrected), and the last evening must be ready for a normal
    hand (it is entered). ``settle``: the evening before the last leaves few rounds open if
    it can, so that the last one reaches a normal game. Where the rounds waiting decide
    otherwise (a carrying league's long queue), the last evening stops before its last hand
    played as a normal game."""
    for _attempt in range(200):
        payloads = random_hands(rng, players=seats, rules=rules, carried=given, count=count)
        result = _replay(meeting, payloads, given)
        if (not first or _plain_first_hand(result)) and (not last or _entry_ready(result)):
            if not settle or len(result["next"].get("queue_after_meeting") or ()) <= 1:
                return payloads, result
    ready = [n for n, hand in enumerate(result["hands"]) if n and _normal_game(hand)]
    if last and ready and (not first or _plain_first_hand(result)):
        return payloads[: ready[-1]], _replay(meeting, payloads[: ready[-1]], given)
    if first or last:
        raise RuntimeError("no suitable random meeting found")
    return payloads, result


def build_league(*, slug, seasons, meetings, hands, carry, user, seed=0):
    """One league as the module says; returns what the timed requests need."""
    from django.db import transaction

    pass
    from leagues.models import Hand, Season
    from leagues.table import replay, results

    rng = random.Random(seed)
    league, players, rules = _new_league(slug=slug, carry=carry, user=user)
    total = seasons * meetings
    first_date = datetime.date.today() - datetime.timedelta(days=7 * total)
    ids = {"slug": slug, "token": league.public_token, "meetings": total, "hands": 0}
    ids["current_season"], ids["closed_season"] = seasons, (seasons - 1 or None)
    played, carried = [], ()  # played: (meeting, payloads, rounds given) of every evening
    for number in range(1, seasons + 1):
        start = first_date + datetime.timedelta(days=7 * len(played))
        end = start + datetime.timedelta(days=7 * (meetings - 1))
        season = Season.objects.create(
            league=league, number=number, started_on=start, closed_on=end if number < seasons else None
        )
        for index in range(len(played), len(played) + meetings):
            last = index == total - 1
            given = carried if carry else ()
            with transaction.atomic():
                date = first_date + datetime.timedelta(days=7 * index)
                meeting, seats = add_evening(league, season, players, index=index, date=date, rules=rules, user=user)
                payloads, result = _fitting_hands(
                    rng,
                    meeting,
                    seats,
                    rules=rules,
                    given=given,
                    count=hands - 1 if last else hands,
                    first=index == 0,
                    last=last,
                    settle=carry and index == total - 2,
                )
                rows = Hand.objects.bulk_create(
                    Hand(meeting=meeting, position=i, number=i, payload=p, entered_by=user)
                    for i, p in enumerate(payloads, 1)
                )
                results.write_results(meeting, rows, result, carried=given)
            carried = replay.outgoing_queue(result)
            played.append((meeting, payloads, given))
            ids["hands"] += len(rows)
            if index == 0:
                ids["first_meeting"], ids["first_hand"] = meeting.pk, rows[0].pk
                ids["first_hand_active"] = list(result["hands"][0].get("active") or seats)
            if index == total - 2 or total == 1:
                ids["full_meeting"] = meeting.pk
            if last:
                ids["entry_meeting"], ids["entry_active"] = meeting.pk, _next_active(result, seats)
    ids["live_flip"] = live_flip(played, Hand)
    ids["chain_flip"] = chain_flip(played, Hand) if carry else None
    return ids


def build(sizes, *, seed=0):
    """Every league of ``sizes`` ({label: size}) and the bench's account; returns {label:
    ids} and the seconds each took."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(USERNAME, password=PASSWORD)
    built, seconds = {}, {}
    for label, (seasons, meetings, hands, carry) in sizes.items():
        started = time.perf_counter()
        built[label] = build_league(
            slug=f"bench-{label}", seasons=seasons, meetings=meetings, hands=hands, carry=carry, user=user, seed=seed
        )
        seconds[label] = round(time.perf_counter() - started, 1)
    return built, seconds


# --- writes that keep the league's shape ---------------------------------------------------------


def _shape(result, *, queue=True):
    """What a flip must leave alone: every hand's round, dealer, soloist and triggers, and what
    comes next (without ``queue``: but the special rounds waiting)."""
    hands = [
        (h.get("round"), h.get("dealer"), h.get("soloist"), tuple(h.get("triggers") or ())) for h in result["hands"]
    ]
    following = {k: v for k, v in result["next"].items() if queue or k not in ("queue", "queue_after_meeting")}
    return hands, following


def _replay(meeting, payloads, given):
    """The replay of an evening, or None when its hands do not add up."""
    pass
    from leagues import exceptions
    from leagues.table import replay

    try:
        return replay.calculate_meeting(meeting, payloads=payloads, carried=given)
    except exceptions.InvalidInput:
        return None


def _plain_normal(payload):
    return (
        payload.get("kind") == "normal"
        and len(payload.get("re") or ()) == 2
        and not payload.get("announcements")
        and isinstance(payload.get("re_eyes"), int)
    )


def _with_eyes(payload, eyes):
    changed = {k: v for k, v in payload.items() if k not in ("re_tricks", "re_eyes_range")}
    changed["re_eyes"] = eyes
    return changed


def live_flip(played, hand_model):
    """{"hand", "meeting", "payloads": [as stored, other]}: a plain normal game of the latest
    evening that has one, whose Re eyes mirrored (the other party wins) replay its evening
    alike but for the scores."""
    for meeting, payloads, given in reversed(played):
        shape = _shape(_replay(meeting, payloads, given))
        for index in range(len(payloads) - 1, -1, -1):
            payload = payloads[index]
            if not _plain_normal(payload) or payload["re_eyes"] in (120, 0, 240):
                continue
            other = _with_eyes(payload, 240 - payload["re_eyes"])
            changed = _replay(meeting, payloads[:index] + [other] + payloads[index + 1 :], given)
            if changed is not None and _shape(changed) == shape:
                hand = hand_model.objects.get(meeting=meeting, position=index + 1)
                return {"hand": hand.pk, "meeting": meeting.pk, "payloads": [payload, other]}
    raise RuntimeError("no hand of the league can be flipped")


def _chain_holds(played, queues):
    """How many of the ``played`` evenings are given other rounds when the first of them is
    given ``queues[1]`` instead of ``queues[0]``, none of their games changing (None if one
    would)."""
    changed = 0
    for meeting, payloads, _given in played:
        replays = [_replay(meeting, payloads, queue) for queue in queues]
        if None in replays or _shape(replays[0], queue=False) != _shape(replays[1], queue=False):
            return None
        changed += queues[0] != queues[1]
        queues = [tuple(r["next"].get("queue_after_meeting") or ()) for r in replays]
    return changed


def _same_but(before, after, index):
    """Whether two replays of an evening play the same games, but for the triggers of hand
    ``index`` and the special rounds waiting."""
    (hands, following), (other_hands, other_following) = _shape(before, queue=False), _shape(after, queue=False)
    return following == other_following and all(
        a[:3] == b[:3] and (i == index or a == b) for i, (a, b) in enumerate(zip(hands, other_hands, strict=True))
    )


def chain_flip(played, hand_model):
    """{"hand", "meeting", "payloads": [as stored, 120 to 120], "later": evenings changed}: a
    plain normal game ``LATER_EVENINGS`` evenings before the last (or fewer) whose 120 to 120 (a Bock
    trigger) leaves another queue of special rounds, and every later evening another carried
    queue but the same games; None when the league has none (too short a queue)."""
    # The evening that many before the last, else the next one after it that has such a hand
    # (a short league's queue is played off before its last evening).
    for at in range(max(0, len(played) - 1 - LATER_EVENINGS), len(played) - 1):
        meeting, payloads, given = played[at]
        before = _replay(meeting, payloads, given)
        for index, payload in enumerate(payloads):
            if not _plain_normal(payload) or payload["re_eyes"] == 120:
                continue
            other = _with_eyes(payload, 120)
            after = _replay(meeting, payloads[:index] + [other] + payloads[index + 1 :], given)
            if after is None or not _same_but(before, after, index):
                continue
            queues = [tuple(r["next"].get("queue_after_meeting") or ()) for r in (before, after)]
            if queues[0] == queues[1]:
                continue
            later = _chain_holds(played[at + 1 :], queues)
            if later:
                hand = hand_model.objects.get(meeting=meeting, position=index + 1)
                return {"hand": hand.pk, "meeting": meeting.pk, "payloads": [payload, other], "later": later}
    return None
