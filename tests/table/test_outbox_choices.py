"""A hand entered offline whose number another phone took meanwhile. The outbox's
two views (leagues/table/views/pwa.py): both versions side by side, and the scorekeeper's choice
(keep it as the next hand, replace theirs, discard it), each written once per idempotency key
through the services and shown in the evening's history and the league's activity.

Five at the table, Anna deals the first hand and sits out (doppelkopf.md, "Seats"). Ben's
phone entered hand 1: Ben and Dora Re with 131 eyes, 1 point each way ("Game value": gewonnen
1; Kontra has 109, not under 90). Anna's phone, offline, entered its hand 1: Carl and Emil Re
with 160 eyes, 2 points each way (gewonnen 1, Kontra under 90 with 80: 1 more).
"""

import uuid
from html import unescape

import pytest
from django.urls import reverse

from leagues.models import Hand, HandResult, Role
from leagues.table import services, verify
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
THEIRS = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
# As the hand form reads it (no announcements, no Sonderpunkte).
MINE = {"kind": "normal", "re": ["Carl", "Emil"], "re_eyes": 160, "announcements": [], "specials": []}
# The hand form's fields for MINE, as the outbox keeps them.
MINE_FIELDS = {"kind": "normal", "re": ["Carl", "Emil"], "eyes": "160", "eyes_for": "re"}
# Ben's phone's hand 2: Ben deals it and sits out.
SECOND = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
KEY = uuid.UUID("0b6f3c1e-8f3e-4c55-9d0e-2f4b6a8c1d23")


@pytest.fixture
def league(db):
    league = LeagueFactory(slug="keller", game="doppelkopf", variant="club")
    # Anna and Ben keep score, each on a phone of their own; they play too.
    member(league, Role.SCOREKEEPER, username="anna", first_name="Anna")
    member(league, Role.SCOREKEEPER, username="ben", first_name="Ben")
    return league


@pytest.fixture
def meeting(league):
    return meeting_for(league, NAMES)


@pytest.fixture
def anna(league):
    return league.memberships.get(user__username="anna").user


@pytest.fixture
def ben(league):
    return league.memberships.get(user__username="ben").user


@pytest.fixture
def theirs(meeting, ben):
    return services.enter_hand(meeting=meeting, payload=THEIRS, by=ben, number=1, key=uuid.uuid4()).hand


def choice_url(meeting):
    return reverse("outbox_choice", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})


def compare_url(meeting):
    return reverse("outbox_compare", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})


def choose(client, meeting, choice, **fields):
    data = {**MINE_FIELDS, "choice": choice, "idempotency_key": str(KEY), "entered_as": "1", **fields}
    return client.post(choice_url(meeting), data, HTTP_HX_REQUEST="true")


def totals(meeting):
    out = {}
    for row in HandResult.objects.filter(meeting=meeting).select_related("player"):
        out[row.player.name] = out.get(row.player.name, 0) + row.delta
    return out


def history_page(client, meeting):
    url = reverse("meeting_history", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    return unescape(client.get(url).content.decode())


# --- both versions side by side ----------------------------------------------------------------


def test_it_shows_the_waiting_hand_beside_theirs_in_the_players_words(client, meeting, anna, theirs):
    client.force_login(anna)
    response = client.get(compare_url(meeting), {**MINE_FIELDS, "entered_as": "1"})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    yours, theirs_part = html.split('class="outbox-version outbox-theirs"')
    assert "Carl, Emil" in yours and "Re 160 : Kontra 80" in yours
    assert "Ben, Dora" in theirs_part and "Re 131 : Kontra 109" in theirs_part
    assert "Entered by Ben" in theirs_part
    # What each scores as hand 1: 2 points for the offline one, 1 for theirs.
    assert yours.count("+2") == 2 and yours.count("-2") == 2
    assert theirs_part.count("+1") == 2 and theirs_part.count("-1") == 2
    assert f'data-theirs-hand="{theirs.pk}" data-theirs-version="1"' in html


def test_the_comparison_names_what_the_waiting_hand_lacks(client, meeting, anna, theirs):
    client.force_login(anna)
    response = client.get(compare_url(meeting), {"kind": "normal", "re": ["Carl"], "entered_as": "1"})
    assert response.status_code == 200
    assert 'class="errorlist"' in response.content.decode()


def test_the_comparison_needs_the_number_it_was_entered_as(client, meeting, anna, theirs):
    client.force_login(anna)
    assert client.get(compare_url(meeting), MINE_FIELDS).status_code == 400


# --- replace -----------------------------------------------------------------------------------


def test_a_scorekeeper_replaces_their_hand_with_the_waiting_one(client, meeting, anna, theirs):
    client.force_login(anna)
    response = choose(client, meeting, "replace", hand=theirs.pk, version="1")
    assert response.status_code == 200
    hand = Hand.objects.get(pk=theirs.pk)
    assert hand.payload == MINE and hand.version == 2 and hand.number == 1
    # Ben's phone's key stays on the hand: his own retry must still find it.
    assert hand.idempotency_key == theirs.idempotency_key
    assert totals(meeting) == {"Anna": 0, "Ben": -2, "Carl": 2, "Dora": -2, "Emil": 2}
    assert verify.verify_replays(league=meeting.league)[1] == []


def test_a_retried_replacement_replaces_once(client, meeting, anna, theirs):
    client.force_login(anna)
    assert choose(client, meeting, "replace", hand=theirs.pk, version="1").status_code == 200
    # The answer was lost; the phone sends the same choice again, with the version it saw.
    assert choose(client, meeting, "replace", hand=theirs.pk, version="1").status_code == 200
    hand = Hand.objects.get(pk=theirs.pk)
    assert hand.version == 2
    assert hand.history.count() == 2


def test_a_replacement_over_a_newer_version_is_refused(client, meeting, anna, ben, theirs):
    # Ben corrected his hand after Anna's phone showed it: Ben and Dora had 135.
    services.change_hand(hand=theirs, payload={**THEIRS, "re_eyes": 135}, by=ben, version=1)
    client.force_login(anna)
    response = choose(client, meeting, "replace", hand=theirs.pk, version="1")
    assert response.status_code == 409
    assert Hand.objects.get(pk=theirs.pk).payload["re_eyes"] == 135


def test_a_replacement_needs_the_hand_and_its_version(client, meeting, anna, theirs):
    client.force_login(anna)
    response = choose(client, meeting, "replace")
    assert response.status_code == 400
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS


def test_a_replacement_the_form_cannot_read_is_refused_with_its_reason(client, meeting, anna, theirs):
    client.force_login(anna)
    response = choose(client, meeting, "replace", hand=theirs.pk, version="1", re=["Carl"])
    assert response.status_code == 400
    assert "<li>" in response.content.decode()
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS


def test_a_member_may_not_choose(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.MEMBER))
    assert choose(client, meeting, "replace", hand=theirs.pk, version="1").status_code == 403
    assert client.get(compare_url(meeting), {**MINE_FIELDS, "entered_as": "1"}).status_code == 403
    assert Hand.objects.get(pk=theirs.pk).version == 1


def test_anonymous_is_sent_to_log_in(client, meeting, theirs):
    response = choose(client, meeting, "replace", hand=theirs.pk, version="1")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert Hand.objects.get(pk=theirs.pk).version == 1


def test_another_leagues_member_gets_a_404(client, meeting, theirs):
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert choose(client, meeting, "replace", hand=theirs.pk, version="1").status_code == 404
    assert client.get(compare_url(meeting), {**MINE_FIELDS, "entered_as": "1"}).status_code == 404
    assert Hand.objects.get(pk=theirs.pk).version == 1


def test_a_hand_of_another_meeting_cannot_be_replaced(client, meeting, anna, theirs):
    other = meeting_for(meeting.league, NAMES, date=meeting.date)
    hand = services.enter_hand(meeting=other, payload=THEIRS, by=anna).hand
    client.force_login(anna)
    assert choose(client, meeting, "replace", hand=hand.pk, version="1").status_code == 404


# --- keep and discard --------------------------------------------------------------------------


def test_keeping_enters_it_as_the_next_hand_once(client, meeting, anna, theirs):
    client.force_login(anna)
    assert choose(client, meeting, "keep", expected_hand="2").status_code == 200
    assert choose(client, meeting, "keep", expected_hand="2").status_code == 200
    hands = list(Hand.objects.filter(meeting=meeting).live().order_by("position"))
    assert [(h.number, h.payload) for h in hands] == [(1, THEIRS), (2, MINE)]
    assert hands[1].idempotency_key == KEY and hands[1].entered_by == anna
    assert verify.verify_replays(league=meeting.league)[1] == []


def test_keeping_as_a_number_taken_again_is_a_conflict(client, meeting, anna, ben, theirs):
    services.enter_hand(meeting=meeting, payload=SECOND, by=ben, number=2)
    client.force_login(anna)
    assert choose(client, meeting, "keep", expected_hand="2").status_code == 409
    assert meeting.hands.count() == 2


def test_discarding_keeps_the_hand_deleted_once(client, meeting, anna, theirs):
    client.force_login(anna)
    assert choose(client, meeting, "discard").status_code == 200
    assert choose(client, meeting, "discard").status_code == 200
    discarded = Hand.objects.get(meeting=meeting, idempotency_key=KEY)
    assert discarded.deleted_at is not None and discarded.number is None and discarded.payload == MINE
    assert list(Hand.objects.filter(meeting=meeting).live()) == [theirs]
    assert totals(meeting) == {"Anna": 0, "Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}
    assert verify.verify_replays(league=meeting.league)[1] == []


def test_a_discarded_hand_can_be_restored_as_the_next_hand(client, meeting, anna, theirs):
    client.force_login(anna)
    choose(client, meeting, "discard")
    discarded = Hand.objects.get(meeting=meeting, idempotency_key=KEY)
    services.restore_hand(hand=discarded, by=anna, version=discarded.version)
    assert [h.payload for h in Hand.objects.filter(meeting=meeting).live().order_by("position")] == [THEIRS, MINE]


def test_the_sheet_lists_a_discarded_hand_as_discarded_not_as_deleted(client, meeting, anna, ben, theirs):
    client.force_login(anna)
    choose(client, meeting, "discard")
    page = unescape(client.get(meeting.get_absolute_url()).content.decode())
    assert "discarded at" in page and "deleted at" not in page
    # Their hand, deleted by hand, is a deleted hand (it was on the sheet once).
    services.delete_hand(hand=theirs, by=ben, version=theirs.version)
    page = unescape(client.get(meeting.get_absolute_url()).content.decode())
    assert page.count("discarded at") == 1 and page.count("deleted at") == 1


def test_an_unknown_choice_is_refused(client, meeting, anna, theirs):
    client.force_login(anna)
    assert choose(client, meeting, "merge").status_code == 400
    assert meeting.hands.count() == 1


# --- the history -------------------------------------------------------------------------------


def test_the_evenings_history_shows_each_choice_and_who_made_it(client, meeting, anna, ben, theirs):
    client.force_login(anna)
    assert choose(client, meeting, "replace", hand=theirs.pk, version="1").status_code == 200
    # Two more offline hands of Anna's found their numbers taken: one kept, one discarded.
    services.enter_hand(meeting=meeting, payload=SECOND, by=ben, number=2)
    # Kept as hand 3, which Carl deals: Ben and Emil Re.
    kept = {"idempotency_key": str(uuid.uuid4()), "entered_as": "2", "expected_hand": "3", "re": ["Ben", "Emil"]}
    assert choose(client, meeting, "keep", **kept).status_code == 200
    dropped = {"idempotency_key": str(uuid.uuid4()), "entered_as": "3"}
    assert choose(client, meeting, "discard", **dropped).status_code == 200

    page = history_page(client, meeting)
    assert "Replaced by the hand entered offline as hand 1" in page
    assert "Entered offline as hand 2, which another phone had entered meanwhile: kept as the next hand." in page
    assert "Entered offline as hand 3, which another phone had entered meanwhile: discarded" in page
    assert "A discarded hand" in page
    # The replacement as before → after, in the game's words.
    assert "Ben, Dora" in page and "Carl, Emil" in page
    assert page.count("by Anna") == 3


def test_the_history_says_it_in_german(client, meeting, anna, theirs):
    client.force_login(anna)
    choose(client, meeting, "discard")
    url = reverse("meeting_history", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    page = unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "verworfen" in page
    assert "Offline als Spiel 1 eingetragen" in page


def test_the_leagues_activity_shows_each_choice(client, meeting, anna, theirs):
    client.force_login(anna)
    choose(client, meeting, "replace", hand=theirs.pk, version="1")
    choose(client, meeting, "discard", idempotency_key=str(uuid.uuid4()), entered_as="2")
    page = unescape(client.get(reverse("league_activity", kwargs={"slug": meeting.league.slug})).content.decode())
    assert "Replaced by the hand entered offline as hand 1" in page
    assert "Entered offline as hand 2, which another phone had entered meanwhile: discarded" in page
    assert "A discarded hand" in page
