"""The Django admin does not bypass the replay: hands and their results are read-only there
(their history stays readable, and cannot be reverted to), and what a replay reads of a
meeting cannot be changed."""

import pytest
from django.contrib.auth import get_user_model

from leagues.models import Hand, HandResult, Role
from leagues.table import services
from tests.factories import PASSWORD, LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def hand(db):
    meeting = meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)
    return services.enter_hand(meeting=meeting, payload=HAND, by=member(meeting.league, Role.SCOREKEEPER)).hand


@pytest.fixture
def boss(client, db):
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD))
    return client


def admin_url(model, *parts):
    return "/".join([f"/admin/leagues/{model}", *map(str, parts), ""])


def test_hands_can_be_read_but_not_added_changed_or_deleted(boss, hand):
    assert boss.get(admin_url("hand")).status_code == 200
    assert boss.get(admin_url("hand", "add")).status_code == 403
    page = boss.get(admin_url("hand", hand.pk, "change"))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    response = boss.post(admin_url("hand", hand.pk, "change"), {"payload": '{"kind": "nonsense"}', "position": "1"})
    assert response.status_code == 403
    assert boss.post(admin_url("hand", hand.pk, "delete"), {"post": "yes"}).status_code == 403
    response = boss.post(admin_url("hand"), {"action": "delete_selected", "_selected_action": [hand.pk], "post": "yes"})
    assert Hand.objects.get(pk=hand.pk).payload == HAND and Hand.objects.get(pk=hand.pk).deleted_at is None


def test_a_hands_history_is_readable_but_cannot_be_reverted_to(boss, hand):
    services.change_hand(hand=hand, payload={**HAND, "re_eyes": 100}, by=None, version=1)
    assert boss.get(admin_url("hand", hand.pk, "history")).status_code == 200
    first = hand.history.order_by("history_id").first()
    view = admin_url("hand", hand.pk, "history", first.history_id)
    assert boss.get(view).status_code == 200
    assert boss.post(view, {"payload": '{"kind": "normal"}', "position": "1"}).status_code == 403
    assert Hand.objects.get(pk=hand.pk).payload["re_eyes"] == 100
    assert hand.history.count() == 2


def test_hand_results_cannot_be_deleted(boss, hand):
    row = HandResult.objects.filter(hand=hand).first()
    assert boss.post(admin_url("handresult", row.pk, "delete"), {"post": "yes"}).status_code == 403
    assert HandResult.objects.filter(hand=hand).count() == 5


def test_what_a_replay_reads_of_a_meeting_cannot_be_changed(boss, hand):
    meeting = hand.meeting
    page = boss.get(admin_url("meeting", meeting.pk, "change")).content.decode()
    assert 'name="rules"' not in page and 'name="date"' not in page and 'name="seats-0-player"' not in page
    assert boss.post(admin_url("meeting", meeting.pk, "delete"), {"post": "yes"}).status_code == 403
    assert meeting.hands.count() == 1
