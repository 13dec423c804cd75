"""Deleting: a whole league goes with everything in it; a player who played never goes alone."""

import pytest
from django.db.models import RestrictedError

from leagues.models import Hand, HandResult, League, Meeting, Player
from leagues.table import services
from tests.factories import LeagueFactory, UserFactory, meeting_for

pytestmark = pytest.mark.django_db

HAND = {"kind": "normal", "re": ["Ben", "Cara"], "re_eyes": 130}


def league_with_an_evening():
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, ["Ana", "Ben", "Cara", "Dora"])
    services.enter_hand(meeting=meeting, payload=HAND, by=UserFactory())
    return league, meeting


def test_it_deletes_a_league_with_its_meetings_players_and_hands():
    # seed_demo --reset and the admin's "delete league" did this, and PROTECT refused it.
    league, _meeting = league_with_an_evening()
    league.delete()
    assert not League.objects.exists()
    assert not Meeting.objects.exists() and not Player.objects.exists()
    assert not Hand.objects.exists() and not HandResult.objects.exists()


def test_it_refuses_to_delete_a_player_who_sat_at_a_meeting():
    league, meeting = league_with_an_evening()
    with pytest.raises(RestrictedError):
        Player.objects.get(league=league, name="Dora").delete()
    assert Hand.objects.filter(meeting=meeting).count() == 1
