"""Several phones correct, delete, restore and re-enter one hand and its neighbours at once,
many rounds, on PostgreSQL: real threads, each with its own database connection.

Every phone does what a phone does: it reads the hand (the page it shows), waits a moment
(the thumb), then writes naming the version it saw. What must hold at the end:
- 0 lost acknowledged writes: the versions acknowledged for a hand are exactly 2, 3, ... up
  to its final version (each once: no write lost, none written twice, none unacknowledged),
  and the hand is in the state its last acknowledged write left (the payload of the last
  acknowledged correction, deleted or not as the last acknowledged deletion or restore);
- every acknowledged entry is stored once, and a retry with its key returns it;
- 0 duplicate live numbers, the live hands numbered 1, 2, ... in order;
- ``verify_replays``: every cached result is what a fresh replay gives.
Refusals (StaleHand / 409, HandConflict, InvalidInput / 400) are correct answers; anything
else (a 500) fails the test.

Four players under club rules, normal games of 131, 141 or 151 eyes only: every hand fits
at every place, so deletions and restores are refused only for a stale version.
"""

import json
import random
import threading
import time
import traceback
import uuid
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count

from leagues import exceptions
from leagues.models import Hand, Role
from leagues.table import services, verify
from tests.factories import PASSWORD, LeagueFactory, meeting_for, member
from tests.live_server import Client

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL's row locks and a connection per thread (set DATABASE_URL); CI runs it there",
    ),
    pytest.mark.django_db(transaction=True),
]

FOUR = ["Anna", "Ben", "Carl", "Dora"]
PAIRS = [("Anna", "Ben"), ("Carl", "Dora"), ("Anna", "Carl"), ("Ben", "Dora"), ("Anna", "Dora"), ("Ben", "Carl")]
PAYLOADS = [{"kind": "normal", "re": list(pair), "re_eyes": eyes} for pair in PAIRS for eyes in (131, 141, 151)]


class Ledger:
    """What the phones were told, from all threads (list.append is atomic)."""

    def __init__(self):
        self.writes = []  # (hand id, version acknowledged, kind, payload or None)
        self.entries = []  # (idempotency key, hand id, created, payload)
        self.refused = defaultdict(int)
        self.crashes = []

    def check(self, meeting, targets):
        assert not self.crashes, "\n".join(self.crashes)
        assert self.refused["stale"] > 0, "no write met a newer version: the race was not exercised"
        by_hand = defaultdict(list)
        for hand_id, version, kind, payload in self.writes:
            by_hand[hand_id].append((version, kind, payload))
        for hand_id in targets:
            hand = Hand.objects.get(pk=hand_id)
            acked = sorted(by_hand[hand_id], key=lambda w: w[0])
            assert [v for v, _k, _p in acked] == list(range(2, hand.version + 1)), f"hand {hand_id}"
            assert hand.history.count() == 1 + len(acked)
            corrections = [p for _v, kind, p in acked if kind == "change"]
            if corrections:
                assert hand.payload == corrections[-1]
            if acked:
                assert (hand.deleted_at is not None) == (acked[-1][1] == "delete"), f"hand {hand_id}"
        created = {key: (pk, payload) for key, pk, was_created, payload in self.entries if was_created}
        for key, pk, _created, _payload in self.entries:
            assert created[key][0] == pk
        keyed = Hand.objects.filter(meeting=meeting, idempotency_key__isnull=False)
        assert sorted(str(h.idempotency_key) for h in keyed) == sorted(str(k) for k in created)
        for hand in keyed:
            assert hand.payload == created[hand.idempotency_key][1]
        live = list(meeting.hands.filter(deleted_at=None).order_by("position").values_list("number", flat=True))
        assert live == list(range(1, len(live) + 1))
        doubles = meeting.hands.filter(deleted_at=None).values("number").annotate(n=Count("id")).filter(n__gt=1)
        assert not doubles.exists()
        checked, problems = verify.verify_replays(league=meeting.league)
        assert checked == 1 and problems == [], [str(p) for p in problems]


def setup_meeting(hands=5):
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, FOUR)
    users = [member(league, Role.SCOREKEEPER) for _ in range(4)]
    stored = [services.enter_hand(meeting=meeting, payload=PAYLOADS[i], by=users[0]).hand for i in range(hands)]
    return meeting, users, stored


def run_phones(phone, count):
    barrier = threading.Barrier(count)
    threads = [threading.Thread(target=phone, args=(i, barrier)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)


def test_phones_racing_through_the_services_lose_nothing():
    meeting, users, stored = setup_meeting()
    targets = [hand.pk for hand in stored[1:4]]  # hand 2 and its neighbours
    ledger = Ledger()

    def phone(index, barrier):
        rng = random.Random(index)
        user = users[index]
        try:
            barrier.wait()
            for _round in range(30):
                op = rng.choice(["change", "change", "delete", "restore", "enter"])
                if op == "enter":
                    key, payload = uuid.uuid4(), rng.choice(PAYLOADS)
                    try:
                        entered = services.enter_hand(meeting=meeting, payload=payload, by=user, key=key)
                        hand, created = entered.hand, entered.created
                    except exceptions.HandConflict:
                        ledger.refused["conflict"] += 1
                        continue
                    ledger.entries.append((key, hand.pk, created, payload))
                    entered = services.enter_hand(meeting=meeting, payload=payload, by=user, key=key)
                    again, created_again = entered.hand, entered.created
                    ledger.entries.append((key, again.pk, created_again, payload))
                    continue
                seen = Hand.objects.get(pk=rng.choice(targets))  # what the phone shows
                time.sleep(rng.random() * 0.02)
                try:
                    if op == "change":
                        payload = rng.choice(PAYLOADS)
                        hand = services.change_hand(hand=seen, payload=payload, by=user, version=seen.version).hand
                    elif op == "delete":
                        payload = None
                        hand = services.delete_hand(hand=seen, by=user, version=seen.version)
                    else:
                        payload = None
                        hand = services.restore_hand(hand=seen, by=user, version=seen.version)
                except exceptions.StaleHand:
                    ledger.refused["stale"] += 1
                    continue
                except exceptions.InvalidInput:
                    ledger.refused["invalid"] += 1  # a correction of a hand this phone saw deleted
                    continue
                if hand.version != seen.version:  # a delete of a deleted hand changes nothing
                    ledger.writes.append((hand.pk, hand.version, op, payload))
        except Exception:
            ledger.crashes.append(traceback.format_exc())
        finally:
            connection.close()

    run_phones(phone, 4)
    ledger.check(meeting, targets)


def test_phones_racing_through_the_api_lose_nothing(live_server):
    """The same through real HTTP: a threaded server, a session per phone, If-Match and
    Idempotency-Key as a phone's app would send them."""
    meeting, users, stored = setup_meeting()
    targets = [hand.pk for hand in stored[1:4]]
    ledger = Ledger()
    port = int(live_server.url.rsplit(":", 1)[1])
    base = f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/"
    names = [get_user_model().objects.get(pk=user.pk).username for user in users]

    def phone(index, barrier):
        rng = random.Random(100 + index)
        try:
            client = Client(port).log_in(names[index], PASSWORD)
            barrier.wait()
            for _round in range(15):
                op = rng.choice(["change", "change", "delete", "restore", "enter"])
                if op == "enter":
                    key, payload = str(uuid.uuid4()), rng.choice(PAYLOADS)
                    for _attempt in range(2):  # the second: a retry after a lost answer
                        status, body = client.json("POST", base, {"payload": payload, "idempotency_key": key})
                        if status == 409:
                            ledger.refused["conflict"] += 1
                            break
                        assert status in (200, 201), (status, body)
                        ledger.entries.append((uuid.UUID(key), body["hand"]["id"], status == 201, payload))
                    continue
                hand_id = rng.choice(targets)
                status, seen = client.json("GET", f"{base}{hand_id}/")
                assert status == 200, (status, seen)
                time.sleep(rng.random() * 0.02)
                match = {"If-Match": f'"{seen["version"]}"', "Content-Type": "application/json"}
                payload = None
                if op == "change":
                    payload = rng.choice(PAYLOADS)
                    status, body = client.request(
                        "PUT", f"{base}{hand_id}/", body=json.dumps({"payload": payload}), headers=match
                    )
                elif op == "delete":
                    status, body = client.request("DELETE", f"{base}{hand_id}/", headers=match)
                else:
                    status, body = client.request("POST", f"{base}{hand_id}/restore/", body="{}", headers=match)
                if status == 409:
                    ledger.refused["stale"] += 1
                    continue
                if status == 400:
                    ledger.refused["invalid"] += 1
                    continue
                assert status == 200, (status, body[:500])
                hand = json.loads(body)["hand"]
                if hand["version"] != seen["version"]:
                    ledger.writes.append((hand_id, hand["version"], op, payload))
        except Exception:
            ledger.crashes.append(traceback.format_exc())
        finally:
            connection.close()

    run_phones(phone, 4)
    ledger.check(meeting, targets)
