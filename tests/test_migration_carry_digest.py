"""Migration 0015 on a database with carried rounds cached: each MeetingCarry's digest of its
meeting's live hands is written anew as ``services.hands_digest`` writes it now, so that the
next meeting's pages read what it left open instead of replaying it; a digest that did not
match its hands (a stale cache) is left not matching."""

import datetime
import hashlib
import json

import pytest
from django.utils import timezone

from leagues.services import hands_digest
from tests.migrations import migrate

BEFORE = [("leagues", "0014_session_with_user")]
AFTER = [("leagues", "0015_carry_digest_orjson")]


def old_digest(payloads):
    # As the code before the migration wrote it.
    return hashlib.sha256(json.dumps(list(payloads), sort_keys=True).encode()).hexdigest()


@pytest.mark.django_db(transaction=True)
def test_each_cached_digest_is_written_as_the_code_now_writes_it(back_to_latest):
    apps = migrate(BEFORE)
    League, Season, Player = (apps.get_model("leagues", m) for m in ("League", "Season", "Player"))
    Meeting, Hand, Carry = (apps.get_model("leagues", m) for m in ("Meeting", "Hand", "MeetingCarry"))
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    season = Season.objects.create(league=league, number=1, started_on=datetime.date(2020, 1, 3))
    host = Player.objects.create(league=league, name="Anna")
    first, second, third = (
        Meeting.objects.create(
            league=league, season=season, date=datetime.date(2020, 1, day), host=host, game="doppelkopf", variant="c"
        )
        for day in (3, 10, 17)
    )
    # Positions out of insertion order, a deleted hand between them; the third meeting has no hands.
    hands = {
        first: [(2, {"kind": "normal", "re": ["Ben", "Anna"]}, False), (1, {"kind": "solo", "ä": 1}, False)],
        second: [(1, {"kind": "normal"}, True), (3, {"z": 1, "a": [1, 2]}, False)],
    }
    for meeting, rows in hands.items():
        for position, payload, gone in rows:
            Hand.objects.create(
                meeting=meeting,
                position=position,
                number=None if gone else position,
                payload=payload,
                deleted_at=timezone.now() if gone else None,
            )
    live = {
        first: [{"kind": "solo", "ä": 1}, {"kind": "normal", "re": ["Ben", "Anna"]}],
        second: [{"z": 1, "a": [1, 2]}],
        third: [],
    }
    for meeting, payloads in live.items():
        Carry.objects.create(meeting=meeting, carried_in=[], queue_after=["bock"], hands_digest=old_digest(payloads))

    apps = migrate(AFTER)
    Carry = apps.get_model("leagues", "MeetingCarry")
    stored = dict(Carry.objects.values_list("meeting_id", "hands_digest"))
    assert stored == {meeting.pk: hands_digest(payloads) for meeting, payloads in live.items()}
    # Written anew (no hands write "[]" either way, so the third's stays as it was).
    assert stored[first.pk] != old_digest(live[first]) and stored[second.pk] != old_digest(live[second])
    assert list(Carry.objects.values_list("queue_after", flat=True)) == [["bock"]] * 3


@pytest.mark.django_db(transaction=True)
def test_a_digest_that_did_not_match_its_hands_is_left_not_matching(back_to_latest):
    # The carry was written from other hands (one repaired by hand since): stale. Written anew
    # it would be trusted, and the next evening would start from its queue.
    apps = migrate(BEFORE)
    League, Season, Player = (apps.get_model("leagues", m) for m in ("League", "Season", "Player"))
    Meeting, Hand, Carry = (apps.get_model("leagues", m) for m in ("Meeting", "Hand", "MeetingCarry"))
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    season = Season.objects.create(league=league, number=1, started_on=datetime.date(2020, 1, 3))
    host = Player.objects.create(league=league, name="Anna")
    meeting = Meeting.objects.create(
        league=league, season=season, date=datetime.date(2020, 1, 3), host=host, game="doppelkopf", variant="c"
    )
    Hand.objects.create(meeting=meeting, position=1, number=1, payload={"kind": "normal", "repaired": True})
    Carry.objects.create(
        meeting=meeting, carried_in=[], queue_after=["bock"], hands_digest=old_digest([{"kind": "normal"}])
    )

    apps = migrate(AFTER)
    stored = apps.get_model("leagues", "MeetingCarry").objects.get().hands_digest
    assert stored == ""
    assert stored != hands_digest([{"kind": "normal", "repaired": True}])
