"""LeagueStamp: the database's triggers give a league's stamp a new value whenever any row of
that league changes, whoever writes it (migration 0013, leagues/pages.py)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from leagues import services
from leagues.models import Hand, HandResult, League, LeagueStamp, Meeting, Player, Season, Seat
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]
HAND = {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 131, "announcements": [], "specials": []}


def stamp(league):
    return LeagueStamp.objects.get(league_id=league.pk).value


@pytest.fixture
def league(db):
    return LeagueFactory()


@pytest.fixture
def meeting(league):
    return meeting_for(league, NAMES)


@pytest.mark.django_db
def test_a_new_league_gets_a_stamp():
    league = LeagueFactory()
    assert LeagueStamp.objects.filter(league=league).count() == 1


def _writes():
    """(what, write(league, meeting, user)): one write of every table a league's pages read,
    through the app's services and, where the admin or a script may write, straight."""

    def rename_league(league, meeting, user):
        League.objects.filter(pk=league.pk).update(name="Neuer Name")

    def add_player(league, meeting, user):
        services.add_player(league=league, name="Fritz")

    def rename_player(league, meeting, user):
        Player.objects.filter(league=league, name="Anna").update(name="Annika")

    def role(league, meeting, user):
        services.change_role(membership=user.memberships.get(league=league), role="scorekeeper")

    def invite(league, meeting, user):
        services.create_invite(league=league, role="member", player=None, user=user)

    def season(league, meeting, user):
        Season.objects.filter(league=league).update(started_on=datetime.date(2026, 1, 1))

    def start(league, meeting, user):
        meeting_for(league, NAMES, date=datetime.date(2026, 11, 27))

    def meeting_date(league, meeting, user):
        Meeting.objects.filter(pk=meeting.pk).update(date=datetime.date(2026, 11, 21))

    def seat(league, meeting, user):
        Seat.objects.filter(meeting=meeting, position=0).update(position=9)

    def hand(league, meeting, user):
        services.add_hand(meeting=meeting, payload=HAND, user=user)

    def hand_straight(league, meeting, user):
        Hand.objects.create(meeting=meeting, position=1, number=1, payload=HAND)

    def result_rows(league, meeting, user):
        # What `verify_replays --rebuild` does after a code change: the cached rows alone.
        HandResult.objects.filter(league=league).update(delta=0)

    def username(league, meeting, user):
        get_user_model().objects.filter(pk=user.pk).update(username="umbenannt")

    return [
        rename_league,
        add_player,
        rename_player,
        role,
        invite,
        season,
        start,
        meeting_date,
        seat,
        hand,
        hand_straight,
        result_rows,
        username,
    ]


@pytest.mark.parametrize("write", _writes(), ids=lambda w: w.__name__)
def test_it_changes_with_every_write_of_its_league(league, meeting, write):
    user = member(league)
    if write.__name__ == "result_rows":
        services.add_hand(meeting=meeting, payload=HAND, user=user)
    before = stamp(league)
    write(league, meeting, user)
    assert stamp(league) != before


def test_it_changes_when_a_hand_is_corrected_deleted_or_restored(league, meeting):
    user = member(league)
    hand = services.add_hand(meeting=meeting, payload=HAND, user=user)
    seen = {stamp(league)}
    hand = services.change_hand(hand=hand, payload={**HAND, "re_eyes": 140}, user=user, version=hand.version)
    seen.add(stamp(league))
    hand = services.delete_hand(hand=hand, user=user, version=hand.version)
    seen.add(stamp(league))
    services.restore_hand(hand=hand, user=user, version=hand.version)
    seen.add(stamp(league))
    assert len(seen) == 4


def test_it_leaves_other_leagues_alone(league, meeting):
    other = LeagueFactory()
    meeting_for(other, NAMES)
    before = stamp(other)
    services.add_hand(meeting=meeting, payload=HAND, user=member(league))
    Player.objects.filter(league=league).update(active=False)
    assert stamp(other) == before


def test_it_goes_with_its_league(league, meeting):
    services.add_hand(meeting=meeting, payload=HAND, user=member(league))
    pk = league.pk
    Hand.objects.filter(meeting__league=league).delete()
    league.delete()
    assert not LeagueStamp.objects.filter(league_id=pk).exists()


def test_a_login_does_not_change_it(league):
    user = member(league)
    before = stamp(league)
    user.last_login = datetime.datetime(2026, 11, 26, 20, 0, tzinfo=datetime.timezone.utc)
    user.save(update_fields=["last_login"])
    assert stamp(league) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's deferred triggers")
def test_on_postgresql_it_changes_at_commit():
    """Deferred: nothing changes before COMMIT, so the stamp's row is locked only at the very
    end of a write, after every other lock it takes."""
    league = LeagueFactory()
    meeting = meeting_for(league, NAMES)
    user = UserFactory()
    before = stamp(league)
    with transaction.atomic():
        services.add_hand(meeting=meeting, payload=HAND, user=user)
        assert stamp(league) == before
    assert stamp(league) != before
