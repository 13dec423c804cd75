"""A hand's past versions are kept as they were stored, whatever the app read then, and are
never replayed. The meeting's history page and the league's activity page show each version
in the game's words where the game can read it, and as it is stored where it cannot (an older
shape of a hand, a value of another kind): never a server error."""

import pytest
from django.urls import reverse

from leagues.models import Hand, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
FIRST = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
CORRECTED = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 151}


@pytest.fixture
def corrected_hand():
    league = LeagueFactory(game="doppelkopf", variant="club")
    admin = member(league, Role.ADMIN)
    meeting = meeting_for(league, FOUR)
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=admin).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=admin, version=hand.version)
    return league, meeting, admin


@pytest.mark.parametrize(
    "stored",
    [
        {"kind": "normal", "re": 5, "re_eyes": 131},
        {"kind": "normal", "re": [None, 7], "re_eyes": 131},
        {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": 3, "specials": 4},
        ["not", "a", "hand"],
        "a hand in words",
    ],
)
def test_a_past_version_the_game_cannot_read_is_shown_as_stored(client, corrected_hand, stored):
    league, meeting, admin = corrected_hand
    first = Hand.history.filter(meeting_id=meeting.pk).order_by("history_date", "history_id").first()
    Hand.history.filter(history_id=first.history_id).update(payload=stored)
    client.force_login(admin)
    history = client.get(reverse("meeting_history", kwargs={"slug": league.slug, "pk": meeting.pk}))
    activity = client.get(reverse("league_activity", kwargs={"slug": league.slug}))
    assert history.status_code == 200 and activity.status_code == 200
    # The correction is still told in the game's words.
    assert "151" in history.content.decode()


def test_a_version_the_game_reads_is_told_in_its_words(client, corrected_hand):
    league, meeting, admin = corrected_hand
    client.force_login(admin)
    page = client.get(reverse("meeting_history", kwargs={"slug": league.slug, "pk": meeting.pk})).content.decode()
    assert "131" in page and "151" in page
